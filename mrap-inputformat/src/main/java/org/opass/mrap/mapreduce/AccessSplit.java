package org.opass.mrap.mapreduce;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.mrap.task.RegionTask;

/**
 * An {@link AccessInputFormat} split: one {@link RegionTask} (the regions the task reads, in
 * which file, and how it holds them).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class AccessSplit extends TaskSplit<RegionTask> {
  /** For Hadoop's deserialization. */
  public AccessSplit() {
    this(new RegionTask());
  }

  public AccessSplit(RegionTask task) {
    super(task);
  }

  @Override
  RegionTask emptyTask() {
    return new RegionTask();
  }
}
