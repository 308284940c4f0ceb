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
import org.opass.mrap.science.ElementType;
import org.opass.mrap.science.Elements;

/**
 * The value of a {@link VariableInputFormat} record: a box of the slab's elements, in C order
 * (the last dimension fastest), as the file stores them (element type and byte order kept).
 * Element {@code (i0, .., in)} of the piece is the array's element {@code origin[d] + i[d] *
 * step[d]} in each dimension {@code d}, with the origin in the record's {@link ArrayIndex}.
 *
 * <p>{@link #toDoubles()}, {@link #toLongs()}, {@link #toFloats()}, {@link #toInts()} and
 * {@link #buffer()} view it as Java numbers; {@link #index} gives an element's array index.
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

  /** Sets this piece, copying {@code length} bytes from {@code data[offset]}. */
  public void set(ElementType type, ByteOrder order, int[] shape, long[] step, byte[] data,
      int offset, int length) {
    this.type = type;
    this.order = order;
    this.shape = shape.clone();
    this.step = step.clone();
    if (bytes.length < length) {
      bytes = new byte[length];
    }
    System.arraycopy(data, offset, bytes, 0, length);
    this.length = length;
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

  /** Element {@code i} (C order) as a double. */
  public double getDouble(int i) {
    return Elements.asDouble(bytes, i * type.size(), type, order);
  }

  /** Element {@code i} (C order) as a long (floating-point values truncated). */
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

  /** For {@code FLOAT32} elements. */
  public float[] toFloats() {
    if (type != ElementType.FLOAT32) {
      throw new IllegalStateException("the elements are " + type + ", not FLOAT32");
    }
    float[] out = new float[elements()];
    buffer().asFloatBuffer().get(out);
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
  }

  @Override
  public String toString() {
    return type + Arrays.toString(shape) + (order == ByteOrder.BIG_ENDIAN ? " big" : " little")
        + "-endian, " + elements() + " elements";
  }
}
