package org.opass.mrap.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.science.ReferenceLibraries;

/**
 * {@code df.write.format("mrap")}: DataFrames in the table layout's shape written as CF NetCDF
 * and Zarr into HDFS, read back by netCDF4-python, zarr and xarray (the oracle,
 * science/write/read_written.py) and by our own source; save modes; refusals before anything
 * is written; a failed write leaves nothing.
 */
class ScienceWriteTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static SparkSession spark;
  private static FileSystem fs;
  private static File repository;

  @TempDir
  static java.nio.file.Path local;

  @BeforeAll
  static void start() throws Exception {
    spark = SparkOnHdfs.spark();
    spark.conf().set("spark.sql.session.timeZone", "UTC");
    fs = SparkOnHdfs.fs();
    repository = new File(System.getProperty("user.dir")).getAbsoluteFile().getParentFile();
    for (String f : new String[] {"era5.nc", "cmip_0.nc", "cmip_1.nc", "day360.nc"}) {
      Path p = new Path("/write-in/" + f);
      if (!fs.exists(p)) {
        fs.copyFromLocalFile(new Path(new File(repository,
            "mrap-core/src/test/resources/science/cf/" + f).toURI()), p);
      }
    }
  }

  private static String hdfs(String path) {
    return fs.makeQualified(new Path(path)).toString();
  }

  private static Dataset<Row> table(String variables, String... files) {
    String[] paths = new String[files.length];
    for (int i = 0; i < files.length; i++) {
      paths[i] = hdfs("/write-in/" + files[i]);
    }
    return spark.read().format("mrap").option("mrap.pattern.kind", "netcdf")
        .option("mrap.science.layout", "table").option("mrap.science.variables", variables)
        .load(paths);
  }

  /** What the reference libraries read of the dataset at {@code path} in HDFS. */
  private static JsonNode oracle(String kind, String path) throws Exception {
    File copy = new File(local.toFile(), new Path(path).getName() + System.nanoTime());
    fs.copyToLocalFile(new Path(path), new Path(copy.toURI()));
    String out = ReferenceLibraries.run(new File(repository,
        "mrap-spark/src/test/resources/science/write/read_written.py").toPath(), kind,
        copy.getPath());
    return JSON.readTree(out);
  }

  /** {@code rows}' values by grid point: the dimensions' values as text, joined by '|'. */
  private static Map<String, Object[]> byPoint(Dataset<Row> rows, int dims) {
    Map<String, Object[]> out = new HashMap<>();
    Dataset<Row> text = rows;
    for (String c : rows.columns()) {
      if (rows.schema().apply(c).dataType().equals(DataTypes.TimestampType)) {
        text = text.withColumn(c, org.apache.spark.sql.functions.date_format(
            text.col(c), "yyyy-MM-dd'T'HH:mm:ss"));
      }
    }
    for (Row r : text.collectAsList()) {
      StringBuilder k = new StringBuilder();
      for (int d = 0; d < dims; d++) {
        k.append(d == 0 ? "" : "|").append(key(r.get(d)));
      }
      Object[] v = new Object[r.length() - dims];
      for (int i = 0; i < v.length; i++) {
        v[i] = r.get(dims + i);
      }
      assertNull(out.put(k.toString(), v), "two rows at " + k);
    }
    return out;
  }

  private static String key(Object x) {
    if (x instanceof Number) {
      return Double.toString(((Number) x).doubleValue());
    }
    return String.valueOf(x);
  }

  private static String key(JsonNode x) {
    return x.isNumber() ? Double.toString(x.asDouble()) : x.asText();
  }

  /**
   * Checks that every point of the written grid holds what the rows say (NaN where none
   * does), within {@code tolerance} (relative, or absolute per variable where given), and that
   * every row's point is in the grid.
   */
  private static void assertHolds(JsonNode read, Dataset<Row> rows, List<String> dims,
      List<String> vars, double[] tolerance) {
    Map<String, Object[]> expected = byPoint(rows, dims.size());
    List<JsonNode> coords = new ArrayList<>();
    long points = 1;
    for (String d : dims) {
      coords.add(read.get("coords").get(d).get("values"));
      points *= coords.get(coords.size() - 1).size();
    }
    int found = 0;
    for (int v = 0; v < vars.size(); v++) {
      JsonNode var = read.get("variables").get(vars.get(v));
      assertEquals(dims, JSON.convertValue(var.get("dims"), List.class), vars.get(v));
      JsonNode values = var.get("values");
      assertEquals(points, values.size(), vars.get(v));
      for (int i = 0; i < points; i++) {
        StringBuilder k = new StringBuilder();
        long rest = i;
        String[] parts = new String[dims.size()];
        for (int d = dims.size() - 1; d >= 0; d--) {
          parts[d] = key(coords.get(d).get((int) (rest % coords.get(d).size())));
          rest /= coords.get(d).size();
        }
        k.append(String.join("|", parts));
        Object[] row = expected.get(k.toString());
        Object want = row == null ? null : row[v];
        JsonNode got = values.get(i);
        if (v == 0 && row != null) {
          found++;
        }
        if (want == null || Double.isNaN(((Number) want).doubleValue())) {
          assertTrue(got.isNull(), vars.get(v) + " at " + k + ": " + got + ", expected none");
        } else {
          double w = ((Number) want).doubleValue();
          assertFalse(got.isNull(), vars.get(v) + " at " + k + " is missing, expected " + w);
          double tol = tolerance[v] > 0 ? tolerance[v] : 1e-6 * Math.abs(w);
          assertEquals(w, got.asDouble(), tol, vars.get(v) + " at " + k);
        }
      }
    }
    assertEquals(expected.size(), found, "every row's point is in the written grid");
  }

  @Test
  void aTableWrittenAsNetcdfAndZarrIsWhatXarrayReads() throws Exception {
    Dataset<Row> era5 = table("t2m,tp", "era5.nc");
    for (String kind : new String[] {"netcdf", "zarr"}) {
      String dst = hdfs("/write-out/era5." + kind);
      era5.write().format("mrap").option("mrap.science.output", kind)
          .option("mrap.science.variables", "t2m,tp").mode("overwrite").save(dst);
      JsonNode read = oracle(kind, dst);
      assertEquals(kind.equals("netcdf") ? "NETCDF3_64BIT_OFFSET" : "zarr",
          read.get("format").asText());
      assertHolds(read, era5, List.of("time", "latitude", "longitude"), List.of("t2m", "tp"),
          new double[] {0, 0});
      // the source's CF attributes come with the columns
      JsonNode t2m = read.get("variables").get("t2m").get("attrs");
      assertEquals("K", t2m.get("units").asText(), kind);
      assertTrue(read.get("coords").get("time").get("attrs").get("units").asText()
          .contains(" since "), kind);
      assertEquals("CF-1.8", read.get("global").get("Conventions").asText(), kind);
      assertFalse(fs.exists(new Path("/write-out/.era5." + kind + ".mrap-write")), kind);
    }
  }

  @Test
  void idealizedCalendarsKeepTheirDatesAndTheSourcesUnits() throws Exception {
    Dataset<Row> cmip = table("tas", "cmip_0.nc", "cmip_1.nc");
    Dataset<Row> day360 = table("pr,hurs", "day360.nc");
    assertEquals(DataTypes.StringType, cmip.schema().apply("time").dataType());
    String[][] cases = {{"netcdf", "cmip"}, {"zarr", "day360"}};
    for (String[] c : cases) {
      Dataset<Row> df = c[1].equals("cmip") ? cmip : day360;
      List<String> vars = c[1].equals("cmip") ? List.of("tas") : List.of("pr", "hurs");
      String dst = hdfs("/write-out/" + c[1] + "." + c[0]);
      df.write().format("mrap").option("mrap.science.output", c[0])
          .option("mrap.science.variables", String.join(",", vars)).mode("overwrite")
          .save(dst);
      JsonNode read = oracle(c[0], dst);
      List<String> dims = new ArrayList<>();
      for (String col : df.columns()) {
        if (!vars.contains(col)) {
          dims.add(col);
        }
      }
      assertHolds(read, df, dims, vars, new double[vars.size()]);
      JsonNode time = read.get("coords").get("time").get("attrs");
      String calendar = c[1].equals("cmip") ? "noleap" : "360_day";
      assertEquals(calendar, time.get("calendar").asText(), c[1]);
      assertEquals(df.schema().apply("time").metadata().getString("units"),
          time.get("units").asText(), c[1] + ": the source's units");
    }
  }

  /** A grid with points no row names, a null, packing, given units and Zarr chunks. */
  private static Dataset<Row> sparseGrid() {
    StructType schema = new StructType().add("time", DataTypes.TimestampType, false)
        .add("lat", DataTypes.FloatType, false).add("lon", DataTypes.DoubleType, false)
        .add("temp", DataTypes.DoubleType, true).add("count", DataTypes.IntegerType, true);
    List<Row> rows = new ArrayList<>();
    float[] lats = {-10f, 0f, 10f};
    double[] lons = {0, 90, 180, 270};
    for (int t = 0; t < 6; t++) {
      for (float lat : lats) {
        for (double lon : lons) {
          // no row for times 4 and 5 at latitude 10 west of 270: one whole chunk of fill
          if (t >= 4 && lat == 10f && lon < 270 || t == 1 && lat == 0f && lon == 90) {
            continue;
          }
          Double temp = t == 2 && lon == 180 && lat == -10f ? null
              : 280 + t + lat / 10.0 + lon / 100.0;
          rows.add(RowFactory.create(java.sql.Timestamp.from(
              java.time.Instant.parse("2000-01-01T00:00:00Z").plusSeconds(3600L * t)), lat,
              lon, temp, t * 100 + (int) lon));
        }
      }
    }
    return spark.createDataFrame(rows, schema);
  }

  @Test
  void missingPointsArePackedValuesAndChunksAsAsked() throws Exception {
    Dataset<Row> grid = sparseGrid();
    for (String kind : new String[] {"zarr", "netcdf"}) {
      String dst = hdfs("/write-out/sparse." + kind);
      org.apache.spark.sql.DataFrameWriter<Row> w = grid.write().format("mrap")
          .option("mrap.science.output", kind)
          .option("mrap.science.output.dimensions", "time,lat,lon")
          .option("mrap.science.output.pack", "temp")
          .option("mrap.science.output.attr.time.units", "hours since 2000-01-01 00:00:00")
          .option("mrap.science.output.attr.time.calendar", "standard")
          .option("mrap.science.output.attr.temp.long_name", "air temperature")
          .option("mrap.science.output.attr.temp.units", "K")
          .option("mrap.science.output.global.title", "a sparse grid").mode("overwrite");
      if (kind.equals("zarr")) {
        w = w.option("mrap.science.output.chunks", "2,2,3");
      }
      w.save(dst);
      JsonNode read = oracle(kind, dst);
      JsonNode temp = read.get("variables").get("temp");
      assertEquals("int16", temp.get("dtype").asText(), kind);
      double scale = temp.get("attrs").get("scale_factor").asDouble();
      assertTrue(scale > 0 && scale < 1e-3, kind + ": scale " + scale);
      assertHolds(read, grid, List.of("time", "lat", "lon"), List.of("temp", "count"),
          new double[] {scale / 2 + 1e-12, 0});
      JsonNode time = read.get("coords").get("time");
      assertEquals("hours since 2000-01-01 00:00:00", time.get("attrs").get("units").asText());
      assertEquals("2000-01-01T05:00:00", time.get("values").get(5).asText());
      assertEquals("air temperature", temp.get("attrs").get("long_name").asText());
      assertEquals("a sparse grid", read.get("global").get("title").asText());
      if (kind.equals("zarr")) {
        List<?> chunks = JSON.convertValue(read.get("chunks").get("temp"), List.class);
        assertTrue(chunks.contains("0/0/0") && chunks.contains("2/1/1"), chunks.toString());
        assertFalse(chunks.contains("2/1/0"), "a chunk of only fill is not written: " + chunks);
        assertEquals(11, chunks.size(), chunks.toString());
      } else {
        assertEquals("NETCDF3_64BIT_OFFSET", read.get("format").asText());
      }
    }
    // a 64-bit integer needs CDF-5
    String dst = hdfs("/write-out/int64.nc");
    grid.selectExpr("time", "lat", "lon", "cast(count AS bigint) AS n").write().format("mrap")
        .option("mrap.science.output", "netcdf").option("mrap.science.variables", "n")
        .mode("overwrite").save(dst);
    JsonNode read = oracle("netcdf", dst);
    assertEquals("NETCDF3_64BIT_DATA", read.get("format").asText());
    assertHolds(read, grid.selectExpr("time", "lat", "lon", "cast(count AS bigint) AS n"),
        List.of("time", "lat", "lon"), List.of("n"), new double[] {0});
  }

  @Test
  void ourOwnReaderSelectsByCoordinatesInWhatWasWritten() throws Exception {
    Dataset<Row> era5 = table("t2m,tp", "era5.nc");
    String where = "latitude BETWEEN 30 AND 45 AND longitude BETWEEN 100 AND 120 AND time >= "
        + "'2020-06-02T06:00:00'";
    for (String kind : new String[] {"netcdf", "zarr"}) {
      String dst = hdfs("/write-out/back." + kind);
      era5.write().format("mrap").option("mrap.science.output", kind)
          .option("mrap.science.variables", "t2m,tp").mode("overwrite").save(dst);
      Dataset<Row> back = spark.read().format("mrap").option("mrap.pattern.kind", kind)
          .option("mrap.science.layout", "table").option("mrap.science.variables", "t2m,tp")
          .load(dst).where(where);
      String plan = back.queryExecution().executedPlan().toString();
      assertTrue(plan.contains("Selection: ") && !plan.contains("Selection: all"), plan);
      Dataset<Row> want = era5.where(where);
      long n = want.count();
      assertTrue(n > 0);
      assertEquals(n, back.count(), kind);
      assertEquals(0, want.except(back).count(), kind);
      assertEquals(0, back.except(want).count(), kind);
    }
  }

  private static void assertNothingAt(String dst, String after) throws Exception {
    Path d = new Path(dst);
    assertFalse(fs.exists(d), after + ": " + dst + " was written");
    assertFalse(fs.exists(new Path(d.getParent(), "." + d.getName() + ".mrap-write")),
        after + ": the work folder of " + dst + " is left");
  }

  private static String message(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append(" / ");
    }
    return b.toString();
  }

  @Test
  void saveModesAreSparksAndAFailedWriteLeavesNothing() throws Exception {
    Dataset<Row> grid = sparseGrid().drop("count");
    String dst = hdfs("/write-out/modes.nc");
    fs.delete(new Path(dst), true);
    org.apache.spark.sql.DataFrameWriter<Row> w = grid.write().format("mrap")
        .option("mrap.science.output", "netcdf").option("mrap.science.variables", "temp");
    w.save(dst);
    long length = fs.getFileStatus(new Path(dst)).getLen();
    long modified = fs.getFileStatus(new Path(dst)).getModificationTime();
    Exception e = assertThrows(Exception.class, () -> w.save(dst));
    assertTrue(message(e).contains("exists"), message(e));
    grid.write().format("mrap").option("mrap.science.output", "netcdf")
        .option("mrap.science.variables", "temp").mode("ignore").save(dst);
    assertEquals(modified, fs.getFileStatus(new Path(dst)).getModificationTime());
    e = assertThrows(Exception.class, () -> grid.write().format("mrap")
        .option("mrap.science.output", "netcdf").option("mrap.science.variables", "temp")
        .mode("append").save(dst));
    assertTrue(message(e).contains("appended"), message(e));
    grid.where("lat > 0").write().format("mrap").option("mrap.science.output", "netcdf")
        .option("mrap.science.variables", "temp").mode("overwrite").save(dst);
    assertTrue(fs.getFileStatus(new Path(dst)).getLen() < length, "replaced");
    // a store replaces a file, and the other way round
    grid.write().format("mrap").option("mrap.science.output", "zarr")
        .option("mrap.science.variables", "temp").mode("overwrite").save(dst);
    assertTrue(fs.getFileStatus(new Path(dst)).isDirectory());
    assertEquals(1, oracle("zarr", dst).get("variables").size());

    // refused on the driver, before anything is written
    String none = hdfs("/write-out/refused.nc");
    String[][] refusals = {
        {"duplicate grid points", "dup"}, {"ragged grid", "ragged"},
        {"dimension column name is string", "text"}, {"unknown write option", "option"},
        {"say which columns", "columns"}, {"expected netcdf or zarr", "kind"}};
    for (String[] r : refusals) {
      Dataset<Row> df = grid;
      org.apache.spark.sql.DataFrameWriter<Row> bad;
      switch (r[1]) {
        case "dup":
          df = grid.union(grid);
          break;
        case "ragged":
          df = grid.where("lat = 0 AND lon = 90").withColumn("lat", org.apache.spark.sql
              .functions.expr("cast(hour(time) AS float)")).withColumn("lon",
              org.apache.spark.sql.functions.expr("cast(hour(time) * 2 AS double)"));
          break;
        case "text":
          df = grid.withColumn("name", org.apache.spark.sql.functions.lit("a"));
          break;
        default:
          break;
      }
      bad = df.write().format("mrap").option("mrap.science.output",
          r[1].equals("kind") ? "hdf5" : "netcdf");
      if (!r[1].equals("columns")) {
        bad = bad.option("mrap.science.variables", "temp");
      }
      if (r[1].equals("text")) {
        bad = bad.option("mrap.science.output.dimensions", "time,lat,lon,name")
            .option("mrap.science.variables", "temp");
      }
      if (r[1].equals("option")) {
        bad = bad.option("mrap.science.output.chunk", "2");
      }
      org.apache.spark.sql.DataFrameWriter<Row> b = bad;
      e = assertThrows(Exception.class, () -> b.save(none), r[0]);
      assertTrue(message(e).contains(r[0]), r[0] + ": " + message(e));
      assertNothingAt(none, r[0]);
    }
    // a point named twice where others are missing passes the count, and fails in its task:
    // the job is aborted and nothing is left
    Dataset<Row> twice = grid.union(grid.where("lat = 10 AND lon = 270 AND hour(time) = 3"));
    e = assertThrows(Exception.class, () -> twice.write().format("mrap")
        .option("mrap.science.output", "zarr").option("mrap.science.variables", "temp")
        .save(none));
    assertTrue(message(e).contains("two values name grid point"), message(e));
    assertNothingAt(none, "a failed task");
  }
}
