package org.opass.mrap.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.FileAlreadyExistsException;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.ReferenceLibraries;
import org.opass.mrap.write.DatasetCommit;
import org.opass.mrap.write.OutputDataset;
import org.opass.mrap.write.OutputDimension;
import org.opass.mrap.write.OutputVariable;

/**
 * {@link ScienceOutputFormat}'s protocol driven as MapReduce drives it, on the local file
 * system, without a job runner: records routed by {@link SciencePartitioner}, sorted by {@link
 * ScienceOutputFormat.PointOrder}, written by each reducer's attempt, tasks and the job
 * committed. Two variables from {@link GridValues} points and {@link ArrayPiece}s (one strided),
 * a part no record names, NaN values, an attempt that closed but never committed: what
 * netCDF4-python, zarr and xarray read (mrap-spark/src/test/resources/science/write/
 * read_written.py) holds the committed attempts' values and the fill elsewhere. Also the
 * refusals, each naming the key or the record.
 */
class ScienceOutputFormatTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final double[] TIMES = {0, 6, 12, 18, 24};
  private static final double[] Y = {30, 20, 10}; // descending, placed by index
  private static final int REDUCERS = 3;

  @TempDir
  File tmp;

  private static Configuration conf() {
    Configuration conf = new Configuration(); // core-default's file systems: rename's too
    conf.set("fs.defaultFS", "file:///");
    return conf;
  }

  /** time(5) x y(3), variables a (float64) and b (int32), parts of one row (Zarr: two). */
  private static OutputDataset dataset(OutputDataset.Kind kind) {
    List<OutputDimension> dims = List.of(
        OutputDimension.indexed("time", ElementType.INT32, TIMES,
            Map.of("units", "hours since 2000-01-01", "calendar", "standard")),
        OutputDimension.indexed("y", ElementType.FLOAT64, Y, Map.of("units", "m")));
    List<OutputVariable> vars = List.of(
        OutputVariable.of("a", ElementType.FLOAT64, Double.NaN, Map.of("units", "K")),
        OutputVariable.of("b", ElementType.INT32, Double.NaN, Map.of()));
    return OutputDataset.of(kind, dims, vars, Map.of("Conventions", "CF-1.8"),
        kind == OutputDataset.Kind.ZARR ? new int[] {2, 3} : null, 12 * 3, 1);
  }

  private static double a(int t, int y) {
    return t == 1 && y == 1 ? Double.NaN : t * 10 + y + 0.5;
  }

  private static double b(int t, int y) {
    return t == 0 && y == 2 ? Double.NaN : t * 100 + y;
  }

  private static ArrayPiece piece(int[] shape, long[] step, double... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 8);
    for (double v : values) {
      b.putDouble(v);
    }
    b.flip();
    ArrayPiece p = new ArrayPiece();
    p.set(ElementType.FLOAT64, ByteOrder.BIG_ENDIAN, shape, step, b);
    return p;
  }

  /**
   * The job's records: rows 0 to 2 as points (row 2 one point), row 3 none, row 4 as pieces: a
   * whole row of a (the key's file empty: the first variable), b at y 0 and 2 (step 2).
   */
  private static List<Map.Entry<ArrayIndex, Writable>> records(double offset) {
    List<Map.Entry<ArrayIndex, Writable>> out = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      for (int y = 0; y < (t == 2 ? 1 : 3); y++) {
        out.add(new AbstractMap.SimpleEntry<>(new ArrayIndex("", new long[] {t, y}),
            new GridValues(a(t, y) + offset, b(t, y))));
      }
    }
    out.add(new AbstractMap.SimpleEntry<>(new ArrayIndex("b", new long[] {4, 0}),
        piece(new int[] {1, 2}, new long[] {1, 2}, b(4, 0), b(4, 2))));
    out.add(new AbstractMap.SimpleEntry<>(new ArrayIndex("", new long[] {4, 0}),
        piece(new int[] {1, 3}, new long[] {1, 1}, a(4, 0), a(4, 1), a(4, 2))));
    return out;
  }

  private static TaskAttemptContext attempt(Configuration conf, TaskType type, int task, int n) {
    return new TaskAttemptContextImpl(conf, new TaskAttemptID("t", 1, type, task, n));
  }

  /** A job set up to write {@code ds} to {@code dst}, as many reducers as {@code reducers}. */
  private static Configuration job(OutputDataset ds, Path dst, Integer reducers)
      throws IOException {
    Job job = Job.getInstance(conf());
    if (reducers != null) {
      job.setNumReduceTasks(reducers);
    }
    ScienceOutputFormat.configure(job, ds, dst, false);
    return job.getConfiguration();
  }

  /**
   * Runs the job's output side over {@code records}: each reducer's records sorted, written and
   * its task committed, reducer 0 after an attempt of it that closed but never committed
   * (aborted if {@code abortLost}).
   */
  private static void run(Configuration conf, boolean abortLost) throws Exception {
    ScienceOutputFormat format = new ScienceOutputFormat();
    JobContext job = new JobContextImpl(conf, new JobID("t", 1));
    format.checkOutputSpecs(job);
    OutputCommitter committer = format.getOutputCommitter(attempt(conf, TaskType.REDUCE, 0, 0));
    committer.setupJob(job);
    SciencePartitioner partitioner = ReflectionUtils.newInstance(SciencePartitioner.class, conf);
    ScienceOutputFormat.PointOrder order = new ScienceOutputFormat.PointOrder();
    for (int r = 0; r < REDUCERS; r++) {
      for (int n = r == 0 ? 0 : 1; n <= 1; n++) {
        List<Map.Entry<ArrayIndex, Writable>> mine = new ArrayList<>();
        for (Map.Entry<ArrayIndex, Writable> e : records(n == 0 ? 1000 : 0)) {
          if (partitioner.getPartition(e.getKey(), e.getValue(), REDUCERS) == r) {
            mine.add(e);
          }
        }
        mine.sort((x, y) -> order.compare(x.getKey(), y.getKey()));
        TaskAttemptContext task = attempt(conf, TaskType.REDUCE, r, n);
        RecordWriter<ArrayIndex, Writable> w = format.getRecordWriter(task);
        for (Map.Entry<ArrayIndex, Writable> e : mine) {
          w.write(e.getKey(), e.getValue());
        }
        w.close(task);
        assertTrue(committer.needsTaskCommit(task), task.getTaskAttemptID().toString());
        if (n == 1) {
          committer.commitTask(task);
        } else if (abortLost) {
          committer.abortTask(task);
        }
      }
    }
    committer.commitJob(job);
  }

  @Test
  void pointsAndPiecesOfTwoVariablesAreWhatTheReferenceLibrariesRead() throws Exception {
    File repository = new File(System.getProperty("user.dir")).getAbsoluteFile()
        .getParentFile();
    for (OutputDataset.Kind kind : OutputDataset.Kind.values()) {
      String k = kind.lowerName();
      OutputDataset ds = dataset(kind);
      assertEquals(kind == OutputDataset.Kind.ZARR ? 3 : 5, ds.parts(), k);
      Path dst = new Path(new File(tmp, "out." + k).toURI());
      Configuration conf = job(ds, dst, REDUCERS);
      assertEquals(REDUCERS, conf.getInt("mapreduce.job.reduces", -1), k);
      run(conf, kind == OutputDataset.Kind.ZARR);
      FileSystem fs = dst.getFileSystem(conf);
      assertFalse(fs.exists(DatasetCommit.workFolder(fs.makeQualified(dst))), k);
      JsonNode got = JSON.readTree(ReferenceLibraries.run(new File(repository,
          "mrap-spark/src/test/resources/science/write/read_written.py").toPath(), k,
          new File(tmp, "out." + k).getPath()));
      JsonNode a = got.get("variables").get("a").get("values");
      JsonNode b = got.get("variables").get("b").get("values");
      for (int t = 0; t < TIMES.length; t++) {
        for (int y = 0; y < Y.length; y++) {
          int i = t * Y.length + y;
          boolean named = t < 2 || (t == 2 && y == 0) || t == 4;
          double wantA = named ? a(t, y) : Double.NaN;
          double wantB = named && !(t == 4 && y == 1) ? b(t, y) : Double.NaN;
          String at = k + " (" + t + ", " + y + ")";
          assertEquals(Double.isNaN(wantA) ? null : wantA, a.get(i).isNull() ? null
              : a.get(i).asDouble(), at + " a");
          assertEquals(Double.isNaN(wantB) ? null : wantB, b.get(i).isNull() ? null
              : b.get(i).asDouble(), at + " b");
        }
      }
      assertEquals("[30.0,20.0,10.0]", got.get("coords").get("y").get("values").toString(), k);
      assertEquals("2000-01-02T00:00:00", got.get("coords").get("time").get("values").get(4)
          .asText(), k);
    }
  }

  @Test
  void configureSetsTheReducersAndAlignsTheParts() throws Exception {
    Path dst = new Path(new File(tmp, "x.nc").toURI());
    OutputDataset ds = dataset(OutputDataset.Kind.NETCDF);
    assertEquals(5, job(ds, dst, null).getInt("mapreduce.job.reduces", -1), "one a part");
    assertEquals(2, job(ds, dst, 2).getInt("mapreduce.job.reduces", -1), "as the job asked");
    assertEquals(5, job(ds, dst, 50).getInt("mapreduce.job.reduces", -1), "no more than parts");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> job(ds, dst, 0));
    assertTrue(e.getMessage().contains("mapreduce.job.reduces=0"), e.getMessage());
    Job aligned = Job.getInstance(conf());
    ScienceOutputFormat.configure(aligned, ds, dst, false, 2);
    OutputDataset back = ScienceOutputFormat.dataset(aligned.getConfiguration());
    assertEquals(2, back.partRows());
    assertEquals(3, back.parts());
    // Zarr: parts of whole chunk rows too (chunks of 2 rows, pieces of 3: parts of 6)
    assertEquals(6, dataset(OutputDataset.Kind.ZARR).alignedTo(3).partRows());
    assertEquals(1, dataset(OutputDataset.Kind.ZARR).alignedTo(3).parts());
  }

  @Test
  void submissionRefusesByKey() throws Exception {
    ScienceOutputFormat format = new ScienceOutputFormat();
    Path dst = new Path(new File(tmp, "y.nc").toURI());
    Configuration none = conf();
    none.setInt("mapreduce.job.reduces", 1);
    assertRefused(format, none, InvalidJobConfException.class, ScienceOutputFormat.DATASET);
    Configuration noPath = job(dataset(OutputDataset.Kind.NETCDF), dst, null);
    noPath.unset(ScienceOutputFormat.PATH);
    assertRefused(format, noPath, InvalidJobConfException.class, ScienceOutputFormat.PATH);
    Configuration misspelt = job(dataset(OutputDataset.Kind.NETCDF), dst, null);
    misspelt.set("mrap.science.output.overwite", "true");
    assertRefused(format, misspelt, InvalidJobConfException.class,
        "mrap.science.output.overwite");
    Configuration mapOnly = job(dataset(OutputDataset.Kind.NETCDF), dst, null);
    mapOnly.setInt("mapreduce.job.reduces", 0);
    assertRefused(format, mapOnly, InvalidJobConfException.class, "mapreduce.job.reduces=0");
    Configuration exists = job(dataset(OutputDataset.Kind.NETCDF), dst, null);
    assertTrue(new File(tmp, "y.nc").createNewFile());
    assertRefused(format, exists, FileAlreadyExistsException.class, ScienceOutputFormat.PATH
        + "=" + dst.getFileSystem(exists).makeQualified(dst) + " exists and "
        + ScienceOutputFormat.OVERWRITE + " is false");
    exists.setBoolean(ScienceOutputFormat.OVERWRITE, true);
    format.checkOutputSpecs(new JobContextImpl(exists, new JobID("t", 1)));
    IOException e = assertThrows(IOException.class, () -> format.getRecordWriter(attempt(exists,
        TaskType.MAP, 0, 0)));
    assertTrue(e.getMessage().contains("map-only"), e.getMessage());
  }

  private static void assertRefused(ScienceOutputFormat format, Configuration conf,
      Class<? extends IOException> type, String says) {
    IOException e = assertThrows(type, () -> format.checkOutputSpecs(new JobContextImpl(conf,
        new JobID("t", 1))));
    assertTrue(e.getMessage().contains(says), e.getMessage());
  }

  @Test
  void aReducerRefusesRecordsItCannotPlaceByName() throws Exception {
    Path dst = new Path(new File(tmp, "z.nc").toURI());
    Configuration conf = job(dataset(OutputDataset.Kind.NETCDF), dst, REDUCERS);
    new ScienceOutputFormat().getOutputCommitter(attempt(conf, TaskType.REDUCE, 0, 0))
        .setupJob(new JobContextImpl(conf, new JobID("t", 1)));
    Object[][] cases = {
        {new long[] {4, 0}, "", new GridValues(1, 2), "lies in part 4, but reducer 0 writes "
            + "parts 0 to 1"},
        {new long[] {0, 0}, "", new GridValues(1), "holds 1 values; the dataset has 2"},
        {new long[] {0, 3}, "", new GridValues(1, 2), "y has indices 0 to 2"},
        {new long[] {0, 0}, "c", piece(new int[] {1, 1}, new long[] {1, 1}, 1),
            "names the variable c, which the dataset does not hold"},
        {new long[] {0, 2}, "", piece(new int[] {1, 2}, new long[] {1, 1}, 1, 2),
            "a: the piece at [0, 2] of shape [1, 2] (step [1, 1]) reaches index 3 of y"},
        {new long[] {0, 0}, "", piece(new int[] {2, 1}, new long[] {1, 1}, 1, 2),
            "spans rows [0, 2) of time, but the part of its first row, part 0, holds rows "
                + "[0, 1)"},
        {new long[] {0, 0}, "", new org.apache.hadoop.io.Text("x"), "holds an ArrayPiece or "
            + "GridValues, not org.apache.hadoop.io.Text"}};
    ScienceOutputFormat format = new ScienceOutputFormat();
    for (Object[] c : cases) {
      TaskAttemptContext task = attempt(conf, TaskType.REDUCE, 0, 0);
      RecordWriter<ArrayIndex, Writable> w = format.getRecordWriter(task);
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> w.write(new ArrayIndex((String) c[1], (long[]) c[0]), (Writable) c[2]));
      assertTrue(e.getMessage().contains((String) c[3]), e.getMessage());
      w.close(task); // a failed writer writes nothing more
      assertFalse(new ScienceOutputFormat().getOutputCommitter(task).needsTaskCommit(task));
    }
    // back to a part written already: a sort other than by point
    TaskAttemptContext task = attempt(conf, TaskType.REDUCE, 0, 1);
    RecordWriter<ArrayIndex, Writable> w = format.getRecordWriter(task);
    w.write(new ArrayIndex("", new long[] {0, 0}), new GridValues(1, 2));
    w.write(new ArrayIndex("", new long[] {1, 0}), new GridValues(1, 2));
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> w.write(new ArrayIndex("", new long[] {0, 1}), new GridValues(1, 2)));
    assertTrue(e.getMessage().contains("part 0, which this reducer wrote already"),
        e.getMessage());
    OutputCommitter committer = format.getOutputCommitter(task);
    committer.abortJob(new JobContextImpl(conf, new JobID("t", 1)),
        org.apache.hadoop.mapreduce.JobStatus.State.FAILED);
    FileSystem fs = dst.getFileSystem(conf);
    assertFalse(fs.exists(DatasetCommit.workFolder(fs.makeQualified(dst))), "work folder");
    assertFalse(fs.exists(dst));
  }
}
