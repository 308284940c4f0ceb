package org.opass.mrap.spark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;
import org.opass.mrap.array.Slab;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.cf.CfTime;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableValues;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.science.ScienceFiles;
import scala.Tuple2;

/**
 * The Spark driver of {@code bin/bench spark-science}, a process of its own on the bench's
 * emulated cluster, as a Spark application is: one session ({@code spark.sql.session.timeZone=
 * UTC}), driven over stdin so the bench can read the DataNodes' counters around each query. The
 * query: a season x a region of a daily series of ERA5-shaped NetCDF-4 files (t2m and tp on
 * (time, latitude, longitude)), grouped by month and grid point,
 * <pre>
 * SELECT month(time) AS m, latitude, longitude, avg(t2m) AS t2m, sum(tp) AS tp FROM era5
 * WHERE time BETWEEN 'FROM' AND 'TO' AND latitude BETWEEN LAT_A AND LAT_B
 *   AND longitude BETWEEN LON_A AND LON_B GROUP BY 1, 2, 3
 * </pre>
 * A line names a way to answer it, and the driver answers with a line {@code group m latitude
 * longitude t2m tp} a group (null where no value) and then {@code done WAY seconds=S groups=N}:
 * <ul>
 *   <li>{@code pushdown}: {@code spark.read.format("mrap")} with {@code mrap.science.layout=table}
 *   and {@code mrap.science.variables=t2m,tp}, the query as it is: the source takes the filters
 *   on the coordinates as a selection by value;</li>
 *   <li>{@code pushdown-index}: the same planned from a series index of the files (a tenth
 *   argument names it: {@code mrap.science.index});</li>
 *   <li>{@code pushdown-nogap}: the same with {@code mrap.access.coalesce.gap=0} (no gap between
 *   chunks read with them: a measure of what the joined gaps cost);</li>
 *   <li>{@code no-pushdown}: the same source and query, the filters written so that Spark cannot
 *   push them ({@code latitude + 0 BETWEEN ...}, {@code time + INTERVAL 0 SECONDS BETWEEN ...}):
 *   the variables read whole and Spark filters;</li>
 *   <li>{@code whole-file}: SciSpark's way, a task a file: {@code sc.binaryFiles(dir)}, each file
 *   parsed in its task from the bytes read (mrap-core's header reader, coordinates and chunk
 *   decoding), the selection found from its coordinates, its elements decoded as CF says and
 *   summed by group, the sums reduced by key.</li>
 * </ul>
 * {@code plan WAY} plans the query alone (the partitions, with the reads of headers, coordinates
 * and chunk indexes that takes) and answers {@code planned WAY seconds=S}; {@code explain WAY}
 * answers {@code scan WAY <the scan's description>}; {@code quit} ends it.
 * Arguments: master, directory URI, time from, time to (ISO, UTC), latitude and longitude
 * bounds (4 numbers), the files' count (binaryFiles' partitions).
 */
public final class ScienceQueryDriver {
  private ScienceQueryDriver() {
  }

  public static void main(String[] args) throws Exception {
    String master = args[0];
    String dir = args[1];
    Query q = new Query(args[2], args[3], Double.parseDouble(args[4]),
        Double.parseDouble(args[5]), Double.parseDouble(args[6]), Double.parseDouble(args[7]));
    int files = Integer.parseInt(args[8]);
    SparkSession spark = SparkSession.builder().master(master).appName("spark-science")
        .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    table(spark, dir, false, null).createOrReplaceTempView("era5");
    table(spark, dir, true, null).createOrReplaceTempView("era5_nogap");
    if (args.length > 9) { // a series index of dir: the way pushdown-index plans from it
      table(spark, dir, false, args[9]).createOrReplaceTempView("era5_index");
    }
    System.out.println("ready");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
        StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null && !line.equals("quit");
        line = in.readLine()) {
      String[] words = line.trim().split(" ");
      long t0 = System.nanoTime();
      if (words.length == 2 && words[0].equals("plan") && !words[1].equals("whole-file")) {
        spark.sql(q.sql(words[1])).queryExecution().executedPlan();
        System.out.printf(Locale.ROOT, "planned %s seconds=%.6f%n", words[1],
            (System.nanoTime() - t0) / 1e9);
      } else if (words.length == 2 && words[0].equals("explain")
          && !words[1].equals("whole-file")) {
        String plan = spark.sql(q.sql(words[1])).queryExecution().executedPlan().toString();
        String scan = "";
        for (String l : plan.split("\n")) {
          if (l.contains("mrap table")) {
            scan = l.trim();
          }
        }
        System.out.println("scan " + words[1] + " " + scan);
      } else if (words.length == 1 && Arrays.asList("pushdown", "pushdown-nogap",
          "pushdown-index", "no-pushdown", "whole-file").contains(words[0])) {
        List<Object[]> groups = words[0].equals("whole-file") ? wholeFiles(sc, dir, files, q)
            : rows(spark.sql(q.sql(words[0])).collectAsList());
        double seconds = (System.nanoTime() - t0) / 1e9;
        for (Object[] g : groups) {
          System.out.println("group " + g[0] + " " + g[1] + " " + g[2] + " " + g[3] + " " + g[4]);
        }
        System.out.printf(Locale.ROOT, "done %s seconds=%.6f groups=%d%n", words[0], seconds,
            groups.size());
      } else {
        System.out.println("unknown '" + line + "': pushdown, pushdown-nogap, no-pushdown, "
            + "whole-file, plan WAY, explain WAY or quit");
      }
    }
    spark.stop();
  }

  private static Dataset<Row> table(SparkSession spark, String dir, boolean noGap,
      String index) {
    org.apache.spark.sql.DataFrameReader r = spark.read().format(MrapSource.NAME)
        .option("mrap.pattern.kind", "netcdf").option(ReadOptions.LAYOUT, "table")
        .option(ReadOptions.VARIABLES, "t2m,tp");
    if (noGap) {
      r = r.option("mrap.access.coalesce.gap", "0");
    }
    if (index != null) {
      r = r.option("mrap.science.index", index);
    }
    return r.load(dir);
  }

  private static List<Object[]> rows(List<Row> rows) {
    List<Object[]> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(new Object[] {r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)});
    }
    return out;
  }

  /** The query's bounds, and its text for each way. */
  static final class Query implements Serializable {
    private static final long serialVersionUID = 1L;
    final String from;
    final String to;
    final long fromMicros;
    final long toMicros;
    final double latLo;
    final double latHi;
    final double lonLo;
    final double lonHi;

    Query(String from, String to, double latA, double latB, double lonA, double lonB) {
      this.from = from;
      this.to = to;
      this.fromMicros = micros(from);
      this.toMicros = micros(to);
      this.latLo = Math.min(latA, latB);
      this.latHi = Math.max(latA, latB);
      this.lonLo = Math.min(lonA, lonB);
      this.lonHi = Math.max(lonA, lonB);
    }

    private static long micros(String iso) {
      LocalDateTime t = iso.length() == 10 ? java.time.LocalDate.parse(iso).atStartOfDay()
          : LocalDateTime.parse(iso.replace(' ', 'T'));
      Instant i = t.toInstant(ZoneOffset.UTC);
      return i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
    }

    String sql(String way) {
      boolean hidden = way.equals("no-pushdown");
      String time = hidden ? "time + INTERVAL 0 SECONDS" : "time";
      String lat = hidden ? "latitude + 0" : "latitude";
      String lon = hidden ? "longitude + 0" : "longitude";
      return "SELECT month(time) AS m, latitude, longitude, avg(t2m) AS t2m, sum(tp) AS tp FROM "
          + (way.equals("pushdown-nogap") ? "era5_nogap" : way.equals("pushdown-index")
          ? "era5_index" : "era5") + " WHERE " + time
          + " BETWEEN '" + from + "' AND '" + to + "' AND " + lat + " BETWEEN " + num(latLo)
          + " AND " + num(latHi) + " AND " + lon + " BETWEEN " + num(lonLo) + " AND "
          + num(lonHi) + " GROUP BY 1, 2, 3";
    }

    private static String num(double x) {
      return x == Math.rint(x) ? Long.toString((long) x) : Double.toString(x);
    }
  }

  /**
   * SciSpark's way: a task a file (binaryFiles), each parsed from its bytes in the task, its
   * selected elements decoded and summed by (month, latitude, longitude); the groups as Spark
   * SQL gives them (avg t2m, sum tp; null where every value is missing).
   */
  static List<Object[]> wholeFiles(JavaSparkContext sc, String dir, int files, Query q) {
    List<Tuple2<String, double[]>> sums = sc.binaryFiles(dir, files)
        .flatMapToPair(f -> fileSums(f._1(), f._2().toArray(), q).iterator())
        .reduceByKey((a, b) -> new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2],
            a[3] + b[3]})
        .collect();
    List<Object[]> out = new ArrayList<>();
    for (Tuple2<String, double[]> s : sums) {
      String[] k = s._1().split(" ");
      double[] v = s._2();
      out.add(new Object[] {Integer.parseInt(k[0]), Float.parseFloat(k[1]),
          Float.parseFloat(k[2]), v[1] == 0 ? null : (Object) (v[0] / v[1]),
          v[3] == 0 ? null : (Object) v[2]});
    }
    return out;
  }

  /** One file's sums by group: t2m's sum and count, tp's sum and count. */
  static List<Tuple2<String, double[]>> fileSums(String name, byte[] all, Query q)
      throws IOException {
    List<Tuple2<String, double[]>> out = new ArrayList<>();
    Positioned file = inMemory(all);
    try (ScienceFile sf = ScienceFiles.open(file, name, ScienceFiles.Kind.NETCDF)) {
      Variable t2m = sf.variable("t2m");
      Variable tp = sf.variable("tp");
      Variable tc = sf.coordinate(t2m, 0);
      double[] time = VariableValues.read(file, tc);
      double[] lat = VariableValues.read(file, sf.coordinate(t2m, 1));
      double[] lon = VariableValues.read(file, sf.coordinate(t2m, 2));
      CfTime units = CfTime.of(tc.attributes().text("units"), tc.attributes().text("calendar"));
      int[] months = new int[time.length];
      int[] ts = range(time.length, k -> {
        Instant t = units.date(time[k]).toInstant();
        months[k] = t.atZone(ZoneOffset.UTC).getMonthValue();
        long micros = t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
        return micros >= q.fromMicros && micros <= q.toMicros;
      });
      int[] ys = range(lat.length, k -> lat[k] >= q.latLo && lat[k] <= q.latHi);
      int[] xs = range(lon.length, k -> lon[k] >= q.lonLo && lon[k] <= q.lonHi);
      if (ts == null || ys == null || xs == null) {
        return out;
      }
      long[] start = {ts[0], ys[0], xs[0]};
      long[] count = {ts[1] - ts[0], ys[1] - ys[0], xs[1] - xs[0]};
      long[] ones = {1, 1, 1};
      Slab slab = Slab.of(t2m.shape(), start, ones, count, ones);
      double[] a = decode(all, t2m, slab, start, count);
      double[] b = decode(all, tp, slab, start, count);
      int n = (int) (count[1] * count[2]);
      double[][] g = new double[n][4];
      for (int t = 0; t < count[0]; t++) {
        if (months[(int) start[0] + t] != months[(int) start[0]]) {
          throw new IllegalStateException(name + " holds days of two months");
        }
        for (int i = 0; i < n; i++) {
          double x = a[t * n + i];
          double y = b[t * n + i];
          if (!Double.isNaN(x)) {
            g[i][0] += x;
            g[i][1]++;
          }
          if (!Double.isNaN(y)) {
            g[i][2] += y;
            g[i][3]++;
          }
        }
      }
      for (int i = 0; i < n; i++) {
        out.add(new Tuple2<>(months[(int) start[0]] + " " + (float) lat[ys[0] + i / (int) count[2]]
            + " " + (float) lon[xs[0] + i % (int) count[2]], g[i]));
      }
    }
    return out;
  }

  private interface IndexTest {
    boolean test(int k);
  }

  /** The first and one past the last index that {@code in} accepts (contiguous), or null. */
  private static int[] range(int n, IndexTest in) {
    int first = -1;
    int last = -1;
    for (int k = 0; k < n; k++) {
      if (in.test(k)) {
        if (first < 0) {
          first = k;
        } else if (last != k - 1) {
          throw new IllegalStateException("the selection is not one run of indices");
        }
        last = k;
      }
    }
    return first < 0 ? null : new int[] {first, last + 1};
  }

  /** The slab's elements of {@code v} decoded as CF says, in C order over the box; NaN missing. */
  private static double[] decode(byte[] all, Variable v, Slab slab, long[] start, long[] count) {
    double[] out = new double[(int) (count[0] * count[1] * count[2])];
    SlabPlan plan = SlabPlan.of(v, slab, Long.MAX_VALUE);
    CfDecoding decoding = CfDecoding.of(v, true);
    ElementType to = decoding.decoded();
    int stored = v.type().size();
    RegionCursor c = plan.pattern().cursor();
    while (c.next()) {
      byte[] region = Arrays.copyOfRange(all, (int) c.offset(), (int) (c.offset() + c.length()));
      plan.pieces(c.offset(), region, region.length,
          (origin, shape, step, bytes, off, len) -> {
            int m = len / stored;
            byte[] decoded = new byte[m * to.size()];
            long[] missing = new long[(m + 63) >>> 6];
            decoding.decode(bytes, off, m, v.order(), decoded, missing);
            int i = 0;
            for (int t = 0; t < shape[0]; t++) {
              for (int y = 0; y < shape[1]; y++) {
                for (int x = 0; x < shape[2]; x++, i++) {
                  long at = ((origin[0] + t * step[0] - start[0]) * count[1]
                      + origin[1] + y * step[1] - start[1]) * count[2]
                      + origin[2] + x * step[2] - start[2];
                  out[(int) at] = (missing[i >>> 6] & 1L << i) != 0 ? Double.NaN
                      : Elements.asDouble(decoded, i * to.size(), to, v.order());
                }
              }
            }
          });
    }
    return out;
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
}
