package org.opass.mrap.pattern;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Vector and nested strided access (MPI's {@code MPI_Type_vector}, HDF5's hyperslab in one
 * dimension): regions of {@code size} bytes from {@code start}, {@code count[0]} of them, each
 * {@code stride[0]} bytes after the one before (start to start); with more levels,
 * {@code count[1]} such groups, each {@code stride[1]} bytes after the one before, and so on.
 * Level 0 is the innermost. The thesis's keys give the gap instead ({@code spacing}: from one
 * region's or group's end to the next one's start); {@link #nested} takes gaps,
 * {@link #byStride} strides.
 *
 * <p>Held in a canonical form, so that patterns naming the same regions are equal however they
 * were written: levels of count 1 are dropped, and a level that repeats its inner level's
 * stride evenly ({@code stride[i + 1] == count[i] * stride[i]}) is merged into it. Region
 * {@code k}, the regions before an offset and the bytes below it are found in O(levels); a
 * cursor moves to the next region in O(1) amortized.
 */
public final class StridedPattern implements AccessPattern {
  private final long start;
  private final long size;
  private final long[] counts;
  /** From one level-i element's start to the next one's (an element of level 0 is a region). */
  private final long[] steps;
  /** Regions in one element of level i. */
  private final long[] regionsPer;
  /** Bytes from one element of level i's start to its last region's end. */
  private final long[] extents;
  private final long regionCount;
  private final long end;

  private StridedPattern(long start, long size, long[] counts, long[] steps) {
    this.start = start;
    this.size = size;
    this.counts = counts;
    this.steps = steps;
    int n = counts.length;
    regionsPer = new long[n];
    extents = new long[n];
    long regions = 1;
    long extent = size;
    for (int i = 0; i < n; i++) {
      regionsPer[i] = regions;
      extents[i] = extent;
      extent = add(mul(counts[i] - 1, steps[i]), extent);
      regions = mul(regions, counts[i]);
    }
    regionCount = regions;
    end = add(start, extent);
    mul(regions, size); // the total bytes fit too
  }

  /** One level: {@code count} regions of {@code size} bytes, {@code spacing} bytes apart. */
  public static StridedPattern vector(long start, long size, long spacing, long count) {
    return nested(start, size, new long[] {spacing}, new long[] {count});
  }

  /**
   * Nested strided access by gaps, level 0 innermost.
   *
   * @param spacings bytes from the end of an element to the start of the next, per level, >= 0
   * @param counts   elements per level, >= 1
   * @throws IllegalArgumentException for a bad value, naming it, or a pattern whose end or
   *     size does not fit in 63 bits
   */
  public static StridedPattern nested(long start, long size, long[] spacings, long[] counts) {
    check(start, size, counts, spacings, "spacing");
    long[] steps = new long[counts.length];
    long extent = size;
    for (int i = 0; i < counts.length; i++) {
      if (spacings[i] < 0) {
        throw new IllegalArgumentException("spacing[" + i + "] (" + spacings[i]
            + ") must be >= 0");
      }
      steps[i] = add(extent, spacings[i]);
      extent = add(mul(counts[i] - 1, steps[i]), extent);
    }
    return canonical(start, size, counts, steps);
  }

  /**
   * Nested strided access by strides (start to start), level 0 innermost, as MPI and HDF5
   * write it.
   *
   * @param strides bytes from the start of an element to the start of the next, per level; at
   *     least the element's extent where the level repeats it (regions do not overlap)
   * @param counts  elements per level, >= 1
   * @throws IllegalArgumentException naming the bad value
   */
  public static StridedPattern byStride(long start, long size, long[] strides, long[] counts) {
    check(start, size, counts, strides, "stride");
    long extent = size;
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] > 1 && strides[i] < extent) {
        throw new IllegalArgumentException("stride[" + i + "] (" + strides[i] + ") is less "
            + "than the " + extent + " bytes each of its " + counts[i] + " elements spans: "
            + "they would overlap");
      }
      extent = add(mul(counts[i] - 1, Math.max(0, strides[i])), extent);
    }
    return canonical(start, size, counts, strides.clone());
  }

  private static void check(long start, long size, long[] counts, long[] perLevel,
      String what) {
    if (start < 0) {
      throw new IllegalArgumentException("start (" + start + ") must be >= 0");
    }
    if (size < 1) {
      throw new IllegalArgumentException("size (" + size + ") must be >= 1");
    }
    if (counts.length == 0 || counts.length != perLevel.length) {
      throw new IllegalArgumentException("one count and one " + what + " per level, got "
          + counts.length + " counts and " + perLevel.length + " " + what + "s");
    }
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] < 1) {
        throw new IllegalArgumentException("count[" + i + "] (" + counts[i] + ") must be >= 1");
      }
    }
  }

  /** Drops levels of count 1 and merges a level into the one inside it where it continues its
   * stride evenly. */
  private static StridedPattern canonical(long start, long size, long[] counts, long[] steps) {
    List<long[]> levels = new ArrayList<>(); // {count, step}
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] == 1) {
        continue;
      }
      long[] inner = levels.isEmpty() ? null : levels.get(levels.size() - 1);
      if (inner != null && steps[i] == inner[0] * inner[1]) {
        inner[0] = mul(inner[0], counts[i]);
      } else {
        levels.add(new long[] {counts[i], steps[i]});
      }
    }
    if (levels.isEmpty()) {
      levels.add(new long[] {1, size});
    }
    long[] c = new long[levels.size()];
    long[] s = new long[levels.size()];
    for (int i = 0; i < c.length; i++) {
      c[i] = levels.get(i)[0];
      s[i] = levels.get(i)[1];
    }
    return new StridedPattern(start, size, c, s);
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

  /** Levels of the canonical form. */
  public int levels() {
    return counts.length;
  }

  public long count(int level) {
    return counts[level];
  }

  /** Start to start, at {@code level} of the canonical form. */
  public long stride(int level) {
    return steps[level];
  }

  /** End to start, at {@code level} of the canonical form. */
  public long spacing(int level) {
    return steps[level] - extents[level];
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

  @Override
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
  public long bytesBefore(long k) {
    AccessPattern.checkRange(0, k, regionCount);
    return k * size;
  }

  @Override
  public long regionOfByte(long b) {
    return b < 0 ? 0 : Math.min(regionCount, b / size);
  }

  @Override
  public long firstAtOrAfter(long offset) {
    long y = offset - start;
    if (y <= 0) {
      return 0;
    }
    long k = 0;
    for (int i = counts.length - 1; i >= 0; i--) {
      long j = Math.min(counts[i], ceilDiv(y, steps[i])); // elements starting below y, >= 1
      k += (j - 1) * regionsPer[i];
      y -= (j - 1) * steps[i];
    }
    return k + 1; // the element reached is a region starting below the offset
  }

  @Override
  public long bytesBelow(long offset) {
    long y = offset - start;
    if (y <= 0) {
      return 0;
    }
    long b = 0;
    for (int i = counts.length - 1; i >= 0; i--) {
      long j = Math.min(counts[i], ceilDiv(y, steps[i]));
      b += (j - 1) * regionsPer[i] * size; // whole elements below: each ends before the next
      y -= (j - 1) * steps[i];
    }
    return b + Math.min(y, size);
  }

  private static long ceilDiv(long a, long b) {
    return b == 0 ? Long.MAX_VALUE : (a - 1) / b + 1; // a >= 1
  }

  @Override
  public boolean disjoint() {
    return true;
  }

  @Override
  public StridedPattern asStrided() {
    return this;
  }

  @Override
  public AccessPattern slice(long from, long to) {
    AccessPattern.checkRange(from, to, regionCount);
    if (counts.length == 1 && to > from) { // a run of a vector is a vector
      return new StridedPattern(offsetOf(from), size, new long[] {to - from},
          new long[] {steps[0]}).canonicalized();
    }
    return AccessPattern.super.slice(from, to);
  }

  private StridedPattern canonicalized() {
    return canonical(start, size, counts, steps);
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

  /** Equal to any pattern naming the same regions that has a canonical strided form. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof AccessPattern)) {
      return false;
    }
    StridedPattern p = ((AccessPattern) o).asStrided();
    return p != null && p.start == start && p.size == size && Arrays.equals(p.counts, counts)
        && Arrays.equals(p.steps, steps);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(start) * 31 + Long.hashCode(size) * 17 + Arrays.hashCode(counts) * 7
        + Arrays.hashCode(steps);
  }

  /** e.g. {@code strided(start=0, size=32, count=[100], spacing=[10000])}: the canonical
   * form, with the thesis's gaps. */
  @Override
  public String toString() {
    long[] spacings = new long[counts.length];
    for (int i = 0; i < spacings.length; i++) {
      spacings[i] = spacing(i);
    }
    return "strided(start=" + start + ", size=" + size + ", count=" + Arrays.toString(counts)
        + ", spacing=" + Arrays.toString(spacings) + ")";
  }
}
