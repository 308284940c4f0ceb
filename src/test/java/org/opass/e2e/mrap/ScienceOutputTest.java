package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.LocalJobRunner;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.Variable;
import org.opass.mrap.mapreduce.ScienceOutputFormat;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ReferenceLibraries;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.write.DatasetCommit;
import org.opass.mrap.write.OutputDataset;
import org.opass.mrap.write.OutputDimension;
import org.opass.mrap.write.OutputVariable;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.Release;
import org.slf4j.LoggerFactory;

/**
 * A MapReduce job's results written back as a dataset with ScienceOutputFormat, on HDFS (64 KiB
 * blocks) with the LocalJobRunner: era5.nc's t2m read decoded through VariableInputFormat,
 * mapped to degrees Celsius and written on the file's own grid (its coordinates read with
 * mrap-core's readers) as CF NetCDF and as Zarr, by two reducers of two parts each; what
 * netCDF4-python, zarr and xarray read of it (the oracle,
 * mrap-spark/src/test/resources/science/write/read_written.py) equals era5.nc's t2m less 273.15
 * as netCDF4-python unpacks it (float64, src/test/resources/science/read_netcdf4.py) and as
 * xarray does (float32, to its precision), missing where it is missing, on the same coordinates
 * and times. An existing destination is refused at submission, unchanged; a job whose reducer
 * fails (a point written twice, a piece across two parts) leaves no destination and no work
 * folder, its task's exception naming the point or the piece.
 */
class ScienceOutputTest {
  private static final int BLOCK = 64 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ORACLE =
      "mrap-spark/src/test/resources/science/write/read_written.py";
  private static final String NETCDF4 = "src/test/resources/science/read_netcdf4.py";
  private static final String ERA5 = "mrap-core/src/test/resources/science/cf/era5.nc";
  /** The mapper emits the piece at the grid's origin twice: a point written twice. */
  private static final String TWICE = "test.science.output.twice";
  private static EmulatedCluster cluster;
  private static FileSystem fs;
  private static java.nio.file.Path local;
  /** xarray's read of era5.nc: t2m as float32, the coordinates, times decoded. */
  private static JsonNode original;
  /** netCDF4-python's read of era5.nc's t2m: float64, as VariableInputFormat decodes it. */
  private static JsonNode unpacked;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = cluster.offClusterFileSystem();
    try (FSDataOutputStream out = fs.create(new Path("/so/in/era5.nc"))) {
      out.write(Fixtures.bytes("cf/era5.nc"));
    }
    local = Files.createTempDirectory("science-output");
    original = JSON.readTree(ReferenceLibraries.run(Release.ROOT.resolve(ORACLE), "netcdf",
        Release.ROOT.resolve(ERA5).toString()));
    unpacked = JSON.readTree(ReferenceLibraries.run(Release.ROOT.resolve(NETCDF4),
        Release.ROOT.resolve(ERA5).toString(), "t2m"));
    assertEquals("float64", unpacked.get("dtype").asText());
  }

  /** t2m in degrees Celsius, missing where it is missing, a piece for a piece. */
  public static class ToCelsius extends Mapper<ArrayIndex, ArrayPiece, ArrayIndex, ArrayPiece> {
    private final ArrayPiece out = new ArrayPiece();

    @Override
    protected void map(ArrayIndex key, ArrayPiece piece, Context context)
        throws IOException, InterruptedException {
      ByteBuffer b = ByteBuffer.allocate(piece.elements() * 8);
      for (int i = 0; i < piece.elements(); i++) {
        b.putDouble(piece.getDouble(i) - 273.15); // a missing element is NaN, and stays NaN
      }
      b.flip();
      out.set(ElementType.FLOAT64, ByteOrder.BIG_ENDIAN, piece.shape(), piece.step(), b);
      context.write(key, out);
      if (context.getConfiguration().getBoolean(TWICE, false)
          && Arrays.equals(key.origin(), new long[key.rank()])) {
        context.write(key, out);
      }
    }
  }

  /**
   * era5.nc's t2m grid, read with mrap-core's readers: its dimensions' coordinate values and
   * types, their units and calendar; t2m as float64 in degC; parts of 3 time steps (before
   * alignment), Zarr's chunks 5 x 37 x 72. Also gives t2m's chunk rows in {@code chunkRows[0]}.
   */
  private static OutputDataset grid(OutputDataset.Kind kind, int[] chunkRows)
      throws IOException {
    Path era5 = new Path("/so/in/era5.nc");
    long length = fs.getFileStatus(era5).getLen();
    try (FSDataInputStream in = fs.open(era5)) {
      Positioned p = Positioned.of(in, length);
      try (ScienceFile f = ScienceFiles.open(p, era5.toString(), ScienceFiles.Kind.NETCDF)) {
        Variable t2m = f.variable("t2m");
        chunkRows[0] = t2m.chunkShape()[0];
        List<OutputDimension> dims = new ArrayList<>();
        for (int d = 0; d < t2m.rank(); d++) {
          Variable c = f.coordinate(t2m, d);
          Map<String, Object> attrs = new LinkedHashMap<>();
          for (String a : new String[] {"units", "calendar"}) {
            if (c.attributes().text(a) != null) {
              attrs.put(a, c.attributes().text(a));
            }
          }
          dims.add(OutputDimension.indexed(t2m.dimensions().get(d), c.type(), f.values(p, c),
              attrs));
        }
        long rowBytes = 8L * dims.get(1).length() * dims.get(2).length();
        return OutputDataset.of(kind, dims, List.of(OutputVariable.of("t2m",
            ElementType.FLOAT64, Double.NaN, Map.of("units", "degC"))),
            Map.of("Conventions", "CF-1.8"), kind == OutputDataset.Kind.ZARR
                ? new int[] {5, 37, 72} : null, 3 * rowBytes, 1);
      }
    }
  }

  /** The job reading era5.nc's t2m, decoded, to write {@code ds} to {@code dst}. */
  private static Job job(String name, OutputDataset ds, Path dst, Integer alignTo)
      throws IOException {
    Configuration conf = AccessJobTest.jobConf(cluster, "science-output-" + name);
    conf.set(VariableInputFormat.KIND, ScienceFiles.Kind.NETCDF.key());
    conf.set(VariableInputFormat.VARIABLE, "t2m");
    Job job = Job.getInstance(conf, "science-output-" + name);
    job.setInputFormatClass(VariableInputFormat.class);
    FileInputFormat.addInputPath(job, new Path("/so/in/era5.nc"));
    job.setMapperClass(ToCelsius.class);
    job.setNumReduceTasks(2); // fewer than the parts: each reducer writes a range of them
    if (alignTo == null) {
      ScienceOutputFormat.configure(job, ds, dst, false);
    } else {
      ScienceOutputFormat.configure(job, ds, dst, false, alignTo);
    }
    return job;
  }

  /** What the reference libraries read of the dataset at {@code dst} in HDFS. */
  private static JsonNode oracle(String kind, Path dst) throws IOException {
    java.nio.file.Path copy = local.resolve(dst.getName());
    fs.copyToLocalFile(dst, new Path(copy.toUri()));
    return JSON.readTree(ReferenceLibraries.run(Release.ROOT.resolve(ORACLE), kind,
        copy.toString()));
  }

  @Test
  void t2mInCelsiusIsWhatXarrayReadsOfEra5LessTheOffset() throws Exception {
    JsonNode want = unpacked.get("values");
    JsonNode xarray = original.get("variables").get("t2m").get("values");
    for (OutputDataset.Kind kind : OutputDataset.Kind.values()) {
      String k = kind.lowerName();
      int[] chunkRows = new int[1];
      OutputDataset ds = grid(kind, chunkRows);
      Path dst = new Path("/so/out/t2m." + k);
      Job job = job(k, ds, dst, chunkRows[0]);
      assertEquals(2, job.getNumReduceTasks(), k);
      assertTrue(job.waitForCompletion(false), k + ": the job failed");
      assertEquals(4, ds.alignedTo(chunkRows[0]).parts(), k + ": parts of 5 time steps");
      assertFalse(fs.exists(DatasetCommit.workFolder(fs.makeQualified(dst))), k);

      JsonNode got = oracle(k, dst);
      JsonNode t2m = got.get("variables").get("t2m");
      assertEquals(List.of("time", "latitude", "longitude"), JSON.convertValue(t2m.get("dims"),
          List.class), k);
      assertEquals("float64", t2m.get("dtype").asText(), k);
      assertEquals("degC", t2m.get("attrs").get("units").asText(), k);
      JsonNode values = t2m.get("values");
      assertEquals(want.size(), values.size(), k + ": elements");
      int missing = 0;
      for (int i = 0; i < want.size(); i++) {
        if (want.get(i).isNull()) {
          assertTrue(values.get(i).isNull() && xarray.get(i).isNull(), k + ": element " + i
              + " is missing in era5.nc, not " + values.get(i));
          missing++;
        } else {
          double w = want.get(i).asDouble() - 273.15;
          double v = values.get(i).asDouble();
          assertEquals(w, v, Math.abs(w) * 1e-9, k + ": element " + i);
          // xarray unpacks era5's int16 to float32: equal to its precision
          float x = (float) xarray.get(i).asDouble();
          assertEquals(x - 273.15, v, 2 * Math.ulp(x), k + ": element " + i + " (xarray)");
        }
      }
      assertTrue(missing > 20, k + ": " + missing + " missing");
      for (String c : new String[] {"time", "latitude", "longitude"}) {
        JsonNode o = original.get("coords").get(c);
        JsonNode w = got.get("coords").get(c);
        assertEquals(o.get("values"), w.get("values"), k + ": " + c);
        assertEquals(o.get("dtype"), w.get("dtype"), k + ": " + c + "'s type");
      }
      JsonNode time = got.get("coords").get("time");
      assertEquals("2020-06-01T00:00:00", time.get("values").get(0).asText(), k);
      for (String a : new String[] {"units", "calendar"}) {
        assertEquals(original.get("coords").get("time").get("attrs").get(a),
            time.get("attrs").get(a), k + ": time's " + a);
      }
    }
  }

  @Test
  void anExistingDestinationIsRefusedAtSubmissionAndLeftAsItWas() throws Exception {
    Path dst = new Path("/so/exists.nc");
    byte[] before = "not to be replaced".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    try (FSDataOutputStream out = fs.create(dst)) {
      out.write(before);
    }
    int[] chunkRows = new int[1];
    Job job = job("exists", grid(OutputDataset.Kind.NETCDF, chunkRows), dst, chunkRows[0]);
    IOException e = assertThrows(IOException.class, () -> job.waitForCompletion(false));
    assertTrue(e.getMessage().contains(ScienceOutputFormat.PATH)
        && e.getMessage().contains(ScienceOutputFormat.OVERWRITE)
        && e.getMessage().contains("/so/exists.nc"), e.getMessage());
    byte[] after = new byte[before.length + 1];
    try (FSDataInputStream in = fs.open(dst)) {
      assertEquals(before.length, in.read(after));
    }
    assertArrayEquals(before, Arrays.copyOf(after, before.length));
    assertFalse(fs.exists(DatasetCommit.workFolder(fs.makeQualified(dst))), "no work folder");
  }

  @Test
  void aJobWhoseReducerFailsLeavesNothing() throws Exception {
    // a point written twice; a piece across two parts (parts of 3 time steps, chunks of 5)
    String[][] cases = {{"twice", "two values name grid point (time=0.0, latitude=0.0, "
        + "longitude=0.0) of t2m"}, {"unaligned", "t2m: the piece at [0, 0, 0] of shape [5, 25, "
        + "48] (step [1, 1, 1]) spans rows [0, 5) of time, but the part of its first row, part "
        + "0, holds rows [0, 3)"}};
    for (String[] c : cases) {
      String how = c[0];
      int[] chunkRows = new int[1];
      OutputDataset ds = grid(OutputDataset.Kind.NETCDF, chunkRows);
      Path dst = new Path("/so/failed/" + how + ".nc");
      Job job = job(how, ds, dst, how.equals("twice") ? chunkRows[0] : null);
      job.getConfiguration().setBoolean(TWICE, how.equals("twice"));
      GenericTestUtils.LogCapturer log = GenericTestUtils.LogCapturer.captureLogs(
          LoggerFactory.getLogger(LocalJobRunner.class));
      try {
        assertFalse(job.waitForCompletion(false), how + ": the job succeeded");
      } finally {
        log.stopCapturing();
      }
      // the task's exception, as the job runner reports it
      assertTrue(log.getOutput().contains("IllegalArgumentException: " + c[1]),
          how + ": " + log.getOutput());
      assertFalse(fs.exists(dst), how + ": " + dst + " was written");
      assertFalse(fs.exists(DatasetCommit.workFolder(fs.makeQualified(dst))),
          how + ": the work folder is left");
    }
  }
}
