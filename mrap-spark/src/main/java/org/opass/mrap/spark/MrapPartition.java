package org.opass.mrap.spark;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.io.Writable;
import org.apache.spark.sql.connector.read.InputPartition;
import org.opass.mrap.task.ReadTask;
import org.opass.mrap.task.RegionTask;
import org.opass.mrap.task.VariableTask;

/**
 * A task planned by mrap-core, as the executor that reads it gets it: the task's own
 * serialized form (as MapReduce ships it in a split), and its hosts, which Spark's scheduler
 * prefers.
 */
final class MrapPartition implements InputPartition {
  private static final long serialVersionUID = 1L;
  private final byte[] task;
  private final boolean variable; // a VariableTask, else a RegionTask
  private final String[] hosts;

  MrapPartition(ReadTask task) {
    this.task = bytes(task);
    this.variable = task instanceof VariableTask;
    this.hosts = task.hosts();
  }

  @Override
  public String[] preferredLocations() {
    return hosts.clone();
  }

  boolean variable() {
    return variable;
  }

  /** The task, read back: a {@link RegionTask} or a {@link VariableTask}. */
  ReadTask task() {
    ReadTask t = variable ? new VariableTask() : new RegionTask();
    try {
      t.readFields(new DataInputStream(new ByteArrayInputStream(task)));
    } catch (IOException e) {
      throw new UncheckedIOException("a damaged mrap partition", e);
    }
    return t;
  }

  /** A Hadoop configuration from its {@link #bytes}, as an executor gets it. */
  static org.apache.hadoop.conf.Configuration configuration(byte[] bytes) {
    org.apache.hadoop.conf.Configuration c = new org.apache.hadoop.conf.Configuration(false);
    try {
      c.readFields(new DataInputStream(new ByteArrayInputStream(bytes)));
    } catch (IOException e) {
      throw new UncheckedIOException("a damaged mrap read configuration", e);
    }
    return c;
  }

  static byte[] bytes(Writable w) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try {
      w.write(new DataOutputStream(b));
    } catch (IOException e) { // to memory
      throw new UncheckedIOException(e);
    }
    return b.toByteArray();
  }
}
