package org.opass.mrap.mapreduce;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.mrap.task.VariableTask;

/**
 * A {@link VariableInputFormat} split: one {@link VariableTask} (the parts of files the task
 * reads, and their variables).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class VariableSplit extends TaskSplit<VariableTask> {
  /** For Hadoop's deserialization. */
  public VariableSplit() {
    this(new VariableTask());
  }

  public VariableSplit(VariableTask task) {
    super(task);
  }

  @Override
  VariableTask emptyTask() {
    return new VariableTask();
  }
}
