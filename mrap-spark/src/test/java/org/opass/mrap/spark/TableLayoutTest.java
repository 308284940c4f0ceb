package org.opass.mrap.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code mrap.science.layout=table} against xarray ({@code science/table/expected_table.json},
 * from the CF fixtures netCDF-C and h5py wrote): for each case's SQL filter, every cell of the
 * table (coordinates, decoded values, null where masked) and its column types; the coordinate
 * filters pushed and shown in the plan; bytes HDFS serves equal to the chunks holding the
 * selection, no variable's bytes for coordinates alone and one variable's for one; an
 * empty answer where the filters keep nothing; refusals by name.
 */
class TableLayoutTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static SparkSession spark;
  private static JsonNode cases;

  @BeforeAll
  static void start() throws Exception {
    spark = SparkOnHdfs.spark();
    spark.conf().set("spark.sql.session.timeZone", "UTC");
    File root = repository();
    cases = JSON.readTree(new File(root,
        "mrap-spark/src/test/resources/science/table/expected_table.json")).get("cases");
    FileSystem fs = SparkOnHdfs.fs();
    for (JsonNode c : cases) {
      for (JsonNode f : c.get("files")) {
        Path to = hdfs(f.asText());
        if (!fs.exists(to)) {
          try (FSDataOutputStream out = fs.create(to, (short) 2)) {
            out.write(Files.readAllBytes(new File(root, f.asText()).toPath()));
          }
        }
      }
    }
  }

  /** The repository's root: the module's parent (mrap-spark and mrap-spark4 both). */
  private static File repository() {
    return new File(System.getProperty("user.dir")).getAbsoluteFile().getParentFile();
  }

  private static Path hdfs(String file) {
    return new Path("/table/" + new File(file).getName());
  }

  static Stream<String> names() throws Exception {
    if (cases == null) {
      cases = JSON.readTree(new File(repository(),
          "mrap-spark/src/test/resources/science/table/expected_table.json")).get("cases");
    }
    List<String> out = new ArrayList<>();
    cases.forEach(c -> out.add(c.get("name").asText()));
    if (compatRun()) { // one case of each kind of file shows that this release reads them
      out.retainAll(List.of("era5_box", "cmip_series", "grids_all", "records_uv"));
    }
    return out.stream();
  }

  private static JsonNode named(String name) {
    for (JsonNode c : cases) {
      if (c.get("name").asText().equals(name)) {
        return c;
      }
    }
    throw new AssertionError("no case " + name);
  }

  private static DataFrameReader reader(JsonNode c) {
    List<String> vars = new ArrayList<>();
    c.get("variables").forEach(v -> vars.add(v.asText()));
    return spark.read().format("mrap").option("mrap.pattern.kind", c.get("kind").asText())
        .option("mrap.science.layout", "table")
        .option("mrap.science.variables", String.join(",", vars));
  }

  private static Dataset<Row> table(JsonNode c) {
    List<String> paths = new ArrayList<>();
    c.get("files").forEach(f -> paths.add(hdfs(f.asText()).toString()));
    return reader(c).load(paths.toArray(new String[0]));
  }

  private static final String[][] TYPES = {{"long", "bigint"}, {"short", "smallint"},
      {"byte", "tinyint"}};

  private static String sparkType(String oracle) {
    for (String[] t : TYPES) {
      if (t[0].equals(oracle)) {
        return t[1];
      }
    }
    return oracle;
  }

  @ParameterizedTest
  @MethodSource("names")
  void everyCellAsXarrayGivesIt(String name) {
    JsonNode c = named(name);
    Dataset<Row> t = table(c);
    List<String> columns = new ArrayList<>();
    c.get("columns").forEach(x -> columns.add(x.asText()));
    assertEquals(columns, List.of(t.columns()), name);
    for (int i = 0; i < columns.size(); i++) {
      assertEquals(sparkType(c.get("types").get(i).asText()),
          t.schema().fields()[i].dataType().simpleString(), name + ": " + columns.get(i));
    }
    Dataset<Row> q = t.where(c.get("where").asText());
    List<String> shown = new ArrayList<>();
    List<String> order = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      String col = columns.get(i);
      shown.add(c.get("types").get(i).asText().equals("timestamp")
          ? "cast(" + col + " as string) as " + col : col);
      if (i < columns.size() - c.get("variables").size()) {
        order.add(col);
      }
    }
    List<Row> rows = q.orderBy(order.get(0), order.subList(1, order.size())
        .toArray(new String[0])).selectExpr(shown.toArray(new String[0])).collectAsList();
    JsonNode expected = c.get("rows");
    assertEquals(expected.size(), rows.size(), name + ": rows");
    int nulls = 0;
    for (int r = 0; r < rows.size(); r++) {
      for (int i = 0; i < columns.size(); i++) {
        JsonNode e = expected.get(r).get(i);
        Object a = rows.get(r).get(i);
        String at = name + " row " + r + " " + columns.get(i);
        if (e.isNull()) {
          assertNull(a, at);
          nulls++;
        } else if (e.isTextual()) {
          assertEquals(e.asText(), a, at);
        } else if (a instanceof Float) {
          assertEquals((float) e.asDouble(), (Float) a, at); // float32 exactly
        } else {
          double x = ((Number) a).doubleValue();
          assertEquals(e.asDouble(), x, 1e-12 * Math.max(1, Math.abs(x)), at);
        }
      }
    }
    int expectedNulls = 0;
    for (JsonNode n : c.get("nulls")) {
      expectedNulls += n.asInt();
    }
    assertEquals(expectedNulls, nulls, name + ": nulls");
    if (c.get("pushable").asBoolean()) {
      String plan = q.queryExecution().executedPlan().toString();
      assertTrue(plan.contains("Selection: ") && !plan.contains("Selection: all"),
          name + ": nothing pushed: " + plan);
    }
  }

  /**
   * Bytes HDFS serves for {@code query}'s rows once it is planned (the driver's reads of
   * headers, coordinates and chunk indexes not counted).
   */
  private static long bytesOf(Dataset<Row> query) {
    query.queryExecution().executedPlan(); // plans the partitions
    long before = SparkOnHdfs.bytesRead();
    query.collectAsList();
    return SparkOnHdfs.bytesRead() - before;
  }

  @Test
  void readsTheChunksHoldingTheSelectionOnlyAndNoneForCoordinates() {
    JsonNode c = named("era5_box");
    String where = c.get("where").asText();
    long t2m = 0;
    long tp = 0;
    for (JsonNode ch : c.get("chunks").get("t2m")) {
      t2m += ch.get(1).asLong();
    }
    for (JsonNode ch : c.get("chunks").get("tp")) {
      tp += ch.get(1).asLong();
    }
    int chunks = c.get("chunks").get("t2m").size() + c.get("chunks").get("tp").size();
    String path = hdfs(c.get("files").get(0).asText()).toString();
    // no gap joined between chunks, so that the reads are the chunks alone
    Dataset<Row> t = reader(c).option("mrap.access.coalesce.gap", "0").load(path);
    long coordinates = bytesOf(t.where(where).select("time", "latitude", "longitude"));
    long both = bytesOf(t.where(where));
    long one = bytesOf(t.where(where).select("time", "latitude", "longitude", "tp"));
    assertEquals(0, coordinates, "coordinates alone read no variable's bytes");
    // the files' headers, coordinates and chunk indexes were read by the first query's planning
    long before = SparkOnHdfs.bytesRead();
    t.where("latitude BETWEEN -10 AND 10 AND time > TIMESTAMP '2020-06-04 00:00:00'")
        .queryExecution().executedPlan();
    assertEquals(0, SparkOnHdfs.bytesRead() - before, "a query planned again reads no header");
    // beside the chunks, each part of a task checks the file's first 64 bytes (is it still
    // the file planned, not restructured since?): a part reads at least one chunk
    long extra = both - (t2m + tp);
    assertTrue(extra >= 0 && extra % 64 == 0 && extra <= 64L * chunks,
        "t2m and tp: " + both + " bytes for " + (t2m + tp) + " of chunks");
    extra = one - tp;
    assertTrue(extra >= 0 && extra % 64 == 0 && extra <= 64L * chunks / 2,
        "tp: " + one + " bytes for " + tp + " of chunks");
  }

  /**
   * Filters of shapes the oracle's cases do not hold (a cast, a literal first, a null-safe
   * equality, NOT, an OR across columns) give the rows of the same filter Spark cannot push
   * (on {@code latitude + 0}, {@code time + INTERVAL 0 SECONDS}): what is pushed never drops
   * a row the filter keeps.
   */
  /**
   * Whether {@code bin/compat} runs the tests on a Hadoop release other than the default
   * ({@code -Dopass.tests.compat=true}): what the table does with Spark's filters and xarray's
   * cases does not depend on the release, and CI's time is better spent elsewhere.
   */
  private static boolean compatRun() {
    return Boolean.getBoolean("opass.tests.compat");
  }

  @Test
  void everyFilterShapeGivesTheRowsOfTheSameFilterUnpushed() {
    org.junit.jupiter.api.Assumptions.assumeFalse(compatRun(),
        "the filters' shapes are Spark's, the same on every Hadoop release");
    JsonNode c = named("era5_box");
    Dataset<Row> t = table(c);
    String[][] pairs = {
        {"CAST(latitude AS INT) = 32", "CAST(latitude + 0 AS INT) = 32"},
        {"latitude > 30.1 AND latitude <= 40.0", "latitude + 0 > 30.1 AND latitude + 0 <= 40.0"},
        {"30 < latitude AND 35 >= latitude", "30 < latitude + 0 AND 35 >= latitude + 0"},
        {"latitude <=> 32.5", "latitude + 0 <=> 32.5"},
        {"NOT (latitude < 80)", "NOT (latitude + 0 < 80)"},
        {"latitude > 85 OR longitude < 5", "latitude + 0 > 85 OR longitude + 0 < 5"},
        {"time IN (TIMESTAMP '2020-06-02 06:00:00', TIMESTAMP '2020-06-04 18:00:00') "
            + "AND latitude IN (0, 2.5, 90)", "time + INTERVAL 0 SECONDS IN (TIMESTAMP "
            + "'2020-06-02 06:00:00', TIMESTAMP '2020-06-04 18:00:00') AND latitude + 0 IN "
            + "(0, 2.5, 90)"},
        {"time > '2020-06-05 05:59:59' AND longitude BETWEEN 355 AND 360",
            "time + INTERVAL 0 SECONDS > '2020-06-05 05:59:59' AND longitude + 0 BETWEEN 355 "
            + "AND 360"},
        {"to_date(time) = DATE '2020-06-03' AND latitude = -90",
            "to_date(time + INTERVAL 0 SECONDS) = DATE '2020-06-03' AND latitude + 0 = -90"},
    };
    for (String[] p : pairs) {
      Dataset<Row> pushed = t.where(p[0]);
      String plan = pushed.queryExecution().executedPlan().toString();
      List<Row> a = pushed.orderBy("time", "latitude", "longitude").collectAsList();
      List<Row> b = t.where(p[1]).orderBy("time", "latitude", "longitude").collectAsList();
      assertTrue(!b.isEmpty(), p[1] + " keeps no row: a useless case");
      assertEquals(b, a, p[0] + " (plan: " + plan + ")");
    }
  }

  @Test
  void filtersThatKeepNothingGiveNoRowsAndNoError() {
    JsonNode c = named("era5_box");
    Dataset<Row> t = table(c);
    assertEquals(0, t.where("latitude > 100").count());
    assertEquals(0, t.where("latitude > 40 AND latitude < 35").count());
    assertEquals(0, t.where("time < TIMESTAMP '1999-01-01 00:00:00'").count());
  }

  @Test
  void refusesConflictsByName() {
    JsonNode c = named("era5_box");
    String path = hdfs(c.get("files").get(0).asText()).toString();
    Exception slab = assertThrows(IllegalArgumentException.class, () -> reader(c)
        .option("mrap.science.slab", "0:5,:,:").load(path).where("time >= "
            + "TIMESTAMP '2020-06-02 00:00:00'").count());
    assertTrue(slab.getMessage().contains("mrap.science.slab=0:5,:,:")
        && slab.getMessage().contains("time"), slab.getMessage());
    Exception select = assertThrows(IllegalArgumentException.class, () -> reader(c)
        .option("mrap.science.select", "latitude=30:45").load(path).where("latitude > 40")
        .count());
    assertTrue(select.getMessage().contains("mrap.science.select=latitude=30:45"),
        select.getMessage());
    Exception grid = assertThrows(IllegalArgumentException.class, () -> spark.read()
        .format("mrap").option("mrap.pattern.kind", "netcdf")
        .option("mrap.science.layout", "table").option("mrap.science.variables", "t2m,time")
        .load(path).count());
    assertTrue(grid.getMessage().contains("time"), grid.getMessage());
    Exception layout = assertThrows(IllegalArgumentException.class, () -> spark.read()
        .format("mrap").option("mrap.pattern.kind", "netcdf")
        .option("mrap.science.layout", "rows").option("mrap.science.variable", "t2m")
        .load(path).count());
    assertTrue(layout.getMessage().contains("mrap.science.layout=rows"), layout.getMessage());
    Exception many = assertThrows(IllegalArgumentException.class, () -> spark.read()
        .format("mrap").option("mrap.pattern.kind", "netcdf")
        .option("mrap.science.variables", "t2m,tp").load(path).count());
    assertTrue(many.getMessage().contains("mrap.science.layout=table"), many.getMessage());
    // an unknown column is Spark's own error
    Exception unknown = assertThrows(Exception.class, () -> table(c).where("height > 2")
        .count());
    assertTrue(unknown.getClass().getSimpleName().contains("AnalysisException"),
        unknown.toString());
  }
}
