package org.opass.mrap.science;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.cf.Coordinates;

/**
 * The value of a {@code VariableInputFormat} record: a box of the slab's elements, in C order
 * (the last dimension fastest). Element {@code (i0, .., in)} of the piece is the array's element
 * {@code origin[d] + i[d] * step[d]} in each dimension {@code d}, with the origin in the
 * record's {@link ArrayIndex}.
 *
 * <p>{@link #decoded() Decoded} (the default, {@code mrap.science.decode=true}), the elements
 * are physical values as CF says ({@link CfDecoding}): unpacked to float or double where the
 * variable has {@code scale_factor}/{@code add_offset}, unsigned where {@code _Unsigned}, and
 * {@link #isMissing missing} where they are a fill or missing value or outside the valid range
 * (NaN in {@link #toDoubles()} and {@link #getDouble}). Not decoded, they are the stored values,
 * element type and byte order kept, none missing.
 *
 * <p>{@link #toDoubles()}, {@link #toLongs()}, {@link #toFloats()}, {@link #toInts()} and
 * {@link #buffer()} view it as Java numbers; {@link #index} gives an element's array index and
 * {@link #coordinate} its coordinate along a dimension (a CF time as an instant or a calendar
 * date).
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class ArrayPiece implements Writable {
  private ElementType type = ElementType.INT8;
  private ByteOrder order = ByteOrder.BIG_ENDIAN;
  private int[] shape = new int[0];
  private long[] step = new long[0];
  private byte[] bytes = new byte[0];
  private int length;
  private boolean decoded;
  private long[] missing = new long[0]; // bit i: element i is missing
  private int missingCount;
  private PieceAxes axes = PieceAxes.NONE;

  /** Sets this piece, copying the bytes {@code data} has remaining (it is left as it is). */
  public void set(ElementType type, ByteOrder order, int[] shape, long[] step, ByteBuffer data) {
    int length = data.remaining();
    this.type = type;
    this.order = order;
    this.shape = shape.clone();
    this.step = step.clone();
    if (bytes.length < length) {
      bytes = new byte[length];
    }
    data.duplicate().get(bytes, 0, length);
    this.length = length;
    this.decoded = false;
    this.missingCount = 0;
    this.axes = PieceAxes.NONE;
  }

  /**
   * Sets this piece to the stored elements {@code data} has remaining (an array's bytes),
   * decoded by {@code decoding}.
   */
  public void setDecoded(CfDecoding decoding, ByteOrder order, int[] shape, long[] step,
      ByteBuffer data) {
    int n = data.remaining() / decoding.stored().size();
    this.type = decoding.decoded();
    this.order = order;
    this.shape = shape.clone();
    this.step = step.clone();
    int need = n * type.size();
    if (bytes.length < need) {
      bytes = new byte[need];
    }
    int words = (n + 63) >>> 6;
    if (missing.length < words) {
      missing = new long[words];
    } else {
      java.util.Arrays.fill(missing, 0, words, 0L);
    }
    this.missingCount = decoding.decode(data.array(), data.arrayOffset() + data.position(), n,
        order, bytes, missing);
    this.length = need;
    this.decoded = true;
    this.axes = PieceAxes.NONE;
  }

  /**
   * Gives this piece the coordinates of its elements: along each dimension, those of the
   * indices {@code origin[d] + j * step[d]}.
   */
  public void setCoordinates(Coordinates coordinates, long[] origin) {
    this.axes = coordinates == null ? PieceAxes.NONE
        : new PieceAxes(coordinates, origin, shape, step);
  }

  /** Whether the elements are decoded as CF says; else they are the stored values. */
  public boolean decoded() {
    return decoded;
  }

  /** Whether element {@code i} (C order) is missing: a fill or missing value, or invalid. */
  public boolean isMissing(int i) {
    return missingCount > 0 && (missing[i >>> 6] & 1L << i) != 0;
  }

  /** Elements missing. */
  public int missing() {
    return missingCount;
  }

  /** The name of dimension {@code d}, "" where the file gives none. */
  public String dimension(int d) {
    return axes.name(d);
  }

  /**
   * The coordinate of element {@code i} (C order) along dimension {@code d}: a {@link
   * java.time.Instant} for a CF time in a calendar of real dates (standard, gregorian,
   * proleptic_gregorian, julian), a {@link CfDate} for the others (noleap, 360_day, ...), a
   * {@link Double} for other coordinates, or the array index as a {@link Long} where the
   * dimension has no coordinate variable.
   */
  public Object coordinate(int d, int i) {
    return axes.coordinate(d, along(d, i), index(d, i));
  }

  /**
   * The coordinate of element {@code i} along dimension {@code d} as the file stores it (a CF
   * time in its units since its epoch); the array index where the dimension has no
   * coordinate variable.
   */
  public double coordinateValue(int d, int i) {
    return axes.value(d, along(d, i), index(d, i));
  }

  /** Element {@code i}'s position along dimension {@code d} of the piece. */
  private int along(int d, int i) {
    int rest = i;
    for (int k = shape.length - 1; k > d; k--) {
      rest /= shape[k];
    }
    return rest % shape[d];
  }

  private long index(int d, int i) {
    return axes.origin(d) + along(d, i) * step[d];
  }

  public ElementType type() {
    return type;
  }

  public ByteOrder order() {
    return order;
  }

  /** Elements per dimension. */
  public int[] shape() {
    return shape.clone();
  }

  /** Array indices between consecutive elements, per dimension (1 but for strided slabs). */
  public long[] step() {
    return step.clone();
  }

  /** Elements in the piece. */
  public int elements() {
    return length / type.size();
  }

  /** The elements' bytes, in the file's byte order, read-only. */
  public ByteBuffer buffer() {
    // the order last: slice() and asReadOnlyBuffer() give big-endian buffers whatever the
    // source's order
    return ByteBuffer.wrap(bytes, 0, length).slice().asReadOnlyBuffer().order(order);
  }

  /** Element {@code i} (C order) as a double; NaN where it is {@link #isMissing missing}. */
  public double getDouble(int i) {
    return isMissing(i) ? Double.NaN : Elements.asDouble(bytes, i * type.size(), type, order);
  }

  /**
   * Element {@code i} (C order) as a long (floating-point values truncated); a missing one as
   * it is stored (see {@link #isMissing}).
   */
  public long getLong(int i) {
    return Elements.asLong(bytes, i * type.size(), type, order);
  }

  public double[] toDoubles() {
    double[] out = new double[elements()];
    for (int i = 0; i < out.length; i++) {
      out[i] = getDouble(i);
    }
    return out;
  }

  public long[] toLongs() {
    long[] out = new long[elements()];
    for (int i = 0; i < out.length; i++) {
      out[i] = getLong(i);
    }
    return out;
  }

  /** For {@code FLOAT32} elements; NaN where missing. */
  public float[] toFloats() {
    if (type != ElementType.FLOAT32) {
      throw new IllegalStateException("the elements are " + type + ", not FLOAT32");
    }
    float[] out = new float[elements()];
    buffer().asFloatBuffer().get(out);
    for (int i = 0; missingCount > 0 && i < out.length; i++) {
      if (isMissing(i)) {
        out[i] = Float.NaN;
      }
    }
    return out;
  }

  /** For integer elements of at most 4 bytes (UINT32 as its bits). */
  public int[] toInts() {
    if (type.floating() || type.size() > 4) {
      throw new IllegalStateException("the elements are " + type + ", which an int does not "
          + "hold");
    }
    int[] out = new int[elements()];
    for (int i = 0; i < out.length; i++) {
      out[i] = (int) getLong(i);
    }
    return out;
  }

  /** The array index of element {@code i} (C order) of a piece whose record key is
   * {@code key}. */
  public long[] index(ArrayIndex key, int i) {
    long[] out = new long[shape.length];
    int rest = i;
    for (int d = shape.length - 1; d >= 0; d--) {
      out[d] = key.origin(d) + (rest % shape[d]) * step[d];
      rest /= shape[d];
    }
    return out;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(type.ordinal());
    out.writeBoolean(order == ByteOrder.BIG_ENDIAN);
    WritableUtils.writeVInt(out, shape.length);
    for (int d = 0; d < shape.length; d++) {
      WritableUtils.writeVInt(out, shape[d]);
      WritableUtils.writeVLong(out, step[d]);
    }
    WritableUtils.writeVInt(out, length);
    out.write(bytes, 0, length);
    out.writeBoolean(decoded);
    WritableUtils.writeVInt(out, missingCount);
    if (missingCount > 0) {
      for (int w = 0; w < (elements() + 63) >>> 6; w++) {
        out.writeLong(missing[w]);
      }
    }
    axes.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    type = ElementType.values()[in.readByte()];
    order = in.readBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    int n = WritableUtils.readVInt(in);
    shape = new int[n];
    step = new long[n];
    for (int d = 0; d < n; d++) {
      shape[d] = WritableUtils.readVInt(in);
      step[d] = WritableUtils.readVLong(in);
    }
    length = WritableUtils.readVInt(in);
    if (bytes.length < length) {
      bytes = new byte[length];
    }
    in.readFully(bytes, 0, length);
    decoded = in.readBoolean();
    missingCount = WritableUtils.readVInt(in);
    if (missingCount > 0) {
      int words = (elements() + 63) >>> 6;
      if (missing.length < words) {
        missing = new long[words];
      }
      for (int w = 0; w < words; w++) {
        missing[w] = in.readLong();
      }
    }
    axes = PieceAxes.read(in);
  }

  @Override
  public String toString() {
    return type + Arrays.toString(shape) + (order == ByteOrder.BIG_ENDIAN ? " big" : " little")
        + "-endian, " + elements() + " elements" + (decoded ? ", decoded, " + missingCount
        + " missing" : "");
  }
}
