package org.opass.mrap.copy.mapred;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.opass.mrap.copy.CopyJobKeys;
import org.opass.mrap.copy.CopyPlan;

/**
 * A copy job's splits, one per writer of its {@link CopyPlan}, from the local file the client
 * wrote them to ({@link #writeSplits}, {@link CopyJobKeys#SPLITS}: read where the job is
 * submitted); a record per chunk, its number.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class ChunkInputFormat extends InputFormat<IntWritable, NullWritable> {
  /**
   * Writes the plan's splits to {@code file}, one per writer that has chunks.
   *
   * @return the number of splits
   */
  public static int writeSplits(CopyPlan plan, File file) throws IOException {
    List<List<Integer>> byWriter = new ArrayList<>();
    for (int w = 0; w < plan.writers(); w++) {
      byWriter.add(new ArrayList<>());
    }
    for (int c = 0; c < plan.chunks(); c++) {
      byWriter.get(plan.writerOf(c)).add(c);
    }
    int splits = 0;
    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
        new FileOutputStream(file)))) {
      for (int w = 0; w < byWriter.size(); w++) {
        if (!byWriter.get(w).isEmpty()) {
          out.writeBoolean(true);
          new ChunkSplit(plan.host(w), byWriter.get(w).stream().mapToInt(Integer::intValue)
              .toArray(), plan.chunkSize(), plan.length()).write(out);
          splits++;
        }
      }
      out.writeBoolean(false);
    }
    return splits;
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    List<InputSplit> out = new ArrayList<>();
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(
        new FileInputStream(context.getConfiguration().get(CopyJobKeys.SPLITS))))) {
      while (in.readBoolean()) {
        ChunkSplit split = new ChunkSplit();
        split.readFields(in);
        out.add(split);
      }
    }
    return out;
  }

  @Override
  public RecordReader<IntWritable, NullWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new RecordReader<IntWritable, NullWritable>() {
      private int[] chunks;
      private int next;
      private final IntWritable key = new IntWritable();

      @Override
      public void initialize(InputSplit s, TaskAttemptContext ctx) {
        chunks = ((ChunkSplit) s).chunks();
      }

      @Override
      public boolean nextKeyValue() {
        if (next >= chunks.length) {
          return false;
        }
        key.set(chunks[next++]);
        return true;
      }

      @Override
      public IntWritable getCurrentKey() {
        return key;
      }

      @Override
      public NullWritable getCurrentValue() {
        return NullWritable.get();
      }

      @Override
      public float getProgress() {
        return chunks.length == 0 ? 1f : (float) next / chunks.length;
      }

      @Override
      public void close() {
      }
    };
  }
}
