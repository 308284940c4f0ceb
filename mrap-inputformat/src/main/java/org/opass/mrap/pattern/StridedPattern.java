package org.opass.mrap.pattern;

import java.util.Arrays;

/**
 * Vector and nested strided access (MPI's {@code MPI_Type_vector}, HDF5's hyperslab in one
 * dimension): regions of {@code size} bytes from {@code start}, {@code count[0]} of them with
 * {@code spacing[0]} bytes between one region's end and the next one's start; with more
 * levels, {@code count[1]} such groups with {@code spacing[1]} bytes between one group's end
 * and the next one's start, and so on. Level 0 is the innermost. One level is the thesis's
 * vector pattern ({@code strided.region_size}, {@code strided.region_spacing},
 * {@code strided.region_count}).
 *
 * <p>Region {@code k} is found in O(levels), and a cursor moves to the next region in O(1)
 * amortized, so a pattern of any region count costs a few arrays of {@code levels} longs.
 */
public final class StridedPattern implements AccessPattern {
  private final long start;
  private final long size;
  private final long[] counts;
  private final long[] spacings;
  /** step[i]: from one level-i unit's start to the next one's (a region at level 0). */
  private final long[] steps;
  private final long regionCount;
  private final long end;

  private StridedPattern(long start, long size, long[] counts, long[] spacings) {
    this.start = start;
    this.size = size;
    this.counts = counts;
    this.spacings = spacings;
    this.steps = new long[counts.length];
    long unit = size; // extent of one unit of the current level
    long regions = 1;
    for (int i = 0; i < counts.length; i++) {
      steps[i] = add(unit, spacings[i]);
      unit = add(mul(counts[i] - 1, steps[i]), unit);
      regions = mul(regions, counts[i]);
    }
    this.regionCount = regions;
    this.end = add(start, unit);
    mul(regions, size); // total bytes must fit too
  }

  /** One level: {@code count} regions of {@code size} bytes, {@code spacing} bytes apart. */
  public static StridedPattern vector(long start, long size, long spacing, long count) {
    return nested(start, size, new long[] {spacing}, new long[] {count});
  }

  /**
   * Nested strided access, level 0 innermost.
   *
   * @param spacings bytes between the end of a unit and the start of the next, per level, >= 0
   * @param counts   units per level, >= 1
   * @throws IllegalArgumentException for a bad value, naming it, or a pattern whose end or
   *     size does not fit in 63 bits
   */
  public static StridedPattern nested(long start, long size, long[] spacings, long[] counts) {
    if (start < 0) {
      throw new IllegalArgumentException("start (" + start + ") must be >= 0");
    }
    if (size < 1) {
      throw new IllegalArgumentException("size (" + size + ") must be >= 1");
    }
    if (counts.length == 0 || counts.length != spacings.length) {
      throw new IllegalArgumentException("one count and one spacing per level, got "
          + counts.length + " counts and " + spacings.length + " spacings");
    }
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] < 1) {
        throw new IllegalArgumentException("count[" + i + "] (" + counts[i] + ") must be >= 1");
      }
      if (spacings[i] < 0) {
        throw new IllegalArgumentException("spacing[" + i + "] (" + spacings[i]
            + ") must be >= 0");
      }
    }
    return new StridedPattern(start, size, counts.clone(), spacings.clone());
  }

  private static long add(long a, long b) {
    try {
      return Math.addExact(a, b);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("the pattern extends past 2^63 bytes");
    }
  }

  private static long mul(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("the pattern extends past 2^63 bytes");
    }
  }

  public long start() {
    return start;
  }

  public long size() {
    return size;
  }

  public int levels() {
    return counts.length;
  }

  public long count(int level) {
    return counts[level];
  }

  public long spacing(int level) {
    return spacings[level];
  }

  @Override
  public long regionCount() {
    return regionCount;
  }

  @Override
  public long totalBytes() {
    return regionCount * size;
  }

  @Override
  public long end() {
    return end;
  }

  /** Offset of region {@code k}. */
  public long offsetOf(long k) {
    AccessPattern.checkRange(k, k + 1, regionCount);
    long off = start;
    for (int i = 0; i < counts.length; i++) {
      off += (k % counts[i]) * steps[i];
      k /= counts[i];
    }
    return off;
  }

  @Override
  public RegionCursor cursor(long from, long to) {
    AccessPattern.checkRange(from, to, regionCount);
    return new RegionCursor() {
      private final long[] digits = new long[counts.length];
      private long next = from;
      private long offset = -1;

      @Override
      public boolean next() {
        if (next >= to) {
          return false;
        }
        if (offset < 0) {
          offset = offsetOf(next);
          long k = next;
          for (int i = 0; i < counts.length; i++) {
            digits[i] = k % counts[i];
            k /= counts[i];
          }
        } else {
          // odometer: carry into the outer levels, rewinding the inner ones
          int i = 0;
          while (digits[i] == counts[i] - 1) {
            offset -= digits[i] * steps[i];
            digits[i] = 0;
            i++;
          }
          digits[i]++;
          offset += steps[i];
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
        return size;
      }
    };
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StridedPattern)) {
      return false;
    }
    StridedPattern p = (StridedPattern) o;
    return p.start == start && p.size == size && Arrays.equals(p.counts, counts)
        && Arrays.equals(p.spacings, spacings);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(start) * 31 + Long.hashCode(size) * 17 + Arrays.hashCode(counts) * 7
        + Arrays.hashCode(spacings);
  }

  /** e.g. {@code strided(start=0, size=32, count=[100], spacing=[10000])}. */
  @Override
  public String toString() {
    return "strided(start=" + start + ", size=" + size + ", count=" + Arrays.toString(counts)
        + ", spacing=" + Arrays.toString(spacings) + ")";
  }
}
