package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.examples.SlabStats;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.task.RegionTask;
import org.opass.mrap.task.VariableTask;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * {@code mrap-copy -pack} (thesis §4.4.3): the slab of a variable of many small files packed
 * into one container, their regions sharing chunks, read by VariableInputFormat with each
 * record naming its file and with the values netCDF-C and HDF5 read; after {@code -mv}; copied
 * back out byte for byte; another slab refused by name or read through the layout; a plain
 * file put under the container's name read as itself; AccessInputFormat refusing a container.
 */
class ContainerPackingTest {
  private static final int BLOCK = 256 * 1024;
  private static final String[] SERIES = {"run_00.nc", "run_01.nc", "run_02.nc", "run_03.nc"};
  private static EmulatedCluster cluster;
  private static FileSystem fs;
  @TempDir
  static java.nio.file.Path local;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = cluster.offClusterFileSystem();
  }

  private static JsonNode series() throws IOException {
    return Fixtures.expected().get("series");
  }

  private static Configuration conf(String name, String slab) throws IOException {
    return VariableJobTest.conf(cluster, name, ScienceFiles.Kind.NETCDF,
        series().get("variable").asText(), slab);
  }

  /** The series' files, written locally; their URIs. */
  private static List<String> localSeries() throws IOException {
    List<String> uris = new ArrayList<>();
    for (String f : SERIES) {
      java.nio.file.Path p = local.resolve(f);
      Files.write(p, Fixtures.bytes("series/" + f));
      uris.add(p.toUri().toString());
    }
    return uris;
  }

  /** mrap-copy with {@code conf}'s settings: its exit code, and what it said into {@code err}. */
  private static int copy(Configuration conf, StringBuilder err, String... args)
      throws Exception {
    Configuration c = new Configuration(conf);
    c.setLong("dfs.blocksize", BLOCK);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int rc = ToolRunner.run(c, new MrapCopy(System.out, new PrintStream(bytes, true)), args);
    err.append(bytes.toString(StandardCharsets.UTF_8));
    return rc;
  }

  private static String[] args(List<String> head, String... tail) {
    List<String> all = new ArrayList<>(head);
    all.addAll(List.of(tail));
    return all.toArray(new String[0]);
  }

  /** SlabStats over {@code input}: per "file name TAB index", {mean, min, max}. */
  private static Map<String, double[]> stats(Configuration conf, String input, String output)
      throws Exception {
    assertEquals(0, ToolRunner.run(conf, new SlabStats(), new String[] {input, output}));
    Map<String, double[]> out = new HashMap<>();
    for (FileStatus f : fs.listStatus(new Path(output), p -> p.getName().startsWith("part"))) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(f.getPath()),
          StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          String[] cols = line.split("\t");
          out.put(cols[0] + "\t" + cols[1], new double[] {Double.parseDouble(cols[3]),
              Double.parseDouble(cols[4]), Double.parseDouble(cols[5])});
        }
      }
    }
    return out;
  }

  /** Checks every time step of {@code steps} of each file against the reference's. */
  private static void assertSteps(Map<String, double[]> got, String folder, int steps)
      throws IOException {
    int seen = 0;
    for (JsonNode s : series().get("steps")) {
      if (s.get("time_index").asInt() >= steps) {
        continue;
      }
      String key = folder + "/" + s.get("file").asText() + "\t" + s.get("time_index").asInt();
      double[] v = got.get(key);
      assertNotNull(v, key + " in " + got.keySet());
      assertEquals(s.get("mean").asDouble(), v[0], 1e-9, key);
      assertEquals(s.get("min").asDouble(), v[1], 0.0, key);
      assertEquals(s.get("max").asDouble(), v[2], 0.0, key);
      seen++;
    }
    assertEquals(SERIES.length * steps, seen);
  }

  /** The job's splits read by hand (MrapReads.variableSlabs): their positioned reads. */
  private static long readAll(Configuration conf, String input, List<VariableTask.Part> parts,
      Map<String, Fixtures.Assembled> byFile) throws Exception {
    TaskCounters counters = new TaskCounters();
    MrapReads.variableSlabs(conf, new Path(input), parts, byFile, counters);
    return counters.get(MrapCounter.READ_CALLS);
  }

  @Test
  void aSeriesPackedIntoOneContainerIsReadAsItsFilesInOneRead() throws Exception {
    String slab = series().get("slab").asText();
    Configuration conf = conf("pack", slab);
    localSeries();
    // the files as they are, for the reads they cost
    for (String f : SERIES) {
      fs.copyFromLocalFile(new Path(local.resolve(f).toUri()), new Path("/plain/" + f));
    }
    long plainReads = readAll(conf, "/plain", new ArrayList<>(), new HashMap<>());
    // packed from HDFS: the bytes read checked against the files' checksums, composed
    List<String> inHdfs = new ArrayList<>();
    for (String f : SERIES) {
      inHdfs.add(fs.makeQualified(new Path("/plain/" + f)).toString());
    }
    StringBuilder err = new StringBuilder();
    assertEquals(0, copy(conf, err, args(List.of("-pack"), args(inHdfs, "/packed/series.pack"))),
        err.toString());
    RestructuredLayout layout = RestructuredFiles.layoutOf(fs, new Path("/packed/series.pack"));
    assertEquals(SERIES.length, layout.members().count(), layout.toString());
    assertEquals(1, layout.tasks().tasks(), "four files' slabs share one chunk: " + layout);
    fs.rename(new Path("/packed"), new Path("/moved")); // hdfs dfs -mv
    String container = fs.makeQualified(new Path("/moved/series.pack")).toString();
    List<VariableTask.Part> parts = new ArrayList<>();
    long packedReads = readAll(conf, "/moved", parts, new HashMap<>());
    assertEquals(1, parts.size(), "one task: " + parts.size());
    assertEquals(RegionTask.Layout.PACKED, parts.get(0).layout());
    assertEquals(SERIES.length, parts.get(0).members().size(), "its four files");
    assertEquals(1, packedReads, "the four files' slabs in one read");
    System.out.printf("series of %d files, slab %s: %d positioned reads as they are, %d packed%n",
        SERIES.length, slab, plainReads, packedReads);
    assertTrue(plainReads >= 4 * packedReads, plainReads + " reads as they are");
    // the example job's figures equal the reference library's, each file named in its keys
    assertSteps(stats(conf, "/moved", "/stats-packed"), container, 6);
  }

  @Test
  void aContainerCopiesBackOutByteForByteAndOtherReadersRefuseOrReadThroughItsLayout()
      throws Exception {
    Configuration conf = conf("unpack", series().get("slab").asText());
    StringBuilder err = new StringBuilder();
    assertEquals(0, copy(conf, err, args(List.of("-pack"), args(localSeries(),
        "/out/series.pack"))), err.toString());
    // mrap-copy CONTAINER FOLDER: the files back, byte for byte (verified as copied)
    assertEquals(0, copy(new Configuration(cluster.conf()), err, "/out/series.pack",
        "/unpacked"), err.toString());
    for (String f : SERIES) {
      try (java.io.InputStream in = fs.open(new Path("/unpacked/" + f))) {
        assertArrayEquals(Fixtures.bytes("series/" + f), in.readAllBytes(), f);
      }
    }
    // a byte-pattern job would not know which file a record came from: refused by name
    Configuration bytes = AccessJobTest.jobConf(cluster, "container-bytes");
    bytes.set(PatternConfig.STRIDED_SIZE, "100");
    bytes.set(PatternConfig.STRIDED_SPACING, "1000");
    bytes.set(PatternConfig.STRIDED_COUNT, "3");
    Job job = Job.getInstance(bytes);
    FileInputFormat.addInputPath(job, new Path("/out/series.pack"));
    String said = assertThrows(IOException.class, () -> new AccessInputFormat().getSplits(job))
        .getMessage();
    assertTrue(said.contains("/out/series.pack") && said.contains("container")
        && said.contains("VariableInputFormat"), said);
    // another slab: refused naming the container, or read through its layout when asked
    Configuration other = conf("unpack-other", "0:3, 10:30, 5:45");
    said = assertThrows(IOException.class,
        () -> readAll(other, "/out", new ArrayList<>(), new HashMap<>())).getMessage();
    assertTrue(said.contains("/out/series.pack") && said.contains(AccessInputFormat.RESTRUCTURED),
        said);
    other.set(AccessInputFormat.RESTRUCTURED, "index");
    List<VariableTask.Part> parts = new ArrayList<>();
    readAll(other, "/out", parts, new HashMap<>());
    assertTrue(parts.stream().allMatch(p -> p.layout() == RegionTask.Layout.THROUGH_INDEX));
    assertSteps(stats(other, "/out", "/stats-index"),
        fs.makeQualified(new Path("/out/series.pack")).toString(), 3);
    // a copy of a container is its files: one source's member names a file, several a folder
    err.setLength(0);
    assertEquals(2, copy(new Configuration(cluster.conf()), err, "/out/series.pack",
        "/unpacked"), "the files exist: " + err);
    assertTrue(err.toString().contains("/unpacked/run_00.nc exists"), err.toString());
  }

  @Test
  void aPlainFilePutUnderAContainersNameIsReadAsItselfAndTheNameCanBePackedAgain()
      throws Exception {
    Configuration conf = conf("replace", series().get("slab").asText());
    List<String> sources = localSeries();
    StringBuilder err = new StringBuilder();
    assertEquals(0, copy(conf, err, args(List.of("-pack"), args(sources, "/put/series.pack"))),
        err.toString());
    // hdfs dfs -rm, then -put of one plain NetCDF file under the container's name
    fs.delete(new Path("/put/series.pack"), false);
    fs.copyFromLocalFile(new Path(local.resolve("run_02.nc").toUri()),
        new Path("/put/series.pack"));
    Map<String, double[]> got = stats(conf, "/put", "/stats-put");
    String plain = fs.makeQualified(new Path("/put/series.pack")).toString();
    int steps = 0;
    for (JsonNode s : series().get("steps")) {
      if (s.get("file").asText().equals("run_02.nc")) {
        double[] v = got.get(plain + "\t" + s.get("time_index").asInt());
        assertNotNull(v, "run_02.nc's step " + s.get("time_index") + " in " + got.keySet());
        assertEquals(s.get("mean").asDouble(), v[0], 1e-9);
        steps++;
      }
    }
    assertEquals(6, steps);
    assertEquals(6, got.size(), "the plain file only: " + got.keySet());
    // and the name takes a new container
    fs.delete(new Path("/put/series.pack"), false);
    assertEquals(0, copy(conf, err, args(List.of("-pack"), args(sources, "/put/series.pack"))),
        err.toString());
    assertSteps(stats(conf, "/put", "/stats-put-again"), plain, 6);
  }

  @Test
  void chunkedHdf5DatasetsOfSeveralFilesShareAContainer() throws Exception {
    Fixtures.Case c = null;
    for (Fixtures.Case k : Fixtures.cases()) {
      if (k.file.equals("snapshot.h5") && k.variable.equals("/grid/density")
          && "2:7, 5:19:2, 3:29".equals(k.slab)) {
        c = k;
      }
    }
    assertNotNull(c);
    Configuration conf = VariableJobTest.conf(cluster, "h5-pack", c.kind(), c.variable, c.slab);
    List<String> sources = new ArrayList<>();
    for (String name : new String[] {"snap_a.h5", "snap_b.h5", "snap_c.h5"}) {
      java.nio.file.Path p = local.resolve(name);
      Files.write(p, Fixtures.bytes(c.file));
      sources.add(p.toUri().toString());
    }
    StringBuilder err = new StringBuilder();
    assertEquals(0, copy(conf, err, args(List.of("-pack"), args(sources, "/h5/snaps.pack"))),
        err.toString());
    List<VariableTask.Part> parts = new ArrayList<>();
    Map<String, Fixtures.Assembled> byFile = new HashMap<>();
    readAll(conf, "/h5", parts, byFile);
    assertTrue(parts.stream().allMatch(p -> p.layout() == RegionTask.Layout.PACKED), "packed");
    assertEquals(3, byFile.size(), byFile.keySet().toString());
    String container = fs.makeQualified(new Path("/h5/snaps.pack")).toString();
    for (String name : new String[] {"snap_a.h5", "snap_b.h5", "snap_c.h5"}) {
      Fixtures.Assembled a = byFile.get(container + "/" + name);
      assertNotNull(a, name + " in " + byFile.keySet());
      assertEquals(c.sha256, a.sha256(), name + ": " + c);
    }
  }

  @Test
  void whatCannotBePackedIsRefusedNamingWhy() throws Exception {
    List<String> sources = localSeries();
    StringBuilder err = new StringBuilder();
    Configuration none = new Configuration(cluster.conf());
    assertEquals(2, copy(none, err, args(List.of("-pack"), args(sources, "/no/a.pack"))));
    assertTrue(err.toString().contains(VariableInputFormat.VARIABLE), err.toString());
    Configuration conf = conf("refusals", series().get("slab").asText());
    err.setLength(0);
    assertEquals(2, copy(conf, err, args(List.of("-pack", "-mode", "parallel"),
        args(sources, "/no/b.pack"))));
    assertTrue(err.toString().contains("-mode parallel"), err.toString());
    err.setLength(0);
    java.nio.file.Path twin = Files.createDirectories(local.resolve("twin")).resolve(SERIES[0]);
    Files.write(twin, Fixtures.bytes("series/" + SERIES[0]));
    assertEquals(2, copy(conf, err, "-pack", sources.get(0), twin.toUri().toString(),
        "/no/c.pack"));
    assertTrue(err.toString().contains("two members are named '" + SERIES[0] + "'"),
        err.toString());
    err.setLength(0);
    Configuration tiles = conf("refusals-tiles", null);
    tiles.set(VariableInputFormat.TILE, "*,20,30");
    assertEquals(2, copy(tiles, err, args(List.of("-pack"), args(sources, "/no/d.pack"))));
    assertTrue(err.toString().contains(VariableInputFormat.TILE), err.toString());
    assertTrue(!fs.exists(new Path("/no")), "nothing written");
  }
}
