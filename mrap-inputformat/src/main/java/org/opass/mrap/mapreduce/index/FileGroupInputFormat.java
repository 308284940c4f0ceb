package org.opass.mrap.mapreduce.index;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.opass.conf.StrictConf;
import org.opass.mrap.locality.SplitLocality;

/**
 * The index job's input: the files the job names (folders and globs as {@code FileInputFormat}
 * lists them), grouped into tasks each of files whose first block (where a header is) one host
 * holds, shared out over the hosts as MRAP's splits are ({@link SplitLocality#virtualSplits}):
 * every task's headers read locally, the hosts evenly busy. A record is a file.
 */
public final class FileGroupInputFormat extends FileInputFormat<NullWritable, FileStatus> {
  @Override
  protected boolean isSplitable(JobContext context, org.apache.hadoop.fs.Path file) {
    return false;
  }

  /** The files {@code job}'s inputs name, as {@code FileInputFormat} lists them. */
  static List<FileStatus> listed(JobContext job) throws IOException {
    return new FileGroupInputFormat().listStatus(job);
  }

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus f : listStatus(job)) {
      if (f.getLen() > 0) {
        files.add(f);
      }
    }
    List<SplitLocality.Piece> pieces = new ArrayList<>();
    Set<String> hosts = new LinkedHashSet<>();
    for (FileStatus f : files) {
      List<String> h = firstBlockHosts(job, f);
      hosts.addAll(h);
      pieces.add(new SplitLocality.Piece(1, h));
    }
    int perTask = StrictConf.atLeast(job.getConfiguration(), IndexKeys.FILES_PER_TASK, 1, 0);
    if (perTask <= 0) {
      // a task a host: a header is a few small reads, a task's JVM costs seconds
      perTask = (int) Math.max(1, Math.ceil(files.size() / (double) Math.max(1, hosts.size())));
    }
    List<InputSplit> splits = new ArrayList<>();
    for (SplitLocality.Group g : SplitLocality.virtualSplits(pieces, perTask)) {
      List<FileStatus> mine = new ArrayList<>();
      for (int i : g.chunks()) {
        mine.add(files.get(i));
      }
      splits.add(new FileGroupSplit(mine, g.host()));
    }
    return splits;
  }

  private static List<String> firstBlockHosts(JobContext job, FileStatus f) throws IOException {
    BlockLocation[] blocks = f instanceof LocatedFileStatus
        ? ((LocatedFileStatus) f).getBlockLocations()
        : f.getPath().getFileSystem(job.getConfiguration()).getFileBlockLocations(f, 0, 1);
    return blocks == null || blocks.length == 0 ? List.of() : Arrays.asList(blocks[0].getHosts());
  }

  @Override
  public RecordReader<NullWritable, FileStatus> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new RecordReader<NullWritable, FileStatus>() {
      private List<FileStatus> files;
      private int next = -1;

      @Override
      public void initialize(InputSplit s, TaskAttemptContext c) {
        files = ((FileGroupSplit) s).files();
      }

      @Override
      public boolean nextKeyValue() {
        return ++next < files.size();
      }

      @Override
      public NullWritable getCurrentKey() {
        return NullWritable.get();
      }

      @Override
      public FileStatus getCurrentValue() {
        return files.get(next);
      }

      @Override
      public float getProgress() {
        return files.isEmpty() ? 1 : (float) Math.min(next, files.size()) / files.size();
      }

      @Override
      public void close() {
        // nothing held
      }
    };
  }
}
