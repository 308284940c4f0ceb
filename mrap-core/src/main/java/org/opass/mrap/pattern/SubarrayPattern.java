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
 * single region; a column of it is one region per row. Those runs are a nested strided pattern
 * (one level per dimension that indexes runs), which answers every lookup: a subarray equals
 * the strided pattern naming the same regions.
 */
public final class SubarrayPattern implements AccessPattern {
  private final long base;
  private final long[] shape;
  private final long elementSize;
  private final long[] origin;
  private final long[] extent;
  private final StridedPattern runs;

  private SubarrayPattern(long base, long[] shape, long elementSize, long[] origin,
      long[] extent) {
    this.base = base;
    this.shape = shape;
    this.elementSize = elementSize;
    this.origin = origin;
    this.extent = extent;
    int n = shape.length;
    long[] elementStride = new long[n]; // elements between consecutive indices of dimension d
    long stride = 1;
    for (int d = n - 1; d >= 0; d--) {
      elementStride[d] = stride;
      stride = mul(stride, shape[d]);
    }
    add(base, mul(stride, elementSize)); // the whole array fits in 63 bits
    int r = n - 1;
    while (r > 0 && extent[r] == shape[r]) {
      r--; // the block spans dimension r whole: its runs join along dimension r - 1
    }
    long first = origin[r] * elementStride[r];
    for (int d = 0; d < r; d++) {
      first += origin[d] * elementStride[d];
    }
    long[] counts = new long[Math.max(1, r)];
    long[] strides = new long[counts.length];
    counts[0] = 1;
    strides[0] = 1;
    for (int d = r - 1; d >= 0; d--) { // innermost level first
      counts[r - 1 - d] = extent[d];
      strides[r - 1 - d] = elementStride[d] * elementSize;
    }
    runs = StridedPattern.byStride(base + first * elementSize,
        extent[r] * elementStride[r] * elementSize, strides, counts);
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
    return runs.regionCount();
  }

  @Override
  public long totalBytes() {
    return runs.totalBytes();
  }

  @Override
  public long end() {
    return runs.end();
  }

  @Override
  public RegionCursor cursor(long from, long to) {
    return runs.cursor(from, to);
  }

  @Override
  public long offsetOf(long k) {
    return runs.offsetOf(k);
  }

  @Override
  public long bytesBefore(long k) {
    return runs.bytesBefore(k);
  }

  @Override
  public long regionOfByte(long b) {
    return runs.regionOfByte(b);
  }

  @Override
  public long firstAtOrAfter(long offset) {
    return runs.firstAtOrAfter(offset);
  }

  @Override
  public long bytesBelow(long offset) {
    return runs.bytesBelow(offset);
  }

  @Override
  public boolean disjoint() {
    return true;
  }

  @Override
  public StridedPattern asStrided() {
    return runs;
  }

  @Override
  public AccessPattern slice(long from, long to) {
    return runs.slice(from, to);
  }

  @Override
  public boolean equals(Object o) {
    return runs.equals(o);
  }

  @Override
  public int hashCode() {
    return runs.hashCode();
  }

  /** e.g. {@code subarray(base=0, shape=[64, 64], element=8, origin=[0, 16], extent=[64, 8])}. */
  @Override
  public String toString() {
    return "subarray(base=" + base + ", shape=" + Arrays.toString(shape) + ", element="
        + elementSize + ", origin=" + Arrays.toString(origin) + ", extent="
        + Arrays.toString(extent) + ")";
  }
}
