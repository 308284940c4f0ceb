package org.opass.mrap.spark;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark application of {@code bin/demo}'s Spark SQL step, a process of its own on the tour's
 * HDFS, as a Spark application is: one session ({@code spark.sql.session.timeZone=UTC}), driven a
 * line at a time over stdin. Each query is planned, then run, and each answer tells the bytes
 * this JVM read from HDFS meanwhile (its {@code FileSystem} statistics: the driver's reads and,
 * in {@code local} mode, the tasks'), so that planning on the driver and the tasks' reads are
 * told apart.
 * <ul>
 *   <li>{@code view <name> <path> [key=value ...]}: {@code spark.read.format("mrap")} with those
 *   options, loaded from the path, as a temporary view; answers {@code done view read=<bytes>};
 *   </li>
 *   <li>{@code plan <query>}: plans it (the source's partitions too, reading the files' headers
 *   and chunk indexes on the driver); answers {@code scan <what the source was handed>} (the
 *   pushed filters and the selection, from the plan's scan node), then {@code done plan
 *   seconds=<s> read=<bytes>};</li>
 *   <li>{@code run}: runs the query planned last; answers a line {@code row <values, tab
 *   separated>} a row, then {@code done run rows=<n> seconds=<s> read=<bytes>};</li>
 *   <li>{@code write <kind> <path> <variables>}: writes the query planned last with
 *   {@code format("mrap")} as {@code netcdf} or {@code zarr} to {@code path}, replacing it,
 *   {@code variables} (comma-separated) its variables; answers {@code done write
 *   seconds=<s>};</li>
 *   <li>{@code quit} ends it.</li>
 * </ul>
 * An error answers {@code error <message>} on one line, and the driver goes on. It prints
 * {@code ready} once its session is up and has run a first query of its own. Argument: the master ({@code local[2]}).
 */
public final class SqlDriver {
  private SqlDriver() {
  }

  public static void main(String[] args) throws Exception {
    SparkSession spark = session(SparkSession.builder().master(args.length > 0 ? args[0]
        : "local[2]").appName("mrap-sql").config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")).getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    // a first query compiles what every aggregation needs: before the queries that count
    spark.range(1000).selectExpr("id % 3 AS k", "id * 0.5 AS v").groupBy("k").avg("v")
        .orderBy("k").collectAsList();
    System.out.println("ready");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
        StandardCharsets.UTF_8));
    Dataset<Row> planned = null;
    for (String line = in.readLine(); line != null && !line.equals("quit");
        line = in.readLine()) {
      try {
        if (line.startsWith("view ")) {
          String[] w = line.trim().split("\\s+");
          Map<String, String> options = new LinkedHashMap<>();
          for (int i = 3; i < w.length; i++) {
            int eq = w[i].indexOf('=');
            if (eq <= 0) {
              throw new IllegalArgumentException("not key=value: " + w[i]);
            }
            options.put(w[i].substring(0, eq), w[i].substring(eq + 1));
          }
          long read = hdfsBytesRead();
          view(spark, w[1], w[2], options);
          System.out.println("done view read=" + (hdfsBytesRead() - read));
        } else if (line.startsWith("plan ")) {
          long t0 = System.nanoTime();
          long read = hdfsBytesRead();
          planned = null;
          Dataset<Row> q = spark.sql(line.substring(5));
          System.out.println("scan " + scan(q));
          planned = q;
          System.out.printf("done plan seconds=%.3f read=%d%n", (System.nanoTime() - t0) / 1e9,
              hdfsBytesRead() - read);
        } else if (line.equals("run") && planned != null) {
          long t0 = System.nanoTime();
          long read = hdfsBytesRead();
          List<String> rows = rows(planned);
          for (String r : rows) {
            System.out.println("row " + r);
          }
          System.out.printf("done run rows=%d seconds=%.3f read=%d%n", rows.size(),
              (System.nanoTime() - t0) / 1e9, hdfsBytesRead() - read);
        } else if (line.startsWith("write ") && planned != null) {
          String[] w = line.trim().split("\\s+");
          long t0 = System.nanoTime();
          write(planned, w[1], w[2], w[3]);
          System.out.printf("done write seconds=%.3f%n", (System.nanoTime() - t0) / 1e9);
        } else {
          System.out.println("error unknown command (view, plan, run, write, quit; run and "
              + "write after a plan): " + line);
        }
      } catch (Exception e) {
        System.out.println("error " + String.valueOf(e).replace('\n', ' '));
        e.printStackTrace();
      }
      System.out.flush();
    }
    spark.stop();
  }

  /**
   * Bytes this JVM's HDFS clients have read so far: the driver's and, in local mode, the
   * tasks'. (A DataNode's own {@code BytesRead} leaves out a read whose client closed the
   * connection before the DataNode sent its last packet, as a positioned read of a range may:
   * under load, many of them.)
   */
  static long hdfsBytesRead() {
    long n = 0;
    for (org.apache.hadoop.fs.FileSystem.Statistics s
        : org.apache.hadoop.fs.FileSystem.getAllStatistics()) {
      if (s.getScheme().equals("hdfs")) {
        n += s.getBytesRead();
      }
    }
    return n;
  }

  /** The settings the table layout needs of a session: its times are instants in UTC. */
  static SparkSession.Builder session(SparkSession.Builder b) {
    return b.config("spark.sql.session.timeZone", "UTC");
  }

  /**
   * The planned query's rows written by {@code format("mrap")} as {@code kind} ({@code netcdf},
   * {@code zarr}) to {@code path}, replacing it, {@code variables} (comma-separated) its
   * variables: the others its dimensions.
   */
  static void write(Dataset<Row> query, String kind, String path, String variables) {
    query.write().format(MrapSource.NAME).option("mrap.science.output", kind)
        .option("mrap.science.variables", variables).mode("overwrite").save(path);
  }

  /** {@code format("mrap")} with {@code options}, loaded from {@code path}, as view {@code name}. */
  static void view(SparkSession spark, String name, String path, Map<String, String> options) {
    spark.read().format(MrapSource.NAME).options(options).load(path)
        .createOrReplaceTempView(name);
  }

  /**
   * What the query's mrap scan was handed, as its plan shows it (planning the query, and its
   * scan's partitions, if not yet planned): from {@code PushedFilters:} to the end of the
   * source's description in the scan node's line (Spark's own {@code RuntimeFilters} left
   * out); {@code none} where the plan has no such node.
   */
  static String scan(Dataset<Row> query) {
    for (String line : query.queryExecution().executedPlan().toString().split("\n")) {
      int at = line.indexOf("PushedFilters: ");
      if (line.contains("mrap table") && at >= 0) {
        int end = line.indexOf(" RuntimeFilters: ", at);
        return line.substring(at, end < 0 ? line.length() : end).trim();
      }
    }
    return "none";
  }

  /** The query's rows, each its values as text, tab separated (null as {@code null}). */
  static List<String> rows(Dataset<Row> query) {
    List<String> out = new ArrayList<>();
    for (Row r : query.collectAsList()) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < r.length(); i++) {
        b.append(i == 0 ? "" : "\t").append(r.isNullAt(i) ? "null" : String.valueOf(r.get(i)));
      }
      out.add(b.toString());
    }
    return out;
  }
}
