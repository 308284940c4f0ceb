package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.array.Slab;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.examples.SlabStats;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.mapreduce.VariableRecordReader;
import org.opass.mrap.mapreduce.VariableSplit;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.task.RegionTask;
import org.opass.mrap.task.VariableTask;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * {@code mrap-copy} restructures one NetCDF or HDF5 variable for its slab (64 KiB chunks, so a
 * file makes several), and VariableInputFormat reads the copy: by its packed tasks for the same
 * slab, through the layout for another when asked (refused by name otherwise), with the values
 * netCDF-C and HDF5 read, also after {@code -mv}.
 */
class VariableRestructuringTest {
  private static final int BLOCK = 64 * 1024;
  private static EmulatedCluster cluster;
  private static FileSystem fs;
  @TempDir
  static java.nio.file.Path local;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = cluster.offClusterFileSystem();
  }

  private static Configuration conf(String name, ScienceFiles.Kind kind, String variable,
      String slab) {
    return VariableJobTest.conf(cluster, name, kind, variable, slab);
  }

  /** mrap-copy of a fixture, restructured for the variable and slab {@code conf} names. */
  private static Path restructure(Configuration conf, String fixture, String dst)
      throws Exception {
    java.nio.file.Path src = local.resolve(fixture.replace('/', '_'));
    Files.write(src, Fixtures.bytes(fixture));
    return restructure(conf, src.toUri().toString(), dst, "single");
  }

  /** mrap-copy of {@code src} in {@code mode}, restructured for the variable and slab. */
  private static Path restructure(Configuration conf, String src, String dst, String mode)
      throws Exception {
    Configuration c = new Configuration(conf);
    c.setLong("dfs.blocksize", BLOCK);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = ToolRunner.run(c, new MrapCopy(System.out, new PrintStream(err, true)),
        new String[] {"-mode", mode, src, dst});
    assertEquals(0, rc, err.toString());
    assertNotNull(RestructuredFiles.layoutOf(fs, new Path(dst)), dst + " is restructured");
    return new Path(dst);
  }

  /** Every piece of the job {@code conf} over {@code file}, into the canonical form. */
  private static Fixtures.Assembled read(Configuration conf, Path file,
      List<RegionTask.Layout> layouts) throws Exception {
    return read(conf, file, layouts, new ArrayList<>());
  }

  /** {@link #read}, with each split's positioned reads into {@code reads}. */
  private static Fixtures.Assembled read(Configuration conf, Path file,
      List<RegionTask.Layout> layouts, List<Long> reads) throws Exception {
    Job job = Job.getInstance(conf);
    FileInputFormat.addInputPath(job, file);
    Fixtures.Assembled out = null;
    for (InputSplit s : new VariableInputFormat().getSplits(job)) {
      VariableSplit split = (VariableSplit) s;
      for (VariableTask.Part p : split.task().parts()) {
        layouts.add(p.layout());
      }
      TaskCounters counters = new TaskCounters();
      try (VariableRecordReader r = new VariableRecordReader()) {
        r.initialize(split, new TaskAttemptContextImpl(conf, new TaskAttemptID(), counters));
        if (out == null) {
          out = new Fixtures.Assembled(Slab.parse(conf.get(VariableInputFormat.SLAB),
              split.task().parts().get(0).variable().shape()), split.task().parts().get(0).variable().type());
        }
        while (r.nextKeyValue()) {
          ArrayPiece v = r.getCurrentValue();
          byte[] b = new byte[v.elements() * v.type().size()];
          v.buffer().get(b);
          out.put(r.getCurrentKey().origin(), v.shape(), v.step(), b, 0, v.type(), v.order());
        }
      }
      reads.add(counters.get(MrapCounter.READ_CALLS));
    }
    return out;
  }

  private static Fixtures.Case fixtureCase(String file, String variable, String slab)
      throws IOException {
    for (Fixtures.Case c : Fixtures.cases()) {
      if (c.file.equals(file) && c.variable.equals(variable)
          && java.util.Objects.equals(c.slab, slab)) {
        return c;
      }
    }
    throw new AssertionError("no fixture case " + file + " " + variable + " " + slab);
  }

  @Test
  void aRestructuredNetcdfVariableIsReadByItsPackedTasksWithTheReferenceValues()
      throws Exception {
    JsonNode series = Fixtures.expected().get("series");
    String slab = series.get("slab").asText();
    Configuration conf = conf("stats", ScienceFiles.Kind.NETCDF, "temperature", slab);
    restructure(conf, "series/run_01.nc", "/restructured/run_01.nc");
    List<RegionTask.Layout> layouts = new ArrayList<>();
    read(conf, new Path("/restructured/run_01.nc"), layouts);
    assertTrue(!layouts.isEmpty() && layouts.stream().allMatch(l -> l == RegionTask.Layout.PACKED),
        "packed tasks: " + layouts);
    fs.rename(new Path("/restructured"), new Path("/moved")); // hdfs dfs -mv
    assertEquals(0, ToolRunner.run(conf, new SlabStats(), new String[] {"/moved", "/stats"}));
    int steps = 0;
    for (FileStatus f : fs.listStatus(new Path("/stats"), p -> p.getName().startsWith("part"))) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(f.getPath()),
          StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          String[] cols = line.split("\t");
          for (JsonNode s : series.get("steps")) {
            if (s.get("file").asText().equals("run_01.nc")
                && s.get("time_index").asInt() == Integer.parseInt(cols[1])) {
              assertEquals(s.get("mean").asDouble(), Double.parseDouble(cols[3]), 1e-9, line);
              assertEquals(s.get("min").asDouble(), Double.parseDouble(cols[4]), 0.0, line);
              assertEquals(s.get("max").asDouble(), Double.parseDouble(cols[5]), 0.0, line);
              steps++;
            }
          }
        }
      }
    }
    assertEquals(6, steps, "every time step of run_01.nc");
  }

  @Test
  void anotherSlabIsRefusedNamingBothOrReadThroughTheLayoutWhenAsked() throws Exception {
    Fixtures.Case c = fixtureCase("classic.nc", "temperature", "1:4, 2:5, 0:8:3");
    Path copy = restructure(conf("copy", c.kind(), c.variable, c.slab), c.file,
        "/other/classic.nc");
    Fixtures.Case whole = fixtureCase("classic.nc", "temperature", null);
    Configuration other = conf("other", whole.kind(), whole.variable, whole.slab);
    String said = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
        () -> read(other, copy, new ArrayList<>())).getMessage();
    assertTrue(said.contains("/other/classic.nc") && said.contains("restructured for")
        && said.contains(AccessInputFormat.RESTRUCTURED), said);
    other.set(AccessInputFormat.RESTRUCTURED, "index");
    List<RegionTask.Layout> layouts = new ArrayList<>();
    Fixtures.Assembled got = read(other, copy, layouts);
    assertTrue(layouts.stream().allMatch(l -> l == RegionTask.Layout.THROUGH_INDEX), "" + layouts);
    assertEquals(whole.sha256, got.sha256(), "the whole variable, through the layout");
    Fixtures.Assembled same = read(conf("same", c.kind(), c.variable, c.slab), copy,
        new ArrayList<>());
    assertEquals(c.sha256, same.sha256(), "the slab it was restructured for");
  }

  @Test
  void aParallelCopyFromHdfsRestructuresAVariableToo() throws Exception {
    // the copy as a MapReduce job of chunk writers, from a file already in HDFS
    Fixtures.Case c = fixtureCase("nc4.nc", "temperature", "1:4, 3:10, 0:16:5");
    Path src = new Path("/incoming/nc4.nc");
    try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(src, (short) 2)) {
      out.write(Fixtures.bytes(c.file));
    }
    Configuration conf = conf("parallel", c.kind(), c.variable, c.slab);
    Path copy = restructure(conf, fs.makeQualified(src).toString(), "/parallel/nc4.nc",
        "parallel");
    List<RegionTask.Layout> layouts = new ArrayList<>();
    assertEquals(c.sha256, read(conf, copy, layouts).sha256(), c.toString());
    assertTrue(layouts.stream().allMatch(l -> l == RegionTask.Layout.PACKED), "" + layouts);
  }

  @Test
  void aRestructuredChunkedHdf5DatasetReadsItsChunksPacked() throws Exception {
    Fixtures.Case c = fixtureCase("snapshot.h5", "/grid/density", "2:7, 5:19:2, 3:29");
    Configuration conf = conf("h5", c.kind(), c.variable, c.slab);
    Path copy = restructure(conf, c.file, "/h5/snapshot.h5");
    List<RegionTask.Layout> layouts = new ArrayList<>();
    Fixtures.Assembled got = read(conf, copy, layouts);
    assertTrue(layouts.stream().allMatch(l -> l == RegionTask.Layout.PACKED), "" + layouts);
    assertEquals(c.sha256, got.sha256(), c.toString());
  }

  @Test
  void aVariableCutIntoTilesIsATaskATileAndAfterACopyATileIsOneRead() throws Exception {
    // NetCDF-3 fixed variable (6 x 8 doubles; 4 x 3 tiles, the edge ones smaller) and an HDF5
    // contiguous dataset (1000 x 3 floats in tiles of 100 rows)
    String[][] cases = {{"classic.nc", "elevation", "4,3", "6"},
        {"snapshot.h5", "/PartType1/Coordinates", "100,*", "10"}};
    for (String[] t : cases) {
      Fixtures.Case c = fixtureCase(t[0], t[1], null);
      Configuration conf = conf("tiles", c.kind(), c.variable, null);
      conf.set(VariableInputFormat.TILE, t[2]);
      java.nio.file.Path src = local.resolve("tiles-" + t[0]);
      Files.write(src, Fixtures.bytes(t[0]));
      Path plain = new Path("/tiles/plain/" + t[0]);
      fs.copyFromLocalFile(new Path(src.toUri()), plain);
      List<RegionTask.Layout> layouts = new ArrayList<>();
      assertEquals(c.sha256, read(conf, plain, layouts).sha256(), c + " in tiles " + t[2]);
      assertEquals(Integer.parseInt(t[3]), layouts.size(), "a split a tile: " + layouts);
      Path copy = restructure(conf, src.toUri().toString(), "/tiles/copy/" + t[0], "single");
      fs.rename(copy.getParent(), new Path("/tiles/moved")); // hdfs dfs -mv
      Path moved = new Path("/tiles/moved/" + t[0]);
      layouts.clear();
      List<Long> reads = new ArrayList<>();
      assertEquals(c.sha256, read(conf, moved, layouts, reads).sha256(), c + " restructured");
      assertTrue(layouts.stream().allMatch(l -> l == RegionTask.Layout.PACKED), "" + layouts);
      assertTrue(reads.stream().allMatch(n -> n == 1), "a tile a read: " + reads);
      // a slab of the tiled copy, through its layout
      Configuration slab = conf("tiles-slab", c.kind(), c.variable, null);
      slab.set(AccessInputFormat.RESTRUCTURED, "index");
      assertEquals(c.sha256, read(slab, moved, new ArrayList<>()).sha256(), c + " by slab");
      fs.delete(new Path("/tiles"), true);
    }
  }

  @Test
  void tilesOfAVariableNotStoredAsOneArrayAreRefusedNamingWhy() throws Exception {
    String[][] cases = {{"classic.nc", "temperature", "interleave"},
        {"nc4.nc", "temperature", "stored in chunks"}};
    for (String[] t : cases) {
      Fixtures.Case c = fixtureCase(t[0], t[1], null);
      Configuration conf = conf("tiles-refused", c.kind(), c.variable, null);
      conf.set(VariableInputFormat.TILE, "*,2,2");
      Path plain = new Path("/refused/" + t[0]);
      try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(plain)) {
        out.write(Fixtures.bytes(t[0]));
      }
      String said = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
          () -> read(conf, plain, new ArrayList<>())).getMessage();
      assertTrue(said.contains(VariableInputFormat.TILE) && said.contains(t[0])
          && said.contains(t[2]), said);
    }
    Configuration both = conf("tiles-and-slab", ScienceFiles.Kind.NETCDF, "elevation", "1:3, :");
    both.set(VariableInputFormat.TILE, "2,2");
    String said = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
        () -> read(both, new Path("/refused/classic.nc"), new ArrayList<>())).getMessage();
    assertTrue(said.contains(VariableInputFormat.SLAB) && said.contains(VariableInputFormat.TILE),
        said);
  }
}
