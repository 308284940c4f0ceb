package org.opass.mrap.mapreduce;

import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.opass.mrap.read.RegionReader;

/**
 * An {@link AccessSplit}'s regions as MapReduce records (key: logical offset, value: the
 * bytes), read by mrap-core's {@link RegionReader}, its reads counted in the task's counters.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public class AccessRecordReader
    extends TaskRecordReader<LongWritable, BytesWritable, RegionReader> {
  private final LongWritable key = new LongWritable();

  @Override
  public void initialize(InputSplit split, TaskAttemptContext ctx) throws IOException {
    reader = new RegionReader(ctx.getConfiguration(), ((AccessSplit) split).task(),
        new ContextCounters(ctx));
  }

  @Override
  public LongWritable getCurrentKey() {
    key.set(reader.key());
    return key;
  }

  @Override
  public BytesWritable getCurrentValue() {
    return reader.value();
  }
}
