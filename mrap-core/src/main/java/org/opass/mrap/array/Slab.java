package org.opass.mrap.array;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The elements of an n-dimensional array a job reads: per dimension a start, a stride, a count
 * and a block, as HDF5's hyperslab writes it (count blocks of block consecutive indices, their
 * starts stride apart). An immutable value, checked against the array's shape when made.
 *
 * <p>{@link #parse} reads one item per dimension, comma-separated, in NumPy's and NetCDF-Java's
 * {@code Section} form, {@code start:stop[:stride]} (stop exclusive; either end may be left
 * out, {@code :} is the whole dimension), or a single index {@code i} (the dimension is kept,
 * with one element), or HDF5's {@code start/stride/count/block}. Negative indices are not read.
 * Items joined by {@code +} in one dimension select their union ({@code 0:4+140:144}: both ends
 * of an axis), ascending and disjoint, as a selection by coordinate values may give
 * ({@link #ofRanges}).
 */
public final class Slab {
  // per dimension, its hyperslabs {start, stride, count, block}: one, or several ascending and
  // disjoint where the slab is a union along that dimension
  private final long[][][] parts;

  private Slab(long[][][] parts) {
    this.parts = parts;
  }

  /** Every element of an array of {@code shape}. */
  public static Slab whole(long[] shape) {
    long[] ones = new long[shape.length];
    Arrays.fill(ones, 1);
    return of(shape, new long[shape.length], ones, shape.clone(), ones.clone());
  }

  /**
   * @throws IllegalArgumentException naming the dimension and value at fault
   */
  public static Slab of(long[] shape, long[] start, long[] stride, long[] count, long[] block) {
    int n = shape.length;
    if (start.length != n || stride.length != n || count.length != n || block.length != n) {
      throw new IllegalArgumentException("the array has " + n + " dimension" + (n == 1 ? "" : "s")
          + ", the slab gives " + start.length);
    }
    long[][][] parts = new long[n][][];
    for (int d = 0; d < n; d++) {
      parts[d] = new long[][] {part(shape, d, start[d], stride[d], count[d], block[d])};
    }
    return new Slab(parts);
  }

  /**
   * The union, per dimension, of the ranges {@code [first, last]} given (ascending, disjoint,
   * at least one per dimension): what a selection by coordinate values gives, e.g. the two ends
   * of a longitude axis.
   *
   * @throws IllegalArgumentException naming the dimension and range at fault
   */
  public static Slab ofRanges(long[] shape, List<List<long[]>> ranges) {
    int n = shape.length;
    if (ranges.size() != n) {
      throw new IllegalArgumentException("the array has " + n + " dimension" + (n == 1 ? "" : "s")
          + ", the selection gives " + ranges.size());
    }
    long[][][] parts = new long[n][][];
    for (int d = 0; d < n; d++) {
      List<long[]> r = ranges.get(d);
      if (r.isEmpty()) {
        throw new IllegalArgumentException("dimension " + d + ": no index selected");
      }
      parts[d] = new long[r.size()][];
      for (int k = 0; k < r.size(); k++) {
        long first = r.get(k)[0];
        long last = r.get(k)[1];
        if (last < first) {
          throw new IllegalArgumentException("dimension " + d + ": the range [" + first + ", "
              + last + "] is empty");
        }
        parts[d][k] = part(shape, d, first, 1, last - first + 1, 1);
      }
      ascending(parts[d], d);
    }
    return new Slab(parts);
  }

  private static void ascending(long[][] dim, int d) {
    for (int k = 1; k < dim.length; k++) {
      long prevLast = last(dim[k - 1]);
      if (dim[k][0] <= prevLast) {
        throw new IllegalArgumentException("dimension " + d + ": the parts of a union must be "
            + "ascending and disjoint, but index " + dim[k][0] + " is not after " + prevLast);
      }
    }
  }

  private static long[] part(long[] shape, int d, long start, long stride, long count,
      long block) {
    if (start < 0 || start >= shape[d]) {
      throw new IllegalArgumentException("dimension " + d + ": start " + start
          + " is outside [0, " + shape[d] + ")");
    }
    if (count < 1 || block < 1 || stride < 1) {
      throw new IllegalArgumentException("dimension " + d + ": count, block and stride must "
          + "be >= 1, got " + count + ", " + block + " and " + stride);
    }
    if (count > 1 && stride < block) {
      throw new IllegalArgumentException("dimension " + d + ": stride " + stride
          + " is less than the block " + block + ": blocks would overlap");
    }
    long[] p = {start, stride, count, block};
    long last;
    try {
      last = Math.addExact(Math.addExact(start, Math.multiplyExact(count - 1, stride)),
          block - 1);
    } catch (ArithmeticException e) {
      last = Long.MAX_VALUE;
    }
    if (last >= shape[d]) {
      throw new IllegalArgumentException("dimension " + d + ": the slab reaches index " + last
          + ", past the dimension's " + shape[d] + " elements");
    }
    return p;
  }

  private static long last(long[] p) {
    return p[0] + (p[2] - 1) * p[1] + p[3] - 1;
  }

  /**
   * Reads a slab as {@link Slab} says, against an array of {@code shape}; null or blank text is
   * the whole array.
   *
   * @throws IllegalArgumentException naming the item at fault
   */
  public static Slab parse(String text, long[] shape) {
    if (text == null || text.trim().isEmpty()) {
      return whole(shape);
    }
    String[] items = text.split(",", -1);
    int n = shape.length;
    if (items.length != n) {
      throw new IllegalArgumentException("'" + text.trim() + "' gives " + items.length
          + " dimension" + (items.length == 1 ? "" : "s") + "; the variable has " + n
          + " (shape " + Arrays.toString(shape) + ")");
    }
    long[][][] parts = new long[n][][];
    for (int d = 0; d < n; d++) {
      String item = items[d].trim();
      try {
        String[] union = item.split("\\+", -1);
        parts[d] = new long[union.length][];
        for (int k = 0; k < union.length; k++) {
          parts[d][k] = parseItem(union[k].trim(), shape, d);
        }
        ascending(parts[d], d);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("dimension " + d + " ('" + item + "'): "
            + e.getMessage().replaceFirst("^dimension " + d + ": ", ""));
      }
    }
    return new Slab(parts);
  }

  /** One hyperslab of dimension {@code d}, in any of the forms {@link Slab} reads. */
  private static long[] parseItem(String item, long[] shape, int d) {
    if (item.contains("/")) {
      String[] f = item.split("/", -1);
      if (f.length != 4) {
        throw new IllegalArgumentException("HDF5's form is start/stride/count/block");
      }
      return part(shape, d, number(f[0], 0), number(f[1], 1), number(f[2], 1), number(f[3], 1));
    }
    if (item.contains(":")) {
      String[] f = item.split(":", -1);
      if (f.length > 3) {
        throw new IllegalArgumentException("the form is start:stop[:stride]");
      }
      long a = f[0].trim().isEmpty() ? 0 : number(f[0], 0);
      long b = f[1].trim().isEmpty() ? shape[d] : number(f[1], 0);
      long s = f.length < 3 || f[2].trim().isEmpty() ? 1 : number(f[2], 1);
      if (b > shape[d]) {
        throw new IllegalArgumentException("stop " + b + " is past the dimension's "
            + shape[d] + " elements");
      }
      if (b <= a) {
        throw new IllegalArgumentException("selects nothing (stop " + b + " <= start " + a
            + ")");
      }
      return part(shape, d, a, s, (b - a + s - 1) / s, 1);
    }
    return part(shape, d, number(item, 0), 1, 1, 1);
  }

  private static long number(String s, long min) {
    String t = s.trim();
    if (t.isEmpty() || !t.chars().allMatch(Character::isDigit) || t.length() > 18) {
      throw new IllegalArgumentException("'" + t + "' is not a whole number of at most 18 digits");
    }
    long v = Long.parseLong(t);
    if (v < min) {
      throw new IllegalArgumentException(v + " must be >= " + min);
    }
    return v;
  }

  public int rank() {
    return parts.length;
  }

  /**
   * Whether every dimension is one hyperslab (no union): then {@link #stride}, {@link #count}
   * and {@link #block} describe it.
   */
  public boolean regular() {
    for (long[][] dim : parts) {
      if (dim.length != 1) {
        return false;
      }
    }
    return true;
  }

  /** The hyperslabs of dimension {@code d}, ascending: one but for a union. */
  public int parts(int d) {
    return parts[d].length;
  }

  /** This slab's part {@code pick[d]} of each dimension: a regular slab. */
  public Slab part(int[] pick) {
    long[][][] p = new long[rank()][][];
    for (int d = 0; d < p.length; d++) {
      p[d] = new long[][] {parts[d][pick[d]]};
    }
    return new Slab(p);
  }

  /** The first index the slab selects in dimension {@code d}. */
  public long start(int d) {
    return parts[d][0][0];
  }

  public long stride(int d) {
    return regularDim(d)[1];
  }

  public long count(int d) {
    return regularDim(d)[2];
  }

  public long block(int d) {
    return regularDim(d)[3];
  }

  private long[] regularDim(int d) {
    if (parts[d].length != 1) {
      throw new IllegalStateException("dimension " + d + " is a union of " + parts[d].length
          + " hyperslabs: read it by its runs");
    }
    return parts[d][0];
  }

  /** The last index the slab selects in dimension {@code d}. */
  public long lastIndex(int d) {
    return last(parts[d][parts[d].length - 1]);
  }

  /** Indices selected along dimension {@code d}: count times block, summed over a union. */
  public long extent(int d) {
    long n = 0;
    for (long[] p : parts[d]) {
      n += p[2] * p[3];
    }
    return n;
  }

  /** The shape of what the slab selects. */
  public long[] selectedShape() {
    long[] s = new long[rank()];
    for (int d = 0; d < s.length; d++) {
      s[d] = extent(d);
    }
    return s;
  }

  /** Elements selected in all. */
  public long elements() {
    long n = 1;
    for (int d = 0; d < rank(); d++) {
      n = Math.multiplyExact(n, extent(d));
    }
    return n;
  }

  /** The first and last index selected per dimension: {@code [0][d]} first, {@code [1][d]} last. */
  public long[][] bounds() {
    long[][] b = new long[2][rank()];
    for (int d = 0; d < rank(); d++) {
      b[0][d] = start(d);
      b[1][d] = lastIndex(d);
    }
    return b;
  }

  /**
   * The runs of selected indices along dimension {@code d} within {@code [lo, hi)}, in order.
   * One run of step {@code stride} per hyperslab where blocks are single indices; else one run
   * per block (runs of step 1), blocks that touch joined.
   */
  public List<IndexRange> runs(int d, long lo, long hi) {
    if (parts[d].length == 1) {
      return runs(parts[d][0], lo, hi);
    }
    List<IndexRange> out = new ArrayList<>();
    for (long[] p : parts[d]) {
      out.addAll(runs(p, lo, hi));
    }
    return Collections.unmodifiableList(out);
  }

  private static List<IndexRange> runs(long[] p, long lo, long hi) {
    long start = p[0];
    long stride = p[1];
    long count = p[2];
    long block = p[3];
    if (block == 1 || stride == block) {
      long step = block == 1 ? stride : 1;
      long n = block == 1 ? count : count * block;
      long first = Math.max(0, ceilDiv(lo - start, step));
      long last = Math.min(n - 1, Math.floorDiv(hi - 1 - start, step));
      return last < first ? List.of()
          : List.of(IndexRange.of(start + first * step, last - first + 1, step));
    }
    List<IndexRange> out = new ArrayList<>();
    long j0 = Math.max(0, Math.floorDiv(lo - start, stride));
    for (long j = j0; j < count; j++) {
      long a = start + j * stride;
      if (a >= hi) {
        break;
      }
      long from = Math.max(a, lo);
      long to = Math.min(a + block, hi);
      if (to > from) {
        out.add(IndexRange.of(from, to - from, 1));
      }
    }
    return Collections.unmodifiableList(out);
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Slab && Arrays.deepEquals(parts, ((Slab) o).parts);
  }

  @Override
  public int hashCode() {
    return Arrays.deepHashCode(parts);
  }

  /**
   * HDF5's form, {@code start/stride/count/block} per dimension, the hyperslabs of a union
   * joined by {@code +}: {@link #parse} reads it back.
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (int d = 0; d < rank(); d++) {
      b.append(d == 0 ? "" : ", ");
      for (int k = 0; k < parts[d].length; k++) {
        long[] p = parts[d][k];
        b.append(k == 0 ? "" : "+").append(p[0]).append('/').append(p[1]).append('/')
            .append(p[2]).append('/').append(p[3]);
      }
    }
    return b.toString();
  }
}
