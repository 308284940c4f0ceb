package org.opass.mrap.mapreduce;

import java.util.EnumMap;
import java.util.Map;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.read.ReadCounters;

/**
 * A task's MapReduce counters, as mrap-core's readers count: each looked up when first counted;
 * none where the context has none (a test's).
 */
final class ContextCounters implements ReadCounters {
  private final TaskAttemptContext ctx;
  private final Map<MrapCounter, Counter> counters = new EnumMap<>(MrapCounter.class);

  ContextCounters(TaskAttemptContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void add(MrapCounter counter, long n) {
    Counter k = counters.get(counter);
    if (k == null && !counters.containsKey(counter)) {
      k = ctx.getCounter(counter);
      counters.put(counter, k);
    }
    if (k != null) {
      k.increment(n);
    }
  }
}
