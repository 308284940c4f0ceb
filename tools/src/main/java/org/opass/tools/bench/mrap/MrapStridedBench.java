package org.opass.tools.bench.mrap;

import java.io.File;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.security.UserGroupInformation;
import org.opass.mrap.copy.CopyOptions;
import org.opass.mrap.copy.RestructuringCopy;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.StridedPattern;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.settings.MrapConf;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Charts;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * MRAP §4.4.2-4.4.3 on the emulated cluster: a strided pattern reading one fifth of a file
 * (regions of R bytes, 4R apart, as the thesis's astrophysics case), read by map tasks pinned
 * to DataNode hosts (each split on the least busy of its preferred hosts, eight at once), three
 * ways:
 * <ul>
 *   <li>{@code scan}: the best stock way, a map-only scan with {@code FixedLengthInputFormat}
 *   (records of R bytes) whose mapper keeps every fifth record;</li>
 *   <li>{@code access}: {@code AccessInputFormat} with the pattern (reads of the regions, joined
 *   across gaps up to 64 KiB, the default); {@code access-nojoin}: the same reading exactly
 *   the regions ({@code mrap.access.coalesce.gap=0});</li>
 *   <li>{@code restructured}: the same pattern on a copy restructured by {@code mrap-copy}
 *   (each task's regions packed into whole chunks, {@code RestructuredLayout}), read
 *   contiguously.</li>
 * </ul>
 * Bytes read are the DataNodes' own counters; every run checks that each system delivered
 * exactly the bytes of interest (a checksum of the records).
 */
public final class MrapStridedBench implements Bench {
  private static final int DATANODES = 8;
  private static final int BLOCK = 1 << 20;
  private static final long READ_BANDWIDTH = 2L << 20; // per DataNode

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int[] sizes = quick ? new int[] {4 << 10, 64 << 10, 1 << 20}
        : new int[] {1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20};
    int reps = quick ? 2 : 3;
    int fileBytes = (quick ? 40 : 80) << 20;
    Map<String, Object> curve = new LinkedHashMap<>();
    Stats worst = null;
    double bytesOverInterest64k = Double.NaN;
    Stats restructuredSpeedup4k = null;
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(READ_BANDWIDTH)
        .baseDir(new File(outDir, "mrap-strided-cluster")).start()) {
      byte[] data = new byte[fileBytes];
      new Random(42).nextBytes(data);
      Path original = new Path("/mrap/data");
      try (FSDataOutputStream out = cluster.offClusterFileSystem().create(original, (short) 3)) {
        out.write(data);
      }
      cluster.replicas().waitFor(original, (short) 3);
      System.out.printf("%nmrap-strided: %d MiB file, %d DataNodes at %d MiB/s, %d repetitions"
          + "%n%-8s %-13s %10s %12s %11s %9s%n", fileBytes >> 20, DATANODES,
          READ_BANDWIDTH >> 20, reps, "region", "system", "time s", "MiB read", "read/int.",
          "calls");
      for (int r : sizes) {
        StridedPattern p = StridedPattern.vector(0, r, 4L * r, fileBytes / (5L * r));
        long interest = p.totalBytes();
        long expected = checksum(data, p);
        Path packed = restructure(cluster, original, p, r);
        Map<String, double[]> time = new LinkedHashMap<>();
        Map<String, double[]> bytes = new LinkedHashMap<>();
        Map<String, double[]> calls = new LinkedHashMap<>();
        String[] systems = {"scan", "access", "access-nojoin", "restructured"};
        for (String s : systems) {
          time.put(s, new double[reps]);
          bytes.put(s, new double[reps]);
          calls.put(s, new double[reps]);
        }
        for (int rep = 0; rep < reps; rep++) {
          for (int k = 0; k < systems.length; k++) {
            String s = systems[(k + rep) % systems.length]; // who goes first rotates
            Result res = read(cluster, s, s.equals("restructured") ? packed : original, p, r);
            if (res.checksum != expected) {
              throw new IllegalStateException(s + " at " + r + " bytes delivered other bytes "
                  + "than the pattern's");
            }
            time.get(s)[rep] = res.seconds;
            bytes.get(s)[rep] = res.bytesRead;
            calls.get(s)[rep] = res.calls;
          }
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("interest_bytes", interest);
        for (String s : systems) {
          Stats t = Stats.of(time.get(s));
          Stats b = Stats.of(bytes.get(s));
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("seconds", t.json());
          m.put("bytes_read", b.json());
          m.put("bytes_read_over_interest", b.mean / interest);
          m.put("read_calls", Stats.of(calls.get(s)).mean);
          row.put(s, m);
          System.out.printf("%-8s %-13s %10s %12.1f %11.2f %9.0f%n", human(r), s, t,
              b.mean / (1 << 20), b.mean / interest, Stats.of(calls.get(s)).mean);
        }
        Stats accessOverScan = Stats.ratio(time.get("access"), time.get("scan"));
        Stats accessOverRestructured = Stats.ratio(time.get("access"), time.get("restructured"));
        accessOverScan.putInto(row, "access_over_scan_time");
        accessOverRestructured.putInto(row, "access_over_restructured_time");
        if (worst == null || accessOverScan.mean > worst.mean) {
          worst = accessOverScan;
        }
        if (r == 64 << 10) {
          bytesOverInterest64k = Stats.of(bytes.get("access")).mean / interest;
        }
        if (r == 4 << 10) {
          restructuredSpeedup4k = accessOverRestructured;
        }
        curve.put(human(r), row);
      }
    }
    chart(new File(outDir, "mrap-strided.png"), curve);
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("strided_bytes_over_interest", bytesOverInterest64k);
    worst.putInto(summary, "strided_vs_scan_worst");
    restructuredSpeedup4k.putInto(summary, "restructured_speedup_4k");
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("setup", Map.of("datanodes", DATANODES, "block_bytes", BLOCK,
        "read_bandwidth_per_datanode", READ_BANDWIDTH, "file_bytes", fileBytes,
        "repetitions", reps, "interest", "one fifth: regions of R bytes, 4R apart",
        "readers", "eight at once, each on a DataNode host"));
    doc.put("by_region_size", curve);
    return doc;
  }

  @SuppressWarnings("unchecked")
  private static void chart(File png, Map<String, Object> curve) throws java.io.IOException {
    String[] systems = {"scan", "access", "access-nojoin", "restructured"};
    List<String> sizes = new ArrayList<>(curve.keySet());
    Map<String, double[]> time = new LinkedHashMap<>();
    Map<String, double[]> read = new LinkedHashMap<>();
    for (String s : systems) {
      double[] t = new double[sizes.size()];
      double[] b = new double[sizes.size()];
      for (int i = 0; i < sizes.size(); i++) {
        Map<String, Object> m = (Map<String, Object>) ((Map<String, Object>) curve.get(
            sizes.get(i))).get(s);
        t[i] = (double) ((Map<String, Object>) m.get("seconds")).get("mean");
        b[i] = (double) m.get("bytes_read_over_interest");
      }
      time.put(s, t);
      read.put(s, b);
    }
    Charts.write(png, List.of(
        new Charts.Panel("mrap-strided: time to read one fifth of a file, by region size", "s",
            sizes, time),
        new Charts.Panel("mrap-strided: bytes read from DataNodes over bytes of interest",
            "x interest", sizes, read)));
  }

  private static String human(int bytes) {
    return bytes >= 1 << 20 ? (bytes >> 20) + "M" : (bytes >> 10) + "K";
  }

  /** Sum of the regions' hashes: what the records of any correct reader add up to. */
  static long checksum(byte[] data, org.opass.mrap.pattern.AccessPattern p) {
    long sum = 0;
    org.opass.mrap.pattern.RegionCursor c = p.cursor();
    while (c.next()) {
      sum += hash(data, (int) c.offset(), (int) c.length());
    }
    return sum;
  }

  private static long hash(byte[] b, int off, int len) {
    long h = 1125899906842597L;
    for (int i = off; i < off + len; i++) {
      h = 31 * h + b[i];
    }
    return h;
  }

  /**
   * Restructures the file for the pattern with {@code mrap-copy} (a task's regions fill about
   * one chunk), its layout beside it.
   */
  private static Path restructure(EmulatedCluster cluster, Path original, StridedPattern p,
      int r) throws Exception {
    Path file = new Path("/mrap/restructured-" + human(r));
    Configuration conf = new Configuration(cluster.conf());
    conf.setInt("dfs.replication", 3);
    RestructuringCopy.copy(conf, original, file, CopyOptions.builder()
        .pattern(MrapConf.pattern(patternConf(conf, p))).mode(CopyOptions.Mode.SINGLE)
        .taskBytes(BLOCK).build(), null);
    cluster.replicas().waitFor(file, (short) 3);
    return file;
  }

  /** {@code conf} with the pattern's {@code strided.*} keys set. */
  static Configuration patternConf(Configuration conf, StridedPattern p) {
    Configuration c = new Configuration(conf);
    c.set(PatternConfig.STRIDED_START, Long.toString(p.offsetOf(0)));
    c.set(PatternConfig.STRIDED_SIZE, Long.toString(p.size()));
    c.set(PatternConfig.STRIDED_SPACING, Long.toString(p.spacing(0)));
    c.set(PatternConfig.STRIDED_COUNT, Long.toString(p.count(0)));
    return c;
  }

  /** What one read of the data set did. */
  static final class Result {
    double seconds;
    long bytesRead;
    long calls;
    long checksum;
  }

  /**
   * Reads the pattern's regions of {@code file} as {@code system} does ({@code scan},
   * {@code access}, {@code access-nojoin}, {@code restructured}), every DataNode host a reader.
   */
  static Result read(EmulatedCluster cluster, String system, Path file, StridedPattern p,
      int r) throws Exception {
    return read(cluster, system, file, patternConf(new Configuration(false), p), r);
  }

  /**
   * {@link #read}, the pattern given by its keys in {@code pattern} (any kind, with any
   * {@code mrap.access.*} setting).
   */
  static Result read(EmulatedCluster cluster, String system, Path file, Configuration pattern,
      int r) throws Exception {
    Configuration conf = new Configuration(cluster.conf());
    InputFormat<LongWritable, BytesWritable> format;
    if (system.equals("scan")) {
      FixedLengthInputFormat.setRecordLength(conf, r);
      format = new FixedLengthInputFormat();
    } else {
      for (Map.Entry<String, String> e : pattern) { // the pattern, and mrap.access.*
        if (PatternConfig.hasOurPrefix(e.getKey()) || e.getKey().startsWith("mrap.")) {
          conf.set(e.getKey(), e.getValue());
        }
      }
      format = new AccessInputFormat();
      if (system.equals("access-nojoin")) {
        conf.setLong(AccessInputFormat.COALESCE_GAP, 0);
      }
    }
    Job job = Job.getInstance(conf);
    FileInputFormat.setInputPaths(job, file);
    List<InputSplit> splits = format.getSplits(job);
    List<List<InputSplit>> byHost = assign(cluster, splits);
    long[] before = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
    TaskCounters reporter = new TaskCounters();
    AtomicLong checksum = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(cluster.size());
    long t0 = System.nanoTime();
    List<Future<?>> done = new ArrayList<>();
    for (int k = 0; k < cluster.size(); k++) {
      int host = k;
      Configuration hostConf = new Configuration(cluster.hostConf(host));
      for (Map.Entry<String, String> e : conf) {
        if (e.getKey().startsWith("strided.") || e.getKey().startsWith("mrap.")
            || e.getKey().startsWith("fixedlengthinput")) {
          hostConf.set(e.getKey(), e.getValue());
        }
      }
      UserGroupInformation user = UserGroupInformation.createRemoteUser("mrap-host-" + host);
      done.add(pool.submit(() -> user.doAs((PrivilegedExceptionAction<Void>) () -> {
        for (InputSplit split : byHost.get(host)) {
          TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(hostConf,
              new TaskAttemptID(), reporter);
          try (RecordReader<LongWritable, BytesWritable> rr = format.createRecordReader(split,
              ctx)) {
            rr.initialize(split, ctx);
            while (rr.nextKeyValue()) {
              long key = rr.getCurrentKey().get();
              if (system.equals("scan") && (key / r) % 5 != 0) {
                continue; // the stock mapper's filter: four records of five are not wanted
              }
              BytesWritable v = rr.getCurrentValue();
              checksum.addAndGet(hash(v.getBytes(), 0, v.getLength()));
            }
          }
        }
        return null;
      })));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    Result res = new Result();
    res.seconds = (System.nanoTime() - t0) / 1e9;
    Thread.sleep(200); // DataNode counters settle after the last packet
    res.bytesRead = Arrays.stream(cluster.counters().since(DataNodeCounter.BYTES_READ, before))
        .sum();
    res.calls = system.equals("scan") ? splits.size()
        : reporter.get(MrapCounter.READ_CALLS);
    res.checksum = checksum.get();
    return res;
  }

  /** Each split to the least busy of its hosts, as a scheduler with data-local slots would. */
  static List<List<InputSplit>> assign(EmulatedCluster cluster, List<InputSplit> splits)
      throws Exception {
    List<List<InputSplit>> byHost = new ArrayList<>();
    long[] load = new long[cluster.size()];
    for (int k = 0; k < cluster.size(); k++) {
      byHost.add(new ArrayList<>());
    }
    for (InputSplit s : splits) {
      int best = -1;
      for (String h : s.getLocations()) {
        int k = cluster.dataNodeIndexOf(h);
        if (k >= 0 && (best < 0 || load[k] < load[best])) {
          best = k;
        }
      }
      if (best < 0) {
        best = 0;
        for (int k = 1; k < cluster.size(); k++) {
          best = load[k] < load[best] ? k : best;
        }
      }
      byHost.get(best).add(s);
      load[best] += s.getLength();
    }
    return byHost;
  }
}
