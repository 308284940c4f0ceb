package org.opass.mrap.pattern;

import java.util.Objects;

/** Regions {@code [from, to)} of another pattern: what one map task of a global pattern reads. */
final class PatternSlice implements AccessPattern {
  private final AccessPattern whole;
  private final long from;
  private final long to;
  private volatile long totalBytes = -1; // computed on first use, by one scan
  private volatile long end = -1;

  PatternSlice(AccessPattern whole, long from, long to) {
    AccessPattern.checkRange(from, to, whole.regionCount());
    this.whole = whole;
    this.from = from;
    this.to = to;
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
    if (totalBytes < 0) {
      scan();
    }
    return totalBytes;
  }

  @Override
  public long end() {
    if (end < 0) {
      scan();
    }
    return end;
  }

  private void scan() {
    long bytes = 0;
    long last = 0;
    RegionCursor c = whole.cursor(from, to);
    while (c.next()) {
      bytes += c.length();
      last = Math.max(last, c.offset() + c.length());
    }
    totalBytes = bytes;
    end = last;
  }

  @Override
  public RegionCursor cursor(long a, long b) {
    AccessPattern.checkRange(a, b, regionCount());
    return whole.cursor(from + a, from + b);
  }

  @Override
  public AccessPattern slice(long a, long b) {
    AccessPattern.checkRange(a, b, regionCount());
    return new PatternSlice(whole, from + a, from + b);
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
