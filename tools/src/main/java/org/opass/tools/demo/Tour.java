package org.opass.tools.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.opass.tools.bench.Charts;
import org.opass.tools.bench.Json;
import org.opass.tools.cluster.MiniYarn;
import org.opass.tools.cluster.NameNodeWeb;
import org.opass.tools.cluster.ProcessHdfs;
import org.opass.tools.cluster.Release;

/**
 * {@code bin/demo [--keep]}: a tour of the product in a few minutes. It starts HDFS in
 * processes of their own (a NameNode and 8 DataNodes, each DataNode a host of its own in one of
 * 2 racks) on Hadoop's jars alone, and YARN; runs parallel writes ({@link ParallelWrites}:
 * {@code bin/bench write} in small, more writers than DataNodes) and reads on stock HDFS;
 * installs our NameNode plugins from the release tarball as an operator does ({@code namenode/}
 * jars, the {@code conf/} fragments, a NameNode restart); runs the same writes and reads again,
 * the reads through a read plan submitted with {@code bin/opass plan}; restructures a particle
 * file with {@code bin/mrap-copy} and reads its pattern with {@code bin/mrap extract} on YARN;
 * runs a Spark SQL query over a small NetCDF series through {@code spark.read.format("mrap")},
 * with its coordinate filters pushed to the source and without; and shows where an operator
 * looks, WebHDFS and the web UI's file browser checked. One line per step and one result line
 * against stock,
 * from one short run: the evidence, with intervals, is {@code bin/bench}.
 */
public final class Tour {
  static final int DATANODES = 8;
  static final int RACKS = 2;
  static final int BLOCK = 1 << 20;
  /**
   * The write step: {@code bin/bench write} in small. More writers than DataNodes, as many on
   * each DataNode host as the bench's 64 on 16 (4), each writing its own file of whole blocks,
   * on DataNodes throttled to the bench's 4 MiB/s of writes each.
   */
  static final int WRITERS = 4 * DATANODES;
  static final int BLOCKS_PER_WRITER = 6;
  static final long WRITE_BYTES_PER_SEC = 4L << 20;
  /**
   * What {@code bin/bench write --quick} measured (BENCHMARKS.md, its {@code write} section):
   * HM-LRU's cut of the writers' bandwidth imbalance at 64 writers on 16 DataNodes, with its 95%
   * interval over 9 rounds. {@code ParallelWritesTest} checks that BENCHMARKS.md still says so.
   */
  static final double BENCH_WRITE_CUT = 0.618;
  static final double BENCH_WRITE_CUT_CI95 = 0.089;
  static final int BENCH_WRITE_ROUNDS = 9;
  static final String BENCH_WRITE_COMMAND = "bin/bench write --quick";
  static final int PARTICLES_MIB = 32;
  private static final int STEPS = 9;
  /** The Spark step's series (NetCDF-4 files) and its query with the answer it must give. */
  static final String SERIES = "tools/src/main/resources/demo/era5-mini";
  static final String SERIES_EXPECTED = "tools/src/main/resources/demo/expected.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final File dir = new File("target/demo").getAbsoluteFile();
  private final long start = System.nanoTime();
  private final Map<String, Object> summary = new LinkedHashMap<>();
  private final Map<String, double[]> blocksPerNode = new LinkedHashMap<>();
  private final Map<String, ParallelWrites.Result> writes = new LinkedHashMap<>();
  /** The write step's charts, in tour.json: each writer's MiB/s, the shares of writes at once. */
  private final Map<String, Object> writeDetail = new LinkedHashMap<>();
  private final Map<String, double[]> servedPerNode = new LinkedHashMap<>();
  private ProcessHdfs hdfs;
  private java.util.concurrent.CompletableFuture<MiniMRYarnCluster> yarnStarting;
  private MiniMRYarnCluster yarn;
  private java.util.concurrent.CompletableFuture<SparkSql> sparkStarting;
  private Path release;
  private Path hadoopHome;
  private int step;
  private int launches;

  public static void main(String[] args) throws Exception {
    // YARN's web apps log through java.util.logging: only what is severe
    java.util.logging.LogManager.getLogManager().reset();
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.SEVERE);
    boolean keep = false;
    for (String a : args) {
      if (a.equals("--keep")) {
        keep = true;
      } else if (a.equals("-h") || a.equals("--help")) {
        System.out.println(usage());
        System.exit(0);
      } else {
        System.err.println("demo: unknown argument '" + a + "'\n" + usage());
        System.exit(2);
      }
    }
    Tour tour = new Tour();
    Runtime.getRuntime().addShutdownHook(new Thread(tour::close)); // Ctrl-C, with --keep too
    int rc;
    try {
      rc = tour.run(keep);
    } catch (Exception e) {
      System.err.println("demo: failed: " + e);
      e.printStackTrace();
      System.err.println("Hadoop's logs: " + tour.dir + "/hdfs/logs and "
          + System.getProperty("opass.bench.log"));
      rc = 1;
    } finally {
      tour.close();
    }
    System.exit(rc);
  }

  static String usage() {
    return "usage: bin/demo [--keep]\n"
        + "  A tour of Opass + MRAP on an embedded HDFS and YARN, stock first (a few minutes).\n"
        + "  --keep   leave the cluster running afterwards, until Ctrl-C, to try it by hand";
  }

  int run(boolean keep) throws Exception {
    progress("starting HDFS: a NameNode and " + DATANODES + " DataNodes in processes of their "
        + "own, " + RACKS + " racks, Hadoop's jars only");
    release = Release.unpack(dir.toPath().resolve("release"));
    hdfs = ProcessHdfs.builder(new File(dir, "hdfs")).dataNodes(DATANODES).hostsInRacks(RACKS)
        .installed(List.of()).settings(Map.of("dfs.blocksize", Integer.toString(BLOCK),
            "dfs.namenode.fs-limits.min-block-size", Integer.toString(BLOCK),
            // what makes a DataNode given more pipelines than the others slow, as in the bench
            "dfs.datanode.data.write.bandwidthPerSec", Long.toString(WRITE_BYTES_PER_SEC)))
        .start();
    hadoopHome = Release.standInHadoop(dir.toPath().resolve("hadoop"), clientSite());
    result("HDFS up in " + elapsed() + " at " + hdfs.uri() + " (NameNode web UI "
        + hdfs.nameNodeHttp() + ")");

    progress(String.format(Locale.ROOT, "stock HDFS: %d writers, %d on each DataNode host, "
        + "write %d blocks each at once, DataNodes throttled to %d MiB/s of writes each "
        + "(bin/bench write in small)", WRITERS, WRITERS / DATANODES, BLOCKS_PER_WRITER,
        WRITE_BYTES_PER_SEC >> 20));
    write("/tour/stock");

    progress("stock HDFS: " + DATANODES + " readers, one per host, read those files (each "
        + "file to a reader at random, as a job's tasks get them)");
    TourReads.Result stockRead = readStock("/tour/stock");
    result("stock reads: " + stockRead);

    progress("installing the plugins as an operator does: the release's namenode/*.jar on the "
        + "NameNode's classpath, conf/hdfs-site-opass-*.xml in its hdfs-site.xml, a restart");
    hdfs.restartNameNode(fragments(), Release.jars(release, "namenode"));
    // YARN (for the MRAP step) starts while the next steps run: after the restart, as its start
    // needs the NameNode up throughout
    yarnStarting = java.util.concurrent.CompletableFuture.supplyAsync(this::startYarn);
    // and the Spark application (for the Spark SQL step), its session's start off the path
    sparkStarting = java.util.concurrent.CompletableFuture.supplyAsync(this::startSpark);
    result("NameNode up with HM-LRU placement, read balancing and the read-plan endpoint; "
        + "YARN and a Spark application starting");

    progress("HM-LRU placement: the same writers write the same files again");
    write("/tour/hmlru");
    writeCut();

    progress("a read plan: bin/opass plan --submit assigns the stock files' blocks to the "
        + DATANODES + " readers and the NameNode serves each from its planned replica");
    TourReads.Result planned = readPlanned("/tour/stock");
    result("planned reads: " + planned + " (stock: " + stockRead + ")");

    progress("MRAP: bin/mrap-copy restructures a " + PARTICLES_MIB + " MiB particle file for a "
        + "pattern (4 KiB of every 20 KiB), bin/mrap extract reads the pattern on YARN");
    mrap();

    progress("MRAP in Spark SQL: a small ERA5-like daily series (4 NetCDF-4 files, int16 packed) "
        + "into HDFS; spark.read.format(\"mrap\") makes it a table, a row per grid point; one "
        + "query with its filters pushed to the source, and written so that none can be");
    sparkSql();

    progress("where an operator looks");
    operatorView();

    chartsAndJson();
    System.out.printf(Locale.ROOT, "%ndemo: done in %s (a short run: one repetition each; "
        + "bin/bench measures the same with 95%% intervals)%n  %s%n  %s%n", elapsed(),
        new File(dir, "tour.json"), new File(dir, "tour.png"));
    if (keep) {
      keepRunning();
    }
    return 0;
  }

  // ---- the steps ----

  private MiniMRYarnCluster startYarn() {
    Configuration base = new Configuration();
    base.set("fs.defaultFS", hdfs.uri().toString());
    return MiniYarn.start(base, "opass-demo", 1);
  }

  private SparkSql startSpark() {
    try {
      return new SparkSql(new File(dir, "spark-driver.log"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** What a client's site files would say: the cluster's addresses, YARN's once it is up. */
  private Configuration clientSite() {
    Configuration site = new Configuration(false);
    if (yarn != null) {
      for (Map.Entry<String, String> e : yarn.getConfig()) {
        if (e.getKey().startsWith("yarn.") || e.getKey().startsWith("mapreduce.")) {
          site.set(e.getKey(), e.getValue());
        }
      }
      site.set("mapreduce.framework.name", "yarn");
    }
    site.set("fs.defaultFS", hdfs.uri().toString());
    site.set("dfs.namenode.http-address", hdfs.nameNodeHttp().replace("http://", ""));
    site.set("hadoop.tmp.dir", new File(dir, "client-tmp").getPath());
    return site;
  }

  /** The keys of the release's conf/ fragments, and the /prom endpoint an operator scrapes. */
  private Map<String, String> fragments() throws IOException {
    Map<String, String> site = new LinkedHashMap<>(Release.siteFragments(release));
    site.put("hadoop.prometheus.endpoint.enabled", "true");
    return site;
  }

  /**
   * The writers write at once ({@link ParallelWrites}); how many writes each DataNode received
   * at once while all wrote, the blocks each stores, and each writer's bandwidth.
   */
  private void write(String folder) throws Exception {
    boolean stock = folder.endsWith("stock");
    String kind = stock ? "stock" : "HM-LRU";
    String key = stock ? "stock" : "hmlru";
    ParallelWrites.Result r = ParallelWrites.run(hdfs, folder, WRITERS, BLOCKS_PER_WRITER, BLOCK);
    writes.put(kind, r);
    Map<String, Integer> blocks = r.stored();
    blocksPerNode.put(kind, values(blocks));
    summary.put(key + "_writes_at_once_busiest_over_mean", r.busiestOverMean());
    summary.put(key + "_blocks_max_over_mean", maxOverMean(blocks));
    summary.put(key + "_writer_bw_max_minus_min_mib_s", r.imbalance());
    summary.put(key + "_writer_bw_cv", r.bandwidthCv());
    summary.put(key + "_write_makespan_s", r.makespanNanos() / 1e9);
    writeDetail.put(key, Map.of("writer_mib_s", r.writerMiBps(),
        "writes_at_once_share_of_time", r.writesAtOnceShares()));
    ParallelWrites.Result before = stock ? null : writes.get("stock");
    result(String.format(Locale.ROOT, "%s: the busiest DataNode received %.2f times the mean "
        + "number of writes at once while all %d wrote (averaged over that time; an even spread: "
        + "1.00)%s", kind, r.busiestOverMean(), WRITERS, before == null ? ""
        : String.format(Locale.ROOT, " (stock: %.2f)", before.busiestOverMean())));
    double[] bw = r.sortedMiBps();
    result(String.format(Locale.ROOT, "%s: blocks per DataNode %s; writers at %.2f to %.2f "
        + "MiB/s (max - min %.3f), the last done after %.1f s%s", kind, spread(blocks), bw[0],
        bw[bw.length - 1], r.imbalance(), r.makespanNanos() / 1e9, before == null ? ""
        : String.format(Locale.ROOT, " (stock: %.2f, %.3f, %.1f s)",
            maxOverMean(before.stored()), before.imbalance(), before.makespanNanos() / 1e9)));
  }

  /**
   * Beside the tour's figure, the bench's: HM-LRU's cut of the writers' bandwidth max - min
   * (the paper's measure) over rounds; and this one run's own, which one run cannot pin down.
   */
  private void writeCut() {
    double stock = writes.get("stock").imbalance();
    double hmLru = writes.get("HM-LRU").imbalance();
    summary.put("write_imbalance_cut", 1 - hmLru / stock);
    summary.put("bench_write_imbalance_cut", BENCH_WRITE_CUT);
    summary.put("bench_write_imbalance_cut_ci95", BENCH_WRITE_CUT_CI95);
    summary.put("bench_write_command", BENCH_WRITE_COMMAND);
    result(String.format(Locale.ROOT, "beside it, the bench's figure: %s (64 writers on 16 "
        + "DataNodes, %d rounds) measures HM-LRU's cut of the writers' bandwidth max - min, the "
        + "paper's measure, at %.3f +- %.3f (95%%). This one short run's max - min, %.3f against "
        + "stock's %.3f MiB/s (a cut of %.2f), is one writer against another and swings widely "
        + "from run to run (BENCHMARKS.md): the writes at once above are placement's effect "
        + "itself", BENCH_WRITE_COMMAND, BENCH_WRITE_ROUNDS, BENCH_WRITE_CUT,
        BENCH_WRITE_CUT_CI95, hmLru, stock, 1 - hmLru / stock));
  }

  /** Each file to a reader at random (seeded); each reader reads its files whole. */
  private TourReads.Result readStock(String folder) throws Exception {
    TourReads readers = new TourReads(hdfs, BLOCK);
    TourReads.Result r = readers.read(readers.shuffled(folder));
    servedPerNode.put("stock", values(r.served));
    summary.put("stock_read_served_max_over_mean", r.maxOverMean());
    summary.put("stock_read_local_fraction", r.localFraction());
    return r;
  }

  /** The readers read what {@code bin/opass plan --json --submit} gave each of them. */
  private TourReads.Result readPlanned(String folder) throws Exception {
    String json = launch(List.of("bin/opass", "plan", "--json", "--submit", hdfs.nameNodeHttp(),
        "--processes", String.join(",", hdfs.hosts()), folder), false);
    TourReads readers = new TourReads(hdfs, BLOCK);
    TourReads.Result r = readers.read(readers.planned(
        JSON.readTree(json.substring(json.indexOf('{')))));
    servedPerNode.put("read plan", values(r.served));
    summary.put("plan_read_served_max_over_mean", r.maxOverMean());
    summary.put("plan_read_local_fraction", r.localFraction());
    return r;
  }

  private void mrap() throws Exception {
    yarn = yarnStarting.get();
    Release.standInHadoop(hadoopHome, clientSite()); // now with YARN's addresses
    Path work = dir.toPath();
    byte[] particles = new byte[PARTICLES_MIB << 20];
    new Random(11).nextBytes(particles);
    Path local = Files.write(work.resolve("particles"), particles);
    int regions = particles.length / (20 * 1024);
    Path pattern = Files.writeString(work.resolve("pattern.xml"), "<configuration>\n"
        + property("strided.nesting_level", "1")
        + property("strided.start", "0")
        + property("strided.region_count", Integer.toString(regions))
        + property("strided.region_size", "4096")
        + property("strided.region_spacing", Integer.toString(16 * 1024))
        + "</configuration>\n");
    launch(List.of("bin/mrap-copy", "-D", "dfs.blocksize=" + (4 * BLOCK), "-overwrite",
        "-pattern", pattern.toString(), local.toUri().toString(), "/tour/particles"), true);
    String job = launch(List.of("bin/mrap", "extract", "-conf", pattern.toString(),
        "/tour/particles", "/tour/subset"), true);
    long read = counter(job, "HDFS: Number of bytes read");
    long asked = counter(job, "BYTES_READ");
    long records = counter(job, "Map output records");
    if (records != regions) {
      throw new IOException("the job wrote " + records + " records for " + regions
          + " regions:\n" + job);
    }
    summary.put("mrap_bytes_read_over_scan", read / (double) particles.length);
    result(String.format(Locale.ROOT, "MRAP job on YARN: %d regions (%.1f MiB), its reads %.1f "
        + "MiB, the tasks' HDFS bytes read %.1f MiB: %.2f of the %d MiB a stock scan reads",
        regions, regions * 4096 / 1048576.0, asked / 1048576.0, read / 1048576.0,
        read / (double) particles.length, PARTICLES_MIB));
  }

  /** The Spark SQL step ({@link SeriesQuery}), the Spark application closed after it. */
  private void sparkSql() throws Exception {
    SparkSql spark = sparkStarting.get();
    try {
      SeriesQuery.run(hdfs, spark, summary);
    } finally {
      spark.close(); // its JVM's memory and threads back before the next step
      sparkStarting = null;
    }
  }

  private void operatorView() throws Exception {
    String heat = launch(List.of("bin/opass", "heat"), false);
    for (String line : heat.split("\n")) {
      System.out.println("    " + line);
    }
    String nn = hdfs.nameNodeHttp();
    JsonNode tracked = hdfs.jmx("Hadoop:service=NameNode,name=OpassHeatmap", "TrackedNodes");
    long promLines = get(nn + "/prom").lines().filter(l -> l.startsWith("opass_")).count();
    JsonNode plans = JSON.readTree(get(nn + "/opass/read-plan?user.name="
        + System.getProperty("user.name")));
    result("bin/opass heat (above) reads " + nn + "/jmx?qry=Hadoop:service=NameNode,"
        + "name=OpassHeatmap (" + tracked + " DataNodes tracked)");
    result(nn + "/prom: " + promLines + " opass_* lines; " + nn + "/opass/read-plan: "
        + plans.path("plans").size() + " live plan(s) of this user");

    webUi(nn);
  }

  /**
   * WebHDFS as curl calls it and the web UI's file browser as a browser loads it, each listing
   * /tour as the NameNode's RPC does; either failing fails the tour.
   */
  private void webUi(String nn) throws IOException {
    List<String> want = new ArrayList<>();
    try (FileSystem fs = FileSystem.newInstance(hdfs.clientConf())) {
      for (FileStatus f : fs.listStatus(new org.apache.hadoop.fs.Path("/tour"))) {
        want.add(f.getPath().getName());
      }
    }
    String curl = nn + "/webhdfs/v1/tour?op=LISTSTATUS";
    List<String> listed;
    NameNodeWeb.Browsed browsed;
    try {
      listed = NameNodeWeb.listStatus(nn, "/tour", System.getProperty("user.name"));
    } catch (IOException e) {
      throw new IOException("the NameNode's WebHDFS does not work (curl " + curl + "): "
          + e.getMessage(), e);
    }
    try {
      browsed = NameNodeWeb.browse(nn, "/tour");
    } catch (IOException e) {
      throw new IOException("the NameNode web UI's file browser does not work ("
          + nn + "/explorer.html#/tour): " + e.getMessage(), e);
    }
    if (!listed.equals(want) || !browsed.names().equals(want)) {
      throw new IOException("/tour holds " + want + ", WebHDFS listed " + listed
          + " and the file browser " + browsed.names());
    }
    result("WebHDFS: curl '" + curl + "&user.name=...' lists /tour's " + want.size()
        + " entries " + want + "; the web UI's file browser, " + nn + "/explorer.html#/tour, "
        + "loads with its " + browsed.scripts() + " scripts and lists the same");
  }

  private void keepRunning() throws InterruptedException {
    Path etc = hadoopHome.resolve("etc/hadoop");
    String bin = release.resolve("bin").toString();
    System.out.println();
    System.out.println("demo: the cluster keeps running until Ctrl-C");
    System.out.println("  fs.defaultFS           " + hdfs.uri());
    System.out.println("  NameNode web UI        " + hdfs.nameNodeHttp() + " (files: "
        + hdfs.nameNodeHttp() + "/explorer.html#/tour)");
    System.out.println("  client configuration   " + etc + " (core-site.xml, YARN's too)");
    System.out.println("  try, in another terminal (no Hadoop install needed):");
    System.out.println("    export HADOOP_HOME=" + hadoopHome);
    System.out.println("    $HADOOP_HOME/bin/hadoop fs -ls -R /tour");
    System.out.println("    curl '" + hdfs.nameNodeHttp()
        + "/webhdfs/v1/tour?op=LISTSTATUS&user.name=" + System.getProperty("user.name") + "'");
    System.out.println("    " + bin + "/opass heat");
    System.out.println("    " + bin + "/opass plan --processes " + hdfs.hosts().get(0)
        + " /tour/stock");
    System.out.println("    " + bin + "/mrap-copy file:///etc/hosts /tour/hosts");
    new CountDownLatch(1).await(); // the shutdown hook of Ctrl-C stops the cluster
  }

  private void chartsAndJson() throws IOException {
    List<String> nodes = new ArrayList<>();
    for (int k = 0; k < DATANODES; k++) {
      nodes.add("dn" + k + " rack" + (k % RACKS)); // dn0 is 127.0.0.2, dn1 127.0.0.3, ...
    }
    Map<String, double[]> shares = new LinkedHashMap<>();
    Map<String, double[]> bandwidth = new LinkedHashMap<>();
    int most = 0;
    for (Map.Entry<String, ParallelWrites.Result> e : writes.entrySet()) {
      double[] s = e.getValue().writesAtOnceShares();
      shares.put(e.getKey(), java.util.Arrays.stream(s).map(x -> 100 * x).toArray());
      most = Math.max(most, s.length);
      bandwidth.put(e.getKey(), e.getValue().sortedMiBps());
    }
    List<String> counts = new ArrayList<>();
    for (int k = 0; k < most; k++) {
      counts.add(Integer.toString(k));
    }
    List<String> writers = new ArrayList<>();
    for (int p = 1; p <= WRITERS; p++) {
      writers.add(Integer.toString(p));
    }
    Charts.write(new File(dir, "tour.png"), List.of(
        new Charts.Panel("Writes a DataNode received at once while all " + WRITERS + " wrote "
            + "(even: " + 3 * WRITERS / DATANODES + ")", "% of the DataNodes' time", counts,
            shares),
        new Charts.Panel("Each writer's bandwidth, slowest first (one short run): stock vs "
            + "HM-LRU", "MiB/s", writers, bandwidth),
        new Charts.Panel("Blocks stored per DataNode: stock placement vs HM-LRU", "blocks",
            nodes, blocksPerNode),
        new Charts.Panel("MiB served per DataNode: stock reads vs a read plan", "MiB", nodes,
            servedPerNode)));
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put("datanodes", DATANODES);
    setup.put("racks", RACKS);
    setup.put("block_bytes", BLOCK);
    setup.put("writers", WRITERS);
    setup.put("blocks_per_writer", BLOCKS_PER_WRITER);
    setup.put("write_throttle_bytes_per_sec_per_datanode", WRITE_BYTES_PER_SEC);
    doc.put("setup", setup);
    doc.put("writes", writeDetail);
    doc.put("note", "bin/demo: one short run; bin/bench measures with 95% intervals");
    doc.put("seconds", Math.round((System.nanoTime() - start) / 1e9));
    Json.writeAtomically(new File(dir, "tour.json"), doc);
  }

  private synchronized void close() {
    if (sparkStarting != null) {
      try {
        sparkStarting.get().close();
      } catch (Exception e) {
        // it did not start: nothing to stop
      }
      sparkStarting = null;
    }
    if (yarnStarting != null) {
      try {
        yarnStarting.get().stop();
      } catch (Exception e) {
        // it did not start: nothing to stop
      }
      yarnStarting = null;
    }
    if (hdfs != null) {
      hdfs.close();
      hdfs = null;
    }
  }

  // ---- helpers ----

  /**
   * Runs one of the release's launchers from its folder; its output (with what it logged, for a
   * job's counters), or an exception.
   */
  private String launch(List<String> command, boolean withStderr) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(release.toFile());
    pb.environment().put("HADOOP_HOME", hadoopHome.toString());
    pb.environment().remove("HADOOP_CLASSPATH");
    launches++;
    File out = new File(dir, "launch-" + launches + ".out");
    File err = new File(dir, "launch-" + launches + ".err");
    pb.redirectOutput(out).redirectError(err);
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", command) + " did not finish in 5 minutes");
    }
    String stdout = Files.readString(out.toPath(), StandardCharsets.UTF_8);
    String stderr = Files.readString(err.toPath(), StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " exited " + p.exitValue() + ":\n"
          + stdout + stderr);
    }
    return withStderr ? stdout + stderr : stdout;
  }

  private static long counter(String jobOutput, String name) throws IOException {
    Matcher m = Pattern.compile(Pattern.quote(name) + "=(\\d+)").matcher(jobOutput);
    if (!m.find()) {
      throw new IOException("no counter '" + name + "' in the job's output:\n" + jobOutput);
    }
    return Long.parseLong(m.group(1));
  }

  private static String property(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }

  private static String get(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    c.setConnectTimeout(5_000);
    c.setReadTimeout(30_000);
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  private void progress(String what) {
    step++;
    System.out.printf(Locale.ROOT, "%n[%d/%d %s] %s%n", step, STEPS, elapsed(), what);
  }

  static void result(String line) {
    System.out.println("  => " + line);
  }

  private String elapsed() {
    long s = Math.round((System.nanoTime() - start) / 1e9);
    return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }

  private static double[] values(Map<String, ? extends Number> byHost) {
    return byHost.values().stream().mapToDouble(Number::doubleValue).toArray();
  }

  static double maxOverMean(Map<String, ? extends Number> byHost) {
    double max = 0;
    double sum = 0;
    for (Number n : byHost.values()) {
      max = Math.max(max, n.doubleValue());
      sum += n.doubleValue();
    }
    return sum == 0 ? 0 : max / (sum / byHost.size());
  }

  private static String spread(Map<String, Integer> blocks) {
    int max = Collections.max(blocks.values());
    int min = Collections.min(blocks.values());
    return String.format(Locale.ROOT, "max/mean %.2f (from %d to %d)", maxOverMean(blocks), min,
        max);
  }
}
