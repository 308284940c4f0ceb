package org.opass.mrap.copy.mapred;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.opass.mrap.copy.CopyJobKeys;
import org.opass.mrap.copy.CopyPlan;
import org.opass.mrap.copy.Crc32c;
import org.opass.mrap.copy.Parts;
import org.opass.mrap.copy.Publisher;
import org.opass.mrap.copy.SourceFile;

/**
 * Joins, checks and publishes the copy when every writer is done ({@code commitJob}): the
 * parts joined with {@code concat}, the result checked against the bytes sent and the source's
 * checksum, and published under its name in one rename; or removes the parts when the job is
 * given up ({@code abortJob}). The writers publish their own parts, so tasks have nothing to
 * commit.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class CopyCommitter extends OutputCommitter {
  @Override
  public void setupJob(JobContext context) {
  }

  @Override
  public void setupTask(TaskAttemptContext context) {
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) {
    return false;
  }

  @Override
  public void commitTask(TaskAttemptContext context) {
  }

  @Override
  public void abortTask(TaskAttemptContext context) {
  }

  /**
   * @throws IOException if the copy cannot be published (its reason also left for the client
   *     in {@link WorkFiles#failureNote}), or was committed already
   */
  @Override
  public void commitJob(JobContext context) throws IOException {
    try {
      join(context.getConfiguration());
    } catch (IOException | RuntimeException e) {
      Configuration conf = context.getConfiguration();
      Path temp = new Path(conf.get(CopyJobKeys.TEMP));
      try (FSDataOutputStream out = temp.getFileSystem(conf).create(
          WorkFiles.failureNote(temp))) {
        out.writeUTF(String.valueOf(e.getMessage()));
      } catch (IOException | RuntimeException cannot) {
        // the client says the job failed, without this detail
      }
      throw e;
    }
  }

  private static void join(Configuration conf) throws IOException {
    Path parts = new Path(conf.get(CopyJobKeys.PARTS));
    Path temp = new Path(conf.get(CopyJobKeys.TEMP));
    Path dst = new Path(conf.get(CopyJobKeys.DESTINATION));
    FileSystem fs = dst.getFileSystem(conf);
    long length = conf.getLong(CopyJobKeys.LENGTH, -1);
    long chunk = conf.getLong(CopyJobKeys.CHUNK, -1);
    int chunks = CopyPlan.chunks(chunk, length);
    int[] chunkCrc = new int[chunks];
    boolean[] seen = new boolean[chunks];
    long logical = conf.getLong(CopyJobKeys.LOGICAL, -1);
    Crc32c.Accumulator original = new Crc32c.Accumulator(logical);
    FileStatus[] crcFiles;
    try {
      crcFiles = WorkFiles.listCrcs(fs, parts);
    } catch (FileNotFoundException gone) { // published, or given up: its parts are removed then
      throw new IOException("nothing to publish as " + dst + ": its parts folder " + parts
          + " is gone (the copy was committed or aborted already)", gone);
    }
    for (FileStatus st : crcFiles) {
      try (DataInputStream in = new DataInputStream(new BufferedInputStream(
          fs.open(st.getPath())))) {
        for (int n = in.readInt(); n > 0; n--) {
          int c = in.readInt();
          if (c < 0 || c >= chunks || seen[c]) {
            throw new IOException("chunk " + c + " reported twice or out of range in "
                + parts);
          }
          seen[c] = true;
          chunkCrc[c] = in.readInt();
          original.addValue(in.readInt());
        }
      }
    }
    for (int c = 0; c < chunks; c++) {
      if (!seen[c]) {
        throw new IOException("no writer reported chunk " + c + " in " + parts);
      }
    }
    int written = Parts.join(fs, parts, temp, chunk, length, chunkCrc);
    if (conf.getBoolean(CopyJobKeys.VERIFY, true)) {
      Publisher.verifyWritten(conf, fs, temp, length, written, dst);
      if (conf.getBoolean(CopyJobKeys.SOURCE_PLAIN, true)) {
        Publisher.verifySource(conf, SourceFile.of(conf,
            new Path(conf.get(CopyJobKeys.SOURCE))), original.value());
      }
    }
    Publisher.publish(conf, fs, temp, dst, conf.getBoolean(CopyJobKeys.OVERWRITE, false));
    Publisher.quietDelete(fs, parts);
  }

  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    Configuration conf = context.getConfiguration();
    Path parts = new Path(conf.get(CopyJobKeys.PARTS));
    FileSystem fs = parts.getFileSystem(conf);
    Publisher.quietDelete(fs, parts);
    Publisher.quietDelete(fs, new Path(conf.get(CopyJobKeys.TEMP)));
  }
}
