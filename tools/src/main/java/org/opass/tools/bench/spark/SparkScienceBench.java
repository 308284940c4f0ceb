package org.opass.tools.bench.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableValues;
import org.opass.mrap.science.ScienceFiles;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Json;
import org.opass.tools.bench.ReferencePython;
import org.opass.tools.bench.Stats;
import org.opass.tools.bench.mrap.MrapScienceBench;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Issue 39, point 7: a SQL query of a season x a region over a daily series of ERA5-shaped
 * NetCDF-4 files, from a Spark application on the emulated cluster (8 DataNodes at 16 MiB/s),
 * three ways in the same run, in alternating rounds, by one Spark application in a JVM of its own
 * ({@code mrap-spark}'s {@code ScienceQueryDriver}, {@code local[8]}, session time zone UTC):
 * <pre>
 * SELECT month(time) AS m, latitude, longitude, avg(t2m) AS t2m, sum(tp) AS tp FROM era5
 * WHERE time BETWEEN '2020-06-01' AND '2020-08-31 23:00:00' AND latitude BETWEEN 30 AND 45
 *   AND longitude BETWEEN 100 AND 120 GROUP BY 1, 2, 3
 * </pre>
 * <ul>
 *   <li>{@code pushdown}: {@code spark.read.format("mrap")} with {@code mrap.science.layout=table}
 *   and {@code mrap.science.variables=t2m,tp}, the query as it is (its plan must show the
 *   coordinate filters taken as a selection, {@code Selection:} not {@code all});</li>
 *   <li>{@code no-pushdown}: the same source and query with the filters written so that Spark
 *   cannot push them ({@code latitude + 0 BETWEEN ...}, {@code time + INTERVAL 0 SECONDS BETWEEN
 *   ...}; the plan must show {@code Selection: all}): both variables read whole, Spark
 *   filters;</li>
 *   <li>{@code whole-file}: SciSpark's way, {@code sc.binaryFiles(dir)}, a task a file, each
 *   parsed in its task from its bytes with mrap-core's readers, filtered and summed by group.</li>
 * </ul>
 * The series (tools/src/main/resources/bench/make_science_series.py {@code era5}, netCDF-C through
 * netCDF4-python): a file a day of 2020-05-01 to 2020-10-31 (184 files; {@code --quick}
 * 2020-05-25 to 2020-09-07, 106), 24 hourly steps on a 1 degree grid (latitude 90 to -90, as
 * ERA5's), t2m and tp int16 packed with each file's own float64 {@code scale_factor}/{@code
 * add_offset}, a few missing elements, zlib, chunks of (24, 61, 45): the region lies in one
 * chunk of each variable in each of the season's 92 files, about 2% of the series' bytes (3.5%
 * with {@code --quick}). Every answer must equal, group by group within 1e-9 relative (nulls
 * alike), what netCDF4-python computes (the script's {@code era5_oracle}), and so each other's;
 * {@code spark_science_answers_equal} says whether all did. The bytes of the chunks holding the
 * selection come from HDF5's own chunk index (h5py's {@code get_chunk_info}, in the oracle),
 * checked here against our header reader's, never from our planner. Reported: the driver's
 * time of each query (mean, 95% interval), the DataNodes' bytes sent for it (planning on the
 * driver included; 4 checksum bytes each 512 included, as {@code spark-strided} counts them),
 * and where the bytes beyond the selection's chunks go: the planning (each file's first page,
 * {@code ScienceFiles.HEAD}, the coordinates beyond it, the chunk indexes of the files
 * picked), the gaps joined between regions ({@code mrap.access.coalesce.gap}, measured by a read
 * with it 0), the checksums and the reads' alignment. The planner keeps the headers it read in
 * the driver's JVM (mrap-core's {@code HeaderCache}): the session's first query reads them, the
 * measured ones after it do not; that first query is measured apart, before any other.
 */
public final class SparkScienceBench implements Bench {
  private static final int DATANODES = 8;
  private static final int BLOCK = 16 << 20;
  private static final long READ_BANDWIDTH = 16L << 20;
  /** DataNodes send 4 checksum bytes per 512 data bytes (CRC32C): the counters hold both. */
  private static final double DATA_SHARE = 512.0 / 516.0;
  static final String FROM = "2020-06-01";
  static final String TO = "2020-08-31 23:00:00";
  static final int LAT_A = 30;
  static final int LAT_B = 45;
  static final int LON_A = 100;
  static final int LON_B = 120;
  /** The grid's step in degrees and the steps a day. */
  private static final String STEP = "1.0";
  private static final int HOURS = 24;
  private static final String[] WAYS = {"pushdown", "no-pushdown", "whole-file"};
  private static final File SCRIPT =
      new File("tools/src/main/resources/bench/make_science_series.py");

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    String classpath = SparkStridedBench.sparkClasspath("spark-science");
    LocalDate first = quick ? LocalDate.of(2020, 5, 25) : LocalDate.of(2020, 5, 1);
    LocalDate last = quick ? LocalDate.of(2020, 9, 7) : LocalDate.of(2020, 10, 31);
    int reps = quick ? 3 : 5;
    File data = generate(new File(outDir, "spark-science-data/era5-" + first + "-" + last),
        first, last);
    JsonNode oracle = oracle(data);
    List<List<Object>> expected = groups(oracle.get("groups"));
    long seriesBytes = 0;
    for (JsonNode n : oracle.get("file_bytes")) {
      seriesBytes += n.asLong();
    }
    // the denominator: HDF5's own chunk index (h5py), which our header reader must agree with
    Map<String, long[]> chunks = new LinkedHashMap<>();
    long chunkBytes = 0;
    for (String name : iterable(oracle.get("chunk_bytes").fieldNames())) {
      JsonNode c = oracle.get("chunk_bytes").get(name);
      long[] ours = selectedChunkBytes(new File(data, name));
      if (ours[0] != c.get("t2m").asLong() || ours[1] != c.get("tp").asLong()) {
        throw new IllegalStateException(name + ": the chunks holding the selection are " + c
            + " bytes by h5py's chunk index and " + Arrays.toString(ours) + " by ours");
      }
      chunks.put(name, ours);
      chunkBytes += ours[0] + ours[1];
    }
    long selection = chunkBytes;
    int fileCount = oracle.get("file_bytes").size();
    Map<String, Object> doc = new LinkedHashMap<>();
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(READ_BANDWIDTH)
        .baseDir(new File(outDir, "spark-science-cluster")).start()) {
      List<FileStatus> series = MrapScienceBench.put(cluster, data, "/era5");
      if (series.size() != fileCount) {
        throw new IllegalStateException(series.size() + " files put, the oracle read "
            + fileCount);
      }
      System.out.printf("%nspark-science: %d daily files (%s to %s, %d hourly steps at %s "
          + "degree, t2m and tp int16, zlib, chunks of 24 x 61 x 45), %.1f MiB; the query's "
          + "season x region in %d files, its chunks %.2f MiB (%.2f%% of the bytes); %d "
          + "DataNodes at %d MiB/s; Spark local[8] in its own JVM; %d repetitions%n"
          + "%-12s %12s %12s %12s %8s%n", fileCount, first, last, HOURS, STEP,
          seriesBytes / 1048576.0, chunks.size(), selection / 1048576.0,
          100.0 * selection / seriesBytes, DATANODES, READ_BANDWIDTH >> 20, reps, "way",
          "time s", "MiB read", "read/sel.", "groups");
      Map<String, double[]> time = new LinkedHashMap<>();
      Map<String, double[]> bytes = new LinkedHashMap<>();
      Map<String, Double> worst = new LinkedHashMap<>(); // relative difference to the oracle
      Map<String, Object> scans = new LinkedHashMap<>();
      Map<String, Object> diagnosis = new LinkedHashMap<>();
      boolean equal = true;
      File log = new File(outDir, "spark-science-driver.log");
      double[] opening = new double[2]; // the session's first query: seconds, bytes
      try (QueryDriver driver = new QueryDriver(classpath, log, cluster.uri() + "/era5",
          fileCount)) {
        for (String w : WAYS) {
          worst.put(w, 0.0);
        }
        // the session's first query, before the driver JVM holds any file's header
        long[] cold = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
        QueryDriver.Answer a0 = driver.query("pushdown");
        opening[0] = a0.seconds;
        opening[1] = bytesSince(cluster, cold);
        equal &= check("pushdown", a0, expected, worst);
        for (String w : new String[] {"pushdown", "no-pushdown"}) {
          String scan = driver.explain(w);
          scans.put(w, scan);
          boolean all = scan.contains("Selection: all");
          if (!scan.contains("Selection: ") || all == w.equals("pushdown")) {
            throw new IllegalStateException(w + ": the scan should show " + (w.equals(
                "pushdown") ? "a selection" : "Selection: all") + ", not: " + scan);
          }
        }
        for (String w : WAYS) {
          time.put(w, new double[reps]);
          bytes.put(w, new double[reps]);
          // not measured: the JIT, connections, codegen; its answer checked all the same
          equal &= check(w, driver.query(w), expected, worst);
        }
        for (int rep = 0; rep < reps; rep++) {
          for (int k = 0; k < WAYS.length; k++) {
            String w = WAYS[(k + rep) % WAYS.length]; // who goes first alternates
            long[] before = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
            QueryDriver.Answer a = driver.query(w);
            time.get(w)[rep] = a.seconds;
            bytes.get(w)[rep] = bytesSince(cluster, before);
            equal &= check(w, a, expected, worst);
          }
        }
        // where the bytes beyond the selection's chunks go, measured apart
        long[] before = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
        driver.plan("pushdown");
        diagnosis.put("planning_bytes_read", bytesSince(cluster, before));
        before = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
        driver.plan("no-pushdown");
        diagnosis.put("planning_bytes_read_no_pushdown", bytesSince(cluster, before));
        before = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
        equal &= check("pushdown-nogap", driver.query("pushdown-nogap"), expected, worst);
        diagnosis.put("bytes_read_coalesce_gap_0", bytesSince(cluster, before));
      }
      Map<String, Object> ways = new LinkedHashMap<>();
      for (String w : WAYS) {
        Stats t = Stats.of(time.get(w));
        Stats b = Stats.of(bytes.get(w));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", t.json());
        m.put("bytes_read", b.json());
        m.put("bytes_read_over_selection", b.mean / selection);
        m.put("data_bytes_read_over_selection", b.mean * DATA_SHARE / selection);
        m.put("max_relative_difference_to_oracle", worst.get(w));
        if (w.equals("pushdown")) {
          Map<String, Object> f = new LinkedHashMap<>();
          f.put("seconds", opening[0]);
          f.put("bytes_read", opening[1]);
          f.put("bytes_read_over_selection", opening[1] / selection);
          m.put("first_query_of_the_session", f);
        }
        ways.put(w, m);
        System.out.printf("%-12s %12s %12.1f %12.3f %8d%n", w, t, b.mean / 1048576.0,
            b.mean / selection, expected.size());
      }
      Stats speedup = Stats.ratio(time.get("no-pushdown"), time.get("pushdown"));
      Stats overWhole = Stats.ratio(time.get("whole-file"), time.get("pushdown"));
      Stats over = Stats.of(Arrays.stream(bytes.get("pushdown")).map(b -> b / selection)
          .toArray());
      diagnosis.put("first_query_bytes_read", (long) opening[1]);
      Map<String, Object> parts = parts(data, oracle, chunks, selection,
          Stats.of(bytes.get("pushdown")).mean, diagnosis);
      System.out.printf("pushdown: %.2f +- %.2f x the speed without pushdown, %.2f +- %.2f x "
          + "that of whole files; %.3f +- %.3f x the selection's chunk bytes read; answers "
          + "%s (worst relative difference to netCDF4-python %.1e)%n", speedup.mean,
          speedup.ci95, overWhole.mean, overWhole.ci95, over.mean, over.ci95,
          equal ? "equal" : "NOT EQUAL", worst.values().stream().mapToDouble(x -> x).max()
              .orElse(0));
      System.out.printf("pushdown's first query of the session (no file's header held yet): "
          + "%.1f MiB, %.3f x the selection's chunk bytes, %.2f s%n", opening[1] / 1048576.0,
          opening[1] / selection, opening[0]);
      System.out.println("bytes beyond the selection's chunks, in MiB a query: " + Json.toString(
          parts));
      Map<String, Object> summary = new LinkedHashMap<>();
      summary.put("spark_science_speedup_vs_no_pushdown", speedup.mean);
      summary.put("spark_science_bytes_over_selection", over.mean);
      summary.put("spark_science_answers_equal", equal);
      doc.put("summary", summary);
      Map<String, Object> ci = new LinkedHashMap<>();
      ci.put("spark_science_speedup_vs_no_pushdown", speedup.ci95);
      ci.put("spark_science_bytes_over_selection", over.ci95);
      doc.put("summary_ci95", ci);
      Map<String, Object> setup = new LinkedHashMap<>();
      setup.put("datanodes", DATANODES);
      setup.put("block_bytes", BLOCK);
      setup.put("read_bandwidth_per_datanode", READ_BANDWIDTH);
      setup.put("files", fileCount);
      setup.put("first_day", first.toString());
      setup.put("last_day", last.toString());
      setup.put("series", "ERA5-shaped daily NetCDF-4 files (netCDF-C through netCDF4-python): "
          + HOURS + " hourly steps, " + STEP + " degree, latitude 90 to -90, t2m and tp int16 "
          + "packed (float64 scale_factor/add_offset per file), _FillValue/missing_value -32767, "
          + "zlib level 4, chunks (24, 61, 45)");
      setup.put("series_bytes", seriesBytes);
      setup.put("query", "SELECT month(time) AS m, latitude, longitude, avg(t2m) AS t2m, "
          + "sum(tp) AS tp FROM era5 WHERE time BETWEEN '" + FROM + "' AND '" + TO + "' AND "
          + "latitude BETWEEN " + LAT_A + " AND " + LAT_B + " AND longitude BETWEEN " + LON_A
          + " AND " + LON_B + " GROUP BY 1, 2, 3");
      setup.put("files_selected", chunks.size());
      setup.put("selected_chunk_bytes", selection);
      setup.put("selected_chunk_share", (double) selection / seriesBytes);
      setup.put("elements_selected", oracle.get("elements").asLong());
      setup.put("masked_t2m", oracle.get("masked_t2m").asLong());
      setup.put("masked_tp", oracle.get("masked_tp").asLong());
      setup.put("groups", expected.size());
      setup.put("repetitions", reps);
      setup.put("spark_master", "local[8]");
      doc.put("setup", setup);
      doc.put("ways", ways);
      Map<String, Object> ratios = new LinkedHashMap<>();
      speedup.putInto(ratios, "pushdown_speedup_vs_no_pushdown");
      overWhole.putInto(ratios, "pushdown_speedup_vs_whole_file");
      Stats.ratio(time.get("no-pushdown"), time.get("whole-file")).putInto(ratios,
          "whole_file_speedup_vs_no_pushdown");
      doc.put("ratios", ratios);
      doc.put("scans", scans);
      doc.put("bytes_beyond_selection", parts);
    }
    return doc;
  }

  /** The DataNodes' bytes read since {@code before}, once their counters settle. */
  static long bytesSince(EmulatedCluster cluster, long[] before)
      throws InterruptedException {
    Thread.sleep(200); // DataNode counters settle after the last packet
    return Arrays.stream(cluster.counters().since(DataNodeCounter.BYTES_READ, before)).sum();
  }

  static <T> Iterable<T> iterable(java.util.Iterator<T> it) {
    return () -> it;
  }

  /** The series' files, written once per range by the script (the files there kept). */
  static File generate(File dir, LocalDate first, LocalDate last) throws Exception {
    File marker = new File(dir, "made");
    if (marker.exists()) {
      return dir;
    }
    String python = ReferencePython.find();
    System.out.printf("writing %s (era5 %s %s) with %s...%n", dir, first, last, python);
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(python, SCRIPT.getPath(), "era5", dir.getPath(),
        first.toString(), last.toString(), STEP, Integer.toString(HOURS)).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IOException(SCRIPT + " era5 failed with " + python + " (exit " + p.exitValue()
          + "): the series is written by netCDF-C through netCDF4");
    }
    System.out.printf("written in %.0f s%n", (System.nanoTime() - t0) / 1e9);
    Files.createFile(marker.toPath());
    return dir;
  }

  /** What netCDF4-python computes for the query, and HDF5's chunk index says (the script). */
  static JsonNode oracle(File dir) throws Exception {
    String python = ReferencePython.find();
    Process p = new ProcessBuilder(python, SCRIPT.getPath(), "era5_oracle", dir.getPath(),
        FROM + "T00:00", TO.replace(' ', 'T'), Integer.toString(LAT_A),
        Integer.toString(LAT_B), Integer.toString(LON_A), Integer.toString(LON_B))
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (p.waitFor() != 0) {
      throw new IOException(SCRIPT + " era5_oracle failed with " + python + " (exit "
          + p.exitValue() + ")");
    }
    return new ObjectMapper().readTree(out);
  }

  /** The oracle's groups: month, latitude, longitude (as floats), mean t2m, sum tp. */
  static List<List<Object>> groups(JsonNode groups) {
    List<List<Object>> out = new ArrayList<>();
    for (JsonNode g : groups) {
      out.add(Arrays.asList(g.get(0).asInt(), (float) g.get(1).asDouble(),
          (float) g.get(2).asDouble(), g.get(3).isNull() ? null : g.get(3).asDouble(),
          g.get(4).isNull() ? null : g.get(4).asDouble()));
    }
    return out;
  }

  /**
   * Whether {@code a} holds the oracle's groups, the values within 1e-9 relative (nulls alike);
   * keeps the worst relative difference of {@code way}.
   */
  static boolean check(String way, QueryDriver.Answer a, List<List<Object>> expected,
      Map<String, Double> worst) {
    List<List<Object>> got = new ArrayList<>(a.groups);
    got.sort((x, y) -> {
      int c = Integer.compare((Integer) x.get(0), (Integer) y.get(0));
      c = c != 0 ? c : Float.compare((Float) x.get(1), (Float) y.get(1));
      return c != 0 ? c : Float.compare((Float) x.get(2), (Float) y.get(2));
    });
    String wrong = null;
    double most = 0;
    if (got.size() != expected.size()) {
      wrong = got.size() + " groups, the oracle " + expected.size();
    }
    for (int i = 0; wrong == null && i < got.size(); i++) {
      List<Object> g = got.get(i);
      List<Object> e = expected.get(i);
      if (!g.subList(0, 3).equals(e.subList(0, 3))) {
        wrong = "group " + g.subList(0, 3) + " where the oracle has " + e.subList(0, 3);
        break;
      }
      for (int k = 3; k < 5; k++) {
        Double x = (Double) g.get(k);
        Double y = (Double) e.get(k);
        if (x == null || y == null) {
          if (x != y) {
            wrong = "group " + g + " where the oracle has " + e;
          }
          continue;
        }
        double scale = Math.max(Math.abs(x), Math.abs(y));
        double d = scale == 0 ? 0 : Math.abs(x - y) / scale;
        most = Math.max(most, d);
        if (!(d <= 1e-9)) {
          wrong = "group " + g + " where the oracle has " + e;
        }
      }
    }
    worst.merge(way.equals("pushdown-nogap") ? "pushdown" : way, most, Math::max);
    if (wrong != null) {
      System.out.println(way + ": WRONG ANSWER: " + wrong);
    }
    return wrong == null;
  }

  /**
   * The bytes of the chunks of t2m and tp (in that order) that hold the selection in the local
   * file {@code f}, by our header reader and the file's own coordinates.
   */
  static long[] selectedChunkBytes(File f) throws IOException {
    try (FileChannel ch = FileChannel.open(f.toPath(), StandardOpenOption.READ)) {
      Positioned p = Positioned.of(ch);
      try (ScienceFile sf = ScienceFiles.open(p, f.getName(), ScienceFiles.Kind.NETCDF)) {
        long[] out = new long[2];
        String[] names = {"t2m", "tp"};
        for (int k = 0; k < 2; k++) {
          Variable v = sf.variable(names[k]);
          long[][] box = box(p, sf, v);
          if (box == null) {
            continue;
          }
          Variable.Chunks c = v.chunks();
          int[] cs = v.chunkShape();
          for (int i = 0; i < c.count(); i++) {
            long[] o = c.origin(i);
            boolean in = true;
            for (int d = 0; d < o.length; d++) {
              in &= o[d] <= box[d][1] && o[d] + cs[d] - 1 >= box[d][0];
            }
            if (in) {
              out[k] += c.size(i);
            }
          }
        }
        return out;
      }
    }
  }

  /**
   * The first and last index the query selects along each dimension of {@code v}, from the
   * file's coordinates (hours since 1900-01-01, latitude, longitude); null where none.
   */
  private static long[][] box(Positioned p, ScienceFile sf, Variable v) throws IOException {
    double from = hours(LocalDate.parse(FROM).atStartOfDay());
    double to = hours(java.time.LocalDateTime.parse(TO.replace(' ', 'T')));
    double[][] bounds = {{from, to}, {LAT_A, LAT_B}, {LON_A, LON_B}};
    long[][] box = new long[3][];
    for (int d = 0; d < 3; d++) {
      Variable c = sf.coordinate(v, d);
      String units = c.attributes().text("units");
      if (d == 0 && !"hours since 1900-01-01 00:00:00.0".equals(units)) {
        throw new IllegalStateException(sf.file() + ": time in " + units);
      }
      double[] x = VariableValues.read(p, c);
      long lo = -1;
      long hi = -1;
      for (int i = 0; i < x.length; i++) {
        if (x[i] >= bounds[d][0] && x[i] <= bounds[d][1]) {
          lo = lo < 0 ? i : lo;
          hi = i;
        }
      }
      if (lo < 0) {
        return null;
      }
      box[d] = new long[] {lo, hi};
    }
    return box;
  }

  private static double hours(java.time.LocalDateTime t) {
    return java.time.Duration.between(java.time.LocalDateTime.of(1900, 1, 1, 0, 0), t)
        .toMinutes() / 60.0;
  }

  /**
   * Where the pushdown query's bytes beyond the selection's chunks go, in MiB a query: the
   * planning's reads as the planner makes them (replayed here on the local files: each file's
   * first page, the coordinates and chunk indexes past it; against the DataNodes' bytes of a
   * planning alone, which tell how many times a query makes them), where the files' first
   * chunk starts (the first page's bytes past it are chunk data), the gaps joined between
   * regions (a read with {@code mrap.access.coalesce.gap=0}), checksums, and what is left (the
   * reads' alignment to checksum chunks, other reads).
   */
  private static Map<String, Object> parts(File data, JsonNode oracle, Map<String, long[]> chunks,
      long selection, double total, Map<String, Object> diagnosis) throws IOException {
    long headSkipped = 0;
    long headPicked = 0;
    long coordinates = 0;
    long indexes = 0;
    long reads = 0;
    int skipped = 0;
    long firstChunks = 0; // where each file's first chunk of t2m or tp starts
    for (String name : iterable(oracle.get("file_bytes").fieldNames())) {
      boolean picked = chunks.containsKey(name);
      try (FileChannel ch = FileChannel.open(new File(data, name).toPath(),
          StandardOpenOption.READ)) {
        Positioned p = Positioned.of(ch);
        p.keepHead(ScienceFiles.HEAD); // the planner's first read
        long head = p.bytesRead();
        try (ScienceFile sf = ScienceFiles.open(p, name, ScienceFiles.Kind.NETCDF)) {
          Variable v = sf.describe("t2m");
          for (int d = 0; d < v.rank(); d++) {
            Variable c = sf.coordinate(v, d);
            if (c != null) {
              VariableValues.read(p, c);
            }
          }
          long described = p.bytesRead();
          if (picked) { // the chunk indexes, once the coordinates show a selection here
            sf.variable("t2m");
            sf.variable("tp");
          }
          long first = Long.MAX_VALUE;
          for (String w : new String[] {"t2m", "tp"}) {
            Variable.Chunks c = ScienceFiles.variable(Positioned.of(ch), name,
                ScienceFiles.Kind.NETCDF, w).chunks();
            for (int i = 0; i < c.count(); i++) {
              first = Math.min(first, c.address(i));
            }
          }
          firstChunks += first;
          if (picked) {
            headPicked += head;
          } else {
            headSkipped += head;
            skipped++;
          }
          coordinates += described - head;
          indexes += p.bytesRead() - described;
          reads += p.reads();
        }
      }
    }
    double mib = 1048576.0;
    long planned = (Long) diagnosis.get("planning_bytes_read");
    long noGap = (Long) diagnosis.get("bytes_read_coalesce_gap_0");
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("selection_chunks_mib", selection / mib);
    m.put("total_mib", total / mib);
    m.put("planning_datanode_mib", planned / mib);
    m.put("planning_replayed_mib", (headSkipped + headPicked + coordinates + indexes) / mib);
    m.put("planning_replayed_reads", reads);
    long replayed = headSkipped + headPicked + coordinates + indexes;
    long firstQuery = (Long) diagnosis.get("first_query_bytes_read");
    // the planner's reads, made this many times by a later query and by the session's first
    // (its bytes past a later query's are its planning's)
    m.put("planning_passes", planned * DATA_SHARE / replayed);
    m.put("first_query_mib", firstQuery / mib);
    m.put("first_query_planning_mib", (firstQuery - total + planned) / mib);
    m.put("first_query_planning_passes", (firstQuery - total + planned) * DATA_SHARE / replayed);
    m.put("first_page_of_skipped_files_mib", headSkipped / mib);
    m.put("skipped_files", skipped);
    m.put("first_page_of_picked_files_mib", headPicked / mib);
    m.put("first_page_bytes", ScienceFiles.HEAD);
    m.put("first_chunk_offset_mean_bytes", (double) firstChunks / (skipped + chunks.size()));
    m.put("coordinates_past_first_page_mib", coordinates / mib);
    m.put("chunk_indexes_of_picked_files_mib", indexes / mib);
    m.put("coalesced_gaps_mib", (total - noGap) / mib);
    m.put("tasks_with_gap_0_over_selection", (noGap - planned) * DATA_SHARE / selection);
    m.put("checksums_mib", total * (1 - DATA_SHARE) / mib);
    m.put("rest_mib", (total * DATA_SHARE - selection - planned * DATA_SHARE
        - (total - noGap) * DATA_SHARE) / mib);
    m.put("planning_no_pushdown_datanode_mib",
        (Long) diagnosis.get("planning_bytes_read_no_pushdown") / mib);
    return m;
  }
}
