package org.opass.mrap.science;

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
 */
public final class Slab {
  private final long[] start;
  private final long[] stride;
  private final long[] count;
  private final long[] block;

  private Slab(long[] start, long[] stride, long[] count, long[] block) {
    this.start = start;
    this.stride = stride;
    this.count = count;
    this.block = block;
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
    for (int d = 0; d < n; d++) {
      if (start[d] < 0 || start[d] >= shape[d]) {
        throw new IllegalArgumentException("dimension " + d + ": start " + start[d]
            + " is outside [0, " + shape[d] + ")");
      }
      if (count[d] < 1 || block[d] < 1 || stride[d] < 1) {
        throw new IllegalArgumentException("dimension " + d + ": count, block and stride must "
            + "be >= 1, got " + count[d] + ", " + block[d] + " and " + stride[d]);
      }
      if (count[d] > 1 && stride[d] < block[d]) {
        throw new IllegalArgumentException("dimension " + d + ": stride " + stride[d]
            + " is less than the block " + block[d] + ": blocks would overlap");
      }
      long last;
      try {
        last = Math.addExact(Math.addExact(start[d], Math.multiplyExact(count[d] - 1, stride[d])),
            block[d] - 1);
      } catch (ArithmeticException e) {
        last = Long.MAX_VALUE;
      }
      if (last >= shape[d]) {
        throw new IllegalArgumentException("dimension " + d + ": the slab reaches index " + last
            + ", past the dimension's " + shape[d] + " elements");
      }
    }
    return new Slab(start.clone(), stride.clone(), count.clone(), block.clone());
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
    long[] start = new long[n];
    long[] stride = new long[n];
    long[] count = new long[n];
    long[] block = new long[n];
    for (int d = 0; d < n; d++) {
      String item = items[d].trim();
      try {
        if (item.contains("/")) {
          String[] f = item.split("/", -1);
          if (f.length != 4) {
            throw new IllegalArgumentException("HDF5's form is start/stride/count/block");
          }
          start[d] = number(f[0], 0);
          stride[d] = number(f[1], 1);
          count[d] = number(f[2], 1);
          block[d] = number(f[3], 1);
        } else if (item.contains(":")) {
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
          start[d] = a;
          stride[d] = s;
          count[d] = (b - a + s - 1) / s;
          block[d] = 1;
        } else {
          start[d] = number(item, 0);
          stride[d] = 1;
          count[d] = 1;
          block[d] = 1;
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("dimension " + d + " ('" + item + "'): "
            + e.getMessage());
      }
    }
    return of(shape, start, stride, count, block);
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
    return start.length;
  }

  public long start(int d) {
    return start[d];
  }

  public long stride(int d) {
    return stride[d];
  }

  public long count(int d) {
    return count[d];
  }

  public long block(int d) {
    return block[d];
  }

  /** The last index the slab selects in dimension {@code d}. */
  public long lastIndex(int d) {
    return start[d] + (count[d] - 1) * stride[d] + block[d] - 1;
  }

  /** Indices selected along dimension {@code d}: count times block. */
  public long extent(int d) {
    return count[d] * block[d];
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

  /**
   * The runs of selected indices along dimension {@code d} within {@code [lo, hi)}, in order.
   * One run of step {@code stride} where blocks are single indices; else one run per block
   * (runs of step 1), blocks that touch joined.
   */
  List<Run> runs(int d, long lo, long hi) {
    if (block[d] == 1 || stride[d] == block[d]) {
      long step = block[d] == 1 ? stride[d] : 1;
      long n = block[d] == 1 ? count[d] : count[d] * block[d];
      long first = Math.max(0, ceilDiv(lo - start[d], step));
      long last = Math.min(n - 1, Math.floorDiv(hi - 1 - start[d], step));
      return last < first ? List.of()
          : List.of(Run.of(start[d] + first * step, last - first + 1, step));
    }
    List<Run> out = new ArrayList<>();
    long j0 = Math.max(0, Math.floorDiv(lo - start[d], stride[d]));
    for (long j = j0; j < count[d]; j++) {
      long a = start[d] + j * stride[d];
      if (a >= hi) {
        break;
      }
      long from = Math.max(a, lo);
      long to = Math.min(a + block[d], hi);
      if (to > from) {
        out.add(Run.of(from, to - from, 1));
      }
    }
    return Collections.unmodifiableList(out);
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Slab)) {
      return false;
    }
    Slab s = (Slab) o;
    return Arrays.equals(start, s.start) && Arrays.equals(stride, s.stride)
        && Arrays.equals(count, s.count) && Arrays.equals(block, s.block);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(start) * 31 + Arrays.hashCode(count);
  }

  /** HDF5's form, {@code start/stride/count/block} per dimension: {@link #parse} reads it back. */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (int d = 0; d < rank(); d++) {
      b.append(d == 0 ? "" : ", ").append(start[d]).append('/').append(stride[d]).append('/')
          .append(count[d]).append('/').append(block[d]);
    }
    return b.toString();
  }
}
