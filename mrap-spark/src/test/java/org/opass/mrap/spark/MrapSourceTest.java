package org.opass.mrap.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.spark.rdd.RDD;
import org.apache.spark.scheduler.TaskLocation;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.pattern.NaivePatterns;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.science.Fixtures;

/**
 * {@code spark.read.format("mrap")} in {@code local[2]} over a MiniDFSCluster: the rows are
 * the pattern's records byte for byte (worked out from the file's bytes by hand), across block
 * boundaries and over several files, and for random patterns of every kind the naive oracle's
 * regions ({@code NaivePatterns}, mrap-inputformat's tests); selecting offsets only gives the same offsets without a
 * byte read; Spark's scheduler prefers the InputFormat's split hosts for its partitions; a NetCDF
 * variable's slab over a folder of files (one of them NetCDF-4, chunked and deflated) as typed
 * rows whose figures per time step are netCDF-C's; unknown options and bad settings are refused
 * by name before anything runs.
 */
class MrapSourceTest {
  private static final int BLOCK = SparkOnHdfs.BLOCK;
  private static SparkSession spark;
  private static final Map<String, byte[]> FILES = new HashMap<>();
  private static final String[] SERIES = {"run_00.nc", "run_01.nc", "run_02.nc", "run_03.nc"};

  @BeforeAll
  static void start() throws Exception {
    spark = SparkOnHdfs.spark();
    FileSystem fs = SparkOnHdfs.fs();
    Random rnd = new Random(3);
    for (String name : new String[] {"/data/a.bin", "/data/b.bin"}) {
      byte[] b = new byte[5 * BLOCK + 1234];
      rnd.nextBytes(b);
      try (FSDataOutputStream out = fs.create(new Path(name), (short) 2)) {
        out.write(b);
      }
      FILES.put(fs.makeQualified(new Path(name)).toString(), b);
    }
    for (String f : SERIES) { // a NetCDF time series written by netCDF-C
      try (FSDataOutputStream out = fs.create(new Path("/series/" + f), (short) 2)) {
        out.write(Fixtures.bytes("series/" + f));
      }
    }
  }

  /** A strided pattern of 3,000-byte regions every 10,000 bytes (some across blocks). */
  private static Map<String, String> pattern() {
    Map<String, String> o = new HashMap<>();
    o.put(PatternConfig.STRIDED_START, "100");
    o.put(PatternConfig.STRIDED_SIZE, "3000");
    o.put(PatternConfig.STRIDED_SPACING, "7000");
    o.put(PatternConfig.STRIDED_COUNT, "32");
    o.put(AccessInputFormat.RECORD_BYTES, "1024"); // a region is three records
    return o;
  }

  /** The records by hand: per file, each region cut into records of 1024 bytes. */
  private static Map<String, List<byte[]>> expected() {
    Map<String, List<byte[]>> out = new HashMap<>();
    for (Map.Entry<String, byte[]> f : FILES.entrySet()) {
      List<byte[]> records = new ArrayList<>();
      for (int k = 0; k < 32; k++) {
        int start = 100 + k * 10_000;
        for (int o = 0; o < 3000; o += 1024) {
          records.add(Arrays.copyOfRange(f.getValue(), start + o, start + Math.min(3000,
              o + 1024)));
        }
      }
      out.put(f.getKey(), records);
    }
    return out;
  }

  @Test
  void rowsAreThePatternsRecordsByteForByte() {
    Dataset<Row> df = spark.read().format(MrapSource.NAME).options(pattern())
        .load("/data/a.bin", "/data/b.bin");
    assertEquals(List.of("file", "offset", "bytes"), Arrays.asList(df.columns()));
    Map<String, List<Row>> byFile = new HashMap<>();
    for (Row r : df.collectAsList()) {
      byFile.computeIfAbsent(r.getString(0), f -> new ArrayList<>()).add(r);
    }
    Map<String, List<byte[]>> expected = expected();
    assertEquals(expected.keySet(), byFile.keySet());
    for (Map.Entry<String, List<Row>> f : byFile.entrySet()) {
      List<Row> rows = f.getValue();
      rows.sort((x, y) -> Long.compare(x.getLong(1), y.getLong(1)));
      List<byte[]> want = expected.get(f.getKey());
      assertEquals(want.size(), rows.size(), f.getKey());
      long logical = 0;
      for (int i = 0; i < rows.size(); i++) {
        assertEquals(logical, rows.get(i).getLong(1), f.getKey() + " record " + i);
        assertArrayEquals(want.get(i), (byte[]) rows.get(i).get(2), f.getKey() + " record " + i);
        logical += want.get(i).length;
      }
    }
  }

  @Test
  void everyPatternKindGivesTheNaiveOraclesBytes() throws Exception {
    // random patterns of every kind (strided by gaps and strides, nested, subarray, tiled,
    // indexed with overlaps), regions crossing blocks; rows laid end to end by their offsets
    // must be the oracle's regions of the file, cut by loops with no pattern class
    String file = "/data/a.bin";
    byte[] data = FILES.get(SparkOnHdfs.fs().makeQualified(new Path(file)).toString());
    Random rnd = new Random(25);
    Map<String, Integer> kinds = new HashMap<>();
    for (int c = 0; c < 24; c++) {
      Map<String, String> keys = NaivePatterns.random(rnd, data.length, false);
      keys.put(AccessInputFormat.RECORD_BYTES, Integer.toString(100 + rnd.nextInt(5000)));
      String what = "case " + c + " " + keys;
      kinds.merge(keys.getOrDefault(PatternConfig.KIND, "strided"), 1, Integer::sum);
      ByteArrayOutputStream want = new ByteArrayOutputStream();
      for (long[] r : NaivePatterns.regions(keys)) {
        want.write(data, (int) r[0], (int) r[1]);
      }
      List<Row> rows = new ArrayList<>(spark.read().format(MrapSource.NAME).options(keys)
          .load(file).select("offset", "bytes").collectAsList());
      rows.sort((x, y) -> Long.compare(x.getLong(0), y.getLong(0)));
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      for (Row r : rows) {
        assertEquals(got.size(), r.getLong(0), what + ": rows end to end");
        got.write((byte[]) r.get(1));
      }
      assertArrayEquals(want.toByteArray(), got.toByteArray(), what);
    }
    assertEquals(4, kinds.size(), "strided, subarray, tiled and indexed: " + kinds);
  }

  @Test
  void offsetsAloneAreTheSameWithoutAByteRead() {
    Dataset<Row> df = spark.read().format(MrapSource.NAME).options(pattern())
        .load("/data/a.bin", "/data/b.bin");
    List<String> all = new ArrayList<>();
    for (Row r : df.select("file", "offset").collectAsList()) {
      all.add(r.getString(0) + "@" + r.getLong(1));
    }
    List<String> pruned = new ArrayList<>();
    for (Row r : df.select("file", "offset", "bytes").collectAsList()) {
      pruned.add(r.getString(0) + "@" + r.getLong(1));
    }
    all.sort(null);
    pruned.sort(null);
    assertEquals(pruned, all);
    assertTrue(df.select("offset").queryExecution().executedPlan().toString()
        .contains("struct<offset:bigint>"), "only the offsets are read: "
        + df.select("offset").queryExecution().executedPlan());
  }

  @Test
  void sparksSchedulerPrefersTheSplitsHosts() throws Exception {
    Configuration conf = new Configuration(spark.sparkContext().hadoopConfiguration());
    pattern().forEach(conf::set);
    Job job = Job.getInstance(conf);
    FileInputFormat.addInputPath(job, new Path("/data/a.bin"));
    List<InputSplit> splits = new AccessInputFormat().getSplits(job);
    // the query's RDD as the scheduler sees it: the locations its DAGScheduler asks for, which
    // come from the scan's RDD beneath the projection
    RDD<InternalRow> rdd = spark.read().format(MrapSource.NAME).options(pattern())
        .load("/data/a.bin").select("offset", "bytes").queryExecution().toRdd();
    assertEquals(splits.size(), rdd.getNumPartitions());
    for (int i = 0; i < splits.size(); i++) {
      List<String> hosts = new ArrayList<>();
      scala.collection.Iterator<TaskLocation> locs =
          spark.sparkContext().getPreferredLocs(rdd, i).iterator();
      while (locs.hasNext()) {
        hosts.add(locs.next().host());
      }
      assertTrue(splits.get(i).getLocations().length > 0, "split " + i);
      assertEquals(Arrays.asList(splits.get(i).getLocations()), hosts, "partition " + i);
    }
  }

  @Test
  void aVariablesSlabIsTypedRowsWithTheReferenceLibrarysFigures() throws Exception {
    JsonNode series = Fixtures.expected().get("series");
    Dataset<Row> df = spark.read().format(MrapSource.NAME)
        .option(VariableInputFormat.KIND, "netcdf")
        .option(VariableInputFormat.VARIABLE, series.get("variable").asText())
        .option(VariableInputFormat.SLAB, series.get("slab").asText())
        .load("/series");
    assertEquals(List.of("file", "origin", "shape", "values"), Arrays.asList(df.columns()));
    assertEquals(DataTypes.createArrayType(DataTypes.FloatType, false),
        df.schema().apply("values").dataType(), "float32 as floats");
    // per file and time step (a piece lies in one step: a row, or a chunk of one step)
    df.createOrReplaceTempView("pieces");
    List<Row> stats = spark.sql("SELECT file, origin[0] AS t, avg(v), min(v), max(v), count(v) "
        + "FROM pieces LATERAL VIEW explode(values) x AS v GROUP BY file, origin[0]")
        .collectAsList();
    Map<String, Row> byStep = new HashMap<>();
    for (Row r : stats) {
      byStep.put(new Path(r.getString(0)).getName() + "@" + r.getLong(1), r);
    }
    assertEquals(series.get("steps").size(), byStep.size(), byStep.keySet().toString());
    for (JsonNode step : series.get("steps")) {
      String key = step.get("file").asText() + "@" + step.get("time_index").asInt();
      Row r = byStep.get(key);
      assertEquals(step.get("mean").asDouble(), r.getDouble(2), 1e-9, key);
      assertEquals(step.get("min").asDouble(), r.getFloat(3), 0.0, key);
      assertEquals(step.get("max").asDouble(), r.getFloat(4), 0.0, key);
      assertEquals(step.get("count").asLong(), r.getLong(5), key);
    }
    // an integer variable comes as integers: the time axis, 6 steps a file
    Dataset<Row> time = spark.read().format(MrapSource.NAME)
        .option(VariableInputFormat.KIND, "netcdf").option(VariableInputFormat.VARIABLE, "time")
        .load("/series/run_01.nc");
    // decoded, an integer may be missing (netCDF's default fill value): null, not a number
    assertEquals(DataTypes.createArrayType(DataTypes.IntegerType, true),
        time.schema().apply("values").dataType());
    List<Integer> steps = new ArrayList<>();
    for (Row r : time.collectAsList()) {
      steps.addAll(r.getList(3));
    }
    steps.sort(null);
    assertEquals(List.of(6, 7, 8, 9, 10, 11), steps, "run_01.nc's time steps");
  }

  /**
   * Variables with chunks never written (science/layouts: a NetCDF-4 variable shorter than its
   * unlimited dimension, an extensible array with a gap in its index block, two files whose
   * dataset was never written at all) as rows: per step the figures h5py and netCDF-C give.
   */
  @Test
  void variablesWithChunksNeverWrittenHaveTheReferenceLibrarysFigures() throws Exception {
    FileSystem fs = SparkOnHdfs.fs();
    String[][] reads = {{"netcdf", "b", "/layouts/nc", "appended.nc"},
        {"hdf5", "/earray_first_gap", "/layouts/ea", "indexes.h5"},
        {"hdf5", "/unwritten_chunked", "/layouts/never", "indexes.h5", "userblock.h5"}};
    for (String[] r : reads) {
      for (int i = 3; i < r.length; i++) {
        try (FSDataOutputStream out = fs.create(new Path(r[2], r[i]), (short) 2)) {
          out.write(Fixtures.bytes("layouts/" + r[i]));
        }
      }
      // the values stored (fill values as values, as the libraries' figures count them)
      spark.read().format(MrapSource.NAME).option(VariableInputFormat.KIND, r[0])
          .option(VariableInputFormat.VARIABLE, r[1])
          .option(VariableInputFormat.DECODE, "false").load(r[2])
          .createOrReplaceTempView("gaps");
      // a piece of a chunked variable spans steps: a value's step from its place in the piece
      Map<String, Row> byStep = new HashMap<>();
      for (Row row : spark.sql("SELECT file, origin[0] + floor(p / shape[1]) AS t, avg(v), "
          + "min(v), max(v), count(v) FROM gaps LATERAL VIEW posexplode(values) x AS p, v "
          + "GROUP BY file, origin[0] + floor(p / shape[1])").collectAsList()) {
        byStep.put(new Path(row.getString(0)).getName() + "@" + row.getLong(1), row);
      }
      int steps = 0;
      for (JsonNode step : Fixtures.layouts().get("stats")) {
        if (!step.get("variable").asText().equals(r[1])) {
          continue;
        }
        String key = step.get("file").asText() + "@" + step.get("index").asInt();
        Row row = byStep.get(key);
        assertTrue(row != null, key + " in " + byStep.keySet());
        double mean = step.get("mean").asDouble();
        assertEquals(mean, row.getDouble(2), Math.abs(mean) * 1e-12, key);
        assertEquals(step.get("min").asDouble(), ((Number) row.get(3)).doubleValue(), 0.0, key);
        assertEquals(step.get("max").asDouble(), ((Number) row.get(4)).doubleValue(), 0.0, key);
        assertEquals(step.get("count").asLong(), row.getLong(5), key);
        steps++;
      }
      assertEquals(steps, byStep.size(), r[1] + ": " + byStep.keySet());
    }
  }

  @Test
  void unknownOptionsAndBadSettingsAreRefusedByName() {
    String said = assertThrows(IllegalArgumentException.class, () -> spark.read()
        .format(MrapSource.NAME).options(pattern()).option("strided.sise", "5")
        .load("/data/a.bin")).getMessage();
    assertTrue(said.contains("strided.sise"), said);
    said = assertThrows(IllegalArgumentException.class, () -> spark.read()
        .format(MrapSource.NAME).options(pattern()).option("header", "true")
        .load("/data/a.bin")).getMessage();
    assertTrue(said.contains("'header'"), said);
    said = assertThrows(IllegalArgumentException.class, () -> spark.read()
        .format(MrapSource.NAME).options(pattern()).option("mrap.access.gap", "1")
        .load("/data/a.bin")).getMessage();
    assertTrue(said.contains("mrap.access.gap"), said);
    // a pattern past the file's end: named when the read is planned, before a task runs
    Map<String, String> far = pattern();
    far.put(PatternConfig.STRIDED_COUNT, "100000");
    said = assertThrows(IllegalArgumentException.class, () -> spark.read()
        .format(MrapSource.NAME).options(far).load("/data/a.bin").collectAsList())
        .getMessage();
    assertTrue(said.contains(PatternConfig.STRIDED_COUNT) || said.contains("a.bin"), said);
    // a variable the files lack, and a science key without a scientific kind
    said = assertThrows(IllegalArgumentException.class, () -> spark.read()
        .format(MrapSource.NAME).option(VariableInputFormat.KIND, "netcdf")
        .option(VariableInputFormat.VARIABLE, "pressure").load("/series")).getMessage();
    assertTrue(said.contains("pressure") && said.contains("run_0"), said);
    said = assertThrows(IllegalArgumentException.class, () -> spark.read()
        .format(MrapSource.NAME).options(pattern()).option(VariableInputFormat.SLAB, "1:2")
        .load("/data/a.bin")).getMessage();
    assertTrue(said.contains(VariableInputFormat.SLAB), said);
  }
}
