package org.opass.mrap.examples;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.opass.cli.Subcommands;
import org.opass.mrap.settings.InvalidSettingsException;

/**
 * The entry point of the {@code mrap-inputformat} jar: {@code hadoop jar
 * mrap-inputformat-*.jar COMMAND [generic options] ARGS}, with {@code --help} listing the
 * example jobs.
 */
public final class ExampleJobs {
  private ExampleJobs() {
  }

  /**
   * The usage on standard output for {@code -h}/{@code --help} (0), on standard error when the
   * arguments are not {@code count} (or at least {@code -count}) paths (2); -1 to go on.
   */
  static int usage(String[] args, int count, String name, String what, String synopsis) {
    String usage = "usage: hadoop jar mrap-inputformat-*.jar " + synopsis;
    if (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help"))) {
      System.out.println(usage);
      return 0;
    }
    if (count > 0 ? args.length != count : args.length < -count) {
      System.err.println(name + ": " + what + "\n" + usage);
      return 2;
    }
    return -1;
  }

  /** A check of a job's settings that needs no input: a refusal names the key. */
  interface SettingsCheck {
    void run() throws IOException;
  }

  /**
   * As {@link #usage}, then the settings {@code check}ed before any job: a refusal is said on
   * standard error, a usage error (2).
   */
  static int usage(String[] args, int count, String name, String what, String synopsis,
      SettingsCheck check) throws IOException {
    int rc = usage(args, count, name, what, synopsis);
    if (rc >= 0) {
      return rc;
    }
    try {
      check.run();
      return -1;
    } catch (InvalidSettingsException e) {
      System.err.println(name + ": " + e.getMessage());
      return 2;
    }
  }

  /**
   * Runs {@code job} over the inputs {@code args} name before the last, into the last, as
   * {@link #runInto} says.
   */
  static int runOverInto(Job job, String[] args, String name) throws IOException,
      InterruptedException, ClassNotFoundException {
    for (int i = 0; i < args.length - 1; i++) {
      FileInputFormat.addInputPath(job, new Path(args[i]));
    }
    return runInto(job, new Path(args[args.length - 1]), name);
  }

  /**
   * Runs {@code job} into {@code out}: 0 done, 1 the job failed, 2 an output that exists or a
   * setting an input cannot serve (named); nothing is written then.
   */
  static int runInto(Job job, Path out, String name) throws IOException, InterruptedException,
      ClassNotFoundException {
    if (out.getFileSystem(job.getConfiguration()).exists(out)) {
      System.err.println(name + ": the output " + out + " exists; name a new one");
      return 2;
    }
    FileOutputFormat.setOutputPath(job, out);
    try {
      return job.waitForCompletion(true) ? 0 : 1;
    } catch (InvalidJobConfException e) { // found at submission: a pattern or variable misfit
      System.err.println(name + ": " + e.getMessage());
      return 2;
    }
  }

  public static void main(String[] args) {
    new Subcommands("mrap-inputformat")
        .add("extract", "the regions an access pattern names, in one map-only phase",
            ExtractRegions::new)
        .add("join", "two inputs matched by key in one map-only phase", JoinOnKey::new)
        .add("slab-stats", "per first index, count, mean, min and max of a NetCDF or HDF5 "
            + "variable's slab", SlabStats::new)
        .add("index", "a series index of NetCDF/HDF5 files (kerchunk reference sets), built "
            + "by a job; --verify, --update", org.opass.mrap.mapreduce.index.IndexJob::new)
        .main(args);
  }
}
