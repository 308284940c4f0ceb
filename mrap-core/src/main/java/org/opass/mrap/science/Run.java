package org.opass.mrap.science;

/**
 * Indices a slab selects along one dimension: {@code count} of them from {@code first},
 * {@code step} apart ({@link Slab#runs}). A piece of the array is one run per dimension.
 * An immutable value.
 */
final class Run {
  private final long first;
  private final long count;
  private final long step;

  private Run(long first, long count, long step) {
    this.first = first;
    this.count = count;
    this.step = step;
  }

  /**
   * @throws IllegalArgumentException naming the bad value: a negative first index, a count or
   *     step below 1, or a last index past 2^63
   */
  static Run of(long first, long count, long step) {
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
    return new Run(first, count, step);
  }

  /** The first index. */
  long first() {
    return first;
  }

  /** Indices in the run. */
  long count() {
    return count;
  }

  /** From one index to the next. */
  long step() {
    return step;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Run)) {
      return false;
    }
    Run r = (Run) o;
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
