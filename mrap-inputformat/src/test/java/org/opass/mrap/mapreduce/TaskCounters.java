package org.opass.mrap.mapreduce;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.StatusReporter;

/**
 * Counters for record readers run outside a job, as a task's context has them (Hadoop's
 * default test context has none).
 */
public final class TaskCounters extends StatusReporter {
  public final Counters counters = new Counters();

  /** The value of counter {@code name}. */
  public long get(Enum<?> name) {
    return counters.findCounter(name).getValue();
  }

  @Override
  public synchronized Counter getCounter(Enum<?> name) {
    return counters.findCounter(name);
  }

  @Override
  public synchronized Counter getCounter(String group, String name) {
    return counters.findCounter(group, name);
  }

  @Override
  public void progress() {
  }

  @Override
  public float getProgress() {
    return 0;
  }

  @Override
  public void setStatus(String status) {
  }
}
