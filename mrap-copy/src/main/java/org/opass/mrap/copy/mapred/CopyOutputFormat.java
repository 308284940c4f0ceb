package org.opass.mrap.copy.mapred;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** No records to write: the copy's output is the file its {@link CopyCommitter} publishes. */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class CopyOutputFormat extends OutputFormat<NullWritable, NullWritable> {
  @Override
  public RecordWriter<NullWritable, NullWritable> getRecordWriter(TaskAttemptContext ctx) {
    return new RecordWriter<NullWritable, NullWritable>() {
      @Override
      public void write(NullWritable key, NullWritable value) {
      }

      @Override
      public void close(TaskAttemptContext context) {
      }
    };
  }

  @Override
  public void checkOutputSpecs(JobContext context) {
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
    return new CopyCommitter();
  }
}
