package org.opass.mrap.spark;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import com.sun.management.GarbageCollectionNotificationInfo;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
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
 *   seconds=S heap_mib=H}, H the most heap this JVM held after a garbage collection during the
 *   write (in {@code local} mode the tasks' too: an upper bound of the driver's own);</li>
 *   <li>{@code rows PERIOD FILE}: its rows as CSV in the local FILE: answers {@code done
 *   rows n=N};</li>
 *   <li>{@code quit}.</li>
 * </ul>
 * Arguments: master, the series' directory URI, time from, time to, the output folder URI.
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
    SparkSession spark = SparkSession.builder().master(master).appName("science-write")
        .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    spark.read().format(MrapSource.NAME).option("mrap.pattern.kind", "netcdf")
        .option(ReadOptions.LAYOUT, "table").option(ReadOptions.VARIABLES, "t2m,tp").load(dir)
        .createOrReplaceTempView("era5");
    watchHeap();
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
      } else if (w.length == 3 && w[0].equals("write")) {
        System.gc();
        PEAK.set(used());
        t0 = System.nanoTime();
        query(spark, w[2], from, to).write().format(MrapSource.NAME)
            .option("mrap.science.output", w[1]).option("mrap.science.variables", "t2m,tp")
            .mode("overwrite").save(out + "/" + w[2] + "." + w[1]);
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.gc();
        PEAK.accumulateAndGet(used(), Math::max);
        System.out.printf(Locale.ROOT, "done write seconds=%.6f heap_mib=%.1f%n", seconds,
            PEAK.get() / 1048576.0);
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
    Map<String, String> key = Map.of("month", "month(time)",
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

  /** Keeps in {@link #PEAK} the most heap held after each garbage collection. */
  private static void watchHeap() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener((n, h) -> {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
            n.getType())) {
          return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
            (CompositeData) n.getUserData());
        long total = 0;
        for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc()
            .entrySet()) {
          String name = pool.getKey();
          if (!name.contains("Metaspace") && !name.contains("Code")
              && !name.contains("Class")) {
            total += pool.getValue().getUsed();
          }
        }
        long t = total;
        PEAK.accumulateAndGet(t, Math::max);
      }, null, null);
    }
  }
}
