package org.opass.mrap.pattern;

import java.util.Arrays;

/**
 * The regions of several files laid one after another, as if the files were one: part {@code i}
 * is a pattern of its own file, shifted to where that file starts ({@link #start}). What a
 * container of many small files (thesis §4.4.3, {@code mrap-copy -pack}) is restructured for:
 * each file's regions, in file order. Lookups are a binary search over the parts (prefix sums
 * of their regions and bytes) and then the part's own closed form. Immutable.
 */
public final class ConcatenatedPattern implements AccessPattern {
  private final long[] starts;
  private final AccessPattern[] parts;
  private final long[] regionsBefore; // regions of the parts before part i; [n] is the count
  private final long[] bytesBefore; // bytes of the parts before part i; [n] is the total

  private ConcatenatedPattern(long[] starts, AccessPattern[] parts) {
    this.starts = starts;
    this.parts = parts;
    int n = parts.length;
    regionsBefore = new long[n + 1];
    bytesBefore = new long[n + 1];
    for (int i = 0; i < n; i++) {
      regionsBefore[i + 1] = Math.addExact(regionsBefore[i], parts[i].regionCount());
      bytesBefore[i + 1] = Math.addExact(bytesBefore[i], parts[i].totalBytes());
    }
  }

  /**
   * Part {@code i}'s regions shifted by {@code starts[i]}.
   *
   * @throws IllegalArgumentException naming the part that starts before the one before it
   *     ends, or a part with no region
   */
  public static ConcatenatedPattern of(long[] starts, AccessPattern[] parts) {
    if (starts.length != parts.length || parts.length == 0) {
      throw new IllegalArgumentException(starts.length + " starts and " + parts.length
          + " parts: give one start a part, at least one part");
    }
    long end = 0;
    for (int i = 0; i < parts.length; i++) {
      if (parts[i].regionCount() == 0 || parts[i].totalBytes() == 0) {
        throw new IllegalArgumentException("part " + i + " reads no byte");
      }
      if (starts[i] < end) {
        throw new IllegalArgumentException("part " + i + " starts at " + starts[i]
            + ", before part " + (i - 1) + " ends (" + end + ")");
      }
      try {
        end = Math.addExact(starts[i], parts[i].end());
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("part " + i + " ends past 2^63");
      }
    }
    try {
      return new ConcatenatedPattern(starts.clone(), parts.clone());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("the parts add up to more than 2^63 regions or bytes");
    }
  }

  /** Number of parts (files). */
  public int partCount() {
    return parts.length;
  }

  /** Part {@code i}'s own pattern, at its file's offsets. */
  public AccessPattern part(int i) {
    return parts[i];
  }

  /** Where part {@code i}'s file starts. */
  public long start(int i) {
    return starts[i];
  }

  /** The part that region {@code k} belongs to. */
  public int partOfRegion(long k) {
    AccessPattern.checkRange(k, k + 1, regionCount());
    return floor(regionsBefore, k);
  }

  /** The index of part {@code i}'s first region. */
  public long firstRegion(int i) {
    return regionsBefore[i];
  }

  /** The last part that starts at or before {@code offset}, or -1. */
  private int partAt(long offset) {
    return floor(starts, offset);
  }

  /** The last index {@code i < parts} with {@code sorted[i] <= key}, or -1. */
  private int floor(long[] sorted, long key) {
    int i = Arrays.binarySearch(sorted, 0, parts.length, key);
    if (i >= 0) {
      return i;
    }
    return -i - 2;
  }

  @Override
  public long regionCount() {
    return regionsBefore[parts.length];
  }

  @Override
  public long totalBytes() {
    return bytesBefore[parts.length];
  }

  @Override
  public long end() {
    int last = parts.length - 1;
    return starts[last] + parts[last].end();
  }

  @Override
  public long offsetOf(long k) {
    int i = partOfRegion(k);
    return starts[i] + parts[i].offsetOf(k - regionsBefore[i]);
  }

  @Override
  public long bytesBefore(long k) {
    AccessPattern.checkRange(0, k, regionCount());
    if (k == regionCount()) {
      return totalBytes();
    }
    int i = floor(regionsBefore, k);
    return bytesBefore[i] + parts[i].bytesBefore(k - regionsBefore[i]);
  }

  @Override
  public long regionOfByte(long b) {
    if (b >= totalBytes()) {
      return regionCount();
    }
    b = Math.max(0, b);
    int i = floor(bytesBefore, b);
    return regionsBefore[i] + parts[i].regionOfByte(b - bytesBefore[i]);
  }

  @Override
  public long firstAtOrAfter(long offset) {
    int i = partAt(offset);
    return i < 0 ? 0 : regionsBefore[i] + parts[i].firstAtOrAfter(offset - starts[i]);
  }

  @Override
  public long bytesBelow(long offset) {
    int i = partAt(offset);
    return i < 0 ? 0 : bytesBefore[i] + parts[i].bytesBelow(offset - starts[i]);
  }

  @Override
  public boolean disjoint() {
    for (AccessPattern p : parts) {
      if (!p.disjoint()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public RegionCursor cursor(long from, long to) {
    AccessPattern.checkRange(from, to, regionCount());
    return new RegionCursor() {
      private long next = from;
      private int part = -1;
      private RegionCursor in;
      private long offset;
      private long length;

      @Override
      public boolean next() {
        while (next < to) {
          if (in != null && in.next()) {
            offset = starts[part] + in.offset();
            length = in.length();
            next++;
            return true;
          }
          part = floor(regionsBefore, next);
          long local = next - regionsBefore[part];
          in = parts[part].cursor(local, Math.min(parts[part].regionCount(),
              to - regionsBefore[part]));
        }
        return false;
      }

      @Override
      public long offset() {
        return offset;
      }

      @Override
      public long length() {
        return length;
      }
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ConcatenatedPattern
        && Arrays.equals(((ConcatenatedPattern) o).starts, starts)
        && Arrays.equals(((ConcatenatedPattern) o).parts, parts);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(starts) + Arrays.hashCode(parts);
  }

  @Override
  public String toString() {
    return parts.length == 1 ? parts[0] + " from " + starts[0]
        : "the regions of " + parts.length + " files laid end to end (" + parts[0] + " from "
            + starts[0] + ", ...)";
  }
}
