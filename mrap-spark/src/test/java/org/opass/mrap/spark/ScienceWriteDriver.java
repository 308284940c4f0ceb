package org.opass.mrap.spark;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark driver of {@code bin/bench science-write}, a process of its own on the bench's
 * emulated cluster ({@code spark.sql.session.timeZone=UTC}), driven over stdin: a climatology
 * of the spark-science series over the whole grid, grouped by a period of the year ({@code
 * month}, {@code dekad}, {@code week} or {@code day}: outputs of growing size),
 * <pre>
 * SELECT PERIOD, latitude, longitude, avg(t2m) AS t2m, sum(tp) AS tp FROM era5
 * WHERE time BETWEEN 'FROM' AND 'TO' GROUP BY 1, 2, 3
 * </pre>
 * <ul>
 *   <li>{@code query PERIOD}: runs it to the end, its rows dropped (Spark's {@code noop}
 *   writer): answers {@code done query seconds=S};</li>
 *   <li>{@code write KIND PERIOD}: writes it with {@code format("mrap")} as {@code netcdf} or
 *   {@code zarr} to {@code OUT/PERIOD.KIND}, replacing it: answers {@code done write
 *   seconds=S heap_mib=H}; with a fourth word {@code heap}, H is the most heap this JVM held
 *   after the full collections it runs a second meanwhile (in {@code local} mode the tasks'
 *   heap too: an upper bound of the driver's own), else NaN;</li>
 *   <li>{@code rows PERIOD FILE}: its rows as CSV in the local FILE: answers {@code done
 *   rows n=N};</li>
 *   <li>{@code quit}.</li>
 * </ul>
 * Arguments: master, the series' directory URI, time from, time to, the output folder URI, and
 * for {@code local-cluster} the jar its executors load ({@code mrap-spark-*-spark.jar}; their
 * Spark and Hadoop are {@code SPARK_HOME/jars}).
 */
public final class ScienceWriteDriver {
  private static final AtomicLong PEAK = new AtomicLong();

  private ScienceWriteDriver() {
  }

  public static void main(String[] args) throws Exception {
    String master = args[0];
    String dir = args[1];
    String from = args[2];
    String to = args[3];
    String out = args[4];
    SparkSession.Builder b = SparkSession.builder().master(master).appName("science-write")
        .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC");
    if (args.length > 5) { // local-cluster: executors of their own, the shaded jar theirs
      b = b.config("spark.jars", new File(args[5]).toURI().toString())
          .config("spark.executor.extraJavaOptions", String.join(" ", ManagementFactory
              .getRuntimeMXBean().getInputArguments().stream()
              .filter(a -> a.startsWith("--add-opens")).toArray(String[]::new)));
    }
    SparkSession spark = b.getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    spark.read().format(MrapSource.NAME).option("mrap.pattern.kind", "netcdf")
        .option(ReadOptions.LAYOUT, "table").option(ReadOptions.VARIABLES, "t2m,tp").load(dir)
        .createOrReplaceTempView("era5");
    System.out.println("ready");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
        StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null && !line.equals("quit");
        line = in.readLine()) {
      String[] w = line.trim().split(" ");
      long t0 = System.nanoTime();
      if (w.length == 2 && w[0].equals("query")) {
        query(spark, w[1], from, to).write().format("noop").mode("overwrite").save();
        System.out.printf(Locale.ROOT, "done query seconds=%.6f%n",
            (System.nanoTime() - t0) / 1e9);
      } else if ((w.length == 3 || w.length == 4) && w[0].equals("write")) {
        boolean heap = w.length == 4 && w[3].equals("heap");
        Thread sampler = heap ? sampleLiveHeap() : null;
        t0 = System.nanoTime();
        query(spark, w[2], from, to).write().format(MrapSource.NAME)
            .option("mrap.science.output", w[1]).option("mrap.science.variables", "t2m,tp")
            .mode("overwrite").save(out + "/" + w[2] + "." + w[1]);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (sampler != null) {
          sampler.interrupt();
          sampler.join();
        }
        System.out.printf(Locale.ROOT, "done write seconds=%.6f heap_mib=%.1f%n", seconds,
            heap ? PEAK.get() / 1048576.0 : Double.NaN);
      } else if (w.length == 3 && w[0].equals("rows")) {
        long n = 0;
        try (PrintWriter csv = new PrintWriter(new File(w[2]), StandardCharsets.UTF_8)) {
          csv.println(w[1] + ",latitude,longitude,t2m,tp");
          for (Row r : query(spark, w[1], from, to).collectAsList()) {
            csv.println(r.get(0) + "," + r.get(1) + "," + r.get(2) + "," + text(r.get(3)) + ","
                + text(r.get(4)));
            n++;
          }
        }
        System.out.println("done rows n=" + n);
      } else {
        System.out.println("unknown '" + line + "': query PERIOD, write KIND PERIOD, rows "
            + "PERIOD FILE or quit");
      }
    }
    spark.stop();
  }

  private static String text(Object x) {
    return x == null ? "" : x.toString();
  }

  /** The climatology by {@code period}. */
  static Dataset<Row> query(SparkSession spark, String period, String from, String to) {
    java.util.Map<String, String> key = java.util.Map.of("month", "month(time)",
        "dekad", "cast(floor((dayofyear(time) - 1) / 10) AS int)",
        "week", "weekofyear(time)", "day", "dayofyear(time)");
    if (!key.containsKey(period)) {
      throw new IllegalArgumentException("no period " + period + ": " + key.keySet());
    }
    return spark.sql("SELECT " + key.get(period) + " AS " + period + ", latitude, longitude, "
        + "avg(t2m) AS t2m, sum(tp) AS tp FROM era5 WHERE time BETWEEN '" + from + "' AND '"
        + to + "' GROUP BY 1, 2, 3");
  }

  private static long used() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /**
   * Until interrupted, a full collection a second and the heap held after it, the most kept in
   * {@link #PEAK}: the live heap's peak, at a second's grain (the heap after the young
   * collections alone holds the old generation's garbage too).
   */
  private static Thread sampleLiveHeap() {
    System.gc();
    PEAK.set(used());
    Thread t = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        System.gc();
        PEAK.accumulateAndGet(used(), Math::max);
        try {
          Thread.sleep(1000);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "live-heap");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
