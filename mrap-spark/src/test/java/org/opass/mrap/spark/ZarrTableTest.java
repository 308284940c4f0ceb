package org.opass.mrap.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Zarr store (science/zarr/v2/era5.zarr, written by xarray) as a Spark SQL table: every cell of
 * a box selected by coordinate filters against xarray's decoded read of the same store, masked
 * values null, the filters pushed into the read.
 */
class ZarrTableTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static SparkSession spark;
  private static File zarr;

  @BeforeAll
  static void start() throws Exception {
    spark = SparkOnHdfs.spark();
    spark.conf().set("spark.sql.session.timeZone", "UTC");
    zarr = new File(new File(System.getProperty("user.dir")).getAbsoluteFile().getParentFile(),
        "mrap-core/src/test/resources/science/zarr");
    FileSystem fs = SparkOnHdfs.fs();
    if (!fs.exists(new Path("/zarr/era5.zarr"))) {
      fs.mkdirs(new Path("/zarr"));
      fs.copyFromLocalFile(new Path(new File(zarr, "v2/era5.zarr").toURI()),
          new Path("/zarr/era5.zarr"));
    }
  }

  /** xarray's read of t2m: decoded values (C order over time, latitude, longitude), coords. */
  private static JsonNode xarray() throws Exception {
    Process p = new ProcessBuilder(python(), new File(zarr, "oracle.py").getPath(), "xarray",
        new File(zarr, "v2/era5.zarr").getPath(), "t2m").redirectErrorStream(false).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS) && p.exitValue() == 0,
        "oracle.py: " + new String(p.getErrorStream().readAllBytes()));
    return JSON.readTree(out);
  }

  private static String python() {
    String p = System.getenv("OPASS_PYTHON");
    return p == null || p.isBlank() ? "/usr/bin/python3" : p.trim();
  }

  @Test
  void aBoxByCoordinateFiltersIsWhatXarrayReads() throws Exception {
    Dataset<Row> t = spark.read().format("mrap").option("mrap.pattern.kind", "zarr")
        .option("mrap.science.layout", "table").option("mrap.science.variables", "t2m")
        .load(SparkOnHdfs.fs().makeQualified(new Path("/zarr/era5.zarr")).toString());
    assertEquals(List.of("time", "latitude", "longitude", "t2m"), List.of(t.columns()));
    String where = "latitude >= 30 AND latitude <= 45 AND longitude >= 90 AND longitude < 180";
    Dataset<Row> q = t.where(where);
    String plan = q.queryExecution().executedPlan().toString();
    assertTrue(plan.contains("Selection: ") && !plan.contains("Selection: all"), plan);
    List<Row> rows = q.orderBy("time", "latitude", "longitude")
        .selectExpr("cast(time as string) as time", "latitude", "longitude", "t2m")
        .collectAsList();
    JsonNode x = xarray();
    JsonNode times = x.get("coords").get("time").get("iso");
    JsonNode lats = x.get("coords").get("latitude").get("values");
    JsonNode lons = x.get("coords").get("longitude").get("values");
    JsonNode values = x.get("values");
    List<Object[]> expected = new ArrayList<>();
    for (int i = 0; i < times.size(); i++) {
      for (int j = lats.size() - 1; j >= 0; j--) { // ascending latitude, as ordered
        double lat = lats.get(j).asDouble();
        for (int k = 0; k < lons.size(); k++) {
          double lon = lons.get(k).asDouble();
          if (lat >= 30 && lat <= 45 && lon >= 90 && lon < 180) {
            JsonNode v = values.get((i * lats.size() + j) * lons.size() + k);
            expected.add(new Object[] {times.get(i).asText().replace('T', ' '), lat, lon,
                v.isTextual() ? null : v.asDouble()});
          }
        }
      }
    }
    assertEquals(expected.size(), rows.size(), "rows");
    for (int r = 0; r < rows.size(); r++) {
      Object[] e = expected.get(r);
      Row a = rows.get(r);
      assertEquals(e[0], a.getString(0), "row " + r + " time");
      assertEquals((double) e[1], ((Number) a.get(1)).doubleValue(), 0, "row " + r);
      assertEquals((double) e[2], ((Number) a.get(2)).doubleValue(), 0, "row " + r);
      if (e[3] == null) {
        assertNull(a.get(3), "row " + r + " t2m");
      } else {
        double want = (double) e[3];
        assertEquals(want, ((Number) a.get(3)).doubleValue(), 1e-6 * Math.max(1,
            Math.abs(want)), "row " + r + " t2m");
      }
    }
    assertTrue(rows.size() > 0, "the box holds rows");
  }
}
