package org.opass.mrap.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/demo}'s Spark SQL step, through what its Spark application ({@link SqlDriver})
 * runs: the tour's query over its committed ERA5-like series
 * ({@code tools/src/main/resources/demo/era5-mini/}) gives the answer netCDF4-python and numpy give
 * ({@code expected.json}, {@code make_era5_mini.py}); with its filters pushed, the scan is
 * handed them as a selection and its tasks read the chunks holding the box alone; with the
 * filters written so that none can be pushed, nothing is handed to the scan, its tasks read
 * every chunk, and the answer is the same. Bytes are the HDFS client's (this JVM's), counted
 * once the query is planned: the driver's reads of headers and chunk indexes left out.
 */
class DemoQueryTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static SparkSession spark;
  private static JsonNode expected;
  private static long fileBytes;

  @BeforeAll
  static void start() throws Exception {
    // the tour runs on the default release; TableLayoutTest shows the others read tables
    org.junit.jupiter.api.Assumptions.assumeFalse(Boolean.getBoolean("opass.tests.compat"),
        "bin/compat's other releases: TableLayoutTest's cases stand for the tour's query");
    spark = SparkOnHdfs.spark();
    spark.conf().set("spark.sql.session.timeZone", "UTC");
    File demo = new File(new File(System.getProperty("user.dir")).getAbsoluteFile()
        .getParentFile(), "tools/src/main/resources/demo"); // mrap-spark and mrap-spark4 both
    expected = JSON.readTree(new File(demo, "expected.json"));
    FileSystem fs = SparkOnHdfs.fs();
    for (JsonNode f : expected.get("files")) {
      byte[] bytes = Files.readAllBytes(new File(demo, "era5-mini/" + f.get("name").asText())
          .toPath());
      assertEquals(f.get("sha256").asText(), HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(bytes)), "the committed file "
          + f.get("name").asText() + " is the one expected.json describes");
      fileBytes += bytes.length;
      Path to = new Path("/demo/era5-mini/" + f.get("name").asText());
      if (!fs.exists(to)) {
        try (FSDataOutputStream out = fs.create(to, (short) 1)) {
          out.write(bytes);
        }
      }
    }
    Map<String, String> options = new LinkedHashMap<>();
    expected.get("options").fields().forEachRemaining(e -> options.put(e.getKey(),
        e.getValue().asText()));
    SqlDriver.view(spark, "era5", "/demo/era5-mini", options);
  }

  /** Bytes read from HDFS for the query's rows once it is planned. */
  private static long bytesOf(Dataset<Row> query) {
    SqlDriver.scan(query); // plans it, its partitions too
    long before = SqlDriver.hdfsBytesRead();
    SqlDriver.rows(query);
    return SqlDriver.hdfsBytesRead() - before;
  }

  @Test
  void theAnswerIsNetcdf4PythonsWithAndWithoutPushdown() {
    List<String> want = rows(expected.get("rows"));
    Dataset<Row> pushed = spark.sql(expected.get("sql").asText());
    Dataset<Row> notPushed = spark.sql(expected.get("sql_not_pushed").asText());
    assertEquals(want, SqlDriver.rows(pushed));
    assertEquals(want, SqlDriver.rows(notPushed));
  }

  @Test
  void pushedFiltersReadTheBoxsChunksAndTheOthersEveryChunk() {
    Dataset<Row> pushed = spark.sql(expected.get("sql").asText());
    Dataset<Row> notPushed = spark.sql(expected.get("sql_not_pushed").asText());
    String scan = SqlDriver.scan(pushed);
    // the times widened by a microsecond: Spark checks the bounds again on the rows read
    assertEquals("PushedFilters: [time >= 1583020800000000, time <= 1590883200000000, "
        + "latitude >= 30.0, latitude <= 45.0, longitude >= 100.0, longitude <= 120.0], "
        + "Selection: time=2020-02-29T23:59:59.999999Z:2020-05-31T00:00:00.000001Z, "
        + "latitude=30.0:45.0, longitude=100.0:120.0", scan);
    assertEquals("PushedFilters: [], Selection: all", SqlDriver.scan(notPushed));
    JsonNode chunks = expected.get("chunks");
    // the chunks, and no more than a few KiB of each file's metadata the tasks read again
    long files = expected.get("files").size();
    long with = bytesOf(pushed);
    assertTrue(with >= chunks.get("box_bytes").asLong()
        && with < chunks.get("box_bytes").asLong() + files * 4096,
        with + " bytes read with pushdown for " + chunks.get("box_bytes") + " of chunks in "
            + "the box, " + fileBytes + " in the files");
    long without = bytesOf(notPushed);
    assertTrue(without >= chunks.get("all_bytes").asLong()
        && without < chunks.get("all_bytes").asLong() + files * 4096 * 4,
        without + " bytes read without pushdown, " + chunks.get("all_bytes") + " of chunks");
  }

  /**
   * The tour's last Spark step: the answer written back with {@code format("mrap")} (the
   * driver's {@code write} command) as NetCDF and Zarr, and opened by xarray over WebHDFS
   * ({@code tools/src/main/resources/demo/open_results.py}): both hold the answer's rows.
   */
  @Test
  void theAnswerWrittenBackIsWhatXarrayOpensOverWebhdfs() throws Exception {
    List<String> want = rows(expected.get("rows"));
    List<String> vars = new ArrayList<>();
    for (int i = 1; i < expected.get("columns").size(); i++) {
      vars.add(expected.get("columns").get(i).asText());
    }
    Dataset<Row> q = spark.sql(expected.get("sql").asText());
    FileSystem fs = SparkOnHdfs.fs();
    SqlDriver.write(q, "netcdf", fs.makeQualified(new Path("/demo/results/spring.nc"))
        .toString(), String.join(",", vars));
    SqlDriver.write(q, "zarr", fs.makeQualified(new Path("/demo/results/spring.zarr"))
        .toString(), String.join(",", vars));
    Map<String, Object> web = new LinkedHashMap<>();
    web.put("host", SparkOnHdfs.http().getHostString());
    web.put("port", SparkOnHdfs.http().getPort());
    web.put("user", System.getProperty("user.name"));
    File script = new File(new File(System.getProperty("user.dir")).getAbsoluteFile()
        .getParentFile(), "tools/src/main/resources/demo/open_results.py");
    JsonNode opened = JSON.readTree(org.opass.mrap.science.ReferenceLibraries.run(
        script.toPath(), JSON.writeValueAsString(web), "/demo/results/spring.nc",
        "/demo/results/spring.zarr"));
    for (String kind : new String[] {"netcdf", "zarr"}) {
      assertEquals(want, rows(opened.get(kind).get("rows")), kind);
    }
    // count(*) is a long: CDF-5
    assertEquals("NETCDF3_64BIT_DATA", opened.get("netcdf").get("format").asText());
  }

  /** JSON rows as the driver prints them: cells tab-separated, integers without a point. */
  private static List<String> rows(JsonNode rows) {
    List<String> out = new ArrayList<>();
    for (JsonNode r : rows) {
      List<String> cells = new ArrayList<>();
      r.forEach(c -> cells.add(c.isIntegralNumber() ? c.asText() : Double.toString(
          c.asDouble())));
      out.add(String.join("\t", cells));
    }
    return out;
  }
}
