package org.opass.mrap.spark;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.opass.mrap.pattern.PatternConfig;
import scala.Tuple2;

/**
 * The Spark driver of {@code bin/bench spark-strided}, a process of its own on the bench's
 * emulated cluster, as a Spark application is: one session, driven over stdin so the bench can
 * read the DataNodes' counters around each read. A line {@code mrap} or {@code binary-records}
 * reads a strided pattern's regions of the file that way and answers {@code done seconds=...
 * regions=... checksum=...} (the sum of the regions' CRC32s, which both ways must give);
 * {@code quit} ends it.
 * <ul>
 *   <li>{@code mrap}: {@code spark.read.format("mrap")} with the pattern's keys, the regions'
 *   CRC32s summed by Spark SQL;</li>
 *   <li>{@code binary-records}: the best stock way, {@code sc.binaryRecords(file, stride)}, a
 *   record a period of the pattern, cut to its region (one pass over the file; a filter on a
 *   region-sized record's position would need {@code zipWithIndex}, a second pass).</li>
 * </ul>
 * Arguments: master, file URI, region bytes, stride bytes, region count.
 */
public final class StridedReadDriver {
  private StridedReadDriver() {
  }

  public static void main(String[] args) throws Exception {
    String master = args[0];
    String file = args[1];
    int region = Integer.parseInt(args[2]);
    int stride = Integer.parseInt(args[3]);
    long count = Long.parseLong(args[4]);
    SparkSession spark = SparkSession.builder().master(master).appName("spark-strided")
        .config("spark.ui.enabled", "false").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    System.out.println("ready");
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
        StandardCharsets.UTF_8));
    for (String way = in.readLine(); way != null && !way.equals("quit"); way = in.readLine()) {
      long t0 = System.nanoTime();
      long regions;
      long checksum;
      if (way.equals("mrap")) {
        Row r = spark.read().format(MrapSource.NAME)
            .option(PatternConfig.STRIDED_START, "0")
            .option(PatternConfig.STRIDED_SIZE, Integer.toString(region))
            .option(PatternConfig.STRIDED_STRIDE, Integer.toString(stride))
            .option(PatternConfig.STRIDED_COUNT, Long.toString(count))
            .load(file).selectExpr("count(*)", "sum(crc32(bytes))").head();
        regions = r.getLong(0);
        checksum = r.isNullAt(1) ? 0 : r.getLong(1);
      } else if (way.equals("binary-records")) {
        Tuple2<Long, Long> r = sc.binaryRecords(file, stride)
            .map(record -> {
              CRC32 crc = new CRC32();
              crc.update(record, 0, region);
              return new Tuple2<>(1L, crc.getValue());
            })
            .reduce((a, b) -> new Tuple2<>(a._1() + b._1(), a._2() + b._2()));
        regions = r._1();
        checksum = r._2();
      } else {
        System.out.println("unknown way '" + way + "': mrap, binary-records or quit");
        continue;
      }
      System.out.printf("done %s seconds=%.6f regions=%d checksum=%d%n", way,
          (System.nanoTime() - t0) / 1e9, regions, checksum);
    }
    spark.stop();
  }
}
