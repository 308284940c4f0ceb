package org.opass.tools.bench.mrap;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.KeyValueTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.MultipleInputs;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.opass.mrap.mapreduce.SequenceMatchingInputFormat;
import org.opass.mrap.read.SideKey;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * MRAP §4.4.2 (the matching pattern): for every line of A ("reads"), the B lines
 * ("reference") with the same key, grouped per A line, as real MapReduce jobs on the
 * LocalJobRunner against the emulated cluster's HDFS:
 * <ul>
 *   <li>stock, two phases: a reduce-side join ({@code MultipleInputs}, tag, shuffle, join) that
 *   writes the matched pairs, then a job that groups the pairs per A line;</li>
 *   <li>MRAP, one map-only phase: {@code SequenceMatchingInputFormat} gives each task its piece
 *   of A with all of B (one-to-all), the mapper holds B and writes each A line's group.</li>
 * </ul>
 * Bytes accessed are HDFS and local bytes read and written, summed over each way's jobs (the
 * JVM's file system statistics across the jobs, which run one task at a time); the two final
 * outputs are checked to hold the same lines.
 */
public final class MrapPairsBench implements Bench {
  private static final int KEYS = 20_000;
  private static final int MATCHES_PER_KEY = 2;

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int reads = quick ? 60_000 : 200_000;
    int reps = quick ? 2 : 3;
    String[] ways = {"stock", "stock-one-job", "mrap"};
    Map<String, double[]> bytes = new LinkedHashMap<>();
    Map<String, double[]> seconds = new LinkedHashMap<>();
    for (String w : ways) {
      bytes.put(w, new double[reps]);
      seconds.put(w, new double[reps]);
    }
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(8).racks(2)
        .blockSize(1 << 20).baseDir(new File(outDir, "mrap-pairs-cluster")).start()) {
      FileSystem fs = cluster.offClusterFileSystem();
      Random rnd = new Random(7);
      write(fs, new Path("/pairs/a"), reads, i -> "k" + rnd.nextInt(KEYS) + "\tread" + i + "\t"
          + payload(rnd));
      write(fs, new Path("/pairs/b"), KEYS * MATCHES_PER_KEY, i -> "k" + (i % KEYS) + "\tref"
          + i + "\t" + payload(rnd));
      System.out.printf("%nmrap-pairs: %d lines of A, %d of B (%d per key), LocalJobRunner on "
          + "8 DataNodes, %d repetitions%n", reads, KEYS * MATCHES_PER_KEY, MATCHES_PER_KEY,
          reps);
      for (int rep = 0; rep < reps; rep++) {
        for (int k = 0; k < ways.length; k++) {
          String way = ways[(k + rep) % ways.length]; // who goes first rotates
          Path out = new Path("/pairs/out-" + way + "-" + rep);
          long t0 = System.nanoTime();
          long n = way.equals("mrap") ? mrap(cluster, out) : stock(cluster, out,
              way.equals("stock-one-job"));
          seconds.get(way)[rep] = (System.nanoTime() - t0) / 1e9;
          bytes.get(way)[rep] = n;
        }
        Set<String> expected = lines(fs, new Path("/pairs/out-stock-" + rep));
        for (String way : ways) {
          Set<String> got = lines(fs, new Path("/pairs/out-" + way + "-" + rep));
          if (!got.equals(expected) || got.size() != reads) {
            throw new IllegalStateException(way + " disagrees: " + got.size() + " lines, "
                + expected.size() + " expected");
          }
        }
      }
    }
    System.out.printf("%-30s %16s %14s%n", "", "MiB accessed", "time s");
    String[] names = {"stock (join, then group)", "stock, one job (join and group)",
        "MRAP (one map-only phase)"};
    for (int k = 0; k < ways.length; k++) {
      System.out.printf("%-30s %16s %14s%n", names[k], mib(Stats.of(bytes.get(ways[k]))),
          Stats.of(seconds.get(ways[k])));
    }
    Map<String, Object> summary = new LinkedHashMap<>();
    Stats.ratio(bytes.get("mrap"), bytes.get("stock")).putInto(summary, "pairs_bytes_ratio");
    Stats.ratio(seconds.get("mrap"), seconds.get("stock")).putInto(summary, "pairs_time_ratio");
    Stats.ratio(bytes.get("mrap"), bytes.get("stock-one-job"))
        .putInto(summary, "pairs_bytes_ratio_vs_one_job");
    Stats.ratio(seconds.get("mrap"), seconds.get("stock-one-job"))
        .putInto(summary, "pairs_time_ratio_vs_one_job");
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("setup", Map.of("a_lines", reads, "b_lines", KEYS * MATCHES_PER_KEY, "keys", KEYS,
        "repetitions", reps, "runner", "LocalJobRunner (one task at a time), HDFS of 8 "
        + "emulated DataNodes", "bytes", "HDFS and local bytes read and written, summed over "
        + "each way's jobs"));
    for (String w : ways) {
      doc.put(w + "_bytes", Stats.of(bytes.get(w)).json());
      doc.put(w + "_seconds", Stats.of(seconds.get(w)).json());
    }
    return doc;
  }

  private static String mib(Stats s) {
    return String.format(java.util.Locale.ROOT, "%.1f ± %.1f", s.mean / (1 << 20),
        s.ci95 / (1 << 20));
  }

  private static String payload(Random rnd) {
    char[] c = new char[80];
    for (int i = 0; i < c.length; i++) {
      c[i] = "ACGT".charAt(rnd.nextInt(4));
    }
    return new String(c);
  }

  private interface Line {
    String of(int i);
  }

  private static void write(FileSystem fs, Path p, int n, Line line) throws IOException {
    try (FSDataOutputStream out = fs.create(p, (short) 3)) {
      for (int i = 0; i < n; i++) {
        out.write((line.of(i) + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private static Set<String> lines(FileSystem fs, Path dir) throws IOException {
    Set<String> out = new HashSet<>();
    for (FileStatus part : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(part.getPath()),
          StandardCharsets.UTF_8))) {
        for (String l = r.readLine(); l != null; l = r.readLine()) {
          out.add(l);
        }
      }
    }
    return out;
  }

  private static Configuration jobConf(EmulatedCluster cluster, String name) {
    Configuration conf = new Configuration(cluster.conf());
    File local = new File("target/bench/mrap-pairs-jobs/" + name).getAbsoluteFile();
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.jobtracker.staging.root.dir", new File(local, "staging").getPath());
    conf.set("mapreduce.cluster.local.dir", new File(local, "local").getPath());
    // One task at a time: a task's file system counters are deltas of JVM-wide statistics, so
    // tasks running side by side would count each other's bytes.
    conf.setInt("mapreduce.local.map.tasks.maximum", 1);
    conf.setInt("mapreduce.local.reduce.tasks.maximum", 1);
    return conf;
  }

  /**
   * HDFS and local bytes read and written in this JVM so far. The jobs run in this JVM one at a
   * time, so the difference across a job is the job's I/O; the jobs' own file system counters
   * are not used because the LocalJobRunner's reuse of task threads makes them accumulate.
   */
  @SuppressWarnings("deprecation")
  private static long jvmBytes() {
    long n = 0;
    for (FileSystem.Statistics st : FileSystem.getAllStatistics()) {
      if (st.getScheme().equals("hdfs") || st.getScheme().equals("file")) {
        n += st.getBytesRead() + st.getBytesWritten();
      }
    }
    return n;
  }

  private static void run(Job job) throws Exception {
    if (!job.waitForCompletion(false)) {
      throw new IllegalStateException(job.getJobName() + " failed");
    }
  }

  // ---- stock: reduce-side join, then group ----

  /** Tags each line with its input: key, "A" or "B" + the rest. */
  public static class Tag extends Mapper<LongWritable, Text, Text, Text> {
    private final Text k = new Text();
    private final Text v = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context ctx)
        throws IOException, InterruptedException {
      String s = line.toString();
      int tab = s.indexOf('\t');
      k.set(s.substring(0, tab));
      v.set(tag() + s.substring(tab + 1));
      ctx.write(k, v);
    }

    String tag() {
      return "A";
    }
  }

  /** Tags B lines. */
  public static class TagB extends Tag {
    @Override
    String tag() {
      return "B";
    }
  }

  /** Joins a key's A and B lines: (A line's id and payload, B line) per pair. */
  public static class Join extends Reducer<Text, Text, Text, Text> {
    private final Text a = new Text();
    private final Text b = new Text();

    @Override
    protected void reduce(Text key, Iterable<Text> values, Context ctx)
        throws IOException, InterruptedException {
      List<String> as = new ArrayList<>();
      List<String> bs = new ArrayList<>();
      untag(values, as, bs);
      for (String x : as) {
        a.set(key + "\t" + x);
        for (String y : bs) {
          b.set(y);
          ctx.write(a, b);
        }
      }
    }
  }

  /** Joins a key's lines and groups them at once: each A line with its B lines. */
  public static class JoinAndGroup extends Reducer<Text, Text, Text, Text> {
    private final Text a = new Text();
    private final Text out = new Text();

    @Override
    protected void reduce(Text key, Iterable<Text> values, Context ctx)
        throws IOException, InterruptedException {
      List<String> as = new ArrayList<>();
      List<String> bs = new ArrayList<>();
      untag(values, as, bs);
      out.set(grouped(bs));
      for (String x : as) {
        a.set(key + "\t" + x);
        ctx.write(a, out);
      }
    }
  }

  /** Groups the pairs per A line: its B lines, sorted, comma-separated. */
  public static class Group extends Reducer<Text, Text, Text, Text> {
    private final Text out = new Text();

    @Override
    protected void reduce(Text aLine, Iterable<Text> bLines, Context ctx)
        throws IOException, InterruptedException {
      List<String> bs = new ArrayList<>();
      for (Text t : bLines) {
        bs.add(t.toString());
      }
      out.set(grouped(bs));
      ctx.write(aLine, out);
    }
  }

  /** Sorts a key's tagged lines into its A lines and its B lines, tags removed. */
  static void untag(Iterable<Text> values, List<String> as, List<String> bs) {
    for (Text t : values) {
      String s = t.toString();
      (s.charAt(0) == 'A' ? as : bs).add(s.substring(1));
    }
  }

  static String grouped(List<String> bLines) {
    Collections.sort(bLines);
    return String.join(",", bLines);
  }

  /** The stock way: a reduce-side join, then a grouping job (or the join grouping itself). */
  private static long stock(EmulatedCluster cluster, Path out, boolean oneJob) throws Exception {
    Configuration conf = jobConf(cluster, "stock");
    Job join = Job.getInstance(conf, "pairs-join");
    MultipleInputs.addInputPath(join, new Path("/pairs/a"), TextInputFormat.class, Tag.class);
    MultipleInputs.addInputPath(join, new Path("/pairs/b"), TextInputFormat.class, TagB.class);
    join.setReducerClass(oneJob ? JoinAndGroup.class : Join.class);
    join.setNumReduceTasks(2);
    join.setOutputKeyClass(Text.class);
    join.setOutputValueClass(Text.class);
    Path pairs = new Path(out + "-pairs");
    FileOutputFormat.setOutputPath(join, oneJob ? out : pairs);
    long before = jvmBytes();
    run(join);
    if (oneJob) {
      return jvmBytes() - before;
    }
    Job group = Job.getInstance(conf, "pairs-group");
    group.setInputFormatClass(KeyValueTextInputFormat.class);
    org.apache.hadoop.mapreduce.lib.input.FileInputFormat.setInputPaths(group, pairs);
    group.setMapperClass(SplitPair.class);
    group.setReducerClass(Group.class);
    group.setNumReduceTasks(2);
    group.setOutputKeyClass(Text.class);
    group.setOutputValueClass(Text.class);
    FileOutputFormat.setOutputPath(group, out);
    run(group);
    return jvmBytes() - before;
  }

  /** The pairs file's lines are "key TAB a-id TAB a-payload TAB b-line": key the A line. */
  public static class SplitPair extends Mapper<Text, Text, Text, Text> {
    private final Text a = new Text();
    private final Text b = new Text();

    @Override
    protected void map(Text key, Text rest, Context ctx) throws IOException,
        InterruptedException {
      String s = rest.toString(); // a-id TAB a-payload TAB b-id TAB b-payload
      int t1 = s.indexOf('\t');
      int t2 = s.indexOf('\t', t1 + 1);
      a.set(key + "\t" + s.substring(0, t2));
      b.set(s.substring(t2 + 1));
      ctx.write(a, b);
    }
  }

  // ---- MRAP: one map-only phase ----

  /** Holds the task's B lines by key (they come first), then writes each A line's group. */
  public static class Match extends Mapper<SideKey, Writable, Text, Text> {
    private final Map<String, List<String>> b = new HashMap<>();
    private final Text a = new Text();
    private final Text out = new Text();

    @Override
    protected void map(SideKey key, Writable value, Context ctx)
        throws IOException, InterruptedException {
      String s = value.toString();
      int tab = s.indexOf('\t');
      String k = s.substring(0, tab);
      if (!key.isA()) {
        b.computeIfAbsent(k, x -> new ArrayList<>()).add(s.substring(tab + 1));
        return;
      }
      List<String> matches = b.get(k);
      if (matches != null) {
        a.set(s);
        out.set(grouped(new ArrayList<>(matches)));
        ctx.write(a, out);
      }
    }
  }

  private static long mrap(EmulatedCluster cluster, Path out) throws Exception {
    Configuration conf = jobConf(cluster, "mrap");
    Job job = Job.getInstance(conf, "pairs-mrap");
    conf = job.getConfiguration();
    conf.set(SequenceMatchingInputFormat.A_PATHS, "/pairs/a");
    conf.set(SequenceMatchingInputFormat.B_PATHS, "/pairs/b");
    conf.set(SequenceMatchingInputFormat.A_SPLIT_BYTES, "4m");
    conf.set(SequenceMatchingInputFormat.B_SPLIT_BYTES, "64m");
    job.setInputFormatClass(SequenceMatchingInputFormat.class);
    job.setMapperClass(Match.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(Text.class);
    FileOutputFormat.setOutputPath(job, out);
    long before = jvmBytes();
    run(job);
    return jvmBytes() - before;
  }
}
