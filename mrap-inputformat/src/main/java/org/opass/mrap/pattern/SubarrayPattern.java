package org.opass.mrap.pattern;

import java.util.Arrays;

/**
 * A block of an n-dimensional array stored row-major (the last dimension varies fastest) from
 * byte {@code base} of a file, as MPI's {@code MPI_Type_create_subarray} and an HDF5 hyperslab
 * describe it: the array's {@code shape}, each element {@code elementSize} bytes, and the
 * block's {@code origin} and {@code extent} per dimension.
 *
 * <p>Regions are the block's contiguous runs in file order. Where the block spans whole rows of
 * the trailing dimensions, their runs are one region: a block of full rows of a 2-D array is a
 * single region; a column of it is one region per row.
 */
public final class SubarrayPattern implements AccessPattern {
  private final long base;
  private final long[] shape;
  private final long elementSize;
  private final long[] origin;
  private final long[] extent;
  /** Dimensions {@code [0, runDim)} index the runs; a run covers the rest. */
  private final int runDim;
  /** Elements between consecutive indices of dimension d: the product of the later dims. */
  private final long[] elementStride;
  private final long runBytes;
  private final long regionCount;

  private SubarrayPattern(long base, long[] shape, long elementSize, long[] origin,
      long[] extent) {
    this.base = base;
    this.shape = shape;
    this.elementSize = elementSize;
    this.origin = origin;
    this.extent = extent;
    int n = shape.length;
    elementStride = new long[n];
    long stride = 1;
    for (int d = n - 1; d >= 0; d--) {
      elementStride[d] = stride;
      stride = mul(stride, shape[d]);
    }
    mul(stride, elementSize); // the whole array's bytes fit
    add(base, stride * elementSize);
    int r = n - 1;
    while (r > 0 && extent[r] == shape[r]) {
      r--; // the block spans dimension r whole: its runs join along dimension r - 1
    }
    runDim = r;
    runBytes = extent[r] * elementStride[r] * elementSize;
    long runs = 1;
    for (int d = 0; d < r; d++) {
      runs *= extent[d];
    }
    regionCount = runs;
  }

  /**
   * @param base        byte offset of the array's first element (a header before it)
   * @param shape       elements per dimension, each >= 1
   * @param elementSize bytes per element, >= 1
   * @param origin      the block's first index per dimension, >= 0
   * @param extent      the block's length per dimension, >= 1, within the array
   * @throws IllegalArgumentException naming the bad value
   */
  public static SubarrayPattern of(long base, long[] shape, long elementSize, long[] origin,
      long[] extent) {
    if (base < 0) {
      throw new IllegalArgumentException("base (" + base + ") must be >= 0");
    }
    if (elementSize < 1) {
      throw new IllegalArgumentException("element size (" + elementSize + ") must be >= 1");
    }
    if (shape.length == 0 || origin.length != shape.length || extent.length != shape.length) {
      throw new IllegalArgumentException("shape, origin and extent need one value per "
          + "dimension, got " + shape.length + ", " + origin.length + " and " + extent.length);
    }
    for (int d = 0; d < shape.length; d++) {
      if (shape[d] < 1) {
        throw new IllegalArgumentException("shape[" + d + "] (" + shape[d] + ") must be >= 1");
      }
      if (origin[d] < 0 || extent[d] < 1 || origin[d] > shape[d] - extent[d]) {
        throw new IllegalArgumentException("dimension " + d + ": origin " + origin[d]
            + " and extent " + extent[d] + " must lie within [0, " + shape[d] + ")");
      }
    }
    return new SubarrayPattern(base, shape.clone(), elementSize, origin.clone(), extent.clone());
  }

  /** The whole array, as one block. */
  public static SubarrayPattern whole(long base, long[] shape, long elementSize) {
    return of(base, shape, elementSize, new long[shape.length], shape);
  }

  private static long mul(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("the array extends past 2^63 bytes");
    }
  }

  private static long add(long a, long b) {
    try {
      return Math.addExact(a, b);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("the array extends past 2^63 bytes");
    }
  }

  public long base() {
    return base;
  }

  public long[] shape() {
    return shape.clone();
  }

  public long elementSize() {
    return elementSize;
  }

  public long[] origin() {
    return origin.clone();
  }

  public long[] extent() {
    return extent.clone();
  }

  @Override
  public long regionCount() {
    return regionCount;
  }

  @Override
  public long totalBytes() {
    return regionCount * runBytes;
  }

  @Override
  public long end() {
    long last = 0;
    for (int d = 0; d < runDim; d++) {
      last += (origin[d] + extent[d] - 1) * elementStride[d];
    }
    return base + (last + origin[runDim] * elementStride[runDim]) * elementSize + runBytes;
  }

  @Override
  public RegionCursor cursor(long from, long to) {
    AccessPattern.checkRange(from, to, regionCount);
    return new RegionCursor() {
      private final long[] index = new long[runDim]; // within the block, last dim fastest
      private long next = from;
      private long offset = -1;

      @Override
      public boolean next() {
        if (next >= to) {
          return false;
        }
        if (offset < 0) {
          long k = next;
          for (int d = runDim - 1; d >= 0; d--) {
            index[d] = k % extent[d];
            k /= extent[d];
          }
          long e = origin[runDim] * elementStride[runDim];
          for (int d = 0; d < runDim; d++) {
            e += (origin[d] + index[d]) * elementStride[d];
          }
          offset = base + e * elementSize;
        } else {
          int d = runDim - 1;
          while (index[d] == extent[d] - 1) {
            offset -= index[d] * elementStride[d] * elementSize;
            index[d] = 0;
            d--;
          }
          index[d]++;
          offset += elementStride[d] * elementSize;
        }
        next++;
        return true;
      }

      @Override
      public long offset() {
        return offset;
      }

      @Override
      public long length() {
        return runBytes;
      }
    };
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SubarrayPattern)) {
      return false;
    }
    SubarrayPattern p = (SubarrayPattern) o;
    return p.base == base && p.elementSize == elementSize && Arrays.equals(p.shape, shape)
        && Arrays.equals(p.origin, origin) && Arrays.equals(p.extent, extent);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(new long[] {base, elementSize, Arrays.hashCode(shape),
        Arrays.hashCode(origin), Arrays.hashCode(extent)});
  }

  /** e.g. {@code subarray(base=0, shape=[64, 64], element=8, origin=[0, 16], extent=[64, 8])}. */
  @Override
  public String toString() {
    return "subarray(base=" + base + ", shape=" + Arrays.toString(shape) + ", element="
        + elementSize + ", origin=" + Arrays.toString(origin) + ", extent="
        + Arrays.toString(extent) + ")";
  }
}
