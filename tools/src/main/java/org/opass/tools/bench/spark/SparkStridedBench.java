package org.opass.tools.bench.spark;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.DrivenProcess;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Issue 25, part 3: a fifth of a file in 64 KiB regions (a region every 320 KiB) read from
 * Spark on the emulated cluster (8 DataNodes at 16 MiB/s), two ways, by one Spark application
 * in a JVM of its own ({@code mrap-spark}'s {@code StridedReadDriver}, {@code local[8]}):
 * <ul>
 *   <li>{@code mrap}: {@code spark.read.format("mrap")} with the pattern's keys;</li>
 *   <li>{@code binary-records}: {@code sc.binaryRecords(file, 320 KiB)}, each record cut to its
 *   first 64 KiB: the one-pass stock way (Spark's records carry no offset to filter on).</li>
 * </ul>
 * Both must give the regions' CRC32s computed here as the file was written. Reported: time
 * (mean and 95% interval, as the driver measured its query), the DataNodes' bytes sent over
 * the bytes of interest. The driver's classpath is mrap-spark's test classpath, which
 * {@code bin/bench} writes to the file {@value #CLASSPATH_PROPERTY} names: Spark does not
 * share this JVM's (its Jackson is not Hadoop's).
 */
public final class SparkStridedBench implements Bench {
  static final String CLASSPATH_PROPERTY = "opass.bench.spark.classpath";
  private static final int DATANODES = 8;
  private static final int REGION = 64 << 10;
  private static final int STRIDE = 5 * REGION;
  /**
   * 64 periods of the pattern (20 MiB), so that binaryRecords' splits (whole records, a block's
   * worth) end where blocks end: a DataNode counts a block read's bytes only when it completes,
   * and a split ending inside a block closes its read early (the bytes are sent all the same).
   */
  private static final int BLOCK = 64 * STRIDE;
  private static final long READ_BANDWIDTH = 16L << 20;
  private static final String[] WAYS = {"mrap", "binary-records"};

  /**
   * mrap-spark's classpath for a Spark application of bench {@code bench}: the file {@value
   * #CLASSPATH_PROPERTY} names, which bin/bench writes.
   */
  static String sparkClasspath(String bench) throws java.io.IOException {
    String cpFile = System.getProperty(CLASSPATH_PROPERTY);
    if (cpFile == null || !new File(cpFile).isFile()) {
      throw new IllegalStateException(bench + " needs mrap-spark's classpath in the file -D"
          + CLASSPATH_PROPERTY + " names (" + cpFile + "); bin/bench writes it");
    }
    return Files.readString(Paths.get(cpFile)).trim();
  }

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    String classpath = sparkClasspath("spark-strided");
    long regions = (quick ? 256L : 1024L) * (1 << 20) / BLOCK * (BLOCK / STRIDE); // whole blocks
    long fileBytes = regions * STRIDE;
    long interest = regions * REGION;
    int reps = quick ? 3 : 8;
    Map<String, Object> doc = new LinkedHashMap<>();
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(READ_BANDWIDTH)
        .baseDir(new File(outDir, "spark-strided-cluster")).start()) {
      Path file = new Path("/spark/data.bin");
      long expected = write(cluster, file, regions);
      System.out.printf("%nspark-strided: %d MiB file, %d regions of %d KiB every %d KiB (%d MiB "
          + "of interest); %d DataNodes at %d MiB/s, %d MiB blocks; Spark local[8] in its own "
          + "JVM; %d repetitions%n%-15s %10s %12s %10s%n", fileBytes >> 20, regions,
          REGION >> 10, STRIDE >> 10, interest >> 20, DATANODES, READ_BANDWIDTH >> 20,
          BLOCK >> 20, reps, "way", "time s", "MiB read", "read/int.");
      Map<String, double[]> time = new LinkedHashMap<>();
      Map<String, double[]> bytes = new LinkedHashMap<>();
      File log = new File(outDir, "spark-strided-driver.log");
      String uri = cluster.uri() + file.toString();
      try (Driver driver = new Driver(classpath, log, uri, regions)) {
        for (String w : WAYS) {
          time.put(w, new double[reps]);
          bytes.put(w, new double[reps]);
          driver.read(w, regions, expected); // not measured: the JIT, connections, codegen
        }
        for (int rep = 0; rep < reps; rep++) {
          for (int k = 0; k < WAYS.length; k++) {
            String w = WAYS[(k + rep) % WAYS.length]; // who goes first alternates
            long[] before = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
            time.get(w)[rep] = driver.read(w, regions, expected);
            Thread.sleep(200); // DataNode counters settle after the last packet
            bytes.get(w)[rep] = Arrays.stream(cluster.counters().since(
                DataNodeCounter.BYTES_READ, before)).sum();
          }
        }
      }
      Map<String, Object> ways = new LinkedHashMap<>();
      for (String w : WAYS) {
        Stats t = Stats.of(time.get(w));
        Stats b = Stats.of(bytes.get(w));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", t.json());
        m.put("bytes_read", b.json());
        m.put("bytes_read_over_interest", b.mean / interest);
        ways.put(w, m);
        System.out.printf("%-15s %10s %12.1f %10.3f%n", w, t, b.mean / 1048576.0,
            b.mean / interest);
      }
      Stats speedup = Stats.ratio(time.get("binary-records"), time.get("mrap"));
      Stats over = Stats.of(Arrays.stream(bytes.get("mrap")).map(b -> b / interest).toArray());
      System.out.printf("mrap: %.2f +- %.2f x the speed of binaryRecords, %.3f +- %.3f x the "
          + "bytes of interest read%n", speedup.mean, speedup.ci95, over.mean, over.ci95);
      Map<String, Object> summary = new LinkedHashMap<>();
      summary.put("spark_bytes_over_interest", over.mean);
      summary.put("spark_speedup_vs_binary_records", speedup.mean);
      doc.put("summary", summary);
      Map<String, Object> ci = new LinkedHashMap<>();
      ci.put("spark_bytes_over_interest", over.ci95);
      ci.put("spark_speedup_vs_binary_records", speedup.ci95);
      doc.put("summary_ci95", ci);
      Map<String, Object> setup = new LinkedHashMap<>();
      setup.put("datanodes", DATANODES);
      setup.put("block_bytes", BLOCK);
      setup.put("read_bandwidth_per_datanode", READ_BANDWIDTH);
      setup.put("file_bytes", fileBytes);
      setup.put("region_bytes", REGION);
      setup.put("stride_bytes", STRIDE);
      setup.put("regions", regions);
      setup.put("interest_bytes", interest);
      setup.put("repetitions", reps);
      setup.put("spark_master", "local[8]");
      doc.put("setup", setup);
      doc.put("ways", ways);
    }
    return doc;
  }

  /** Writes random bytes, replicated 3 times; returns the sum of the regions' CRC32s. */
  private static long write(EmulatedCluster cluster, Path file, long regions)
      throws IOException, InterruptedException {
    Random random = new Random(42);
    byte[] period = new byte[STRIDE];
    CRC32 crc = new CRC32();
    long sum = 0;
    try (FSDataOutputStream out = cluster.offClusterFileSystem().create(file, (short) 3)) {
      for (long k = 0; k < regions; k++) {
        random.nextBytes(period);
        crc.reset();
        crc.update(period, 0, REGION);
        sum += crc.getValue();
        out.write(period);
      }
    }
    cluster.replicas().waitFor(file, (short) 3);
    return sum;
  }

  /** The Spark application, one process, driven a line at a time. */
  private static final class Driver implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final PrintStream in;
    private final File log;

    Driver(String classpath, File log, String file, long regions) throws IOException {
      this.log = log;
      process = DrivenProcess.start(List.of("-Xmx3g", "-XX:+ExitOnOutOfMemoryError"),
          classpath, "org.opass.mrap.spark.StridedReadDriver", List.of("local[8]", file,
          Integer.toString(REGION), Integer.toString(STRIDE), Long.toString(regions)), log);
      out = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8));
      in = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
      answer("ready");
    }

    /** One read: the driver's seconds; checks the regions and their checksum. */
    double read(String way, long regions, long expected) throws IOException {
      in.println(way);
      Map<String, String> said = new LinkedHashMap<>();
      for (String field : answer("done " + way).split(" ")) {
        int eq = field.indexOf('=');
        if (eq > 0) {
          said.put(field.substring(0, eq), field.substring(eq + 1));
        }
      }
      if (Long.parseLong(said.get("regions")) != regions
          || Long.parseLong(said.get("checksum")) != expected) {
        throw new IllegalStateException(way + " gave " + said + "; the file's " + regions
            + " regions add up to checksum " + expected);
      }
      return Double.parseDouble(said.get("seconds"));
    }

    /** The driver's next line starting with {@code prefix} (others are its own output). */
    private String answer(String prefix) throws IOException {
      return DrivenProcess.answer(process, out, log, prefix, line -> { });
    }

    @Override
    public void close() throws IOException {
      DrivenProcess.quit(process, in, 60);
    }
  }
}
