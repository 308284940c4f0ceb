package org.opass.mrap.copy;

import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.opass.mrap.copy.mapred.ChunkInputFormat;
import org.opass.mrap.copy.mapred.ChunkWriter;
import org.opass.mrap.copy.mapred.CopyCommitter;
import org.opass.mrap.copy.mapred.CopyOutputFormat;
import org.opass.mrap.copy.mapred.WorkFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parallel copy (CHAIO on HDFS), driven as DistCp drives its job: a plan
 * ({@link CopyPlan}: the destination's chunks shared among writer tasks by
 * {@link AggregatorSelection}, one writer per chunk, on a node that holds the chunk's source
 * bytes, spread evenly over nodes), a writer mapper ({@link ChunkWriter}: each task writes its
 * chunks as whole-block part files under its attempt's names), and a {@link CopyCommitter}
 * that joins the parts with {@code concat}, checks the result against the bytes sent and the
 * source's checksum, and publishes it under its name in one rename, or removes the parts. A
 * MapReduce job (YARN on a cluster, the LocalJobRunner here), no reduce.
 *
 * <p>Splits carry chunk numbers only; the destination's layout goes to the tasks once, as a
 * file in the hidden parts folder. On YARN the job publishes the copy even if the client that
 * submitted it is gone.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
final class ParallelCopy {
  private static final Logger LOG = LoggerFactory.getLogger(ParallelCopy.class);
  private static final String LOCAL_TASKS = "mapreduce.local.map.tasks.maximum";

  private ParallelCopy() {
  }

  /**
   * Runs the copy job: on success the copy is checked and published as {@code dst}.
   *
   * @throws CopyException if the job fails (its committer removed the parts)
   */
  static void run(Configuration conf, CopyWork w, RestructuringCopy.Progress progress)
      throws IOException {
    long t0 = System.nanoTime();
    FileSystem dstFs = w.dst.getFileSystem(conf);
    CopyPlan plan = CopyPlan.plan(w.source, w.layout, w.settings.blockSize, w.physicalLength,
        w.settings.writers);
    dstFs.mkdirs(w.parts);
    if (w.layout != null) { // the destination's w.layout, for every writer
      WorkFiles.writeLayout(dstFs, w.parts, w.layout);
    }
    File splits = File.createTempFile("mrap-copy-splits-", ".bin");
    Job job;
    try {
      int writers = ChunkInputFormat.writeSplits(plan, splits);
      job = Job.getInstance(conf, "mrap-copy " + w.source.path().getName());
      Configuration jc = job.getConfiguration();
      jc.set(CopyJobKeys.SPLITS, splits.getAbsolutePath());
      // qualified: the tasks resolve paths in their own working folders
      jc.set(CopyJobKeys.SOURCE, w.source.fs().makeQualified(w.source.path()).toString());
      jc.setLong(CopyJobKeys.SOURCE_LENGTH, w.source.status().getLen());
      jc.setBoolean(CopyJobKeys.SOURCE_PLAIN, w.source.layout() == null);
      jc.set(CopyJobKeys.PARTS, dstFs.makeQualified(w.parts).toString());
      jc.set(CopyJobKeys.TEMP, dstFs.makeQualified(w.temp).toString());
      jc.set(CopyJobKeys.DESTINATION, dstFs.makeQualified(w.dst).toString());
      for (CopyOptionSwitch option : CopyOptionSwitch.values()) {
        option.addToConf(jc, w.options);
      }
      jc.setLong(CopyJobKeys.CHUNK, plan.chunkSize());
      jc.setLong(CopyJobKeys.LENGTH, w.physicalLength);
      jc.setLong(CopyJobKeys.LOGICAL, w.source.length());
      jc.setInt(CopyJobKeys.REPLICATION, w.settings.replication);
      jc.setInt(CopyJobKeys.PERMISSION, w.settings.permission.toShort());
      jc.setBoolean("mapreduce.map.speculative", false); // a chunk a writer
      // the tool's w.options were parsed by ToolRunner; a library caller has none
      jc.setBoolean("mapreduce.client.genericoptionsparser.used", true);
      job.setJarByClass(ParallelCopy.class);
      job.setInputFormatClass(ChunkInputFormat.class);
      job.setMapperClass(ChunkWriter.class);
      job.setNumReduceTasks(0);
      job.setOutputFormatClass(CopyOutputFormat.class);
      job.setOutputKeyClass(NullWritable.class);
      job.setOutputValueClass(NullWritable.class);
      if ("local".equals(conf.get("mapreduce.framework.name", "local"))
          && conf.get(LOCAL_TASKS) == null) {
        // the LocalJobRunner runs one map task at a time unless told: run the writers together
        jc.setInt(LOCAL_TASKS, Math.min(writers, 16));
      }
      try {
        job.submit(); // the splits are read from the local file here, in this process
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("the copy of " + w.source.path() + " was interrupted");
      } catch (ClassNotFoundException e) {
        throw new IOException(e);
      }
    } finally {
      splits.delete();
    }
    long submitted = System.nanoTime();
    try {
      while (!job.isComplete()) {
        if (progress != null) {
          progress.copied((long) (job.mapProgress() * w.physicalLength), w.physicalLength);
        }
        Thread.sleep(200);
      }
      if (!job.isSuccessful()) {
        throw new CopyException(false, "the copy job " + job.getJobID() + " failed: "
            + why(job, dstFs, w.temp));
      }
    } catch (InterruptedException e) {
      kill(job);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("the copy of " + w.source.path() + " was interrupted");
    }
    LOG.info("{}: {} chunks, {} writers; planned and submitted in {} ms, job {} ran, joined, "
        + "checked and published in {} ms", w.source.path(), plan.chunks(), plan.writers(),
        (submitted - t0) / 1_000_000, job.getJobID(), (System.nanoTime() - submitted)
        / 1_000_000);
  }

  /** Why a job failed: its committer's own words, or a failed task's, or the job's. */
  private static String why(Job job, FileSystem fs, Path temp)
      throws IOException, InterruptedException {
    Path failure = WorkFiles.failureNote(temp);
    try (FSDataInputStream in = fs.open(failure)) {
      return in.readUTF();
    } catch (IOException none) {
      // no word from the committer
    } finally {
      Publisher.quietDelete(fs, failure);
    }
    try {
      for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 1000)) {
        if (e.getStatus() == TaskCompletionEvent.Status.FAILED) {
          String[] d = job.getTaskDiagnostics(e.getTaskAttemptId());
          if (d != null && d.length > 0) {
            return "task " + e.getTaskAttemptId() + ": " + d[0].split("\n", 2)[0];
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return job.getStatus().getFailureInfo();
  }

  /** Kills the job and waits (a while) for its tasks to stop writing parts. */
  private static void kill(Job job) throws IOException {
    job.killJob();
    long deadline = System.nanoTime() + 30_000_000_000L;
    try {
      while (!job.isComplete() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
    } catch (InterruptedException again) {
      Thread.currentThread().interrupt();
    }
  }
}
