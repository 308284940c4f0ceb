package org.opass.mrap.mapreduce.index;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.opass.conf.StrictConf;
import org.opass.mrap.index.EntriesFile;
import org.opass.mrap.index.IndexBuilder;
import org.opass.mrap.index.Refusal;
import org.opass.mrap.index.SeriesIndex;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.VariableSettings;
import org.opass.read.client.NameNodeAddresses;

/**
 * {@code bin/mrap index}: a series index built by a MapReduce job whose tasks read the files'
 * headers where their blocks are ({@link FileGroupInputFormat}, {@link IndexMapper}), then
 * joined and published in one rename ({@link IndexBuilder}); {@code --verify} names the entries
 * whose files changed since; {@code --update} indexes the files new or changed since and keeps
 * the others' entries.
 *
 * <pre>
 * bin/mrap index -D mrap.pattern.kind=netcdf [-D mrap.index.variables=t2m,tp] INPUT... INDEX
 * bin/mrap index --verify INDEX
 * bin/mrap index --update [-D ...] INPUT... INDEX
 * </pre>
 * Exit codes: 0 done (verify: every entry fresh), 1 the job failed (verify: stale entries,
 * listed), 2 usage or a bad setting, named; nothing is written then.
 */
public class IndexJob extends Configured implements Tool {
  static final String NAME = "mrap index";
  static final String USAGE = "index [generic options] INPUT... INDEX | --verify INDEX | "
      + "--update INPUT... INDEX\n"
      + "  a series index (kerchunk reference sets) of NetCDF/HDF5 files, built by a job\n"
      + "  -D mrap.pattern.kind=netcdf|hdf5  [-D " + IndexKeys.VARIABLES + "=t2m,tp (default: "
      + "all)]  [-D " + IndexKeys.URL + "=webhdfs://namenode:9870]";

  private final PrintStream out;
  private final PrintStream err;

  public IndexJob() {
    this(System.out, System.err);
  }

  /** The command, saying what it did on {@code out} and what is wrong on {@code err}. */
  public IndexJob(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** The variables the job indexes ({@value IndexKeys#VARIABLES}); empty: all. */
  static List<String> variables(Configuration conf) {
    List<String> out = new ArrayList<>();
    for (String v : conf.getTrimmedStrings(IndexKeys.VARIABLES)) {
      if (!v.isEmpty()) {
        out.add(v);
      }
    }
    return out;
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length == 1 && (args[0].equals("-h") || args[0].equals("--help"))) {
      out.println("usage: bin/mrap " + USAGE);
      return 0;
    }
    String mode = args.length > 0 && args[0].startsWith("--") ? args[0] : "";
    String[] rest = mode.isEmpty() ? args : java.util.Arrays.copyOfRange(args, 1, args.length);
    if (!mode.isEmpty() && !mode.equals("--verify") && !mode.equals("--update")) {
      return usage("unknown option " + mode);
    }
    if (mode.equals("--verify")) {
      return rest.length == 1 ? verify(new Path(rest[0])) : usage("--verify names one index");
    }
    if (rest.length < 2) {
      return usage("name at least one input and the index");
    }
    Configuration conf = getConf();
    try {
      numbers(conf);
    } catch (IllegalArgumentException e) {
      err.println(NAME + ": " + e.getMessage());
      return 2;
    }
    Path index = new Path(rest[rest.length - 1]);
    List<Path> inputs = new ArrayList<>();
    for (int i = 0; i < rest.length - 1; i++) {
      inputs.add(new Path(rest[i]));
    }
    try {
      if (mode.equals("--update")) {
        try {
          return update(conf, inputs, index);
        } catch (IOException e) {
          err.println(NAME + ": " + e.getMessage() + "; the index is as it was, or updated "
              + "whole");
          return 1;
        }
      }
      VariableSettings.kind(conf);
    } catch (InvalidSettingsException e) {
      err.println(NAME + ": " + e.getMessage());
      return 2;
    }
    try {
      FileSystem fs = index.getFileSystem(conf);
      if (fs.exists(index)) {
        err.println(NAME + ": the index " + index + " exists: name a new one, or --update it");
        return 2;
      }
      return build(conf, inputs, index, List.of());
    } catch (IOException e) {
      err.println(NAME + ": " + e.getMessage() + "; nothing was published");
      return 1;
    }
  }

  /**
   * Checks the numeric keys before any job: the headers a task reads at once, its files, a
   * joined set's files.
   *
   * @throws IllegalArgumentException naming the key whose value is not an integer >= 1
   */
  static void numbers(Configuration conf) {
    StrictConf.atLeast(conf, IndexKeys.READERS, 1, IndexKeys.READERS_DEFAULT);
    StrictConf.atLeast(conf, IndexKeys.FILES_PER_TASK, 1, 0);
    StrictConf.atLeast(conf, IndexKeys.SET_FILES, 1, IndexBuilder.SET_FILES);
  }

  private int usage(String why) {
    err.println(NAME + ": " + why + "\nusage: bin/mrap " + USAGE);
    return 2;
  }

  /**
   * Indexes {@code inputs} by a job into a work folder holding {@code kept} entries' lines
   * already, then publishes it as {@code index} (replacing the index there, for an update).
   */
  private int build(Configuration conf, List<Path> inputs, Path index, List<String> kept)
      throws IOException, InterruptedException, ClassNotFoundException {
    Configuration c = new Configuration(conf);
    ScienceFiles.Kind kind = VariableSettings.kind(c);
    FileSystem fs = index.getFileSystem(c);
    if (c.get(IndexKeys.URL) == null) {
      c.set(IndexKeys.URL, defaultUrl(inputs.isEmpty() ? index : inputs.get(0), c));
    }
    String url = c.get(IndexKeys.URL);
    Path work = IndexBuilder.workDir(index);
    try {
      fs.mkdirs(work);
      if (!kept.isEmpty()) {
        try (java.io.OutputStream w = fs.create(new Path(work, SeriesIndex.ENTRIES + "-kept"
            + EntriesFile.SUFFIX), false)) {
          for (String line : kept) {
            EntriesFile.write(w, line);
          }
        }
      }
      if (!inputs.isEmpty() && !runJob(c, inputs, work)) {
        err.println(NAME + ": the index job failed; nothing was published");
        fs.delete(work, true);
        return 1;
      }
      IndexBuilder.Summary s = IndexBuilder.finish(fs, work, kind, variables(c), url,
          StrictConf.atLeast(c, IndexKeys.SET_FILES, 1, IndexBuilder.SET_FILES));
      if (fs.exists(index)) {
        IndexBuilder.replace(fs, work, index);
      } else {
        IndexBuilder.publish(fs, work, index);
      }
      say(s, index);
      return 0;
    } catch (IOException | RuntimeException e) {
      fs.delete(work, true);
      throw e;
    }
  }

  private boolean runJob(Configuration conf, List<Path> inputs, Path work)
      throws IOException, InterruptedException, ClassNotFoundException {
    Job job = Job.getInstance(conf, NAME);
    job.setJarByClass(IndexJob.class);
    job.setInputFormatClass(FileGroupInputFormat.class);
    job.setMapperClass(IndexMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(EntriesOutputFormat.class);
    job.getConfiguration().set("mapreduce.output.basename", SeriesIndex.ENTRIES);
    job.getConfiguration().setBoolean("mapreduce.fileoutputcommitter.marksuccessfuljobs", false);
    job.getConfiguration().setBoolean("mapreduce.map.speculative", false);
    for (Path p : inputs) {
      FileInputFormat.addInputPath(job, p);
    }
    Path output = new Path(work, "job");
    FileOutputFormat.setOutputPath(job, output);
    if (!job.waitForCompletion(true)) {
      return false;
    }
    FileSystem fs = work.getFileSystem(conf);
    for (FileStatus f : fs.listStatus(output)) {
      if (f.getPath().getName().startsWith(SeriesIndex.ENTRIES)) {
        fs.rename(f.getPath(), new Path(work, f.getPath().getName()));
      }
    }
    fs.delete(output, true);
    return true;
  }

  private void say(IndexBuilder.Summary s, Path index) {
    out.println("indexed " + s.files() + " files into " + index + ": "
        + (s.combined() ? "the series joined (" + SeriesIndex.COMBINED + " or refs-*.json)"
        : "the files not joined")
        + ", " + s.refused().size() + " refusals (" + SeriesIndex.REPORT + ")");
    for (Refusal r : s.refused().subList(0, Math.min(5, s.refused().size()))) {
      out.println("  " + r);
    }
  }

  /**
   * What {@code {{u}}} stands for: the WebHDFS URL of the NameNode of {@code p}'s file system
   * (the first of an HA pair: point a reader at the active one with fsspec's {@code
   * template_overrides}), or that file system's own URI for another scheme.
   */
  static String defaultUrl(Path p, Configuration conf) throws IOException {
    URI fs = p.getFileSystem(conf).getUri();
    if (!"hdfs".equals(fs.getScheme())) {
      return fs.getScheme() + "://" + (fs.getAuthority() == null ? "" : fs.getAuthority());
    }
    URI web = NameNodeAddresses.web(fs, conf).get(0);
    return ("https".equals(web.getScheme()) ? "swebhdfs" : "webhdfs") + "://" + web.getHost()
        + ":" + web.getPort();
  }

  /** Names the entries of {@code index} whose files changed or are gone: 0 none, else 1. */
  private int verify(Path index) throws IOException {
    Configuration conf = getConf();
    SeriesIndex idx;
    try {
      idx = SeriesIndex.open(conf, index);
    } catch (FileNotFoundException e) {
      err.println(NAME + ": " + e.getMessage());
      return 2;
    }
    FileSystem fs = index.getFileSystem(conf);
    Map<String, FileStatus> now = statuses(fs, idx.paths());
    int stale = 0;
    for (String p : idx.paths()) {
      FileStatus f = now.get(p);
      StringBuilder why = new StringBuilder();
      if (f == null) {
        out.println("stale " + p + ": gone");
        stale++;
      } else if (!idx.fresh(f, why)) {
        out.println("stale " + p + ": " + why);
        stale++;
      }
    }
    out.println(idx.size() + " entries, " + stale + " stale" + (stale == 0 ? ""
        : ": run bin/mrap index --update"));
    return stale == 0 ? 0 : 1;
  }

  /** The files of {@code paths} as they are now, a listing a folder. */
  private static Map<String, FileStatus> statuses(FileSystem fs, List<String> paths)
      throws IOException {
    Map<String, FileStatus> out = new HashMap<>();
    Map<String, Boolean> listed = new HashMap<>();
    for (String p : paths) {
      String parent = new Path(p).getParent().toString();
      if (listed.putIfAbsent(parent, true) == null) {
        try {
          for (FileStatus f : fs.listStatus(new Path(parent))) {
            out.put(SeriesIndex.key(f.getPath()), f);
          }
        } catch (FileNotFoundException e) {
          // the folder is gone, and its files with it
        }
      }
    }
    return out;
  }

  /**
   * Indexes the files of {@code inputs} that {@code index} holds no fresh entry of, keeps the
   * others' entries, drops those of files no longer listed, and replaces the index.
   */
  private int update(Configuration conf, List<Path> inputs, Path index) throws IOException,
      InterruptedException, ClassNotFoundException {
    SeriesIndex old;
    try {
      old = SeriesIndex.open(conf, index);
    } catch (FileNotFoundException e) {
      err.println(NAME + ": " + e.getMessage());
      return 2;
    }
    Configuration c = new Configuration(conf);
    if (c.get(VariableSettings.KIND) == null) {
      c.set(VariableSettings.KIND, old.kind());
    } else if (!VariableSettings.kind(c).key().equals(old.kind())) {
      throw new InvalidSettingsException(VariableSettings.KIND + "=" + c.get(VariableSettings.KIND)
          + ": " + index + " indexes its files as " + old.kind());
    }
    if (c.get(IndexKeys.VARIABLES) == null) {
      c.setStrings(IndexKeys.VARIABLES, old.variables().toArray(new String[0]));
    }
    if (!variables(c).equals(old.variables())) {
      throw new InvalidSettingsException(IndexKeys.VARIABLES + "=" + variables(c) + ": " + index
          + " indexes " + (old.variables().isEmpty() ? "all variables" : old.variables())
          + "; build a new index to change them");
    }
    if (c.get(IndexKeys.URL) == null) {
      c.set(IndexKeys.URL, old.templateUrl());
    }
    List<Path> fresh = new ArrayList<>();
    List<String> kept = new ArrayList<>();
    try (SeriesIndex.Reader r = old.reader(c)) {
      for (FileStatus f : list(c, inputs)) {
        String line = r.line(f);
        if (line != null) {
          kept.add(line);
        } else {
          fresh.add(f.getPath());
        }
      }
    }
    out.println(index + ": " + kept.size() + " entries kept, " + fresh.size()
        + " files to index");
    return build(c, fresh, index, kept);
  }

  /** The files {@code inputs} name, as {@code FileInputFormat} lists them. */
  private static List<FileStatus> list(Configuration conf, List<Path> inputs)
      throws IOException {
    Job job = Job.getInstance(conf);
    for (Path p : inputs) {
      FileInputFormat.addInputPath(job, p);
    }
    return FileGroupInputFormat.listed(job);
  }
}
