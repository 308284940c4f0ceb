package org.opass.mrap.copy.mapred;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;

/**
 * No records to write (Hadoop's {@link NullOutputFormat}): the copy's output is the file its
 * {@link CopyCommitter} publishes.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class CopyOutputFormat extends NullOutputFormat<NullWritable, NullWritable> {
  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
    return new CopyCommitter();
  }
}
