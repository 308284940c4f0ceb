package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
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
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.array.Slab;
import org.opass.mrap.examples.SlabStats;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.mapreduce.VariableRecordReader;
import org.opass.mrap.mapreduce.VariableSplit;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.task.VariableTask;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * NetCDF and HDF5 variables read by name from HDFS (4 DataNodes in 2 racks, 64 KiB blocks so
 * that variables cross blocks): every fixture case's slab, read through VariableInputFormat's
 * splits and record readers, equals what netCDF-C, HDF5 or scipy read; the example job's
 * per-time-step statistics over a folder of four files in three formats equal the reference
 * library's; a task reads a set of files, all on its host; bad names and slabs stop the job
 * naming the file, before it runs.
 */
class VariableJobTest {
  private static final int BLOCK = 64 * 1024;
  private static EmulatedCluster cluster;
  private static FileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = cluster.offClusterFileSystem();
    Set<String> files = new HashSet<>();
    for (Fixtures.Case c : Fixtures.cases()) {
      files.add(c.file);
    }
    files.remove("big.json");
    for (String f : files) {
      put("/science/" + f, Fixtures.bytes(f));
    }
    for (JsonNode s : Fixtures.expected().get("series").get("steps")) {
      String f = s.get("file").asText();
      if (!fs.exists(new Path("/series/" + f))) {
        put("/series/" + f, Fixtures.bytes("series/" + f));
      }
    }
  }

  private static void put(String path, byte[] bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(path), (short) 2)) {
      out.write(bytes);
    }
  }

  private static Configuration conf(String name, ScienceFiles.Kind kind, String variable,
      String slab) {
    return conf(cluster, name, kind, variable, slab);
  }

  /** A LocalJobRunner job's configuration reading a variable's slab on {@code cluster}. */
  static Configuration conf(EmulatedCluster cluster, String name, ScienceFiles.Kind kind,
      String variable, String slab) {
    Configuration conf = AccessJobTest.jobConf(cluster, name);
    conf.set(VariableInputFormat.KIND, kind.key());
    conf.set(VariableInputFormat.VARIABLE, variable);
    if (slab != null) {
      conf.set(VariableInputFormat.SLAB, slab);
    }
    return conf;
  }

  /** Every record of every split of the job {@code conf} describes over {@code inputs}. */
  private static List<VariableSplit> splits(Configuration conf, String... inputs)
      throws IOException {
    Job job = Job.getInstance(conf);
    for (String in : inputs) {
      FileInputFormat.addInputPath(job, new Path(in));
    }
    List<VariableSplit> out = new ArrayList<>();
    for (InputSplit s : new VariableInputFormat().getSplits(job)) {
      out.add((VariableSplit) s);
    }
    return out;
  }

  @Test
  void everyCaseReadsWhatTheReferenceLibraryReads() throws Exception {
    for (Fixtures.Case c : Fixtures.cases()) {
      if (c.file.equals("big.json")) {
        continue; // a sparse file of 5 GB: read locally by SlabPlanTest
      }
      Configuration conf = conf("cases", c.kind(), c.variable, c.slab);
      Slab slab = null;
      Fixtures.Assembled out = null;
      TaskCounters counters = new TaskCounters();
      for (VariableSplit split : splits(conf, "/science/" + c.file)) {
        VariableRecordReader r = new VariableRecordReader();
        r.initialize(split, new TaskAttemptContextImpl(conf, new TaskAttemptID(), counters));
        if (out == null) {
          slab = Slab.parse(c.slab, split.task().parts().get(0).variable().shape());
          out = new Fixtures.Assembled(slab, split.task().parts().get(0).variable().type());
        }
        while (r.nextKeyValue()) {
          ArrayIndex k = r.getCurrentKey();
          ArrayPiece v = r.getCurrentValue();
          assertTrue(k.file().endsWith("/science/" + c.file), k.toString());
          byte[] b = new byte[v.elements() * v.type().size()];
          v.buffer().get(b);
          out.put(k.origin(), v.shape(), v.step(), b, 0, v.type(), v.order());
        }
        r.close();
      }
      assertEquals(slab.elements(), out.filled(), c + ": elements");
      assertEquals(c.sha256, out.sha256(), c + ": values");
      if (c.fill >= 0) {
        assertEquals(c.fill, counters.get(MrapCounter.FILL_ELEMENTS),
            c + ": elements counted as the fill value");
      }
    }
  }

  /**
   * Damaged copies of files written by the reference libraries (ScienceFuzzTest's damage, fewer
   * files), in HDFS: the job's splits are refused by an InvalidJobConfException naming the file,
   * or planned, and then every split's reader gives pieces or stops with an exception naming the
   * file; nothing else.
   */
  @Test
  void damagedFilesAreRefusedByNameInTheClientOrTheTask() throws Exception {
    String[][] seeds = {{"classic.nc", "temperature", "netcdf"}, {"cdf5.nc", "counts", "netcdf"},
        {"nc4.nc", "temperature", "netcdf"}, {"layouts/appended.nc", "b", "netcdf"},
        {"layouts/indexes.h5", "/earray", "hdf5"}, {"layouts/btree1.h5", "/btree1", "hdf5"}};
    java.util.Random rnd = new java.util.Random(36);
    int refused = 0;
    for (int i = 0; i < 60; i++) {
      String[] seed = seeds[i % seeds.length];
      String[] how = new String[1];
      byte[] damaged = Fixtures.damaged(Fixtures.bytes(seed[0]), rnd, how);
      String file = "/damaged/" + i + "/" + seed[0].replace('/', '_');
      put(file, damaged);
      String what = file + " (" + how[0] + ")";
      Configuration conf = conf("damaged", ScienceFiles.Kind.valueOf(seed[2].toUpperCase(
          java.util.Locale.ROOT)), seed[1], null);
      List<VariableSplit> splits;
      try {
        splits = splits(conf, file);
      } catch (org.apache.hadoop.mapred.InvalidJobConfException e) {
        assertTrue(e.getMessage().contains(file), what + ": " + e.getMessage());
        refused++;
        continue;
      }
      for (VariableSplit split : splits) {
        try (VariableRecordReader r = new VariableRecordReader()) {
          r.initialize(split, new TaskAttemptContextImpl(conf, new TaskAttemptID()));
          for (int n = 0; n < 100_000 && r.nextKeyValue(); n++) {
            r.getCurrentValue();
          }
        } catch (IOException | IllegalArgumentException e) { // ScienceFormatException is one
          assertTrue(e.getMessage() != null && e.getMessage().contains(seed[0].replace('/',
              '_')), what + ": " + e);
          refused++;
        }
      }
    }
    assertTrue(refused > 10, refused + " refused");
  }

  @Test
  void theExampleJobsStatisticsEqualTheReferenceLibrarys() throws Exception {
    JsonNode series = Fixtures.expected().get("series");
    Configuration conf = conf("stats", ScienceFiles.Kind.NETCDF, series.get("variable").asText(),
        series.get("slab").asText());
    assertEquals(0, ToolRunner.run(conf, new SlabStats(), new String[] {"/series", "/stats"}));
    Map<String, String[]> got = new HashMap<>();
    for (FileStatus f : fs.listStatus(new Path("/stats"), p -> p.getName().startsWith("part"))) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(f.getPath()),
          StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          String[] cols = line.split("\t");
          got.put(new Path(cols[0]).getName() + "#" + cols[1], cols);
        }
      }
    }
    assertEquals(series.get("steps").size(), got.size(), got.keySet().toString());
    for (JsonNode s : series.get("steps")) {
      String[] cols = got.get(s.get("file").asText() + "#" + s.get("time_index").asInt());
      String at = s.get("file").asText() + " step " + s.get("time_index").asInt();
      assertEquals(s.get("count").asLong(), Long.parseLong(cols[2]), at);
      assertEquals(s.get("mean").asDouble(), Double.parseDouble(cols[3]), 1e-9, at + " mean");
      assertEquals(s.get("min").asDouble(), Double.parseDouble(cols[4]), 0.0, at + " min");
      assertEquals(s.get("max").asDouble(), Double.parseDouble(cols[5]), 0.0, at + " max");
    }
  }

  @Test
  void filesWhoseVariableDiffersInShapeAreEachReadWhole() throws Exception {
    // temperature is 5 x 6 x 8 in classic.nc (NetCDF-3) and 5 x 12 x 16 in nc4.nc (chunked,
    // deflated): one job, no slab, each file read whole with its own shape
    Configuration conf = conf("shapes", ScienceFiles.Kind.NETCDF, "temperature", null);
    Map<String, Fixtures.Assembled> byFile = new HashMap<>();
    for (VariableSplit split : splits(conf, "/science/classic.nc", "/science/nc4.nc")) {
      try (VariableRecordReader r = new VariableRecordReader()) {
        r.initialize(split, new TaskAttemptContextImpl(conf, new TaskAttemptID()));
        while (r.nextKeyValue()) {
          ArrayIndex k = r.getCurrentKey();
          ArrayPiece v = r.getCurrentValue();
          String name = new Path(k.file()).getName();
          VariableTask.Part part = split.task().parts().stream()
              .filter(p -> p.path().getName().equals(name)).findFirst().get();
          Fixtures.Assembled out = byFile.computeIfAbsent(name, n -> new Fixtures.Assembled(
              Slab.whole(part.variable().shape()), v.type()));
          byte[] b = new byte[v.elements() * v.type().size()];
          v.buffer().get(b);
          out.put(k.origin(), v.shape(), v.step(), b, 0, v.type(), v.order());
        }
      }
    }
    for (Fixtures.Case c : Fixtures.cases()) {
      if (c.variable.equals("temperature") && c.slab == null
          && (c.file.equals("classic.nc") || c.file.equals("nc4.nc"))) {
        assertEquals(c.sha256, byFile.get(c.file).sha256(), c.toString());
      }
    }
    assertEquals(2, byFile.size());
  }

  @Test
  void aTaskReadsASetOfFilesAllOnItsHost() throws Exception {
    Configuration conf = conf("sets", ScienceFiles.Kind.NETCDF, "temperature", "0:6, 10:30, 5:45");
    conf.set("mrap.access.split.bytes", "400k"); // more than a file's slab: files share tasks
    List<VariableSplit> splits = splits(conf, "/series");
    int parts = 0;
    boolean shared = false;
    for (VariableSplit s : splits) {
      parts += s.task().parts().size();
      Set<Path> files = new HashSet<>();
      for (VariableTask.Part p : s.task().parts()) {
        files.add(p.path());
        RegionCursor c = p.regions().cursor();
        while (c.next()) {
          BlockLocation[] b = fs.getFileBlockLocations(p.path(), c.offset(), 1);
          assertTrue(List.of(b[0].getHosts()).contains(s.getLocations()[0]),
              s + ": a region at " + c.offset() + " of " + p.path() + " is not on the split's host");
        }
      }
      shared |= files.size() > 1;
    }
    assertTrue(shared, "some task reads more than one file: " + splits);
    assertTrue(splits.size() < parts, splits.size() + " splits for " + parts + " parts");
  }

  @Test
  void aFilePutInPlaceOfAnInputAfterSubmissionFailsTheTaskNamingIt() throws Exception {
    // run_00.nc and run_03.nc are both classic files of the same shape: the same length
    put("/replaced/run.nc", Fixtures.bytes("series/run_00.nc"));
    Configuration conf = conf("replaced", ScienceFiles.Kind.NETCDF, "temperature", null);
    List<VariableSplit> splits = splits(conf, "/replaced/run.nc");
    byte[] other = Fixtures.bytes("series/run_03.nc");
    assertEquals(fs.getFileStatus(new Path("/replaced/run.nc")).getLen(), other.length);
    Thread.sleep(5); // a later modification time, as any later put has
    fs.delete(new Path("/replaced/run.nc"), false);
    put("/replaced/run.nc", other); // hdfs dfs -put -f
    VariableRecordReader r = new VariableRecordReader();
    r.initialize(splits.get(0), new TaskAttemptContextImpl(conf, new TaskAttemptID()));
    String said = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
        r::nextKeyValue).getMessage();
    assertTrue(said.contains("/replaced/run.nc") && said.contains("changed since the job was "
        + "submitted"), said);
    r.close();
  }

  @Test
  void aVariableOrSlabAFileCannotServeStopsTheJobNamingIt() throws Exception {
    String[][] bad = {
        {"temperature", "0:6, 10:30, 5:61", "mrap.science.slab", "run_00.nc", "stop 61"},
        {"temprature", null, "mrap.science.variable", "run_00.nc", "no variable temprature"},
    };
    for (String[] b : bad) {
      Configuration conf = conf("bad", ScienceFiles.Kind.NETCDF, b[0], b[1]);
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      PrintStream old = System.err;
      int rc;
      try {
        System.setErr(new PrintStream(err, true));
        rc = ToolRunner.run(conf, new SlabStats(), new String[] {"/series", "/bad"});
      } finally {
        System.setErr(old);
      }
      String said = err.toString();
      assertEquals(2, rc, said);
      for (int i = 2; i < b.length; i++) {
        assertTrue(said.contains(b[i]), "'" + said + "' should say " + b[i]);
      }
      assertFalse(fs.exists(new Path("/bad")), "nothing written");
    }
    Configuration conf = conf("bad", ScienceFiles.Kind.NETCDF, "temperature", null);
    conf.set("strided.region_size", "4k");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream old = System.err;
    try {
      System.setErr(new PrintStream(err, true));
      assertEquals(2, ToolRunner.run(conf, new SlabStats(), new String[] {"/series", "/bad"}));
    } finally {
      System.setErr(old);
    }
    assertTrue(err.toString().contains("strided.region_size does not apply"), err.toString());
  }
}
