package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.examples.SlabStats;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.task.RegionTask;
import org.opass.mrap.task.VariableTask;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Files written by HDF5 and netCDF-C with chunks never written among written ones, under every
 * chunk index (science/layouts), through the paths a job takes besides the plain read of
 * VariableJobTest: a copy restructured by {@code mrap-copy} and read by its packed tasks, a
 * {@code -pack} container, and the example job (slab-stats) over a folder, some of whose files
 * hold only fill values. Values, and the elements counted as fill, are those h5py and netCDF-C
 * read.
 */
class ScienceLayoutsTest {
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

  private static Fixtures.Case fixture(String file, String variable, String slab)
      throws IOException {
    for (Fixtures.Case c : Fixtures.cases()) {
      if (c.file.equals("layouts/" + file) && c.variable.equals(variable)
          && java.util.Objects.equals(c.slab, slab)) {
        return c;
      }
    }
    throw new AssertionError("no fixture case " + file + " " + variable + " " + slab);
  }

  private static java.nio.file.Path local(String file) throws IOException {
    java.nio.file.Path p = local.resolve(file);
    if (!Files.exists(p)) {
      Files.write(p, Fixtures.bytes("layouts/" + file));
    }
    return p;
  }

  private static int copy(Configuration conf, StringBuilder err, String... args)
      throws Exception {
    Configuration c = new Configuration(conf);
    c.setLong("dfs.blocksize", BLOCK);
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int rc = ToolRunner.run(c, new MrapCopy(System.out, new PrintStream(e, true)), args);
    err.append(e);
    return rc;
  }

  /** Every piece read from {@code file} (a folder: all its files), by the file it names. */
  private static Map<String, Fixtures.Assembled> read(Configuration conf, Path file,
      List<RegionTask.Layout> layouts, TaskCounters counters) throws Exception {
    List<VariableTask.Part> parts = new ArrayList<>();
    Map<String, Fixtures.Assembled> out = new HashMap<>();
    MrapReads.variableSlabs(conf, file, parts, out, counters);
    for (VariableTask.Part p : parts) {
      layouts.add(p.layout());
    }
    return out;
  }

  /**
   * A copy restructured for a slab of each kind of index (and of a NetCDF-4 variable shorter
   * than its unlimited dimension) reads, by its packed tasks, what HDF5 and netCDF-C read.
   */
  @Test
  void restructuredCopiesReadTheReferenceValues() throws Exception {
    String[][] cases = {{"indexes.h5", "/earray", "2:599:5, 1"},
        {"indexes.h5", "/fixed_paged_gzip", null}, {"userblock.h5", "/fixed", "1:25:2, 1:3"},
        {"userblock.h5", "/earray_unlimited_last", "1:4, 2:299:4"},
        {"btree1.h5", "/btree1", "3:47:4, 1:29:3"}, {"indexes.h5", "/btree2_gzip", null},
        {"appended.nc", "b", "3:9, 2"}, {"appended.nc", "g/h", null},
        {"mixed.h5", "/a/b/c/chunked", "3:8, 1:3"}};
    int n = 0;
    for (String[] t : cases) {
      Fixtures.Case c = fixture(t[0], t[1], t[2]);
      Configuration conf = VariableJobTest.conf(cluster, "copy", c.kind(), c.variable, c.slab);
      String dst = "/restructured/" + (n++) + "/" + t[0];
      StringBuilder err = new StringBuilder();
      assertEquals(0, copy(conf, err, "-mode", "single", local(t[0]).toUri().toString(), dst),
          c + ": " + err);
      List<RegionTask.Layout> layouts = new ArrayList<>();
      TaskCounters counters = new TaskCounters();
      Map<String, Fixtures.Assembled> got = read(conf, new Path(dst), layouts, counters);
      assertTrue(layouts.stream().allMatch(l -> l == RegionTask.Layout.PACKED), c + ": "
          + layouts);
      assertEquals(1, got.size(), c + ": " + got.keySet());
      Fixtures.Assembled a = got.values().iterator().next();
      assertEquals(c.sha256, a.sha256(), c + " restructured");
      assertEquals(c.fill, counters.get(MrapCounter.FILL_ELEMENTS), c + ": fill elements");
    }
    // a slab that selects only chunks never written: nothing to restructure, said, none written
    Fixtures.Case never = fixture("indexes.h5", "/unwritten_chunked", null);
    StringBuilder err = new StringBuilder();
    assertEquals(2, copy(VariableJobTest.conf(cluster, "never", never.kind(), never.variable,
        null), err, local("indexes.h5").toUri().toString(), "/never/indexes.h5"));
    assertTrue(err.toString().contains("/unwritten_chunked") && err.toString().contains(
        "never written"), err.toString());
    assertFalse(fs.exists(new Path("/never")), "nothing written");
  }

  /** Two files with gaps in their fixed arrays (one behind a user block) share a container. */
  @Test
  void aContainerOfFilesWithGapsReadsTheReferenceValues() throws Exception {
    String slab = "5:55:7, 2:39:3";
    Configuration conf = VariableJobTest.conf(cluster, "pack", fixture("indexes.h5",
        "/fixed_paged", slab).kind(), "/fixed_paged", slab);
    StringBuilder err = new StringBuilder();
    assertEquals(0, copy(conf, err, "-pack", local("indexes.h5").toUri().toString(),
        local("userblock.h5").toUri().toString(), "/packed/gaps.pack"), err.toString());
    List<RegionTask.Layout> layouts = new ArrayList<>();
    TaskCounters counters = new TaskCounters();
    Map<String, Fixtures.Assembled> got = read(conf, new Path("/packed"), layouts, counters);
    assertTrue(layouts.stream().allMatch(l -> l == RegionTask.Layout.PACKED), "" + layouts);
    String container = fs.makeQualified(new Path("/packed/gaps.pack")).toString();
    long fill = 0;
    for (String f : new String[] {"indexes.h5", "userblock.h5"}) {
      Fixtures.Case c = fixture(f, "/fixed_paged", slab);
      Fixtures.Assembled a = got.get(container + "/" + f);
      assertNotNull(a, f + " in " + got.keySet());
      assertEquals(c.sha256, a.sha256(), c + " in a container");
      fill += c.fill;
    }
    assertEquals(fill, counters.get(MrapCounter.FILL_ELEMENTS), "fill elements");
  }

  /**
   * slab-stats, a MapReduce job, over a NetCDF-4 variable with records never written and over a
   * folder of two HDF5 files whose dataset was never written at all (a task of fill values
   * each): with {@code mrap.science.decode=false}, every step's count, mean, min and max as the
   * reference libraries read the stored values; decoded (the default), the same elements, the
   * fill values among them counted as missing.
   */
  @Test
  void theExampleJobCountsFillValuesAsValues() throws Exception {
    for (boolean decode : new boolean[] {false, true}) {
      exampleJob(decode);
    }
  }

  private void exampleJob(boolean decode) throws Exception {
    JsonNode all = Fixtures.layouts().get("stats");
    String[][] jobs = {{"netcdf", "b", "/stats-in/nc", "appended.nc"},
        {"hdf5", "/earray_first_gap", "/stats-in/ea", "indexes.h5"},
        {"hdf5", "/unwritten_chunked", "/stats-in/never", "indexes.h5", "userblock.h5"}};
    for (String[] j : jobs) {
      for (int i = 3; i < j.length; i++) {
        try (FSDataOutputStream out = fs.create(new Path(j[2], j[i]), (short) 2)) {
          out.write(Fixtures.bytes("layouts/" + j[i]));
        }
      }
      Configuration conf = VariableJobTest.conf(cluster, "stats", j[0].equals("netcdf")
          ? org.opass.mrap.science.ScienceFiles.Kind.NETCDF
          : org.opass.mrap.science.ScienceFiles.Kind.HDF5, j[1], null);
      conf.setBoolean(org.opass.mrap.settings.VariableSettings.DECODE, decode);
      String out = j[2] + "-out-" + decode;
      assertEquals(0, ToolRunner.run(conf, new SlabStats(), new String[] {j[2], out}));
      Map<String, String[]> got = new HashMap<>();
      for (FileStatus f : fs.listStatus(new Path(out), p -> p.getName().startsWith("part"))) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(f.getPath()),
            StandardCharsets.UTF_8))) {
          for (String line; (line = in.readLine()) != null; ) {
            String[] cols = line.split("\t");
            got.put(new Path(cols[0]).getName() + "#" + cols[1], cols);
          }
        }
      }
      int steps = 0;
      for (JsonNode s : all) {
        if (!s.get("variable").asText().equals(j[1])) {
          continue;
        }
        String key = s.get("file").asText() + "#" + s.get("index").asInt();
        String[] cols = got.get(key);
        assertNotNull(cols, key + " in " + got.keySet());
        if (decode) { // every element given, each a value or missing
          assertEquals(s.get("count").asLong(), Long.parseLong(cols[2])
              + Long.parseLong(cols[6]), key);
          steps++;
          continue;
        }
        assertEquals(s.get("count").asLong(), Long.parseLong(cols[2]), key);
        assertEquals(s.get("mean").asDouble(), Double.parseDouble(cols[3]),
            Math.abs(s.get("mean").asDouble()) * 1e-12, key + " mean");
        assertEquals(s.get("min").asDouble(), Double.parseDouble(cols[4]), 0.0, key + " min");
        assertEquals(s.get("max").asDouble(), Double.parseDouble(cols[5]), 0.0, key + " max");
        steps++;
      }
      assertEquals(steps, got.size(), j[1] + ": " + got.keySet());
    }
  }
}
