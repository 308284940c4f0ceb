package org.opass.mrap.write;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.mrap.array.ElementType;

/**
 * What a write produces: a grid of dimensions ({@link OutputDimension}, the first the
 * outermost), data variables on all of them ({@link OutputVariable}), global attributes, the
 * format and, for Zarr, the chunk shape; and its parts, ranges of the first dimension's indices
 * that tasks write side by side (a whole number of chunks along it for Zarr). A value, sent to
 * tasks serialized.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class OutputDataset implements Serializable {
  private static final long serialVersionUID = 1L;
  /** A default chunk holds at most this many elements (4 MiB of float32). */
  static final long CHUNK_ELEMENTS = 1L << 20;
  /** A CDF-2 variable's bytes (but the last's) fit in its 32-bit size. */
  private static final long CDF2_MAX_VARIABLE = 0xFFFFFFFFL - 3;

  /** The written formats. */
  public enum Kind {
    /** One CF NetCDF-3 file: 64-bit offset (CDF-2), or CDF-5 where sizes or types need it. */
    NETCDF,
    /** A Zarr v2 store (a folder) with consolidated metadata. */
    ZARR;

    /**
     * The kind named {@code name} ({@code netcdf}, {@code zarr}).
     *
     * @throws IllegalArgumentException naming {@code key} and the choices otherwise
     */
    public static Kind of(String key, String name) {
      for (Kind k : values()) {
        if (k.name().equalsIgnoreCase(name == null ? "" : name.trim())) {
          return k;
        }
      }
      throw new IllegalArgumentException(key + "=" + name + ": expected netcdf or zarr");
    }

    public String lowerName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Kind kind;
  private final List<OutputDimension> dimensions;
  private final List<OutputVariable> variables;
  private final LinkedHashMap<String, Object> attributes;
  private final int[] chunks;
  private final int partRows;

  private OutputDataset(Kind kind, List<OutputDimension> dimensions,
      List<OutputVariable> variables, Map<String, Object> attributes, int[] chunks,
      int partRows) {
    this.kind = kind;
    this.dimensions = List.copyOf(dimensions);
    this.variables = List.copyOf(variables);
    this.attributes = new LinkedHashMap<>(attributes);
    this.chunks = chunks;
    this.partRows = partRows;
  }

  /**
   * A dataset of {@code variables} on the grid of {@code dimensions}.
   *
   * @param chunks Zarr's chunk shape, one a dimension; null: {@link #defaultChunks}
   * @param partBytes about how many bytes of all variables a part holds (at least one row, or
   *     one row of chunks, of the first dimension)
   * @param minParts at least this many parts, where the first dimension has as many rows (or
   *     rows of chunks)
   * @throws IllegalArgumentException naming what is wrong: no dimension or variable, a name
   *     used twice, chunks of another rank or not positive
   */
  public static OutputDataset of(Kind kind, List<OutputDimension> dimensions,
      List<OutputVariable> variables, Map<String, Object> attributes, int[] chunks,
      long partBytes, int minParts) {
    if (dimensions.isEmpty() || variables.isEmpty()) {
      throw new IllegalArgumentException("a dataset needs a dimension and a variable, not "
          + dimensions + " and " + variables);
    }
    List<String> names = new ArrayList<>();
    for (OutputDimension d : dimensions) {
      names.add(d.name());
    }
    for (OutputVariable v : variables) {
      names.add(v.name());
    }
    for (int i = 0; i < names.size(); i++) {
      if (names.indexOf(names.get(i)) != i) {
        throw new IllegalArgumentException("the name " + names.get(i) + " is used twice in "
            + names);
      }
    }
    long[] shape = new long[dimensions.size()];
    for (int d = 0; d < shape.length; d++) {
      shape[d] = dimensions.get(d).length();
    }
    int[] c = null;
    if (kind == Kind.ZARR) {
      c = chunks == null ? defaultChunks(shape) : chunks.clone();
      if (c.length != shape.length) {
        throw new IllegalArgumentException("chunks " + java.util.Arrays.toString(c) + " name "
            + c.length + " dimensions; the grid has " + shape.length + ": " + dimensions);
      }
      for (int d = 0; d < c.length; d++) {
        if (c[d] < 1) {
          throw new IllegalArgumentException("chunks " + java.util.Arrays.toString(c)
              + ": the chunk along " + dimensions.get(d).name() + " is not positive");
        }
        c[d] = (int) Math.min(c[d], shape[d]);
      }
    }
    long rowBytes = 0;
    long inner = 1;
    for (int d = 1; d < shape.length; d++) {
      inner *= shape[d];
    }
    for (OutputVariable v : variables) {
      rowBytes += inner * v.type().size();
    }
    int step = c == null ? 1 : c[0];
    long rows = Math.max(1, partBytes / Math.max(1, rowBytes * step)) * step;
    long n0 = shape[0];
    long steps = (n0 + step - 1) / step;
    long fair = ((steps + Math.max(1, minParts) - 1) / Math.max(1, minParts)) * step;
    rows = Math.max(step, Math.min(rows, fair));
    return new OutputDataset(kind, dimensions, variables, attributes, c,
        (int) Math.min(rows, steps * step));
  }

  /**
   * Zarr's default chunks: the whole grid, the outermost dimension with more than one row
   * halved (rounding up) until a chunk holds at most 2^20 elements.
   */
  public static int[] defaultChunks(long[] shape) {
    long[] c = shape.clone();
    while (product(c) > CHUNK_ELEMENTS) {
      int d = 0;
      while (d < c.length && c[d] == 1) {
        d++;
      }
      c[d] = (c[d] + 1) / 2;
    }
    int[] out = new int[c.length];
    for (int d = 0; d < c.length; d++) {
      out[d] = (int) Math.min(Integer.MAX_VALUE, c[d]);
    }
    return out;
  }

  private static long product(long[] a) {
    long p = 1;
    try {
      for (long x : a) {
        p = Math.multiplyExact(p, x);
      }
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
    return p;
  }

  public Kind kind() {
    return kind;
  }

  public List<OutputDimension> dimensions() {
    return dimensions;
  }

  public List<OutputVariable> variables() {
    return variables;
  }

  public Map<String, Object> attributes() {
    return Collections.unmodifiableMap(attributes);
  }

  /** Zarr's chunk shape; null for NetCDF. */
  public int[] chunks() {
    return chunks == null ? null : chunks.clone();
  }

  public long[] shape() {
    long[] s = new long[dimensions.size()];
    for (int d = 0; d < s.length; d++) {
      s[d] = dimensions.get(d).length();
    }
    return s;
  }

  /** The grid points in one row of the first dimension. */
  public long rowElements() {
    long inner = 1;
    for (int d = 1; d < dimensions.size(); d++) {
      inner *= dimensions.get(d).length();
    }
    return inner;
  }

  /** How many parts the first dimension is cut into. */
  public int parts() {
    return (int) ((dimensions.get(0).length() + partRows - 1) / partRows);
  }

  /**
   * This dataset with parts of a whole number of {@code rows} of the first dimension (and, for
   * Zarr, still of chunk rows): for a job whose records are boxes of {@code rows} rows starting
   * at multiples of it (a chunked variable's chunks), so that each box lies in one part. A part
   * grows to the next such multiple, or to the whole dimension; the grid and chunks are the same.
   *
   * @throws IllegalArgumentException if {@code rows} is not positive
   */
  public OutputDataset alignedTo(int rows) {
    if (rows < 1) {
      throw new IllegalArgumentException("parts align to a positive number of rows, not "
          + rows);
    }
    long unit = rows;
    if (chunks != null) { // the least common multiple of rows and the chunk rows
      long a = unit;
      long b = chunks[0];
      while (b != 0) {
        long t = a % b;
        a = b;
        b = t;
      }
      unit = unit / a * chunks[0];
    }
    long n0 = dimensions.get(0).length();
    long aligned = Math.min((partRows + unit - 1) / unit * unit, (n0 + unit - 1) / unit * unit);
    return new OutputDataset(kind, dimensions, variables, attributes, chunks,
        (int) Math.min(Integer.MAX_VALUE, aligned));
  }

  /** The rows of the first dimension in a part (the last part may hold fewer). */
  public int partRows() {
    return partRows;
  }

  /** The part holding index {@code i0} of the first dimension. */
  public int part(int i0) {
    return i0 / partRows;
  }

  /** The first index of the first dimension in part {@code p}. */
  public int partStart(int p) {
    return p * partRows;
  }

  /** One past the last index of the first dimension in part {@code p}. */
  public int partEnd(int p) {
    return Math.min(dimensions.get(0).length(), (p + 1) * partRows);
  }

  /**
   * Whether a NetCDF file of it must be CDF-5: a 64-bit or unsigned type, or a variable too
   * large for CDF-2's 32-bit sizes (but the last).
   */
  public boolean needsCdf5() {
    for (int i = 0; i < variables.size(); i++) {
      ElementType t = variables.get(i).type();
      if (t == ElementType.INT64 || t == ElementType.UINT64 || t == ElementType.UINT8
          || t == ElementType.UINT16 || t == ElementType.UINT32) {
        return true;
      }
      if (i < variables.size() - 1 && rowElements() * dimensions.get(0).length() * t.size()
          > CDF2_MAX_VARIABLE) {
        return true;
      }
    }
    for (OutputDimension d : dimensions) {
      if (d.type() == ElementType.INT64 || d.length() > Integer.MAX_VALUE) {
        return true;
      }
    }
    return false;
  }

  /** This dataset as text, for a job's configuration. */
  public String encode() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(b)) {
      out.writeObject(this);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return Base64.getEncoder().encodeToString(b.toByteArray());
  }

  /**
   * The dataset {@link #encode} gave.
   *
   * @throws IllegalArgumentException if {@code text} is not one
   */
  public static OutputDataset decode(String text) {
    try (ObjectInputStream in = new ObjectInputStream(
        new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
      return (OutputDataset) in.readObject();
    } catch (IOException | ClassNotFoundException | ClassCastException
        | IllegalArgumentException e) {
      throw new IllegalArgumentException("not an encoded output dataset: " + e, e);
    }
  }

  @Override
  public String toString() {
    return kind.lowerName() + " " + dimensions + " " + variables;
  }
}
