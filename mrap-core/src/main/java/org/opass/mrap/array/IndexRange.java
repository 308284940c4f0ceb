package org.opass.mrap.array;

/**
 * Indices a slab selects along one dimension: {@code count} of them from {@code first},
 * {@code step} apart ({@link Slab#runs}). A piece of the array is one run per dimension.
 * An immutable value.
 */
public final class IndexRange {
  private final long first;
  private final long count;
  private final long step;

  private IndexRange(long first, long count, long step) {
    this.first = first;
    this.count = count;
    this.step = step;
  }

  /**
   * @throws IllegalArgumentException naming the bad value: a negative first index, a count or
   *     step below 1, or a last index past 2^63
   */
  public static IndexRange of(long first, long count, long step) {
    if (first < 0) {
      throw new IllegalArgumentException("first (" + first + ") must be >= 0");
    }
    if (count < 1) {
      throw new IllegalArgumentException("count (" + count + ") must be >= 1");
    }
    if (step < 1) {
      throw new IllegalArgumentException("step (" + step + ") must be >= 1");
    }
    try {
      Math.addExact(first, Math.multiplyExact(count - 1, step));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(count + " indices from " + first + ", " + step
          + " apart, reach past 2^63");
    }
    return new IndexRange(first, count, step);
  }

  /** The first index. */
  public long first() {
    return first;
  }

  /** Indices in the run. */
  public long count() {
    return count;
  }

  /** From one index to the next. */
  public long step() {
    return step;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof IndexRange)) {
      return false;
    }
    IndexRange r = (IndexRange) o;
    return r.first == first && r.count == count && r.step == step;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(first) * 31 + Long.hashCode(count) * 17 + Long.hashCode(step);
  }

  @Override
  public String toString() {
    return "run(first=" + first + ", count=" + count + ", step=" + step + ")";
  }
}
