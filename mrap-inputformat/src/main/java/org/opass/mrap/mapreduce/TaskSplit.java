package org.opass.mrap.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.opass.mrap.task.ReadTask;

/** A split that is one task planned by mrap-core, in the task's own serialized form. */
abstract class TaskSplit<T extends ReadTask> extends InputSplit implements Writable {
  private T task;

  TaskSplit(T task) {
    this.task = task;
  }

  /** An empty task, for Hadoop's deserialization. */
  abstract T emptyTask();

  /** What the task reads. */
  public T task() {
    return task;
  }

  @Override
  public long getLength() {
    return task.length();
  }

  @Override
  public String[] getLocations() {
    return task.hosts();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    task.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    task = emptyTask();
    task.readFields(in);
  }

  @Override
  public String toString() {
    return task.toString();
  }
}
