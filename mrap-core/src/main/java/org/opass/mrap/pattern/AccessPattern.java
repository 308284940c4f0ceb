package org.opass.mrap.pattern;

import java.util.ArrayList;
import java.util.List;

/**
 * The regions of a file a job reads, in file order: a value (immutable, compared by what it
 * names: two patterns naming the same regions are equal however they were written), iterated
 * lazily by index range so that 10^8 regions need no 10^8 objects. Offsets are 64-bit. No
 * Hadoop types.
 *
 * <p>Kinds: {@link StridedPattern} (vector and nested strided), {@link SubarrayPattern} (a
 * block of an n-dimensional row-major array; {@link TiledPattern} cuts an array into them),
 * {@link IndexedPattern} (a list of offsets and lengths), {@link ConcatenatedPattern} (several
 * files' patterns laid end to end, for a container of many files). {@link PatternConfig} loads
 * one from configuration properties.
 *
 * <p>The lookups ({@link #firstAtOrAfter}, {@link #bytesBelow}, {@link #bytesBefore},
 * {@link #regionOfByte}, {@link #offsetOf}) are closed forms for the regular kinds (a few
 * operations per nesting level) and binary searches for an indexed pattern, so that cutting a
 * pattern into splits, pricing hosts and finding where a byte went never walks every region.
 */
public interface AccessPattern {
  /** Number of regions. */
  long regionCount();

  /** Bytes in all regions together. */
  long totalBytes();

  /** One past the last byte any region reads (0 for no region). */
  long end();

  /** Regions {@code [from, to)} (by index, in file order). */
  RegionCursor cursor(long from, long to);

  /** All regions, in file order. */
  default RegionCursor cursor() {
    return cursor(0, regionCount());
  }

  /** Offset of region {@code k}. */
  default long offsetOf(long k) {
    RegionCursor c = cursor(k, k + 1);
    c.next();
    return c.offset();
  }

  /** Bytes of regions {@code [0, k)}: where region {@code k} starts when regions are laid end
   * to end (its logical offset). */
  long bytesBefore(long k);

  /** The region holding byte {@code b} of the regions laid end to end: the {@code k} with
   * {@code bytesBefore(k) <= b < bytesBefore(k + 1)}; {@link #regionCount()} for {@code b} at
   * or past {@link #totalBytes()}. */
  long regionOfByte(long b);

  /** The index of the first region that starts at or after file offset {@code offset}: the
   * number of regions that start before it. */
  long firstAtOrAfter(long offset);

  /** Bytes of the regions below file offset {@code offset}: the sum over regions of their
   * bytes in {@code [0, offset)}. */
  long bytesBelow(long offset);

  /** Whether no two regions share a byte of the file. Strided and subarray patterns never do;
   * an indexed one may. */
  boolean disjoint();

  /** This pattern as a canonical strided one if it is regular (strided, subarray, an indexed
   * list that is a vector), else null. Two patterns with canonical forms are equal exactly when
   * their canonical forms are. */
  default StridedPattern asStrided() {
    return null;
  }

  /** Regions {@code [from, to)} as objects: for small ranges (tests, descriptions). */
  default List<Region> regions(long from, long to) {
    List<Region> out = new ArrayList<>();
    RegionCursor c = cursor(from, to);
    while (c.next()) {
      out.add(Region.of(c.offset(), c.length()));
    }
    return out;
  }

  /** Regions {@code [from, to)} of this pattern, as a pattern of their own. */
  default AccessPattern slice(long from, long to) {
    if (from == 0 && to == regionCount()) {
      return this;
    }
    return new PatternSlice(this, from, to);
  }

  /**
   * Whether two patterns name the same regions (offsets and lengths, in order), however they
   * are written: by their canonical strided forms where both have one, else region by region.
   */
  static boolean sameRegions(AccessPattern a, AccessPattern b) {
    if (a.equals(b)) {
      return true;
    }
    if (a.asStrided() != null && b.asStrided() != null) {
      return false; // canonical forms differ
    }
    if (a.regionCount() != b.regionCount() || a.totalBytes() != b.totalBytes()
        || a.end() != b.end()) {
      return false;
    }
    RegionCursor x = a.cursor();
    RegionCursor y = b.cursor();
    while (x.next()) {
      y.next();
      if (x.offset() != y.offset() || x.length() != y.length()) {
        return false;
      }
    }
    return true;
  }

  /** Checks a region index range against {@link #regionCount()}. */
  static void checkRange(long from, long to, long count) {
    if (from < 0 || from > to || to > count) {
      throw new IndexOutOfBoundsException("regions [" + from + ", " + to + ") of " + count);
    }
  }
}
