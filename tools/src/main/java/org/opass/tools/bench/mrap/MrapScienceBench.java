package org.opass.tools.bench.mrap;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
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
import org.opass.mrap.array.Elements;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.mapreduce.VariableRecordReader;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.plan.FilePlan;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.ScienceFiles;
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
 * netCDF4-python (tools/src/main/resources/bench/make_science_series.py): a NetCDF-4 file a
 * month of daily values from 2015, 10 years (3 with {@code --quick}), {@code sst(time, latitude,
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
  static final double DATA_SHARE = 512.0 / 516.0;
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
      SelectionCase.selectCases(cluster, outDir, quick, formats, selectSummary, selectSetup);
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

  /** The .nc files of {@code local} into HDFS folder {@code dir}, 3 replicas each, 4 at a time. */
  public static List<FileStatus> put(EmulatedCluster cluster, File local, String dir)
      throws Exception {
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
}
