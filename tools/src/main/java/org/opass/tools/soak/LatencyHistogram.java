package org.opass.tools.soak;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Call latencies, thread-safe and of fixed size: 1 µs buckets up to 10 ms, 100 µs buckets up to
 * 1 s, one bucket beyond. Enough for percentiles of NameNode calls, which take 0.05 to a few ms.
 */
final class LatencyHistogram {
  private static final int FINE = 10_000; // µs
  private static final int COARSE = 10_000; // buckets of 100 µs: 10 ms .. 1,010 ms
  private final AtomicLongArray counts = new AtomicLongArray(FINE + COARSE + 1);

  void record(long nanos) {
    long micros = Math.max(0, nanos / 1000);
    int bucket = micros < FINE ? (int) micros
        : (int) Math.min(FINE + (micros - FINE) / 100, FINE + COARSE);
    counts.incrementAndGet(bucket);
  }

  long count() {
    long n = 0;
    for (int i = 0; i < counts.length(); i++) {
      n += counts.get(i);
    }
    return n;
  }

  /** The {@code q} quantile (0 &lt; q &lt; 1) in microseconds (a bucket's upper end); 0 if empty. */
  double quantileMicros(double q) {
    long n = count();
    if (n == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(q * n);
    long seen = 0;
    for (int i = 0; i < counts.length(); i++) {
      seen += counts.get(i);
      if (seen >= rank) {
        return i < FINE ? i + 1 : FINE + (i - FINE + 1) * 100.0;
      }
    }
    return FINE + COARSE * 100.0;
  }
}
