package org.opass.tools.bench.mrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.security.UserGroupInformation;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;
import org.opass.mrap.array.Slab;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableValues;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.mapreduce.VariableRecordReader;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.plan.FilePlan;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.task.VariableTask;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.ReferencePython;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Issue 24's benchmark: one variable's slab, about a fifth of a multi-variable data set, read
 * from HDFS three ways, on the emulated cluster (8 DataNodes at 16 MiB/s each, readers on the
 * DataNode hosts, eight at once), for NetCDF-3 (64-bit offset, record variables interleaved)
 * and HDF5 (chunked) files that netCDF-C and h5py write (tools/src/main/resources/bench/
 * make_science_data.py, run by {@link ReferencePython}: a Python with netCDF4 and h5py):
 * <ul>
 *   <li>{@code whole-file}: a task per file reads the whole file, as SciSpark's
 *   {@code binaryFiles} does, and takes the slab out of the bytes as they pass;</li>
 *   <li>{@code block-scan}: a task per block reads every byte, as a {@code FixedLengthInputFormat}
 *   scan that filters does (bytes and time only: a byte scan cannot decode chunks);</li>
 *   <li>{@code variable}: {@code VariableInputFormat} with the variable and slab by name.</li>
 * </ul>
 * Both value-delivering systems must give the same sum of the slab's values. Bytes read are the
 * DataNodes' own counters, which hold the 4 checksum bytes of every 512 as well: the ratios to
 * the bytes of interest are of the data bytes (512 of every 516).
 *
 * <p>Then selection by coordinate values ({@code mrap.science.select}), on the same cluster, over
 * a series in the shape of ERA5's daily sea surface temperature, written by netCDF-C through
 * netCDF4-python (tools/src/main/resources/bench/make_science_series.py): a NetCDF-4 file a month of
 * daily values from 2015, 10 years (3 with {@code --quick}), {@code sst(time, latitude,
 * longitude)} packed int16 with each file's own {@code scale_factor}/{@code add_offset} and
 * {@code _FillValue}/{@code missing_value} over land (a third of the grid), time "days since
 * 2015-01-01" (each day's noon) in the standard calendar, latitude 90 to -90 and longitude 0 to
 * 359.5 at 0.5 degree, chunks of (8, 73, 144): a month is 4 x 5 x 5 chunks of 164 KiB, about
 * 16 MiB a file. The selection is one season over a large region, {@code time=Y-06-01:
 * Y-08-31T23:00, latitude=-60:50, longitude=300:250} (Y the series' middle year; the longitude
 * range crosses 360): its three months' files, and in each 4 of the 5 chunk rows of latitude
 * and all 5 columns of longitude, so the chunks it touches are 3/120 x 4/5 = 2.0% of the
 * series' bytes (6.7% of the 3 years of {@code --quick}); the elements themselves are 1.3%.
 * Three ways, each checked against what netCDF4-python reads (its automatic mask and scale: the
 * elements, those masked, the sum of the others), failing loudly otherwise:
 * <ul>
 *   <li>{@code by-value}: {@code VariableInputFormat} with the selection over every file of the
 *   series (each file's coordinates read at submission, the files it picks nothing in
 *   skipped);</li>
 *   <li>{@code by-index}: the same elements by {@code mrap.science.slab}, each file's slab
 *   computed here from the layout the script writes (not through {@code Selection}), only the
 *   files holding selected days read (one job; a {@code getSplits} a distinct slab where a
 *   season starts or ends within a month, as it does not here);</li>
 *   <li>{@code whole-file}: a task per file of the series reads it whole, parses it from those
 *   bytes with our header reader and decodes the slab's elements as CF says.</li>
 * </ul>
 * {@code science_select_bytes_ratio} is the DataNodes' bytes of the whole read, submission
 * (headers, chunk indexes, coordinates) and tasks, by value over by index (the tasks' alone and
 * the submission's are in the row); {@code science_select_speedup_vs_whole_file} the whole-file
 * time over the by-value time, submission included. Last, {@code
 * science_select_plan_seconds_1000_files}: the wall time of {@code VariablePlanner.tasks} for a
 * selection of a season over 1,000 daily files (one day each, 1 degree, chunks of (1, 37, 72),
 * each with its own time coordinate) in HDFS, with the planner's reads a file and the bench's
 * split of a file's planning into its open, its header (with the chunk index) and its
 * coordinates.
 */
public final class MrapScienceBench implements Bench {
  private static final int DATANODES = 8;
  private static final int BLOCK = 16 << 20;
  private static final long READ_BANDWIDTH = 16L << 20;
  /** DataNodes send 4 checksum bytes per 512 data bytes (CRC32C): the counters hold both. */
  private static final double DATA_SHARE = 512.0 / 516.0;
  static final String VARIABLE = "temperature";
  static final String SLAB = ":, 10:250, 0:500";

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int files = quick ? 4 : 13;
    int records = quick ? 16 : 32;
    int reps = quick ? 2 : 3;
    File data = generate(new File(outDir, "mrap-science-data"), files, records);
    Map<String, Object> formats = new LinkedHashMap<>();
    double worstOverInterest = 0;
    Stats slowest = null;
    double headerReads = 0;
    Map<String, Object> selectSummary = new LinkedHashMap<>();
    Map<String, Object> selectSetup = new LinkedHashMap<>();
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(READ_BANDWIDTH)
        .baseDir(new File(outDir, "mrap-science-cluster")).start()) {
      FileSystem fs = cluster.offClusterFileSystem();
      long total = 0;
      for (String f : new String[] {"nc", "h5"}) {
        for (File local : new File(data, f).listFiles()) {
          Path p = new Path("/science/" + f + "/" + local.getName());
          fs.copyFromLocalFile(new Path(local.getAbsolutePath()), p);
          fs.setReplication(p, (short) 3);
          cluster.replicas().waitFor(p, (short) 3);
          total += local.length();
        }
      }
      System.out.printf("%nmrap-science: %d NetCDF-3 and %d HDF5 files, %.0f MiB in all; %s[%s]"
          + " of each; %d DataNodes at %d MiB/s, %d repetitions%n%-7s %-11s %10s %12s %10s%n",
          files, files, total / 1048576.0, VARIABLE, SLAB, DATANODES, READ_BANDWIDTH >> 20, reps,
          "format", "system", "time s", "MiB read", "data/int.");
      for (String f : new String[] {"nc", "h5"}) {
        ScienceFiles.Kind kind = f.equals("nc") ? ScienceFiles.Kind.NETCDF
            : ScienceFiles.Kind.HDF5;
        Configuration conf = new Configuration(cluster.conf());
        conf.set(VariableInputFormat.KIND, kind.key());
        conf.set(VariableInputFormat.VARIABLE, VARIABLE);
        conf.set(VariableInputFormat.SLAB, SLAB);
        List<FileStatus> statuses = Arrays.asList(fs.listStatus(new Path("/science/" + f)));
        long t0 = System.nanoTime();
        List<FilePlan> plans = VariablePlanner.plan(conf, statuses);
        double planMs = (System.nanoTime() - t0) / 1e6;
        long[] b0 = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
        VariablePlanner.plan(conf, statuses);
        Thread.sleep(200);
        long headerBytes = Arrays.stream(cluster.counters().since(DataNodeCounter.BYTES_READ,
            b0)).sum();
        long interest = 0;
        long regionBytes = 0;
        double reads = 0;
        double headerMs = 0;
        for (FilePlan p : plans) {
          interest += p.plan().bytesOfInterest();
          regionBytes += p.plan().pattern().totalBytes();
          reads += p.headerReads();
          headerMs += p.headerNanos() / 1e6;
        }
        String[] systems = {"whole-file", "block-scan", "variable"};
        Map<String, double[]> time = new LinkedHashMap<>();
        Map<String, double[]> bytes = new LinkedHashMap<>();
        for (String s : systems) {
          time.put(s, new double[reps]);
          bytes.put(s, new double[reps]);
        }
        double[] sums = new double[2];
        for (String s : systems) { // a pass not measured: the JIT and connections warm up
          read(cluster, s, conf, statuses, plans, () -> { });
        }
        for (int rep = 0; rep < reps; rep++) {
          for (int k = 0; k < systems.length; k++) {
            String s = systems[(k + rep) % systems.length];
            long[][] before = {cluster.counters().perDataNode(DataNodeCounter.BYTES_READ)};
            long s0 = System.nanoTime();
            // the tasks' bytes: the headers read at submission are counted apart
            double sum = read(cluster, s, conf, statuses, plans,
                () -> before[0] = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ)).sum;
            time.get(s)[rep] = (System.nanoTime() - s0) / 1e9;
            Thread.sleep(200); // DataNode counters settle after the last packet
            bytes.get(s)[rep] = Arrays.stream(cluster.counters().since(
                DataNodeCounter.BYTES_READ, before[0])).sum();
            if (s.equals("whole-file")) {
              sums[0] = sum;
            } else if (s.equals("variable")) {
              sums[1] = sum;
            }
          }
          if (Math.abs(sums[0] - sums[1]) > 1e-9 * Math.abs(sums[0])) {
            throw new IllegalStateException(f + ": the slab's values add up to " + sums[1]
                + " through VariableInputFormat and to " + sums[0] + " from the whole files");
          }
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("files", plans.size());
        row.put("interest_bytes", interest);
        row.put("regions_bytes", regionBytes);
        row.put("layout_overlap", (double) regionBytes / interest);
        row.put("header_reads_per_file", reads / plans.size());
        row.put("header_ms_per_file", headerMs / plans.size());
        row.put("header_bytes_per_file", headerBytes / plans.size());
        row.put("submission_ms", planMs);
        for (String s : systems) {
          Stats t = Stats.of(time.get(s));
          Stats b = Stats.of(bytes.get(s));
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("seconds", t.json());
          m.put("bytes_read", b.json());
          m.put("data_bytes_read_over_interest", b.mean * DATA_SHARE / interest);
          row.put(s, m);
          System.out.printf("%-7s %-11s %10s %12.1f %10.3f%n", f, s, t, b.mean / 1048576.0,
              b.mean * DATA_SHARE / interest);
        }
        Stats speedup = Stats.ratio(time.get("whole-file"), time.get("variable"));
        speedup.putInto(row, "speedup_vs_whole_file");
        Stats.ratio(time.get("block-scan"), time.get("variable")).putInto(row,
            "speedup_vs_block_scan");
        System.out.printf("%-7s header: %.1f positioned reads, %.0f KiB and %.1f ms a file "
            + "(not in MiB read); chunks or runs over the slab: %.3f; %.2f +- %.2f x faster "
            + "than whole files%n", f, reads / plans.size(), headerBytes / 1024.0 / plans.size(),
            headerMs / plans.size(), (double) regionBytes / interest,
            speedup.mean, speedup.ci95);
        worstOverInterest = Math.max(worstOverInterest,
            Stats.of(bytes.get("variable")).mean * DATA_SHARE / interest);
        if (slowest == null || speedup.mean < slowest.mean) {
          slowest = speedup;
        }
        headerReads = Math.max(headerReads, reads / plans.size());
        formats.put(f.equals("nc") ? "netcdf3" : "hdf5_chunked", row);
      }
      selectCases(cluster, outDir, quick, formats, selectSummary, selectSetup);
    }
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("science_bytes_over_interest", worstOverInterest);
    slowest.putInto(summary, "science_speedup_vs_whole_file");
    summary.put("science_header_reads_per_file", headerReads);
    summary.putAll(selectSummary);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    Map<String, Object> setup = new LinkedHashMap<>(Map.of("datanodes", DATANODES,
        "block_bytes", BLOCK, "read_bandwidth_per_datanode", READ_BANDWIDTH,
        "files_per_format", files, "records_per_file", records, "repetitions", reps,
        "variable", VARIABLE, "slab", SLAB,
        "data", "five float32 variables (time, 256, 512); HDF5 in chunks of (8, 64, 128)"));
    setup.put("select", selectSetup);
    doc.put("setup", setup);
    doc.put("formats", formats);
    return doc;
  }

  /** The data set, written by the reference libraries once per size. */
  static File generate(File dir, int files, int records) throws Exception {
    File marker = new File(dir, "made-" + files + "x" + records);
    if (marker.exists()) {
      return dir;
    }
    if (dir.exists()) {
      try (java.util.stream.Stream<java.nio.file.Path> s = Files.walk(dir.toPath())) {
        s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    File script = new File("tools/src/main/resources/bench/make_science_data.py");
    String python = ReferencePython.find();
    Process p = new ProcessBuilder(python, script.getPath(), dir.getPath(),
        Integer.toString(files), Integer.toString(records)).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IOException(script + " failed with " + python + " (exit " + p.exitValue()
          + "): the data set is written by netCDF-C and HDF5 through netCDF4 and h5py");
    }
    Files.createFile(marker.toPath());
    return dir;
  }

  /** What a read of the slab gave: the values' sum, and its tasks' positioned reads. */
  static final class Read {
    final double sum;
    final long tasks;
    final long reads;

    Read(double sum, long tasks, long reads) {
      this.sum = sum;
      this.tasks = tasks;
      this.reads = reads;
    }
  }

  /** Reads the slab as {@code system} does, every DataNode host a reader. */
  static Read read(EmulatedCluster cluster, String system, Configuration conf,
      List<FileStatus> files, List<FilePlan> plans, Runnable submitted)
      throws Exception {
    List<InputSplit> splits = new ArrayList<>();
    FileSystem fs = cluster.offClusterFileSystem();
    if (system.equals("variable")) {
      splits.addAll(variableSplits(conf, files));
      submitted.run();
    } else {
      for (FileStatus f : files) {
        BlockLocation[] blocks = fs.getFileBlockLocations(f, 0, f.getLen());
        if (system.equals("whole-file")) {
          splits.add(new FileSplit(f.getPath(), 0, f.getLen(), blocks[0].getHosts()));
        } else {
          for (BlockLocation b : blocks) {
            splits.add(new FileSplit(f.getPath(), b.getOffset(), b.getLength(), b.getHosts()));
          }
        }
      }
    }
    Map<Path, SlabPlan> planOf = new LinkedHashMap<>();
    for (FilePlan p : plans) {
      planOf.put(p.status().getPath(), p.plan());
    }
    Tally tally = new Tally();
    onHosts(cluster, conf, MrapStridedBench.assign(cluster, splits), (split, hostFs, hostConf) -> {
      if (system.equals("variable")) {
        readVariable(split, hostConf, tally);
      } else {
        FileSplit fsplit = (FileSplit) split;
        tally.sum.add(scan(hostFs, fsplit, system.equals("whole-file")
            ? planOf.get(fs.makeQualified(fsplit.getPath())) : null));
      }
    });
    return new Read(tally.sum.sum(), splits.size(), tally.reads.sum());
  }

  /** {@code VariableInputFormat}'s splits of {@code files} under {@code conf}. */
  static List<InputSplit> variableSplits(Configuration conf, List<FileStatus> files)
      throws IOException {
    Job job = Job.getInstance(conf);
    for (FileStatus f : files) {
      FileInputFormat.addInputPath(job, f.getPath());
    }
    return new VariableInputFormat().getSplits(job);
  }

  /** What reads of decoded values gave: the sum of those not missing, and counts. */
  static final class Tally {
    final DoubleAdder sum = new DoubleAdder();
    final LongAdder elements = new LongAdder();
    final LongAdder missing = new LongAdder();
    final LongAdder reads = new LongAdder();
  }

  /** One split's work on its host, with that host's client and configuration. */
  interface SplitWork {
    void run(InputSplit split, FileSystem hostFs, Configuration hostConf) throws Exception;
  }

  /**
   * Runs each host's splits on it, a thread a DataNode host, each with its own client and the
   * job's {@code mrap.*} settings.
   */
  static void onHosts(EmulatedCluster cluster, Configuration conf, List<List<InputSplit>> byHost,
      SplitWork work) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(cluster.size());
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int k = 0; k < cluster.size(); k++) {
        int host = k;
        Configuration hostConf = new Configuration(cluster.hostConf(host));
        for (Map.Entry<String, String> e : conf) {
          if (e.getKey().startsWith("mrap.")) {
            hostConf.set(e.getKey(), e.getValue());
          }
        }
        UserGroupInformation user = UserGroupInformation.createRemoteUser("science-host-"
            + host);
        done.add(pool.submit(() -> user.doAs((PrivilegedExceptionAction<Void>) () -> {
          FileSystem hostFs = FileSystem.newInstance(hostConf);
          try {
            for (InputSplit split : byHost.get(host)) {
              work.run(split, hostFs, hostConf);
            }
          } finally {
            hostFs.close();
          }
          return null;
        })));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  /**
   * Reads a {@code VariableSplit} as a task does and adds its decoded values up (missing ones,
   * NaN, counted apart).
   */
  static void readVariable(InputSplit split, Configuration hostConf, Tally tally)
      throws IOException, InterruptedException {
    TaskCounters counters = new TaskCounters();
    TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(hostConf, new TaskAttemptID(),
        counters);
    try (VariableRecordReader rr = new VariableRecordReader()) {
      rr.initialize(split, ctx);
      while (rr.nextKeyValue()) {
        ArrayPiece v = rr.getCurrentValue();
        double s = 0;
        int n = v.elements();
        for (int i = 0; i < n; i++) {
          if (!v.isMissing(i)) {
            s += v.getDouble(i);
          }
        }
        tally.sum.add(s);
        tally.elements.add(n);
        tally.missing.add(v.missing());
      }
    }
    tally.reads.add(counters.get(MrapCounter.READ_CALLS));
  }

  /**
   * Reads every byte of the split in 1 MiB reads; with a plan, takes the slab's regions out of
   * the bytes as they pass and sums the slab's values (what a whole-file reader must do).
   */
  private static double scan(FileSystem fs, FileSplit split, SlabPlan plan) throws IOException {
    byte[] buf = new byte[1 << 20];
    RegionCursor regions = plan == null ? null : plan.pattern().cursor();
    boolean more = regions != null && regions.next();
    byte[] region = more ? new byte[(int) regions.length()] : null;
    double[] sum = {0};
    try (FSDataInputStream in = fs.open(split.getPath())) {
      long pos = split.getStart();
      long end = pos + split.getLength();
      while (pos < end) {
        int n = (int) Math.min(buf.length, end - pos);
        in.readFully(pos, buf, 0, n);
        while (more && regions.offset() < pos + n) {
          long from = Math.max(regions.offset(), pos);
          long to = Math.min(regions.offset() + regions.length(), pos + n);
          System.arraycopy(buf, (int) (from - pos), region, (int) (from - regions.offset()),
              (int) (to - from));
          if (to < regions.offset() + regions.length()) {
            break; // the region goes on in the next read
          }
          plan.pieces(regions.offset(), region,
              region.length, (origin, shape, step, bytes, off, len) -> {
                int e = plan.variable().type().size();
                for (int i = off; i < off + len; i += e) {
                  sum[0] += Elements.asDouble(bytes, i, plan.variable().type(),
                      plan.variable().order());
                }
              });
          more = regions.next();
          region = more ? new byte[(int) regions.length()] : null;
        }
        pos += n;
      }
    }
    return sum[0];
  }

  // ---- selection by coordinate values: a season x a region of a series of files ----

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

  /** The .nc files of {@code local} into HDFS folder {@code dir}, 3 replicas each, 4 at a time. */
  public static List<FileStatus> put(EmulatedCluster cluster, File local, String dir) throws Exception {
    FileSystem fs = cluster.offClusterFileSystem();
    Configuration wc = new Configuration(fs.getConf());
    wc.setInt("dfs.replication", 3); // written with its replicas: nothing to re-replicate
    File[] files = local.listFiles((d, n) -> n.endsWith(".nc"));
    Arrays.sort(files);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (FileSystem writer = FileSystem.newInstance(fs.getUri(), wc)) {
      List<Future<?>> done = new ArrayList<>();
      for (File f : files) {
        done.add(pool.submit(() -> {
          Path p = new Path(dir, f.getName());
          writer.copyFromLocalFile(false, true, new Path(f.getAbsolutePath()), p);
          cluster.replicas().waitFor(p, (short) 3);
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    FileStatus[] st = fs.listStatus(new Path(dir));
    Arrays.sort(st, java.util.Comparator.comparing(x -> x.getPath().getName()));
    return Arrays.asList(st);
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
      java.util.function.Function<String, String> slabOf, Tally tally) throws IOException {
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
        splits.addAll(variableSplits(byValue, series));
        break;
      case "by-index": // a job's slab is one for all its files: a getSplits a slab
        for (Map.Entry<String, List<FileStatus>> e : bySlab.entrySet()) {
          Configuration c = new Configuration(base);
          c.set(VariableInputFormat.SLAB, e.getKey());
          splits.addAll(variableSplits(c, e.getValue()));
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
  static void check(String system, Tally t, JsonNode expected) {
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

  /** The bench's split of one file's planning: the open, the header, the coordinates. */
  static final class PlanCost {
    final LongAdder openNanos = new LongAdder();
    final LongAdder headerNanos = new LongAdder();
    final LongAdder headerReads = new LongAdder();
    final LongAdder headerBytes = new LongAdder();
    final LongAdder coordinateNanos = new LongAdder();
    final LongAdder coordinateReads = new LongAdder();
    final LongAdder coordinateBytes = new LongAdder();

    /** Per file, in ms, reads and KiB. */
    Map<String, Object> json(int files) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("open_ms", openNanos.sum() / 1e6 / files);
      m.put("header_ms", headerNanos.sum() / 1e6 / files);
      m.put("header_reads", (double) headerReads.sum() / files);
      m.put("header_kib", headerBytes.sum() / 1024.0 / files);
      m.put("coordinates_ms", coordinateNanos.sum() / 1e6 / files);
      m.put("coordinates_reads", (double) coordinateReads.sum() / files);
      m.put("coordinates_kib", coordinateBytes.sum() / 1024.0 / files);
      return m;
    }

    String line(int files) {
      return String.format(java.util.Locale.ROOT, "open %.1f ms; header %.1f reads, %.0f KiB, "
          + "%.1f ms; coordinates %.1f reads, %.1f KiB, %.1f ms (a file, 8 at once)",
          openNanos.sum() / 1e6 / files, (double) headerReads.sum() / files,
          headerBytes.sum() / 1024.0 / files, headerNanos.sum() / 1e6 / files,
          (double) coordinateReads.sum() / files, coordinateBytes.sum() / 1024.0 / files,
          coordinateNanos.sum() / 1e6 / files);
    }
  }

  /**
   * What planning a selection costs a file, split as the planner does it (eight files at a
   * time): the open (a NameNode call), the header with the variable's chunk index
   * ({@code ScienceFiles.open}, {@code variable}), and each dimension's coordinate variable read
   * whole ({@code VariableValues.read}).
   */
  static PlanCost planCost(FileSystem fs, List<FileStatus> files) throws Exception {
    PlanCost cost = new PlanCost();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (FileStatus f : files) {
        done.add(pool.submit(() -> {
          long t0 = System.nanoTime();
          try (FSDataInputStream in = fs.open(f.getPath())) {
            long t1 = System.nanoTime();
            Positioned p = Positioned.of(in, f.getLen());
            try (ScienceFile sf = ScienceFiles.open(p, f.getPath().toString(),
                ScienceFiles.Kind.NETCDF)) {
              Variable v = sf.variable(SERIES_VARIABLE);
              long t2 = System.nanoTime();
              long reads = p.reads();
              long bytes = p.bytesRead();
              for (int d = 0; d < v.rank(); d++) {
                Variable c = sf.coordinate(v, d);
                if (c != null) {
                  VariableValues.read(p, c);
                }
              }
              long t3 = System.nanoTime();
              cost.openNanos.add(t1 - t0);
              cost.headerNanos.add(t2 - t1);
              cost.headerReads.add(reads);
              cost.headerBytes.add(bytes);
              cost.coordinateNanos.add(t3 - t2);
              cost.coordinateReads.add(p.reads() - reads);
              cost.coordinateBytes.add(p.bytesRead() - bytes);
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
    return cost;
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
  private static void selectCases(EmulatedCluster cluster, File outDir, boolean quick,
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
    List<FileStatus> series = put(cluster, seriesDir, "/science/series");
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
        Tally tally = new Tally();
        onHosts(cluster, base, MrapStridedBench.assign(cluster, splits),
            (split, hostFs, hostConf) -> {
              if (s.equals("whole-file")) {
                readWholeFile(hostFs, (FileSplit) split, slabOf, tally);
              } else {
                readVariable(split, hostConf, tally);
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
        (byValueBytes - submitBytes.get("by-value")) * DATA_SHARE / chunkBytes);
    Stats speedup = Stats.ratio(time.get("whole-file"), time.get("by-value"));
    speedup.putInto(row, "speedup_vs_whole_file");
    Stats.ratio(time.get("by-index"), time.get("by-value")).putInto(row,
        "speedup_vs_by_index");
    // what planning cost each file of the series, split
    PlanCost seriesCost = planCost(fs, series);
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
    List<FileStatus> daily = put(cluster, dailyDir, "/science/daily");
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
    PlanCost dailyCost = planCost(fs, daily);
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
