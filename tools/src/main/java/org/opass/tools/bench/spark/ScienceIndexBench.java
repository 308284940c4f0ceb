package org.opass.tools.bench.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.util.ToolRunner;
import org.opass.mrap.index.IndexBuilder;
import org.opass.mrap.mapreduce.index.IndexJob;
import org.opass.mrap.mapreduce.index.IndexKeys;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.VariableSettings;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.ReferencePython;
import org.opass.tools.bench.Stats;
import org.opass.tools.bench.mrap.MrapScienceBench;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.HostYarn;

/**
 * The series index ({@code bin/mrap index}) against what it replaces, on the emulated cluster (8
 * DataNodes on 2 racks at 16 MiB/s, hosts by address, a NodeManager on each DataNode's host):
 * <ul>
 *   <li>the build: the index job on YARN (tasks of files grouped by the host of their first
 *   block, eight headers at a time) against kerchunk's way, one process reading each file's
 *   header in turn (our header reader on one thread stands in), in alternating rounds over a
 *   series of small ERA5-shaped daily files; the job's local block reads over its block reads
 *   (the DataNodes' counters);</li>
 *   <li>spark-science's query (a season x a region of its daily series) as a Spark session's
 *   first, planned from the index, against the same first query planned from the headers, each
 *   in a driver JVM of its own: the DataNodes' bytes over the bytes of the chunks that hold the
 *   selection (HDF5's own chunk index), the answers against netCDF4-python's;</li>
 *   <li>the same query through xarray over WebHDFS from the index's sets (Python at run time),
 *   against netCDF4-python's groups;</li>
 *   <li>one query's planning from an index of 100,000 files: entries of a real file of the
 *   series, written again for 100,000 days (path, modification time and time coordinate their
 *   own), planned by mrap-core's planner with no file read.</li>
 * </ul>
 */
public final class ScienceIndexBench implements Bench {
  private static final int DATANODES = 8;
  private static final int BLOCK = 16 << 20;
  private static final long READ_BANDWIDTH = 16L << 20;
  private static final int PLANNED_FILES = 100_000;
  private static final File SCRIPT =
      new File("tools/src/main/resources/bench/make_science_series.py");
  private static final File QUERY = new File("tools/src/main/resources/bench/index_query.py");

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    String classpath = SparkStridedBench.sparkClasspath("science-index");
    int reps = quick ? 3 : 5;
    LocalDate first = quick ? LocalDate.of(2020, 5, 25) : LocalDate.of(2020, 5, 1);
    LocalDate last = quick ? LocalDate.of(2020, 9, 7) : LocalDate.of(2020, 10, 31);
    File query = SparkScienceBench.generate(new File(outDir, "spark-science-data/era5-" + first
        + "-" + last), first, last);
    int buildFiles = quick ? 2000 : 5000;
    File build = small(new File(outDir, "science-index-data/small-" + buildFiles),
        buildFiles);
    JsonNode oracle = SparkScienceBench.oracle(query);
    List<List<Object>> expected = SparkScienceBench.groups(oracle.get("groups"));
    long selection = 0;
    for (String name : SparkScienceBench.iterable(oracle.get("chunk_bytes").fieldNames())) {
      JsonNode c = oracle.get("chunk_bytes").get(name);
      long[] ours = SparkScienceBench.selectedChunkBytes(new File(query, name));
      if (ours[0] != c.get("t2m").asLong() || ours[1] != c.get("tp").asLong()) {
        throw new IllegalStateException(name + ": the selection's chunks differ from h5py's");
      }
      selection += ours[0] + ours[1];
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    Map<String, Object> summary = new LinkedHashMap<>();
    Map<String, Object> ci = new LinkedHashMap<>();
    Map<String, Object> detail = new LinkedHashMap<>();
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(READ_BANDWIDTH).hostsNamedByAddress()
        .baseDir(new File(outDir, "science-index-cluster")).start();
        HostYarn yarn = HostYarn.start(cluster, new File(outDir, "science-index-yarn"), 2)) {
      List<FileStatus> era5 = MrapScienceBench.put(cluster, query, "/era5");
      List<FileStatus> small = MrapScienceBench.put(cluster, build, "/small");
      System.out.printf("%nscience-index: %d small daily files to index (%.1f MiB), the query "
          + "series of %d files; %d DataNodes at %d MiB/s, a NodeManager on each; %d "
          + "repetitions%n", small.size(), bytes(small) / 1048576.0, era5.size(), DATANODES,
          READ_BANDWIDTH >> 20, reps);
      // 1. the build: the job against one process reading header after header
      double[] single = new double[reps];
      double[] job = new double[reps];
      double[] local = new double[reps];
      for (int rep = 0; rep < reps; rep++) {
        for (int k = 0; k < 2; k++) {
          if ((k + rep) % 2 == 0) {
            single[rep] = singleProcess(cluster, small);
          } else {
            double[] r = indexJob(cluster, yarn, "/idx/small-" + rep, "/small");
            job[rep] = small.size() / r[0];
            local[rep] = r[1];
          }
        }
        System.out.printf("build %d: one process %.0f files/s, the job %.0f files/s (%.0f%% of "
            + "its block reads local)%n", rep, single[rep], job[rep], 100 * local[rep]);
      }
      Stats speed = Stats.ratio(job, single);
      // what the job costs with next to nothing to read: a file a host, as many tasks
      String[] few = new String[DATANODES];
      for (int i = 0; i < few.length; i++) {
        few[i] = small.get(i * (small.size() / few.length)).getPath().toUri().getPath();
      }
      double[] fixed = new double[reps];
      double[] beyond = new double[reps];
      for (int rep = 0; rep < reps; rep++) {
        fixed[rep] = indexJob(cluster, yarn, "/idx/few-" + rep, few)[0];
        beyond[rep] = (small.size() - few.length) / (small.size() / job[rep] - fixed[rep]);
      }
      System.out.printf("the job over %d files (one a host): %s s; beyond that, %s files/s%n",
          few.length, Stats.of(fixed), Stats.of(beyond));
      Stats localFraction = Stats.of(local);
      // 2. the query series' index, then the session's first query from it and without it
      double[] built = indexJob(cluster, yarn, "/idx/era5", "/era5");
      Map<String, Double> worst = new LinkedHashMap<>();
      File log = new File(outDir, "science-index-driver.log");
      Session session = new Session(cluster, classpath, log, era5.size());
      double[] indexed = session.firstQuery("pushdown-index", expected, worst);
      double[] headers = session.firstQuery("pushdown", expected, worst);
      boolean answers = worst.values().stream().allMatch(w -> w <= 1e-9);
      // 3. xarray over WebHDFS from the index's sets, against xarray from the original files
      QueryDriver.Answer[] py = xarray(cluster, "/idx/era5", query);
      boolean xarrayEqual = py[0].groups.equals(py[1].groups);
      // xarray decodes packed int16 to float32: against netCDF4-python's float64, for the record
      double decoded = maxRelative(py[0].groups, expected);
      // 4. one query planned from an index of 100,000 files
      double[] plan = PlanAtScale.seconds(cluster, new File(outDir, "science-index-100k-v4"),
          "/idx/era5", era5.get(0), PLANNED_FILES, quick ? 3 : 5);
      Stats planned = Stats.of(plan);
      System.out.printf("the index job: %.2f +- %.2f x the files per second of one process "
          + "(%.0f%% local); first query from the index %.3f x the selection's chunk bytes "
          + "(from the headers %.3f), answers %s; xarray over WebHDFS %s xarray from the "
          + "originals (%.1e from netCDF4-python's float64); planning at %,d files %.2f +- "
          + "%.2f s%n", speed.mean, speed.ci95, 100 * localFraction.mean,
          indexed[1] / selection, headers[1] / selection, answers ? "equal" : "NOT EQUAL",
          xarrayEqual ? "equals" : "DIFFERS FROM", decoded, PLANNED_FILES,
          planned.mean, planned.ci95);
      summary.put("index_first_query_bytes_over_selection", indexed[1] / selection);
      summary.put("index_plan_seconds_100k_files", planned.mean);
      summary.put("index_build_files_per_second_vs_single", speed.mean);
      summary.put("index_build_local_fraction", localFraction.mean);
      summary.put("index_xarray_values_equal", xarrayEqual && answers);
      ci.put("index_plan_seconds_100k_files", planned.ci95);
      ci.put("index_build_files_per_second_vs_single", speed.ci95);
      ci.put("index_build_local_fraction", localFraction.ci95);
      detail.put("build_files", small.size());
      detail.put("build_single_files_per_second", Stats.of(single).json());
      detail.put("build_job_files_per_second", Stats.of(job).json());
      detail.put("build_job_seconds_for_a_file_a_host", Stats.of(fixed).json());
      detail.put("build_job_files_per_second_beyond_that", Stats.of(beyond).json());
      detail.put("query_series_files", era5.size());
      detail.put("query_series_index_seconds", built[0]);
      detail.put("selection_chunk_bytes", selection);
      detail.put("first_query_from_index", Map.of("seconds", indexed[0], "bytes_read",
          (long) indexed[1], "bytes_over_selection", indexed[1] / selection));
      detail.put("first_query_from_headers", Map.of("seconds", headers[0], "bytes_read",
          (long) headers[1], "bytes_over_selection", headers[1] / selection));
      detail.put("max_relative_difference_to_oracle", worst);
      detail.put("xarray_groups", py[0].groups.size());
      detail.put("xarray_max_relative_difference_to_netcdf4_python", decoded);
      detail.put("plan_seconds_100k_files", planned.json());
      detail.put("cores", Runtime.getRuntime().availableProcessors());
    }
    doc.put("summary", summary);
    doc.put("summary_ci95", ci);
    doc.put("detail", detail);
    return doc;
  }

  /** The largest relative difference between two answers' values (NaN where they differ). */
  private static double maxRelative(List<List<Object>> got, List<List<Object>> b) {
    if (got.size() != b.size()) {
      return Double.NaN;
    }
    List<List<Object>> a = new ArrayList<>(got); // in the oracle's order
    a.sort((x, y) -> {
      int c = Integer.compare((Integer) x.get(0), (Integer) y.get(0));
      c = c != 0 ? c : Float.compare((Float) x.get(1), (Float) y.get(1));
      return c != 0 ? c : Float.compare((Float) x.get(2), (Float) y.get(2));
    });
    double most = 0;
    for (int i = 0; i < a.size(); i++) {
      for (int k = 3; k < 5; k++) {
        Double x = (Double) a.get(i).get(k);
        Double y = (Double) b.get(i).get(k);
        if (x == null || y == null) {
          most = x == y ? most : Double.NaN;
          continue;
        }
        double scale = Math.max(Math.abs(x), Math.abs(y));
        most = Math.max(most, scale == 0 ? 0 : Math.abs(x - y) / scale);
      }
    }
    return most;
  }

  private static long bytes(List<FileStatus> files) {
    long n = 0;
    for (FileStatus f : files) {
      n += f.getLen();
    }
    return n;
  }

  /** The small series: spark-science's files at 10 degrees (a few KiB each), a file a day. */
  private static File small(File dir, int files) throws Exception {
    File marker = new File(dir, "made");
    if (marker.exists()) {
      return dir;
    }
    String python = ReferencePython.find();
    LocalDate from = LocalDate.of(2000, 1, 1);
    Process p = new ProcessBuilder(python, SCRIPT.getPath(), "era5", dir.getPath(),
        from.toString(), from.plusDays(files - 1).toString(), "10.0", "24").inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IOException(SCRIPT + " era5 failed (exit " + p.exitValue() + ")");
    }
    Files.createFile(marker.toPath());
    return dir;
  }

  /** Files per second of one thread reading each file's header into its entry in turn. */
  private static double singleProcess(EmulatedCluster cluster, List<FileStatus> files)
      throws IOException {
    Configuration conf = new Configuration(cluster.offClusterFileSystem().getConf());
    long t0 = System.nanoTime();
    for (FileStatus f : files) {
      IndexBuilder.entry(conf, f, ScienceFiles.Kind.NETCDF, List.of("t2m", "tp"));
    }
    return files.size() / ((System.nanoTime() - t0) / 1e9);
  }

  /** The index job over {@code input} into {@code index}: seconds, local block reads' share. */
  private static double[] indexJob(EmulatedCluster cluster, HostYarn yarn, String index,
      String... inputs) throws Exception {
    Configuration conf = yarn.jobConf();
    conf.set(VariableSettings.KIND, "netcdf");
    conf.set(IndexKeys.VARIABLES, "t2m,tp");
    long[] blocks = cluster.counters().perDataNode(DataNodeCounter.BLOCKS_READ);
    long[] locals = cluster.counters().perDataNode(DataNodeCounter.READS_FROM_LOCAL_CLIENT);
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    PrintStream to = new PrintStream(said, true);
    long t0 = System.nanoTime();
    List<String> args = new ArrayList<>(List.of(inputs));
    args.add(index);
    int rc = ToolRunner.run(conf, new IndexJob(to, to), args.toArray(new String[0]));
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (rc != 0) {
      throw new IllegalStateException("bin/mrap index " + args + " exited " + rc + ": " + said);
    }
    long read = sum(cluster.counters().since(DataNodeCounter.BLOCKS_READ, blocks));
    long fromLocal = sum(cluster.counters().since(DataNodeCounter.READS_FROM_LOCAL_CLIENT,
        locals));
    return new double[] {seconds, read == 0 ? 0 : (double) fromLocal / read};
  }

  private static long sum(long[] v) {
    long n = 0;
    for (long x : v) {
      n += x;
    }
    return n;
  }

  /** Spark sessions over the query series, each in a driver JVM of its own. */
  private static final class Session {
    private final EmulatedCluster cluster;
    private final String classpath;
    private final File log;
    private final int files;

    Session(EmulatedCluster cluster, String classpath, File log, int files) {
      this.cluster = cluster;
      this.classpath = classpath;
      this.log = log;
      this.files = files;
    }

    /** A new session's first query ({@code way}): seconds, the DataNodes' bytes. */
    double[] firstQuery(String way, List<List<Object>> expected, Map<String, Double> worst)
        throws Exception {
      try (QueryDriver driver = new QueryDriver(classpath, log, cluster.uri() + "/era5", files,
          way.equals("pushdown-index") ? cluster.uri() + "/idx/era5" : null)) {
        long[] before = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
        QueryDriver.Answer a = driver.query(way);
        double bytes = SparkScienceBench.bytesSince(cluster, before);
        SparkScienceBench.check(way, a, expected, worst);
        return new double[] {a.seconds, bytes};
      }
    }
  }

  /**
   * The query through xarray over WebHDFS from the index, and through xarray from the original
   * files in {@code originals} (Python at run time).
   */
  private static QueryDriver.Answer[] xarray(EmulatedCluster cluster, String index,
      File originals) throws Exception {
    Map<String, Object> web = new LinkedHashMap<>();
    web.put("host", cluster.nameNodeHttp().getHost());
    web.put("port", cluster.nameNodeHttp().getPort());
    web.put("user", System.getProperty("user.name"));
    ObjectMapper json = new ObjectMapper();
    Process p = new ProcessBuilder(ReferencePython.find(), QUERY.getPath(),
        json.writeValueAsString(web), index, SparkScienceBench.FROM,
        SparkScienceBench.TO.replace(' ', 'T'), Integer.toString(SparkScienceBench.LAT_A),
        Integer.toString(SparkScienceBench.LAT_B), Integer.toString(SparkScienceBench.LON_A),
        Integer.toString(SparkScienceBench.LON_B), originals.getPath())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (p.waitFor() != 0) {
      throw new IOException(QUERY + " failed (exit " + p.exitValue() + ")");
    }
    JsonNode r = json.readTree(out);
    System.out.printf("xarray over WebHDFS: %d files' sets opened; from the originals %d "
        + "files%n", r.get("files").asInt(), r.get("original_files").asInt());
    return new QueryDriver.Answer[] {
        new QueryDriver.Answer(0, SparkScienceBench.groups(r.get("groups"))),
        new QueryDriver.Answer(0, SparkScienceBench.groups(r.get("original_groups")))};
  }
}
