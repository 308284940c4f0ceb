package org.opass.tools.bench.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.DrivenProcess;
import org.opass.tools.bench.ReferencePython;
import org.opass.tools.bench.Stats;
import org.opass.tools.bench.mrap.MrapScienceBench;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Results written back: a climatology of the spark-science series over the whole grid (its
 * query's {@code GROUP BY} widened from the region to every grid point), {@code SELECT
 * month(time), latitude, longitude, avg(t2m), sum(tp) ... WHERE time BETWEEN FROM AND TO GROUP BY
 * 1, 2, 3}, from a Spark application in a JVM of its own ({@code mrap-spark}'s {@code
 * ScienceWriteDriver}, {@code local[8]}) on the emulated cluster (8 DataNodes at 16 MiB/s),
 * in alternating rounds: the query run to its end with its rows dropped (Spark's {@code noop}
 * writer: the query's own time), and the same query written by {@code format("mrap")} as a CF
 * NetCDF file and as a Zarr store. Reported: each write's time over the query's (mean, 95%
 * interval); whether xarray's read of both datasets equals the DataFrame, row for row
 * ({@code tools/src/main/resources/bench/check_written.py}); and the driver JVM's live heap (the
 * most held after the full collections it runs a second) while writing four outputs of growing
 * size, the climatology by month, dekad, week and day of the year.
 */
public final class ScienceWriteBench implements Bench {
  private static final int DATANODES = 8;
  private static final int BLOCK = 16 << 20;
  private static final long READ_BANDWIDTH = 16L << 20;
  private static final String[] PERIODS = {"month", "dekad", "week", "day"};
  private static final String[] KINDS = {"netcdf", "zarr"};
  private static final File CHECK = new File("tools/src/main/resources/bench/check_written.py");

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    String classpath = SparkStridedBench.sparkClasspath("science-write");
    // spark-science's series (the files shared with it): the quick one, or the whole season
    LocalDate first = quick ? LocalDate.of(2020, 5, 25) : LocalDate.of(2020, 5, 1);
    LocalDate last = quick ? LocalDate.of(2020, 9, 7) : LocalDate.of(2020, 10, 31);
    int reps = quick ? 3 : 5;
    File data = SparkScienceBench.generate(new File(outDir, "spark-science-data/era5-" + first
        + "-" + last), first, last);
    Map<String, Object> doc = new LinkedHashMap<>();
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(READ_BANDWIDTH)
        .baseDir(new File(outDir, "science-write-cluster")).start()) {
      int files = MrapScienceBench.put(cluster, data, "/era5").size();
      FileSystem fs = cluster.offClusterFileSystem();
      String out = cluster.uri() + "/results";
      File log = new File(outDir, "science-write-driver.log");
      System.out.printf("%nscience-write: the climatology (month x grid point) of %d daily "
          + "files, %s to %s, written by Spark local[8] in its own JVM; %d DataNodes at %d "
          + "MiB/s; %d repetitions%n", files, SparkScienceBench.FROM, SparkScienceBench.TO,
          DATANODES, READ_BANDWIDTH >> 20, reps);
      Map<String, double[]> time = new LinkedHashMap<>();
      time.put("query", new double[reps]);
      for (String k : KINDS) {
        time.put(k, new double[reps]);
      }
      List<Object> heapRows = new ArrayList<>();
      JsonNode roundTrip;
      try (Driver driver = new Driver(classpath, log, cluster.uri() + "/era5", out)) {
        // not measured: the JIT, connections, codegen, the first headers
        driver.say("query month", "done query");
        for (String k : KINDS) {
          driver.say("write " + k + " month", "done write");
        }
        String[] steps = {"query", "netcdf", "zarr"};
        for (int rep = 0; rep < reps; rep++) {
          for (int s = 0; s < steps.length; s++) {
            String step = steps[(s + rep) % steps.length]; // who goes first alternates
            String answer = step.equals("query") ? driver.say("query month", "done query")
                : driver.say("write " + step + " month", "done write");
            time.get(step)[rep] = number(answer, "seconds");
          }
        }
        File rows = new File(outDir, "science-write-rows.csv");
        driver.say("rows month " + rows.getAbsolutePath(), "done rows");
        File local = new File(outDir, "science-write-datasets");
        org.apache.hadoop.fs.FileUtil.fullyDelete(local);
        local.mkdirs();
        for (String k : KINDS) {
          fs.copyToLocalFile(new Path("/results/month." + k), new Path(new File(local,
              "month." + k).toURI()));
        }
        roundTrip = check(rows, new File(local, "month.netcdf"), new File(local,
            "month.zarr"));
      }
      // the driver's own heap: executors in JVMs of their own (local-cluster), as on a cluster
      try (Driver driver = new Driver(classpath, new File(outDir,
          "science-write-driver-heap.log"), cluster.uri() + "/era5", out, sparkHome(classpath,
          new File(outDir, "science-write-spark-home")))) {
        for (String p : PERIODS) {
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("period", p);
          for (String k : KINDS) {
            String answer = driver.say("write " + k + " " + p + " heap", "done write");
            row.put(k + "_output_mib", fs.getContentSummary(new Path("/results/" + p + "."
                + k)).getLength() / 1048576.0);
            row.put(k + "_heap_mib", number(answer, "heap_mib"));
            row.put(k + "_seconds", number(answer, "seconds"));
          }
          heapRows.add(row);
          System.out.printf("by %-6s: NetCDF %8.1f MiB written with %7.1f MiB of heap, Zarr "
              + "%8.1f MiB with %7.1f MiB%n", p, row.get("netcdf_output_mib"),
              row.get("netcdf_heap_mib"), row.get("zarr_output_mib"), row.get("zarr_heap_mib"));
        }
      }
      Stats nc = Stats.ratio(time.get("netcdf"), time.get("query"));
      Stats zarr = Stats.ratio(time.get("zarr"), time.get("query"));
      boolean equal = roundTrip.get("netcdf").get("equal").asBoolean()
          && roundTrip.get("zarr").get("equal").asBoolean();
      System.out.printf("query %s s; written as NetCDF %s s (%.3f +- %.3f x), as Zarr %s s "
          + "(%.3f +- %.3f x); xarray's read %s the DataFrame%n", Stats.of(time.get("query")),
          Stats.of(time.get("netcdf")), nc.mean, nc.ci95, Stats.of(time.get("zarr")),
          zarr.mean, zarr.ci95, equal ? "equals" : "DIFFERS FROM");
      Map<String, Object> summary = new LinkedHashMap<>();
      summary.put("write_netcdf_seconds_over_query", nc.mean);
      summary.put("write_zarr_seconds_over_query", zarr.mean);
      summary.put("write_roundtrip_equal", equal);
      summary.put("write_driver_heap_mib", heapRows);
      doc.put("summary", summary);
      Map<String, Object> ci = new LinkedHashMap<>();
      ci.put("write_netcdf_seconds_over_query", nc.ci95);
      ci.put("write_zarr_seconds_over_query", zarr.ci95);
      doc.put("summary_ci95", ci);
      Map<String, Object> seconds = new LinkedHashMap<>();
      for (Map.Entry<String, double[]> e : time.entrySet()) {
        seconds.put(e.getKey(), Stats.of(e.getValue()).json());
      }
      doc.put("seconds", seconds);
      doc.put("round_trip", new ObjectMapper().convertValue(roundTrip, Map.class));
      Map<String, Object> setup = new LinkedHashMap<>();
      setup.put("datanodes", DATANODES);
      setup.put("block_bytes", BLOCK);
      setup.put("read_bandwidth_per_datanode", READ_BANDWIDTH);
      setup.put("files", files);
      setup.put("first_day", first.toString());
      setup.put("last_day", last.toString());
      setup.put("query", "SELECT month(time) AS month, latitude, longitude, avg(t2m) AS t2m, "
          + "sum(tp) AS tp FROM era5 WHERE time BETWEEN '" + SparkScienceBench.FROM + "' AND '"
          + SparkScienceBench.TO + "' GROUP BY 1, 2, 3");
      setup.put("query_time", "the query run to its end, rows dropped: "
          + "df.write.format(\"noop\")");
      setup.put("heap", "the most heap the driver JVM held after the full collections it ran a "
          + "second while writing, its executors in JVMs of their own (local-cluster[2,4,2048])");
      setup.put("repetitions", reps);
      setup.put("spark_master", "local[8]");
      doc.put("setup", setup);
    }
    return doc;
  }

  private static double number(String answer, String key) {
    String s = answer.substring(answer.indexOf(key + "=") + key.length() + 1);
    int end = s.indexOf(' ');
    return Double.parseDouble(end < 0 ? s : s.substring(0, end));
  }

  private static JsonNode check(File rows, File nc, File zarr) throws Exception {
    String python = ReferencePython.find();
    Process p = new ProcessBuilder(python, CHECK.getPath(), rows.getPath(), "month",
        nc.getPath(), zarr.getPath()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (p.waitFor() != 0) {
      throw new IOException(CHECK + " failed with " + python + " (exit " + p.exitValue() + ")");
    }
    return new ObjectMapper().readTree(out);
  }

  /** mrap-spark's one jar, as a release's spark/ folder holds it. */
  private static File shadedJar() throws IOException {
    File[] jars = new File("mrap-spark/target").listFiles((d, n) -> n.startsWith("mrap-spark-")
        && n.endsWith("-spark.jar"));
    if (jars == null || jars.length != 1) {
      throw new IOException("mrap-spark/target holds no one mrap-spark-*-spark.jar: bin/bench "
          + "builds it");
    }
    return jars[0];
  }

  /**
   * A SPARK_HOME whose jars/ are the classpath's jars but ours (Spark's, Hadoop's and theirs),
   * linked: what local-cluster's executors load, beside the shaded jar.
   */
  private static File sparkHome(String classpath, File home) throws IOException {
    java.nio.file.Path jars = home.toPath().resolve("jars");
    org.apache.hadoop.fs.FileUtil.fullyDelete(home);
    java.nio.file.Files.createDirectories(jars);
    for (String entry : classpath.split(File.pathSeparator)) {
      java.nio.file.Path p = java.nio.file.Paths.get(entry);
      String name = p.getFileName().toString();
      boolean ours = entry.contains("/org/opass/") || name.startsWith("mrap-")
          || name.startsWith("opass-");
      java.nio.file.Path link = jars.resolve(name);
      if (name.endsWith(".jar") && !ours && p.toFile().isFile()
          && !java.nio.file.Files.exists(link)) {
        java.nio.file.Files.createSymbolicLink(link, p.toAbsolutePath());
      }
    }
    return home;
  }

  /** mrap-spark's ScienceWriteDriver in a JVM of its own, a line at a time. */
  private static final class Driver implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final PrintStream in;
    private final File log;

    Driver(String classpath, File log, String dir, String results) throws IOException {
      this(classpath, log, dir, results, null);
    }

    /** With {@code sparkHome}: in local-cluster mode, 2 executors of 4 cores and 2 GiB. */
    Driver(String classpath, File log, String dir, String results, File sparkHome)
        throws IOException {
      this.log = log;
      List<String> args = new ArrayList<>(List.of(sparkHome == null ? "local[8]"
          : "local-cluster[2,4,2048]", dir, SparkScienceBench.FROM, SparkScienceBench.TO,
          results));
      Map<String, String> env = new LinkedHashMap<>();
      if (sparkHome != null) {
        args.add(shadedJar().getAbsolutePath());
        env.put("SPARK_HOME", sparkHome.getAbsolutePath());
        // Spark's launcher looks for the jars of its Scala line
        env.put("SPARK_SCALA_VERSION", classpath.contains("_2.13") ? "2.13" : "2.12");
      }
      process = DrivenProcess.start(List.of("-Xmx3g", "-XX:+ExitOnOutOfMemoryError"),
          classpath, "org.opass.mrap.spark.ScienceWriteDriver", args, log, env);
      out = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8));
      in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
      answer("ready");
    }

    String say(String line, String prefix) throws IOException {
      in.println(line);
      return answer(prefix);
    }

    private String answer(String prefix) throws IOException {
      return DrivenProcess.answer(process, out, log, prefix, line -> { });
    }

    @Override
    public void close() throws IOException {
      DrivenProcess.quit(process, in, 60);
    }
  }
}
