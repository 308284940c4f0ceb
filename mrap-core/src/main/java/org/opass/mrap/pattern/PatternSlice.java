package org.opass.mrap.pattern;

import java.util.Objects;

/**
 * Regions {@code [from, to)} of another pattern: what one map task of a global pattern reads.
 * Every lookup is the whole pattern's, shifted by {@code from}.
 */
final class PatternSlice implements AccessPattern {
  private final AccessPattern whole;
  private final long from;
  private final long to;
  private final long bytesBefore; // of the whole's regions before this slice
  private volatile long end = -1; // computed on first use

  PatternSlice(AccessPattern whole, long from, long to) {
    AccessPattern.checkRange(from, to, whole.regionCount());
    this.whole = whole;
    this.from = from;
    this.to = to;
    this.bytesBefore = whole.bytesBefore(from);
  }

  AccessPattern whole() {
    return whole;
  }

  long from() {
    return from;
  }

  long to() {
    return to;
  }

  @Override
  public long regionCount() {
    return to - from;
  }

  @Override
  public long totalBytes() {
    return whole.bytesBefore(to) - bytesBefore;
  }

  @Override
  public long end() {
    if (end < 0) {
      long last = 0;
      if (whole.disjoint()) { // the last region ends last
        last = to == from ? 0 : whole.offsetOf(to - 1) + (whole.bytesBefore(to)
            - whole.bytesBefore(to - 1));
      } else {
        RegionCursor c = whole.cursor(from, to);
        while (c.next()) {
          last = Math.max(last, c.offset() + c.length());
        }
      }
      end = last;
    }
    return end;
  }

  @Override
  public long offsetOf(long k) {
    AccessPattern.checkRange(k, k + 1, regionCount());
    return whole.offsetOf(from + k);
  }

  @Override
  public long bytesBefore(long k) {
    AccessPattern.checkRange(0, k, regionCount());
    return whole.bytesBefore(from + k) - bytesBefore;
  }

  @Override
  public long regionOfByte(long b) {
    if (b >= totalBytes()) {
      return regionCount();
    }
    return whole.regionOfByte(bytesBefore + Math.max(0, b)) - from;
  }

  @Override
  public long firstAtOrAfter(long offset) {
    return Math.min(to, Math.max(from, whole.firstAtOrAfter(offset))) - from;
  }

  @Override
  public long bytesBelow(long offset) {
    if (whole.disjoint()) { // the whole's regions before this slice end below its first one
      return Math.min(totalBytes(), Math.max(0, whole.bytesBelow(offset) - bytesBefore));
    }
    long b = 0;
    RegionCursor c = whole.cursor(from, to);
    while (c.next() && c.offset() < offset) {
      b += Math.min(c.length(), offset - c.offset());
    }
    return b;
  }

  @Override
  public boolean disjoint() {
    return whole.disjoint();
  }

  @Override
  public RegionCursor cursor(long a, long b) {
    AccessPattern.checkRange(a, b, regionCount());
    return whole.cursor(from + a, from + b);
  }

  @Override
  public AccessPattern slice(long a, long b) {
    AccessPattern.checkRange(a, b, regionCount());
    return whole.slice(from + a, from + b);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PatternSlice && ((PatternSlice) o).whole.equals(whole)
        && ((PatternSlice) o).from == from && ((PatternSlice) o).to == to;
  }

  @Override
  public int hashCode() {
    return Objects.hash(whole, from, to);
  }

  @Override
  public String toString() {
    return whole + "[" + from + ":" + to + "]";
  }
}
