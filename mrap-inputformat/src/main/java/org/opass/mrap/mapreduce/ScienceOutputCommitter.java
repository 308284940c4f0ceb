package org.opass.mrap.mapreduce;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.opass.mrap.write.DatasetCommit;

/**
 * The commit of a {@link ScienceOutputFormat} job, as the copy's: the job's setup starts the
 * write ({@link DatasetCommit#begin}: the work folder beside the destination, an existing
 * destination refused unless it is replaced); a reducer's attempt writes its parts there, and
 * at its close the list of what it wrote ({@code pending-<attempt>}); the task's commit renames
 * that list to {@code names-<task>}, so only the attempts that committed count; the job's commit
 * reads those lists and publishes the dataset in one step ({@link DatasetCommit#commit}); the
 * job's abort removes the work folder. Until the job's commit nothing is at the destination,
 * and a failed or killed job leaves nothing there (the dataset it was to replace stays).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class ScienceOutputCommitter extends OutputCommitter {
  private static final String PENDING = "pending-";
  private static final String NAMES = "names-";

  /**
   * Starts the write: clears a dead write's work folder and makes a new one.
   *
   * @throws FileAlreadyExistsException naming the destination and the keys if it exists and
   *     {@value ScienceOutputFormat#OVERWRITE} is false
   */
  @Override
  public void setupJob(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    Path dst = ScienceOutputFormat.destination(conf);
    try {
      DatasetCommit.begin(conf, dst, conf.getBoolean(ScienceOutputFormat.OVERWRITE, false));
    } catch (FileAlreadyExistsException e) {
      throw new FileAlreadyExistsException(ScienceOutputFormat.PATH + "=" + dst + " exists "
          + "and " + ScienceOutputFormat.OVERWRITE + " is false: write elsewhere, remove it, "
          + "or replace it (" + ScienceOutputFormat.OVERWRITE + "=true)");
    }
  }

  @Override
  public void setupTask(TaskAttemptContext context) {
  }

  /** Whether the attempt wrote parts: a reducer's that closed its writer. */
  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) throws IOException {
    Path p = pending(context);
    return p.getFileSystem(context.getConfiguration()).exists(p);
  }

  /** Makes the attempt's parts the task's: its list of names renamed to the task's. */
  @Override
  public void commitTask(TaskAttemptContext context) throws IOException {
    Path from = pending(context);
    FileSystem fs = from.getFileSystem(context.getConfiguration());
    Path to = new Path(from.getParent(), NAMES + context.getTaskAttemptID().getTaskID());
    fs.delete(to, false); // an earlier attempt's, committed before the job was restarted
    if (!fs.rename(from, to)) {
      throw new IOException("could not commit " + context.getTaskAttemptID() + ": " + from
          + " was not renamed to " + to);
    }
  }

  /** Removes what the attempt wrote, where it got as far as listing it. */
  @Override
  public void abortTask(TaskAttemptContext context) throws IOException {
    Path list = pending(context);
    FileSystem fs = list.getFileSystem(context.getConfiguration());
    Path work = list.getParent();
    try {
      for (String name : readNames(fs, list)) {
        fs.delete(new Path(work, name), true);
      }
    } catch (FileNotFoundException e) {
      // it wrote no list: the job's commit or abort removes whatever it wrote
    }
    fs.delete(new Path(work, context.getTaskAttemptID().toString()), true); // Zarr's chunks
    fs.delete(list, false);
  }

  /**
   * Assembles the dataset from the parts of the attempts that committed and publishes it.
   *
   * @throws IOException naming a part no task wrote, or if the destination appeared meanwhile
   */
  @Override
  public void commitJob(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    DatasetCommit write = ScienceOutputFormat.write(conf);
    FileSystem fs = write.work().getFileSystem(conf);
    List<String> names = new ArrayList<>();
    FileStatus[] lists;
    try {
      lists = fs.listStatus(write.work(), p -> p.getName().startsWith(NAMES));
    } catch (FileNotFoundException gone) {
      throw new IOException("nothing to publish as " + write.destination() + ": its work "
          + "folder " + write.work() + " is gone (the job was committed or aborted already)",
          gone);
    }
    for (FileStatus st : lists) {
      names.addAll(readNames(fs, st.getPath()));
    }
    write.commit(ScienceOutputFormat.dataset(conf), names);
  }

  /** Removes the work folder and all that tasks wrote in it; the destination is left alone. */
  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    ScienceOutputFormat.write(context.getConfiguration()).abort();
  }

  /** Where an attempt lists what it wrote until its task commits. */
  static Path pending(Path work, String attempt) {
    return new Path(work, PENDING + attempt);
  }

  private static Path pending(TaskAttemptContext context) throws IOException {
    return pending(ScienceOutputFormat.write(context.getConfiguration()).work(),
        context.getTaskAttemptID().toString());
  }

  static void writeNames(DataOutputStream out, List<String> names) throws IOException {
    out.writeInt(names.size());
    for (String n : names) {
      out.writeUTF(n);
    }
    out.flush();
  }

  private static List<String> readNames(FileSystem fs, Path list) throws IOException {
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(fs.open(list)))) {
      int n = in.readInt();
      List<String> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(in.readUTF());
      }
      return out;
    }
  }
}
