package org.opass.tools.bench.mrap;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.util.ToolRunner;
import org.opass.mrap.copy.CopyOptions;
import org.opass.mrap.copy.Crc32c;
import org.opass.mrap.copy.RestructuringCopy;
import org.opass.mrap.pattern.StridedPattern;
import org.opass.mrap.settings.MrapConf;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Charts;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.mrap.OriginalBytes;

/**
 * {@code mrap-copy} (MRAP thesis §4.3.2, §4.4.3, Figs. 4.14-4.15; CHAIO §III) against the stock
 * ways, the same bytes each way, on 16 DataNodes whose disks read and write at 8 MiB/s each:
 * <ul>
 *   <li>from a local file: stock {@code hdfs dfs -put} (FsShell) against {@code mrap-copy},
 *   plain and restructured for a strided pattern, as it copies a local source by default (one
 *   process, {@code mrap.copy.threads} streams side by side), and plain in one stream
 *   ({@code -mode single}: {@code copy-single});</li>
 *   <li>HDFS to HDFS: DistCp against {@code mrap-copy} plain ({@code one-stream}) and
 *   restructured, one process each. On the LocalJobRunner DistCp runs one map, one stream, even
 *   with {@code -blocksperchunk} (it sizes splits from {@code mapreduce.job.maps}, which the
 *   LocalJobRunner forces to 1), so this compares one stream with one stream;</li>
 *   <li>N-1 writes of one file: one writer stream against the chunk-aware parallel write
 *   ({@code -mode parallel}: aggregator selection, whole-chunk parts, concat) and against N
 *   writers of N separate files (the stock way to write in parallel, without one file):
 *   bandwidth, and blocks stored per DataNode;</li>
 *   <li>copy-then-read (Fig. 4.15): the restructured copy's cost against what each later run of
 *   the same strided job saves (the readers of {@link MrapStridedBench}), so after how many
 *   runs the copy has paid for itself: re-laying out a file already in HDFS (the whole
 *   parallel restructuring copy), and restructuring while ingesting (its time beyond
 *   {@code -put}'s).</li>
 * </ul>
 * Every copy is checked: the destination's CRC32C against the source's. Systems rotate who
 * goes first; ratios are ratios of the means over repetitions with a 95% interval
 * ({@link Stats#ratio}).
 */
public final class CopyBench implements Bench {
  private static final int DATANODES = 16;
  private static final int BLOCK = 4 << 20;
  private static final long DISK_BANDWIDTH = 8L << 20; // per DataNode, reads and writes
  private static final int REGION = 4 << 10; // a fifth of the file: regions of 4 KiB, 16 KiB apart
  private static final int RUNS_CHARTED = 10;

  private static final String[] COPIES = {"put", "copy", "copy-restructured", "copy-single",
      "distcp",
      "one-stream", "copy-hdfs-restructured", "parallel", "parallel-restructured", "n-files"};
  private static final String[] READS = {"scan", "access", "access-nojoin", "restructured"};

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    // eight repetitions even when quick: -put's own spread on 2 cores (±1 s of a 3 s copy)
    // left the ratios' intervals at ±0.7 with three, ±0.5 with five
    int reps = 8;
    int fileBytes = (quick ? 60 : 120) << 20; // whole 20 KiB strides: the scan keeps 1 in 5
    byte[] data = new byte[fileBytes];
    new Random(7).nextBytes(data);
    CRC32C crc = new CRC32C();
    crc.update(data);
    int expectedCrc = (int) crc.getValue();
    File local = new File(outDir, "copy-source");
    Files.write(local.toPath(), data);
    StridedPattern p = StridedPattern.vector(0, REGION, 4L * REGION, fileBytes / (5L * REGION));
    long expectedRegions = MrapStridedBench.checksum(data, p);
    Map<String, double[]> seconds = new LinkedHashMap<>();
    for (String s : COPIES) {
      seconds.put(s, new double[reps]);
    }
    for (String s : READS) {
      seconds.put(s, new double[reps]);
    }
    Map<String, long[]> blocksPerNode = new LinkedHashMap<>();
    Map<String, Double> lengths = new LinkedHashMap<>(); // restructured / original
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(DISK_BANDWIDTH)
        .writeBandwidthPerDataNode(DISK_BANDWIDTH)
        .baseDir(new File(outDir, "copy-cluster")).start()) {
      Configuration conf = jobConf(cluster, outDir);
      FileSystem fs = FileSystem.get(conf);
      Path src = new Path("/copy/src");
      try (FSDataOutputStream out = fs.create(src)) {
        out.write(data);
      }
      cluster.replicas().waitFor(src, (short) 3);
      System.out.printf("%ncopy: %d MiB, %d DataNodes reading and writing %d MiB/s each, "
          + "%d-byte blocks, 3 replicas, %d repetitions%n", fileBytes >> 20, DATANODES,
          DISK_BANDWIDTH >> 20, BLOCK, reps);
      warmUp(conf, local, src, p);
      Source source = new Source(local, src, p, fileBytes);
      for (int rep = 0; rep < reps; rep++) {
        for (int k = 0; k < COPIES.length; k++) {
          String s = COPIES[(k + rep) % COPIES.length]; // who goes first rotates
          Path dst = new Path("/copy/" + s + "-" + rep);
          long t0 = System.nanoTime();
          RestructuringCopy.Result ours = copy(s, conf, source, dst);
          seconds.get(s)[rep] = (System.nanoTime() - t0) / 1e9;
          check(s, conf, dst, expectedCrc);
          if (s.endsWith("restructured")) {
            lengths.merge("this bench's " + s, fs.getFileStatus(dst).getLen()
                / (double) fileBytes, Math::max);
          }
          if (s.equals("one-stream") || s.equals("parallel") || s.equals("n-files")) {
            long[] b = blocksPerNode(cluster, fs, dst);
            long[] sum = blocksPerNode.computeIfAbsent(s, x -> new long[DATANODES]);
            for (int d = 0; d < DATANODES; d++) {
              sum[d] += b[d];
            }
          }
          if (s.equals("parallel-restructured")) {
            // the job of Fig. 4.15, on the original and on this copy
            for (int j = 0; j < READS.length; j++) {
              String r = READS[(j + rep) % READS.length];
              MrapStridedBench.Result res = MrapStridedBench.read(cluster, r,
                  r.equals("restructured") ? dst : src, p, REGION);
              if (res.checksum != expectedRegions) {
                throw new IllegalStateException(r + " delivered other bytes than the "
                    + "pattern's");
              }
              seconds.get(r)[rep] = res.seconds;
            }
          }
          fs.delete(dst, true);
        }
      }
    } finally {
      local.delete();
    }
    lengths.putAll(PlannedLengths.of(quick));
    Map<String, Object> doc = report(outDir, seconds, blocksPerNode, fileBytes, reps, lengths);
    onYarn(doc, CopyOnYarn.run(outDir, quick));
    return doc;
  }

  /**
   * The parallel copy against DistCp on YARN ({@link CopyOnYarn}), into the results, with the
   * most the ratio could be for jobs of this shape: DistCp's time over what our same jobs take
   * with next to nothing to copy (no copy of ours takes less).
   */
  @SuppressWarnings("unchecked")
  private static void onYarn(Map<String, Object> doc, CopyOnYarn.Runs runs) {
    Map<String, double[]> seconds = runs.seconds;
    Map<String, Object> yarn = new LinkedHashMap<>();
    seconds.forEach((s, t) -> yarn.put(s, Stats.of(t).json()));
    runs.cpuBusy.forEach((s, busy) -> yarn.put("cpu-busy-" + s, busy));
    Stats vsDistcp = ratio(seconds, "distcp", "parallel");
    Stats distcp = Stats.of(seconds.get("distcp"));
    Stats oursEmpty = Stats.of(seconds.get("parallel-same-shape"));
    Stats distcpEmpty = Stats.of(seconds.get("distcp-same-shape"));
    double bound = distcp.mean / oursEmpty.mean;
    System.out.printf(java.util.Locale.ROOT, "on YARN: parallel copy %s s, DistCp "
        + "-blocksperchunk %s s, ratio (DistCp time / ours) %s; the same jobs with next to "
        + "nothing to copy: ours %s s, DistCp %s s, so the ratio cannot exceed %.2f with jobs "
        + "of this shape here; CPU busy %.0f%% (ours), %.0f%% (DistCp)%n",
        Stats.of(seconds.get("parallel")), distcp, vsDistcp, oursEmpty, distcpEmpty, bound,
        100 * runs.cpuBusy.get("parallel"), 100 * runs.cpuBusy.get("distcp"));
    yarn.put("parallel_vs_distcp", vsDistcp.json());
    yarn.put("ratio_bound", bound);
    doc.put("yarn", yarn);
    Map<String, Object> summary = (Map<String, Object>) doc.get("summary");
    vsDistcp.putInto(summary, "parallel_vs_distcp_yarn");
  }

  /** Every system once on a few MiB, untimed: the first job in a JVM loads and compiles a lot. */
  private static void warmUp(Configuration conf, File local, Path src, StridedPattern p)
      throws Exception {
    FileSystem fs = src.getFileSystem(conf);
    Path small = new Path("/copy/warm-up-src");
    File smallLocal = new File(local.getParentFile(), "copy-warm-up");
    byte[] bytes = new byte[(int) ((p.spacing(0) + p.size()) * 200)];
    Files.write(smallLocal.toPath(), bytes);
    try (FSDataOutputStream out = fs.create(small)) {
      out.write(bytes);
    }
    StridedPattern few = StridedPattern.vector(0, p.size(), p.spacing(0), 200);
    for (String s : COPIES) {
      Path dst = new Path("/copy/warm-up-" + s);
      copy(s, conf, new Source(smallLocal, small, few, bytes.length), dst);
      fs.delete(dst, true);
    }
    fs.delete(small, false);
    smallLocal.delete();
  }

  /** A LocalJobRunner configuration on the cluster (its writers are clients on no DataNode). */
  private static Configuration jobConf(EmulatedCluster cluster, File outDir) {
    Configuration conf = new Configuration(cluster.conf());
    File jobs = new File(outDir, "copy-jobs").getAbsoluteFile();
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.jobtracker.staging.root.dir", new File(jobs, "staging").getPath());
    conf.set("mapreduce.cluster.local.dir", new File(jobs, "local").getPath());
    conf.setInt("dfs.replication", 3);
    return conf;
  }

  /**
   * The bytes every system copies: a local file and the same bytes in HDFS, their length, and
   * the pattern the restructuring copies lay out for.
   */
  private record Source(File local, Path inHdfs, StridedPattern pattern, int bytes) {
  }

  /** Copies as {@code system} does; returns what {@code mrap-copy} reported, if it copied. */
  private static RestructuringCopy.Result copy(String system, Configuration conf, Source source,
      Path dst) throws Exception {
    Path localSrc = new Path(source.local().toURI());
    Path src = source.inHdfs();
    StridedPattern p = source.pattern();
    CopyOptions.Builder single = CopyOptions.builder().mode(CopyOptions.Mode.SINGLE);
    CopyOptions.Builder restructured = CopyOptions.builder().mode(CopyOptions.Mode.SINGLE)
        .pattern(MrapConf.pattern(MrapStridedBench.patternConf(conf, p)));
    switch (system) {
      case "put":
        run(ToolRunner.run(conf, new FsShell(), new String[] {"-put", localSrc.toString(),
            dst.toString()}), system);
        return null;
      case "copy":
        return RestructuringCopy.copy(conf, localSrc, dst, CopyOptions.builder().build(), null);
      case "copy-restructured":
        return RestructuringCopy.copy(conf, localSrc, dst, CopyOptions.builder()
            .pattern(MrapConf.pattern(MrapStridedBench.patternConf(conf, p))).build(), null);
      case "copy-single":
        return RestructuringCopy.copy(conf, localSrc, dst, single.build(), null);
      case "distcp":
        run(ToolRunner.run(conf, new DistCp(conf, null), new String[] {src.toString(),
            dst.toString()}), system);
        return null;
      case "one-stream":
        return RestructuringCopy.copy(conf, src, dst, single.build(), null);
      case "copy-hdfs-restructured":
        return RestructuringCopy.copy(conf, src, dst, restructured.build(), null);
      case "parallel":
        return RestructuringCopy.copy(conf, src, dst, CopyOptions.builder()
            .mode(CopyOptions.Mode.PARALLEL).build(), null);
      case "parallel-restructured":
        return RestructuringCopy.copy(conf, src, dst, CopyOptions.builder()
            .mode(CopyOptions.Mode.PARALLEL)
            .pattern(MrapConf.pattern(MrapStridedBench.patternConf(conf, p))).build(), null);
      case "n-files":
        separateFiles(conf, src, dst, source.bytes());
        return null;
      default:
        throw new IllegalArgumentException(system);
    }
  }

  private static void run(int rc, String system) {
    if (rc != 0) {
      throw new IllegalStateException(system + " exited " + rc);
    }
  }

  /** N writers (one per DataNode's worth of chunks), each its slice into a file of its own. */
  private static void separateFiles(Configuration conf, Path src, Path dir, int fileBytes)
      throws Exception {
    FileSystem fs = src.getFileSystem(conf);
    fs.mkdirs(dir);
    int slice = fileBytes / DATANODES;
    ExecutorService pool = Executors.newFixedThreadPool(DATANODES);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int k = 0; k < DATANODES; k++) {
        int w = k;
        done.add(pool.submit(() -> {
          byte[] buf = new byte[1 << 20];
          try (FSDataInputStream in = fs.open(src);
              FSDataOutputStream out = fs.create(new Path(dir, "part-" + w))) {
            long end = w == DATANODES - 1 ? fileBytes : (long) (w + 1) * slice;
            for (long pos = (long) w * slice; pos < end; pos += buf.length) {
              int n = (int) Math.min(buf.length, end - pos);
              in.readFully(pos, buf, 0, n);
              out.write(buf, 0, n);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  /**
   * The copy holds the source's bytes: its CRC32C (HDFS's composite CRC; of all parts, in
   * order) is the source's. A restructured copy: the CRC32C of its original bytes, read back
   * through the layout it carries (outside the timed copy).
   */
  private static void check(String system, Configuration conf, Path dst, int expected)
      throws IOException {
    int got;
    if (system.endsWith("restructured")) {
      got = OriginalBytes.crc(dst.getFileSystem(conf), dst);
    } else if (system.equals("n-files")) {
      got = 0;
      FileSystem fs = dst.getFileSystem(conf);
      for (int k = 0; k < DATANODES; k++) {
        Path part = new Path(dst, "part-" + k);
        int c = RestructuringCopy.crcOf(conf, part);
        got = k == 0 ? c : Crc32c.compose(got, c, fs.getFileStatus(part).getLen());
      }
    } else {
      got = RestructuringCopy.crcOf(conf, dst);
    }
    if (got != expected) {
      throw new IllegalStateException(system + " copied other bytes (CRC32C "
          + Integer.toHexString(got) + ", source " + Integer.toHexString(expected) + ")");
    }
  }

  /** Replicas of the copy's blocks on each DataNode. */
  private static long[] blocksPerNode(EmulatedCluster cluster, FileSystem fs, Path dst)
      throws IOException, InterruptedException {
    long[] n = new long[DATANODES];
    List<Path> files = new ArrayList<>();
    if (fs.getFileStatus(dst).isDirectory()) {
      for (var st : fs.listStatus(dst)) {
        files.add(st.getPath());
      }
    } else {
      files.add(dst);
    }
    for (Path f : files) {
      cluster.replicas().waitFor(f, (short) 3);
      for (Set<Integer> holders : cluster.replicas().holders(f)) {
        for (int k : holders) {
          n[k]++;
        }
      }
    }
    return n;
  }

  private static Map<String, Object> report(File outDir, Map<String, double[]> seconds,
      Map<String, long[]> blocksPerNode, int fileBytes, int reps, Map<String, Double> lengths)
      throws IOException {
    double mib = fileBytes / 1048576.0;
    Map<String, Object> systems = new LinkedHashMap<>();
    System.out.printf("%-24s %14s %10s %18s%n", "copy", "time s", "MiB/s", "blocks/DataNode");
    for (String s : COPIES) {
      Stats t = Stats.of(seconds.get(s));
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("seconds", t.json());
      m.put("mib_per_s", mib / t.mean);
      String spread = "";
      if (blocksPerNode.containsKey(s)) {
        long[] b = blocksPerNode.get(s);
        m.put("blocks_per_datanode", b);
        m.put("blocks_max_over_mean", maxOverMean(b));
        spread = String.format(java.util.Locale.ROOT, "max/mean %.2f", maxOverMean(b));
      }
      systems.put(s, m);
      System.out.printf(java.util.Locale.ROOT, "%-24s %14s %10.1f %18s%n", s, t, mib / t.mean,
          spread);
    }
    Map<String, Object> reads = new LinkedHashMap<>();
    for (String r : READS) {
      reads.put(r, Stats.of(seconds.get(r)).json());
      System.out.printf("%-24s %14s%n", "read: " + r, Stats.of(seconds.get(r)));
    }
    Map<String, Object> ratios = new LinkedHashMap<>();
    // throughput ratios: the stock time over ours, per repetition
    Stats vsPut = ratio(seconds, "put", "copy-restructured");
    Stats plainVsPut = ratio(seconds, "put", "copy");
    Stats singleVsPut = ratio(seconds, "put", "copy-single");
    Stats vsDistcp = ratio(seconds, "distcp", "copy-hdfs-restructured");
    Stats plainVsDistcp = ratio(seconds, "distcp", "one-stream");
    Stats n1 = ratio(seconds, "one-stream", "parallel");
    Stats vsFiles = ratio(seconds, "n-files", "parallel");
    ratios.put("copy_vs_put", vsPut.json());
    ratios.put("plain_copy_vs_put", plainVsPut.json());
    ratios.put("single_stream_copy_vs_put", singleVsPut.json());
    ratios.put("copy_vs_distcp", vsDistcp.json());
    ratios.put("plain_copy_vs_distcp", plainVsDistcp.json());
    ratios.put("n1_write_speedup", n1.json());
    ratios.put("parallel_vs_n_files", vsFiles.json());
    // for scale: 16 writers of separate files, as parallel as writing gets here
    Stats filesVsPut = ratio(seconds, "put", "n-files");
    ratios.put("n_files_vs_put", filesVsPut.json());
    // re-laying out a file already in HDFS costs the whole copy; restructuring while ingesting
    // costs only what it takes beyond the stock ingest (-put)
    double copyCost = Stats.of(seconds.get("parallel-restructured")).mean;
    double ingestCost = Stats.of(seconds.get("copy-restructured")).mean
        - Stats.of(seconds.get("put")).mean;
    double restructuredRun = Stats.of(seconds.get("restructured")).mean;
    Map<String, Object> breakEven = new LinkedHashMap<>();
    Map<String, Object> ingestBreakEven = new LinkedHashMap<>();
    for (String r : new String[] {"scan", "access", "access-nojoin"}) {
      double saved = Stats.of(seconds.get(r)).mean - restructuredRun;
      breakEven.put(r, runsToPayBack(copyCost, saved));
      ingestBreakEven.put(r, runsToPayBack(ingestCost, saved));
    }
    System.out.printf(java.util.Locale.ROOT, "ratios (stock time / ours): restructuring copy vs "
        + "put %s, plain %s (one stream %s; for scale, %d writers of separate files %s); vs "
        + "DistCp %s, plain %s; parallel vs one stream %s, vs %d separate files %s%n"
        + "copy-then-read, runs until the restructured copy has paid for itself against the "
        + "scan / AccessInputFormat / its exact reads: re-laid out in HDFS "
        + "(%.1f s) %s / %s / %s; restructured while ingesting (%+.1f s over -put) %s / %s / %s%n",
        vsPut, plainVsPut, singleVsPut, DATANODES, filesVsPut, vsDistcp, plainVsDistcp, n1,
        DATANODES, vsFiles, copyCost,
        breakEven.get("scan"), breakEven.get("access"), breakEven.get("access-nojoin"),
        ingestCost, ingestBreakEven.get("scan"), ingestBreakEven.get("access"),
        ingestBreakEven.get("access-nojoin"));
    chart(new File(outDir, "copy.png"), seconds, blocksPerNode, mib, copyCost);
    Map<String, Object> summary = new LinkedHashMap<>();
    vsPut.putInto(summary, "copy_vs_put_ratio");
    summary.put("copy_vs_put_ci_low", vsPut.low());
    plainVsPut.putInto(summary, "plain_copy_vs_put_ratio");
    summary.put("plain_copy_vs_put_ci_low", plainVsPut.low());
    vsDistcp.putInto(summary, "copy_vs_distcp_ratio");
    n1.putInto(summary, "n1_write_speedup");
    vsFiles.putInto(summary, "parallel_vs_n_files_ratio");
    summary.put("break_even_runs_vs_access", breakEven.get("access"));
    summary.put("break_even_runs_vs_scan", breakEven.get("scan"));
    summary.put("ingest_break_even_runs_vs_access", ingestBreakEven.get("access"));
    double lengthMax = lengths.values().stream().mapToDouble(Double::doubleValue).max()
        .orElse(0);
    summary.put("restructured_length_ratio_max", lengthMax);
    System.out.printf("restructured length / original: at most %.5f over %d cases%n",
        lengthMax, lengths.size());
    lengths.forEach((k, v) -> System.out.printf("  %-72s %.5f%n", k, v));
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("setup", Map.of("datanodes", DATANODES, "block_bytes", BLOCK,
        "disk_bandwidth_per_datanode", DISK_BANDWIDTH, "file_bytes", fileBytes,
        "repetitions", reps, "replication", 3, "pattern", "regions of 4 KiB, 16 KiB apart "
            + "(a fifth of the file)", "runner", "LocalJobRunner; its writer tasks are "
            + "clients on no DataNode"));
    doc.put("copies", systems);
    doc.put("restructured_length_ratios", lengths);
    doc.put("reads", reads);
    doc.put("ratios", ratios);
    doc.put("break_even_runs", breakEven);
    doc.put("ingest_break_even_runs", ingestBreakEven);
    return doc;
  }

  /** Runs of the job after which a cost is paid back by what each run saves ("never"). */
  private static Object runsToPayBack(double cost, double savedPerRun) {
    if (cost <= 0) {
      return 0.0;
    }
    return savedPerRun > 0 ? (Object) Math.ceil(cost / savedPerRun) : "never";
  }

  /** Stock's time over ours (a speedup), as the ratio of the means over repetitions. */
  private static Stats ratio(Map<String, double[]> seconds, String stock, String ours) {
    return Stats.ratio(seconds.get(stock), seconds.get(ours));
  }

  private static double maxOverMean(long[] n) {
    long max = 0;
    long sum = 0;
    for (long x : n) {
      max = Math.max(max, x);
      sum += x;
    }
    return sum == 0 ? 0 : max / ((double) sum / n.length);
  }

  private static void chart(File png, Map<String, double[]> seconds,
      Map<String, long[]> blocksPerNode, double mib, double copyCost) throws IOException {
    List<String> copies = List.of(COPIES);
    double[] speed = new double[copies.size()];
    for (int i = 0; i < speed.length; i++) {
      speed[i] = mib / Stats.of(seconds.get(copies.get(i))).mean;
    }
    List<String> writers = new ArrayList<>(blocksPerNode.keySet());
    double[] spread = new double[writers.size()];
    for (int i = 0; i < spread.length; i++) {
      spread[i] = maxOverMean(blocksPerNode.get(writers.get(i)));
    }
    List<String> runs = new ArrayList<>();
    Map<String, double[]> cumulative = new LinkedHashMap<>();
    for (String r : new String[] {"scan", "access", "access-nojoin", "restructured"}) {
      cumulative.put(r.equals("restructured") ? "copy + restructured" : r,
          new double[RUNS_CHARTED]);
    }
    for (int n = 1; n <= RUNS_CHARTED; n++) {
      runs.add(Integer.toString(n));
      for (String r : READS) {
        double t = n * Stats.of(seconds.get(r)).mean;
        cumulative.get(r.equals("restructured") ? "copy + restructured" : r)[n - 1] =
            r.equals("restructured") ? copyCost + t : t;
      }
    }
    Charts.write(png, List.of(
        new Charts.Panel("copy: throughput of the same bytes", "MiB/s", copies,
            Map.of("MiB/s", speed)),
        new Charts.Panel("copy: one file written by one stream or in parallel, or N files: "
            + "replicas per DataNode, max over mean", "max/mean", writers,
            Map.of("max/mean", spread)),
        new Charts.Panel("copy-then-read (Fig. 4.15): total time after n runs of the strided "
            + "job", "s", runs, cumulative)));
  }
}
