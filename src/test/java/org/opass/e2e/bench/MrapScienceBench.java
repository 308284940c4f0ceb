package org.opass.e2e.bench;

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
import org.opass.e2e.cluster.DataNodeCounter;
import org.opass.e2e.cluster.EmulatedCluster;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.mapreduce.VariableRecordReader;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.plan.FilePlan;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.Elements;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.science.SlabPlan;

/**
 * Issue 24's benchmark: one variable's slab, about a fifth of a multi-variable data set, read
 * from HDFS three ways, on the emulated cluster (8 DataNodes at 16 MiB/s each, readers on the
 * DataNode hosts, eight at once), for NetCDF-3 (64-bit offset, record variables interleaved)
 * and HDF5 (chunked) files that netCDF-C and h5py write (src/test/resources/bench/
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
 */
final class MrapScienceBench implements BenchMain.Bench {
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
    }
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("science_bytes_over_interest", worstOverInterest);
    slowest.putInto(summary, "science_speedup_vs_whole_file");
    summary.put("science_header_reads_per_file", headerReads);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("setup", Map.of("datanodes", DATANODES, "block_bytes", BLOCK,
        "read_bandwidth_per_datanode", READ_BANDWIDTH, "files_per_format", files,
        "records_per_file", records, "repetitions", reps, "variable", VARIABLE, "slab", SLAB,
        "data", "five float32 variables (time, 256, 512); HDF5 in chunks of (8, 64, 128)"));
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
    File script = new File("src/test/resources/bench/make_science_data.py");
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
      Job job = Job.getInstance(conf);
      for (FileStatus f : files) {
        FileInputFormat.addInputPath(job, f.getPath());
      }
      splits.addAll(new VariableInputFormat().getSplits(job));
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
    List<List<InputSplit>> byHost = MrapStridedBench.assign(cluster, splits);
    Map<Path, SlabPlan> planOf = new LinkedHashMap<>();
    for (FilePlan p : plans) {
      planOf.put(p.status().getPath(), p.plan());
    }
    DoubleAdder sum = new DoubleAdder();
    java.util.concurrent.atomic.LongAdder reads = new java.util.concurrent.atomic.LongAdder();
    ExecutorService pool = Executors.newFixedThreadPool(cluster.size());
    List<Future<?>> done = new ArrayList<>();
    for (int k = 0; k < cluster.size(); k++) {
      int host = k;
      Configuration hostConf = new Configuration(cluster.hostConf(host));
      for (Map.Entry<String, String> e : conf) {
        if (e.getKey().startsWith("mrap.")) {
          hostConf.set(e.getKey(), e.getValue());
        }
      }
      UserGroupInformation user = UserGroupInformation.createRemoteUser("science-host-" + host);
      done.add(pool.submit(() -> user.doAs((PrivilegedExceptionAction<Void>) () -> {
        FileSystem hostFs = FileSystem.newInstance(hostConf);
        try {
          for (InputSplit split : byHost.get(host)) {
            if (system.equals("variable")) {
              TaskCounters counters = new TaskCounters();
              TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(hostConf,
                  new TaskAttemptID(), counters);
              try (VariableRecordReader rr = new VariableRecordReader()) {
                rr.initialize(split, ctx);
                while (rr.nextKeyValue()) {
                  ArrayPiece v = rr.getCurrentValue();
                  double s = 0;
                  for (int i = 0; i < v.elements(); i++) {
                    s += v.getDouble(i);
                  }
                  sum.add(s);
                }
              }
              reads.add(counters.get(MrapCounter.READ_CALLS));
            } else {
              FileSplit fsplit = (FileSplit) split;
              sum.add(scan(hostFs, fsplit, system.equals("whole-file")
                  ? planOf.get(fs.makeQualified(fsplit.getPath())) : null));
            }
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
    pool.shutdown();
    return new Read(sum.sum(), splits.size(), reads.sum());
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
          SlabPlan.pieces(plan.variable(), plan.slab(), plan.chunks(), regions.offset(), region,
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
}
