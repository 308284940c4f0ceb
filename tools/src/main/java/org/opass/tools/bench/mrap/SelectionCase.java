package org.opass.tools.bench.mrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;
import org.opass.mrap.array.Slab;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableValues;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.plan.FilePlan;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.task.VariableTask;
import org.opass.tools.bench.ReferencePython;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * {@code mrap-science}'s selection by coordinate values: a season x a region of a series read by
 * value and by index with {@code VariableInputFormat} and as whole files, against
 * netCDF4-python's answer; then the planning of a selection over a year of daily files.
 */
final class SelectionCase {
  private SelectionCase() {
  }

  /** The series' variable: ERA5's daily sea surface temperature, packed int16. */
  static final String SERIES_VARIABLE = "sst";
  /** The series' first year (its files a month each, of daily values) and the daily files'. */
  static final int SERIES_FIRST_YEAR = 2015;
  /** The planning case's files, a day each. */
  static final int DAILY_FILES = 1000;
  /** The region: latitudes -60 to 50, longitudes eastward from 300 to 250 (across 360). */
  static final int LAT_SOUTH = -60;
  static final int LAT_NORTH = 50;
  static final int LON_FROM = 300;
  static final int LON_TO = 250;
  private static final File SERIES_SCRIPT =
      new File("tools/src/main/resources/bench/make_science_series.py");

  /** {@code mrap.science.select} for the days {@code first} to {@code last} over the region. */
  static String selection(LocalDate first, LocalDate last) {
    return "time=" + first + ":" + last + "T23:00, latitude=" + LAT_SOUTH + ":" + LAT_NORTH
        + ", longitude=" + LON_FROM + ":" + LON_TO;
  }

  /**
   * The index ranges, as a slab item ({@code a:b+c:d}, stop exclusive), of the indices
   * {@code 0..n-1} that {@code in} accepts; null where it accepts none.
   */
  static String runs(int n, java.util.function.IntPredicate in) {
    StringBuilder b = new StringBuilder();
    int i = 0;
    while (i < n) {
      if (!in.test(i)) {
        i++;
        continue;
      }
      int from = i;
      while (i < n && in.test(i)) {
        i++;
      }
      b.append(b.length() == 0 ? "" : "+").append(from).append(':').append(i);
    }
    return b.length() == 0 ? null : b.toString();
  }

  /**
   * The slab of a file of the series that holds the same elements as {@link #selection}, from
   * the layout make_science_series.py writes and not through {@code Selection}: file
   * {@code sst_YYYYMM.nc} holds the days of its month, day k (from 0) at noon; the grid is 0.5
   * degree, latitude {@code 90 - i/2}, longitude {@code j/2}. Null where the file holds no
   * selected day. (The daily files hold one day each, on a 1 degree grid.)
   */
  static String seriesSlab(String file, LocalDate first, LocalDate last) {
    YearMonth month = YearMonth.of(Integer.parseInt(file.substring(4, 8)),
        Integer.parseInt(file.substring(8, 10)));
    // a day's value is its noon: in [first 00:00, last 23:00] for the days first to last
    String days = runs(month.lengthOfMonth(), k -> {
      LocalDate day = month.atDay(k + 1);
      return !day.isBefore(first) && !day.isAfter(last);
    });
    if (days == null) {
      return null;
    }
    if (days.equals("0:" + month.lengthOfMonth())) {
      days = ":"; // the whole month: months of 30 and 31 days share a slab, and a job
    }
    String rows = runs(361, i -> 90 - i / 2.0 >= LAT_SOUTH && 90 - i / 2.0 <= LAT_NORTH);
    double width = Math.floorMod(LON_TO - LON_FROM, 360);
    String columns = runs(720, j -> floorMod360(j / 2.0 - LON_FROM) <= width);
    return days + ", " + rows + ", " + columns;
  }

  private static double floorMod360(double x) {
    double m = x % 360;
    return m < 0 ? m + 360 : m;
  }

  /** make_science_series.py's files ({@code what}: series or daily), written once per size. */
  static File generateSeries(File dir, String what, int first, int count) throws Exception {
    File marker = new File(dir, "made");
    if (marker.exists()) {
      return dir;
    }
    if (dir.exists()) {
      try (java.util.stream.Stream<java.nio.file.Path> s = Files.walk(dir.toPath())) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    String python = ReferencePython.find();
    System.out.printf("writing %s (%s %d %d) with %s...%n", dir, what, first, count, python);
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(python, SERIES_SCRIPT.getPath(), what, dir.getPath(),
        Integer.toString(first), Integer.toString(count)).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IOException(SERIES_SCRIPT + " " + what + " failed with " + python + " (exit "
          + p.exitValue() + "): the series is written by netCDF-C through netCDF4");
    }
    System.out.printf("written in %.0f s%n", (System.nanoTime() - t0) / 1e9);
    Files.createFile(marker.toPath());
    return dir;
  }

  /**
   * What netCDF4-python reads for the selection over the files of {@code dir} (its automatic
   * mask and scale): the sum of the values not masked, the elements, those masked, the files.
   */
  static JsonNode oracle(File dir, LocalDate first, LocalDate last) throws Exception {
    String python = ReferencePython.find();
    Process p = new ProcessBuilder(python, SERIES_SCRIPT.getPath(), "oracle", dir.getPath(),
        first + "T00:00", last + "T23:00", Integer.toString(LAT_SOUTH),
        Integer.toString(LAT_NORTH), Integer.toString(LON_FROM), Integer.toString(LON_TO))
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (p.waitFor() != 0) {
      throw new IOException(SERIES_SCRIPT + " oracle failed with " + python + " (exit "
          + p.exitValue() + ")");
    }
    return new ObjectMapper().readTree(out);
  }

  /** A file's bytes, read whole, as a file to parse. */
  static Positioned inMemory(byte[] all) {
    return new Positioned() {
      @Override
      public long length() {
        return all.length;
      }

      @Override
      protected int readAt(long pos, byte[] b, int off, int len) {
        if (pos >= all.length) {
          return -1;
        }
        int n = (int) Math.min(len, all.length - pos);
        System.arraycopy(all, (int) pos, b, off, n);
        return n;
      }
    };
  }

  /**
   * A whole-file task (SciSpark's {@code binaryFiles}): reads the file whole in 1 MiB reads,
   * parses it from those bytes with our header reader (the variable, its chunk index and its
   * coordinates, as a reader must to find the selection), and decodes the slab's elements of
   * the chunks as CF says, adding up those not missing.
   */
  static void readWholeFile(FileSystem fs, FileSplit split,
      java.util.function.Function<String, String> slabOf, MrapScienceBench.Tally tally)
      throws IOException {
    byte[] all = new byte[(int) split.getLength()];
    try (FSDataInputStream in = fs.open(split.getPath())) {
      for (int pos = 0; pos < all.length; pos += 1 << 20) {
        in.readFully(pos, all, pos, Math.min(1 << 20, all.length - pos));
        tally.reads.increment();
      }
    }
    Positioned file = inMemory(all);
    String name = split.getPath().getName();
    try (ScienceFile sf = ScienceFiles.open(file, name, ScienceFiles.Kind.NETCDF)) {
      Variable v = sf.variable(SERIES_VARIABLE);
      for (int d = 0; d < v.rank(); d++) {
        Variable c = sf.coordinate(v, d);
        if (c != null) {
          VariableValues.read(file, c);
        }
      }
      String text = slabOf.apply(name);
      if (text == null) {
        return;
      }
      Slab slab = Slab.parse(text, v.shape());
      SlabPlan plan = SlabPlan.of(v, slab, Long.MAX_VALUE);
      CfDecoding decoding = CfDecoding.of(v, true);
      ElementType to = decoding.decoded();
      int stored = v.type().size();
      RegionCursor c = plan.pattern().cursor();
      while (c.next()) {
        byte[] region = Arrays.copyOfRange(all, (int) c.offset(),
            (int) (c.offset() + c.length()));
        plan.pieces(c.offset(), region, region.length,
            (origin, shape, step, bytes, off, len) -> {
              int n = len / stored;
              byte[] out = new byte[n * to.size()];
              long[] missing = new long[(n + 63) >>> 6];
              int m = decoding.decode(bytes, off, n, v.order(), out, missing);
              double s = 0;
              for (int i = 0; i < n; i++) {
                if ((missing[i >>> 6] & 1L << i) == 0) {
                  s += Elements.asDouble(out, i * to.size(), to, v.order());
                }
              }
              tally.sum.add(s);
              tally.elements.add(n);
              tally.missing.add(m);
            });
      }
    }
  }

  /** The splits of one of the select case's systems. */
  static List<InputSplit> selectSplits(EmulatedCluster cluster, String system,
      Configuration byValue, Configuration base, List<FileStatus> series,
      Map<String, List<FileStatus>> bySlab) throws IOException {
    List<InputSplit> splits = new ArrayList<>();
    switch (system) {
      case "by-value":
        splits.addAll(MrapScienceBench.variableSplits(byValue, series));
        break;
      case "by-index": // a job's slab is one for all its files: a getSplits a slab
        for (Map.Entry<String, List<FileStatus>> e : bySlab.entrySet()) {
          Configuration c = new Configuration(base);
          c.set(VariableInputFormat.SLAB, e.getKey());
          splits.addAll(MrapScienceBench.variableSplits(c, e.getValue()));
        }
        break;
      default:
        FileSystem fs = cluster.offClusterFileSystem();
        for (FileStatus f : series) {
          BlockLocation[] blocks = fs.getFileBlockLocations(f, 0, f.getLen());
          splits.add(new FileSplit(f.getPath(), 0, f.getLen(), blocks[0].getHosts()));
        }
    }
    return splits;
  }

  /** Fails loudly where a read did not give the elements and sum netCDF4-python gives. */
  static void check(String system, MrapScienceBench.Tally t, JsonNode expected) {
    double sum = t.sum.sum();
    double want = expected.get("sum").asDouble();
    if (t.elements.sum() != expected.get("elements").asLong()
        || t.missing.sum() != expected.get("masked").asLong()
        || Math.abs(sum - want) > 1e-9 * Math.abs(want)) {
      throw new IllegalStateException(system + " read " + t.elements.sum() + " elements, "
          + t.missing.sum() + " missing, the others adding up to " + sum + "; netCDF4-python "
          + "reads " + expected.get("elements") + " elements, " + expected.get("masked")
          + " masked, the others adding up to " + want);
    }
  }

  /** The DataNodes' bytes read since {@code before}, once their counters settle. */
  private static long bytesSince(EmulatedCluster cluster, long[] before)
      throws InterruptedException {
    Thread.sleep(200); // DataNode counters settle after the last packet
    return Arrays.stream(cluster.counters().since(DataNodeCounter.BYTES_READ, before)).sum();
  }

  /**
   * The selection by coordinate values: a season x a region of a 10-year series, read by value
   * and by index with {@code VariableInputFormat} and as whole files; then the planning of a
   * selection over 1,000 daily files.
   */
  static void selectCases(EmulatedCluster cluster, File outDir, boolean quick,
      Map<String, Object> formats, Map<String, Object> summary, Map<String, Object> setup)
      throws Exception {
    int years = quick ? 3 : 10;
    int reps = quick ? 3 : 5;
    int planReps = 5;
    File seriesDir = generateSeries(new File(outDir, "mrap-science-series/series-"
        + SERIES_FIRST_YEAR + "-" + years), "series", SERIES_FIRST_YEAR, years);
    File dailyDir = generateSeries(new File(outDir, "mrap-science-series/daily-"
        + SERIES_FIRST_YEAR + "-" + DAILY_FILES), "daily", SERIES_FIRST_YEAR, DAILY_FILES);
    int year = SERIES_FIRST_YEAR + years / 2;
    LocalDate first = LocalDate.of(year, 6, 1);
    LocalDate last = LocalDate.of(year, 8, 31);
    String select = selection(first, last);
    FileSystem fs = cluster.offClusterFileSystem();
    List<FileStatus> series = MrapScienceBench.put(cluster, seriesDir, "/science/series");
    long seriesBytes = series.stream().mapToLong(FileStatus::getLen).sum();
    Configuration base = new Configuration(cluster.conf());
    base.set(VariableInputFormat.KIND, ScienceFiles.Kind.NETCDF.key());
    base.set(VariableInputFormat.VARIABLE, SERIES_VARIABLE);
    Configuration byValue = new Configuration(base);
    byValue.set(VariableInputFormat.SELECT, select);
    // by index: each file's slab from the layout; the files holding none are not read
    Map<String, List<FileStatus>> bySlab = new LinkedHashMap<>();
    java.util.function.Function<String, String> slabOf = name -> seriesSlab(name, first, last);
    List<String> selectedFiles = new ArrayList<>();
    for (FileStatus f : series) {
      String slab = slabOf.apply(f.getPath().getName());
      if (slab != null) {
        bySlab.computeIfAbsent(slab, k -> new ArrayList<>()).add(f);
        selectedFiles.add(f.getPath().getName());
      }
    }
    long chunkBytes = 0;
    long interest = 0;
    for (Map.Entry<String, List<FileStatus>> e : bySlab.entrySet()) {
      Configuration c = new Configuration(base);
      c.set(VariableInputFormat.SLAB, e.getKey());
      for (FilePlan p : VariablePlanner.plan(c, e.getValue())) {
        chunkBytes += p.plan().pattern().totalBytes();
        interest += p.plan().bytesOfInterest();
      }
    }
    JsonNode expected = oracle(seriesDir, first, last);
    List<String> oracleFiles = new ArrayList<>();
    expected.get("files").forEach(n -> oracleFiles.add(n.asText()));
    if (!oracleFiles.equals(selectedFiles)) {
      throw new IllegalStateException("the bench's layout selects " + selectedFiles
          + " and netCDF4-python " + oracleFiles);
    }
    System.out.printf("%nmrap-science select: %d NetCDF-4 files of %s (a month of days each, "
        + "0.5 degree, chunks of 8 x 73 x 144), %.0f MiB; %s: %d files, chunks %.2f%% of the "
        + "bytes (elements %.2f%%); %d repetitions%n%-9s %-11s %10s %9s %12s %12s %6s%n",
        series.size(), SERIES_VARIABLE, seriesBytes / 1048576.0, select, selectedFiles.size(),
        100.0 * chunkBytes / seriesBytes, 100.0 * interest / seriesBytes, reps, "series",
        "system", "time s", "submit s", "MiB read", "submit MiB", "tasks");
    String[] systems = {"whole-file", "by-index", "by-value"};
    Map<String, double[]> time = new LinkedHashMap<>();
    Map<String, double[]> submitTime = new LinkedHashMap<>(); // getSplits, or the listing
    Map<String, double[]> bytes = new LinkedHashMap<>();
    Map<String, Long> submitBytes = new LinkedHashMap<>();
    Map<String, Integer> tasks = new LinkedHashMap<>();
    Map<String, double[]> sums = new LinkedHashMap<>(); // the last read's sum, elements, missing
    for (String s : systems) {
      time.put(s, new double[reps]);
      submitTime.put(s, new double[reps]);
      bytes.put(s, new double[reps]);
    }
    for (int rep = -1; rep < reps; rep++) { // the first pass not measured: the JIT warms up
      for (int k = 0; k < systems.length; k++) {
        String s = systems[Math.floorMod(k + rep, systems.length)];
        long[] before = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
        long s0 = System.nanoTime();
        List<InputSplit> splits = selectSplits(cluster, s, byValue, base, series, bySlab);
        double submitted = (System.nanoTime() - s0) / 1e9;
        MrapScienceBench.Tally tally = new MrapScienceBench.Tally();
        MrapScienceBench.onHosts(cluster, base, MrapStridedBench.assign(cluster, splits),
            (split, hostFs, hostConf) -> {
              if (s.equals("whole-file")) {
                readWholeFile(hostFs, (FileSplit) split, slabOf, tally);
              } else {
                MrapScienceBench.readVariable(split, hostConf, tally);
              }
            });
        double seconds = (System.nanoTime() - s0) / 1e9;
        long read = bytesSince(cluster, before);
        check(s, tally, expected);
        sums.put(s, new double[] {tally.sum.sum(), tally.elements.sum(), tally.missing.sum()});
        if (rep >= 0) {
          time.get(s)[rep] = seconds;
          submitTime.get(s)[rep] = submitted;
          bytes.get(s)[rep] = read;
        } else { // the submission's own bytes (headers, chunk indexes, coordinates)
          long[] b0 = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
          selectSplits(cluster, s, byValue, base, series, bySlab);
          submitBytes.put(s, bytesSince(cluster, b0));
          tasks.put(s, splits.size());
        }
      }
      double[] v = sums.get("by-value");
      double[] i = sums.get("by-index");
      if (v[1] != i[1] || v[2] != i[2] || Math.abs(v[0] - i[0]) > 1e-9 * Math.abs(i[0])) {
        throw new IllegalStateException(select + ": by value " + (long) v[1] + " elements, "
            + (long) v[2] + " missing, the others adding up to " + v[0] + "; by index "
            + (long) i[1] + ", " + (long) i[2] + ", " + i[0]);
      }
    }
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("files", series.size());
    row.put("file_bytes", seriesBytes);
    row.put("select", select);
    row.put("slabs_by_index", bySlab.keySet());
    row.put("files_selected", selectedFiles.size());
    row.put("selected_chunk_bytes", chunkBytes);
    row.put("selected_chunk_share", (double) chunkBytes / seriesBytes);
    row.put("interest_bytes", interest);
    row.put("oracle", Map.of("sum", expected.get("sum").asDouble(),
        "elements", expected.get("elements").asLong(),
        "masked", expected.get("masked").asLong()));
    for (String s : systems) {
      Stats t = Stats.of(time.get(s));
      Stats b = Stats.of(bytes.get(s));
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("seconds", t.json());
      m.put("submission_seconds", Stats.of(submitTime.get(s)).json());
      m.put("bytes_read", b.json());
      m.put("submission_bytes_read", submitBytes.get(s));
      m.put("tasks", tasks.get(s));
      row.put(s, m);
      System.out.printf("%-9s %-11s %10s %9.3f %12.1f %12.2f %6d%n", "netcdf4", s, t,
          Stats.of(submitTime.get(s)).mean, b.mean / 1048576.0,
          submitBytes.get(s) / 1048576.0, tasks.get(s));
    }
    double byValueBytes = Stats.of(bytes.get("by-value")).mean;
    double byIndexBytes = Stats.of(bytes.get("by-index")).mean;
    double ratio = byValueBytes / byIndexBytes;
    double tasksRatio = (byValueBytes - submitBytes.get("by-value"))
        / (byIndexBytes - submitBytes.get("by-index"));
    row.put("bytes_by_value_over_by_index", ratio);
    row.put("task_bytes_by_value_over_by_index", tasksRatio);
    int skippedFiles = series.size() - selectedFiles.size();
    row.put("submission_bytes_per_skipped_file", skippedFiles == 0 ? 0
        : (double) (submitBytes.get("by-value") - submitBytes.get("by-index")) / skippedFiles);
    row.put("data_bytes_read_by_value_over_selected_chunks",
        (byValueBytes - submitBytes.get("by-value")) * MrapScienceBench.DATA_SHARE / chunkBytes);
    Stats speedup = Stats.ratio(time.get("whole-file"), time.get("by-value"));
    speedup.putInto(row, "speedup_vs_whole_file");
    Stats.ratio(time.get("by-index"), time.get("by-value")).putInto(row,
        "speedup_vs_by_index");
    // what planning cost each file of the series, split
    PlanCost seriesCost = PlanCost.of(fs, series);
    row.put("plan_per_file", seriesCost.json(series.size()));
    System.out.printf("netcdf4   bytes by value / by index %.4f (tasks alone %.4f; submission "
        + "%.2f MiB by value, %.2f by index); %.2f +- %.2f x faster than whole files%n"
        + "netcdf4   planning a file of the series: %s%n", ratio, tasksRatio,
        submitBytes.get("by-value") / 1048576.0, submitBytes.get("by-index") / 1048576.0,
        speedup.mean, speedup.ci95, seriesCost.line(series.size()));
    formats.put("netcdf4_series_select", row);
    summary.put("science_select_bytes_ratio", ratio);
    speedup.putInto(summary, "science_select_speedup_vs_whole_file");

    // planning: the selection over 1,000 daily files in HDFS
    List<FileStatus> daily = MrapScienceBench.put(cluster, dailyDir, "/science/daily");
    LocalDate dFirst = LocalDate.of(SERIES_FIRST_YEAR + 1, 6, 1);
    LocalDate dLast = LocalDate.of(SERIES_FIRST_YEAR + 1, 8, 31);
    Configuration plan = new Configuration(base);
    plan.set(VariableInputFormat.SELECT, selection(dFirst, dLast));
    long want = java.time.temporal.ChronoUnit.DAYS.between(dFirst, dLast) + 1;
    for (int k = 0; k < 2; k++) { // not measured: the JIT warms up, the new files settle
      new VariablePlanner(plan).tasks(daily);
    }
    double[] planSeconds = new double[planReps];
    int skipped = 0;
    int planTasks = 0;
    for (int rep = 0; rep < planReps; rep++) {
      long t0 = System.nanoTime();
      VariablePlanner planner = new VariablePlanner(plan);
      List<VariableTask> ts = planner.tasks(daily);
      planSeconds[rep] = (System.nanoTime() - t0) / 1e9;
      skipped = planner.skippedFiles();
      planTasks = ts.size();
    }
    if (daily.size() - skipped != want) {
      throw new IllegalStateException("the selection " + selection(dFirst, dLast) + " picks "
          + (daily.size() - skipped) + " of the daily files, not the " + want + " days");
    }
    long[] p0 = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
    List<List<FilePlan>> byFile = new VariablePlanner(plan).planByFile(daily);
    long planBytes = bytesSince(cluster, p0);
    double reads = 0;
    double nanos = 0;
    for (List<FilePlan> one : byFile) {
      for (FilePlan p : one) {
        reads += p.headerReads();
        nanos += p.headerNanos();
      }
    }
    PlanCost dailyCost = PlanCost.of(fs, daily);
    Stats planTime = Stats.of(planSeconds);
    Map<String, Object> prow = new LinkedHashMap<>();
    prow.put("files", daily.size());
    prow.put("file_bytes", daily.stream().mapToLong(FileStatus::getLen).sum());
    prow.put("select", selection(dFirst, dLast));
    prow.put("files_selected", daily.size() - skipped);
    prow.put("tasks", planTasks);
    prow.put("plan_seconds", planTime.json());
    prow.put("plan_seconds_each", planSeconds);
    prow.put("header_reads_per_file", reads / daily.size());
    prow.put("header_ms_per_file", nanos / 1e6 / daily.size());
    prow.put("bytes_read_per_file", (double) planBytes / daily.size());
    prow.put("plan_per_file", dailyCost.json(daily.size()));
    formats.put("netcdf4_daily_planning", prow);
    System.out.printf("netcdf4   planning %s over %d daily files (1 degree, chunks of 1 x 37 x "
        + "72): %s s, %d picked, %d tasks; the planner's %.1f positioned reads and %.1f ms a "
        + "file, %.0f KiB at the DataNodes;%n          split: %s%n", selection(dFirst, dLast),
        daily.size(), planTime, daily.size() - skipped, planTasks, reads / daily.size(),
        nanos / 1e6 / daily.size(), planBytes / 1024.0 / daily.size(),
        dailyCost.line(daily.size()));
    summary.put("science_select_plan_seconds_1000_files", planTime.mean);
    setup.put("series", "sst(time, latitude, longitude) int16 packed (scale_factor, add_offset "
        + "per file), _FillValue over land; a file a month of daily values from "
        + SERIES_FIRST_YEAR + ", " + years + " years, 0.5 degree, latitude 90 to -90, "
        + "longitude 0 to 359.5, chunks (8, 73, 144), NetCDF-4 by netCDF4-python");
    setup.put("daily", DAILY_FILES + " files of a day each from " + SERIES_FIRST_YEAR
        + "-01-01, 1 degree, chunks (1, 37, 72)");
    setup.put("repetitions", reps);
    setup.put("plan_repetitions", planReps);
  }
}
