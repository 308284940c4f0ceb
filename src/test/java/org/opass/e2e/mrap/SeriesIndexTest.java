package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.index.SeriesIndex;
import org.opass.mrap.mapreduce.index.IndexJob;
import org.opass.mrap.mapreduce.index.IndexKeys;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ReferenceLibraries;
import org.opass.mrap.settings.VariableSettings;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * {@code bin/mrap index} on HDFS (4 DataNodes, 64 KiB blocks): the index job's sets read by
 * xarray over WebHDFS (Debian's fsspec, no JNI) equal xarray's read of the originals through
 * netCDF4-python, joined along time and file by file; a read planned from the index is the read
 * planned from the headers, with none read; after {@code hdfs dfs -put -f}, {@code -mv},
 * {@code -rm}, {@code -cp} and an append, {@code --verify} names the stale entries, the planner
 * reads those files' own headers (a copy's, a file the index never held), and {@code --update}
 * indexes them again.
 */
class SeriesIndexTest {
  private static final int BLOCK = 64 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] ERA = {"era_0.nc", "era_1.nc", "era_2.nc"};
  private static EmulatedCluster cluster;
  private static FileSystem fs;

  @TempDir
  java.nio.file.Path tmp;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = cluster.offClusterFileSystem();
    for (String f : ERA) {
      put("/series/" + f, "index/joins/" + f);
    }
    put("/layouts/nc4.nc", "nc4.nc");
    put("/layouts/classic.nc", "classic.nc");
    put("/layouts/btree1.h5", "layouts/btree1.h5");
  }

  private static void put(String path, String fixture) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(path), (short) 2)) {
      out.write(Fixtures.bytes(fixture));
    }
  }

  private static Configuration conf(String name) {
    Configuration conf = AccessJobTest.jobConf(cluster, name);
    conf.set(VariableSettings.KIND, "netcdf");
    return conf;
  }

  /** Runs bin/mrap index with {@code args}: its exit code and what it printed. */
  private static Object[] index(Configuration conf, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = ToolRunner.run(conf, new IndexJob(new PrintStream(out, true),
        new PrintStream(err, true)), args);
    return new Object[] {rc, out.toString(StandardCharsets.UTF_8) + err.toString(
        StandardCharsets.UTF_8)};
  }

  /**
   * How fsspec's WebHDFS reaches {@code cluster}: the NameNode's web port, DataNodes by address.
   */
  static Map<String, Object> webhdfs(EmulatedCluster cluster) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("host", "127.0.0.1");
    o.put("port", cluster.miniCluster().getNameNode().getHttpAddress().getPort());
    o.put("user", System.getProperty("user.name"));
    Map<String, String> proxy = new HashMap<>();
    for (int k = 0; k < cluster.size(); k++) {
      proxy.put(cluster.hostName(k), cluster.hostAddress(k)); // dn<k>.emulated: no DNS knows it
    }
    o.put("data_proxy", proxy);
    return o;
  }

  private java.nio.file.Path local(Path p, String name) throws IOException {
    java.nio.file.Path to = tmp.resolve(name);
    try (java.io.InputStream in = fs.open(p)) {
      Files.copy(in, to);
    }
    return to;
  }

  /** A fixture as a local file (they are in mrap-core's test jar): its path. */
  private String fixture(String name) throws IOException {
    java.nio.file.Path to = tmp.resolve("fixtures").resolve(name);
    if (!Files.exists(to)) {
      Files.createDirectories(to.getParent());
      Files.write(to, Fixtures.bytes(name));
    }
    return to.toString();
  }

  private Map<String, String> problems(List<Map<String, Object>> cases) throws IOException {
    java.nio.file.Path list = tmp.resolve("cases.json");
    JSON.writeValue(list.toFile(), cases);
    JsonNode results = JSON.readTree(ReferenceLibraries.run(java.nio.file.Paths.get(fixture(
        "index/check_refs.py")), list.toString()));
    assertEquals(cases.size(), results.size());
    Map<String, String> out = new LinkedHashMap<>();
    for (JsonNode r : results) {
      if (r.get("problems").size() > 0) {
        out.put(r.get("name").asText(), r.get("problems").toString());
      }
    }
    return out;
  }

  @Test
  void theJobsSetsReadByXarrayOverWebHdfsAreTheOriginals() throws Exception {
    Configuration conf = conf("index-era");
    conf.set(IndexKeys.VARIABLES, "t2m");
    Object[] r = index(conf, "/series", "/idx/era");
    assertEquals(0, r[0], (String) r[1]);
    JsonNode manifest = JSON.readTree(fs.open(new Path("/idx/era/" + SeriesIndex.MANIFEST)));
    String url = manifest.get("templates").get("u").asText();
    assertTrue(url.startsWith("webhdfs://") && url.endsWith(":" + webhdfs(cluster).get("port")),
        "chunk URLs through the NameNode's web port: " + url);
    assertEquals(SeriesIndex.COMBINED, manifest.get("combined").get(0).asText());
    List<Map<String, Object>> cases = new ArrayList<>();
    List<String> originals = new ArrayList<>();
    for (String f : ERA) {
      originals.add(fixture("index/joins/" + f));
    }
    cases.add(Map.of("name", "joined", "refs", local(new Path("/idx/era/refs.json"), "era.json")
        .toString(), "originals", originals, "variables", List.of("t2m"), "concat", "time",
        "protocol", "webhdfs", "options", webhdfs(cluster)));
    // a series longer than a set: a set a run of consecutive files, joined by xarray
    conf.set(IndexKeys.SET_FILES, "2");
    r = index(conf, "/series", "/idx/era-runs");
    assertEquals(0, r[0], (String) r[1]);
    manifest = JSON.readTree(fs.open(new Path("/idx/era-runs/" + SeriesIndex.MANIFEST)));
    assertEquals("[\"refs-00000.json\",\"refs-00001.json\"]", manifest.get("combined")
        .toString());
    assertFalse(fs.exists(new Path("/idx/era-runs/" + SeriesIndex.COMBINED)));
    cases.add(Map.of("name", "runs", "refs", List.of(
        local(new Path("/idx/era-runs/refs-00000.json"), "run0.json").toString(),
        local(new Path("/idx/era-runs/refs-00001.json"), "run1.json").toString()),
        "originals", originals, "variables", List.of("t2m"), "concat", "time",
        "protocol", "webhdfs", "options", webhdfs(cluster)));
    // all variables of files of three layouts, each file's own set (a line of the entries)
    conf = conf("index-layouts");
    r = index(conf, "/layouts", "/idx/layouts");
    assertEquals(0, r[0], (String) r[1]);
    Map<String, List<String>> variables = Map.of("nc4.nc", List.of("temperature", "elevation"),
        "classic.nc", List.of("temperature", "pressure", "elevation"), "btree1.h5",
        List.of("btree1", "btree1_gzip", "btree1_unwritten"));
    String[] fixtures = {"nc4.nc", "classic.nc", "layouts/btree1.h5"};
    for (FileStatus f : fs.listStatus(new Path("/idx/layouts"))) {
      if (!f.getPath().getName().startsWith(SeriesIndex.ENTRIES)) {
        continue;
      }
      try (BufferedReader in = new BufferedReader(new InputStreamReader(
          new java.util.zip.GZIPInputStream(fs.open(f.getPath())), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          String path = JSON.readTree(line).get("mrap").get("path").asText();
          String name = new Path(path).getName();
          java.nio.file.Path refs = tmp.resolve(name + ".json");
          Files.writeString(refs, line);
          String fixture = null;
          for (String x : fixtures) {
            fixture = x.endsWith(name) ? x : fixture;
          }
          cases.add(Map.of("name", name, "refs", refs.toString(), "originals", List.of(
              fixture(fixture)), "variables", variables.get(name),
              "protocol", "webhdfs", "options", webhdfs(cluster)));
        }
      }
    }
    assertEquals(5, cases.size());
    assertEquals(Map.of(), problems(cases));
  }

  /**
   * The Python example of docs/science.md, as written but for the cluster's address and the
   * index's path, gives the mean of the series' t2m that xarray gives from the original files.
   */
  @Test
  void theDocsPythonExampleReadsTheSeries() throws Exception {
    Configuration conf = conf("index-docs");
    conf.set(IndexKeys.VARIABLES, "t2m");
    Object[] r = index(conf, "/series", "/idx/docs");
    assertEquals(0, r[0], (String) r[1]);
    String page = Files.readString(org.opass.tools.cluster.Release.ROOT.resolve(
        "docs/science.md"));
    int from = page.indexOf("```python\n") + 10;
    String example = page.substring(from, page.indexOf("```", from));
    Map<String, Object> web = webhdfs(cluster);
    String given = "{\"host\": \"namenode\", \"port\": 9870, \"user\": \"alice\"}";
    assertTrue(example.contains(given), example);
    example = example.replace(given, JSON.writeValueAsString(web))
        .replace("/data/era5.index", "/idx/docs");
    List<String> originals = new ArrayList<>();
    for (String f : ERA) {
      originals.add(fixture("index/joins/" + f));
    }
    java.nio.file.Path script = tmp.resolve("example.py");
    Files.writeString(script, example + "\nimport sys, numpy\n"
        + "ref = xr.concat([xr.open_dataset(f, engine='netcdf4') for f in sys.argv[1:]],"
        + " dim='time').t2m.sel(latitude=slice(45, 30)).mean('time')\n"
        + "print(json.dumps({'cells': int(t2m.size), 'equal': bool(numpy.allclose(t2m.values,"
        + " ref.values, rtol=1e-6, equal_nan=True))}))\n");
    JsonNode said = JSON.readTree(ReferenceLibraries.run(script, originals.toArray(
        new String[0])));
    assertEquals(4 * 12, said.get("cells").asInt(), "latitudes 45..30 by 5, 12 longitudes");
    assertTrue(said.get("equal").asBoolean(), said.toString());
  }

  /**
   * Each file's plan as bytes: its name, and where a selection picks something in it, the
   * variable with its chunks and slab, the chunks never written and the coordinates, as a
   * task carries them. (The tasks themselves are cut over the hosts as the cluster's replicas
   * lie at that moment; IndexedPlanTest compares them byte for byte where nothing moves.)
   */
  private static List<byte[]> plans(VariablePlanner planner, String dir) throws IOException {
    List<byte[]> out = new ArrayList<>();
    for (List<org.opass.mrap.plan.FilePlan> one : planner.planByFile(List.of(fs.listStatus(
        new Path(dir))))) {
      for (org.opass.mrap.plan.FilePlan fp : one) {
        DataOutputBuffer b = new DataOutputBuffer();
        b.writeUTF(fp.name());
        b.writeBoolean(fp.selectsNothing());
        if (!fp.selectsNothing()) {
          org.opass.mrap.task.VariableCodec.write(b, fp.plan().variable(), fp.plan().chunks(),
              fp.plan().slab());
          org.opass.mrap.task.VariableCodec.write(b, fp.plan().unwritten());
          fp.coordinates().write(b);
        }
        out.add(java.util.Arrays.copyOf(b.getData(), b.getLength()));
      }
    }
    return out;
  }

  /** The plans with and without the index are the same; the planner that used it. */
  private static VariablePlanner samePlans(Configuration conf, String dir, String index)
      throws IOException {
    List<byte[]> plain = plans(new VariablePlanner(conf), dir);
    Configuration c = new Configuration(conf);
    c.set(VariableSettings.INDEX, index);
    VariablePlanner p = new VariablePlanner(c);
    List<byte[]> indexed = plans(p, dir);
    assertEquals(plain.size(), indexed.size());
    for (int i = 0; i < plain.size(); i++) {
      assertArrayEquals(plain.get(i), indexed.get(i), "file " + i);
    }
    return p;
  }

  @Test
  void staleEntriesAreNamedReadFromTheirHeadersAndUpdated() throws Exception {
    for (String f : ERA) {
      put("/stale/" + f, "index/joins/" + f);
    }
    put("/stale/more_0.nc", "index/refuse/mid_1.nc");
    Configuration conf = conf("index-stale");
    conf.set(IndexKeys.VARIABLES, "t2m");
    assertEquals(0, index(conf, "/stale", "/idx/stale")[0]);
    conf.set(VariableSettings.VARIABLE, "t2m");
    conf.set(VariableSettings.SELECT, "latitude=30:45");
    VariablePlanner fresh = samePlans(conf, "/stale", "/idx/stale");
    assertEquals(4, fresh.filesFromIndex());
    assertEquals(0, fresh.indexFallbacks());
    Object[] r = index(conf, "--verify", "/idx/stale");
    assertEquals(0, r[0], (String) r[1]);

    // what users do to a series: replace a file, rename one, remove one, append to one
    String other = fixture("index/refuse/scale_1.nc");
    FsShell shell = new FsShell(conf);
    assertEquals(0, ToolRunner.run(shell, new String[] {"-put", "-f", other,
        "/stale/era_1.nc"}));
    assertEquals(0, ToolRunner.run(shell, new String[] {"-mv", "/stale/era_2.nc",
        "/stale/era_9.nc"}));
    assertEquals(0, ToolRunner.run(shell, new String[] {"-rm", "/stale/more_0.nc"}));
    assertEquals(0, ToolRunner.run(shell, new String[] {"-cp", "/stale/era_9.nc",
        "/stale/era_copy.nc"}));
    try (FSDataOutputStream out = fs.append(new Path("/stale/era_0.nc"))) {
      out.write(new byte[16]); // bytes past the end of a NetCDF-4 file: it reads the same
    }
    r = index(conf, "--verify", "/idx/stale");
    assertEquals(1, r[0], (String) r[1]);
    String said = (String) r[1];
    for (String f : new String[] {"era_0.nc: changed", "era_1.nc: changed", "era_2.nc: gone",
        "more_0.nc: gone", "4 entries, 4 stale"}) {
      assertTrue(said.contains(f), f + " in: " + said);
    }
    VariablePlanner stale = samePlans(conf, "/stale", "/idx/stale");
    assertEquals(0, stale.filesFromIndex());
    assertEquals(4, stale.indexFallbacks(), "era_0, era_1, era_9 and era_copy read from their "
        + "headers");

    r = index(conf, "--update", "/stale", "/idx/stale");
    assertEquals(0, r[0], (String) r[1]);
    assertTrue(((String) r[1]).contains("0 entries kept, 4 files to index"), (String) r[1]);
    r = index(conf, "--verify", "/idx/stale");
    assertEquals(0, r[0], (String) r[1]);
    assertTrue(((String) r[1]).contains("4 entries, 0 stale"), (String) r[1]);
    assertEquals(4, samePlans(conf, "/stale", "/idx/stale").filesFromIndex());
    assertFalse(fs.exists(new Path("/idx/stale/" + SeriesIndex.COMBINED)),
        "era_1 is now scale_1, whose scale factor differs: the files do not join");
    for (FileStatus f : fs.listStatus(new Path("/idx"))) {
      assertFalse(f.getPath().getName().startsWith("."), "left behind: " + f.getPath());
    }
  }

  /**
   * {@code mrap-copy} restructuring for a selection plans from the index as the jobs do: the
   * copy made with {@value VariableSettings#INDEX} is the copy made without, byte for byte.
   */
  @Test
  void aCopyRestructuredFromTheIndexIsTheCopyWithout() throws Exception {
    Configuration conf = conf("index-copy");
    conf.set(IndexKeys.VARIABLES, "t2m");
    assertEquals(0, index(conf, "/series", "/idx/copy")[0]);
    Configuration copy = new Configuration(conf);
    copy.unset(IndexKeys.VARIABLES);
    copy.set(VariableSettings.VARIABLE, "t2m");
    copy.set(VariableSettings.SELECT, "time=2020-01-01T06:00:00:2020-01-01T20:00:00, "
        + "latitude=30:45");
    String src = fs.makeQualified(new Path("/series/era_1.nc")).toString();
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true);
    assertEquals(0, ToolRunner.run(new Configuration(copy), new org.opass.mrap.copy.MrapCopy(
        quiet, quiet), new String[] {"-mode", "single", src, "/copies/plain"}));
    copy.set(VariableSettings.INDEX, "/idx/copy");
    assertEquals(0, ToolRunner.run(new Configuration(copy), new org.opass.mrap.copy.MrapCopy(
        quiet, quiet), new String[] {"-mode", "single", src, "/copies/indexed"}));
    byte[] plain;
    byte[] indexed;
    try (java.io.InputStream a = fs.open(new Path("/copies/plain"));
        java.io.InputStream b = fs.open(new Path("/copies/indexed"))) {
      plain = a.readAllBytes();
      indexed = b.readAllBytes();
    }
    assertTrue(org.opass.mrap.fs.RestructuredFiles.layoutOf(fs, new Path("/copies/indexed"))
        != null, "restructured for the selection");
    assertArrayEquals(plain, indexed);
  }

  @Test
  void usageErrorsNameTheArgumentAndWriteNothing() throws Exception {
    Configuration conf = conf("index-usage");
    Object[] r = index(conf, "/series");
    assertEquals(2, r[0]);
    assertTrue(((String) r[1]).contains("name at least one input and the index"));
    conf.unset(VariableSettings.KIND);
    r = index(conf, "/series", "/idx/none");
    assertEquals(2, r[0]);
    assertTrue(((String) r[1]).contains("mrap.pattern.kind is not set"), (String) r[1]);
    r = index(conf("index-usage"), "--verify", "/series");
    assertEquals(2, r[0]);
    assertTrue(((String) r[1]).contains("holds no series index"), (String) r[1]);
    // a bad number names its key, before any job, for a build and an update alike
    String[][] bad = {{IndexKeys.READERS, "0"}, {IndexKeys.FILES_PER_TASK, "many"},
        {IndexKeys.SET_FILES, "-1"}};
    for (String[] b : bad) {
      for (String[] args : new String[][] {{"/series", "/idx/none"},
          {"--update", "/series", "/idx/none"}}) {
        Configuration c = conf("index-usage");
        c.set(b[0], b[1]);
        r = index(c, args);
        assertEquals(2, r[0], (String) r[1]);
        assertTrue(((String) r[1]).contains(b[0] + " must be an integer >= 1, got '" + b[1]
            + "'"), (String) r[1]);
      }
    }
    assertFalse(fs.exists(new Path("/idx/none")));
    for (FileStatus f : fs.exists(new Path("/idx")) ? fs.listStatus(new Path("/idx"))
        : new FileStatus[0]) {
      assertFalse(f.getPath().getName().startsWith(".none"), "left behind: " + f.getPath());
    }
  }
}
