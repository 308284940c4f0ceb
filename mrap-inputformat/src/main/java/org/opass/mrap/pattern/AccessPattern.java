package org.opass.mrap.pattern;

import java.util.ArrayList;
import java.util.List;

/**
 * The regions of a file a job reads, in file order: a value (immutable, compared by
 * {@link #equals}, printed canonically by {@link #toString}), iterated lazily by index range so
 * that 10^8 regions need no 10^8 objects. Offsets are 64-bit. No Hadoop types.
 *
 * <p>Kinds: {@link StridedPattern} (vector and nested strided), {@link SubarrayPattern} (a
 * block of an n-dimensional row-major array; {@link TiledPattern} cuts an array into them),
 * {@link IndexedPattern} (a list of offsets and lengths). {@link PatternConfig} loads one from
 * configuration properties.
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
    return new PatternSlice(this, from, to);
  }

  /** Checks a region index range against {@link #regionCount()}. */
  static void checkRange(long from, long to, long count) {
    if (from < 0 || from > to || to > count) {
      throw new IndexOutOfBoundsException("regions [" + from + ", " + to + ") of " + count);
    }
  }
}
