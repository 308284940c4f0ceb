package org.opass.mrap.read;

/**
 * Where a reader counts what it read ({@link MrapCounter}): a MapReduce task's counters, or
 * nothing where the engine keeps none.
 */
public interface ReadCounters {
  /** Counts nothing. */
  ReadCounters NONE = (counter, n) -> { };

  void add(MrapCounter counter, long n);
}
