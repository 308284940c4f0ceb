package org.opass.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadPlanPlugin;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.Release;
import org.opass.tools.cluster.TestFiles;

/**
 * Every command of the release's {@code bin/} the docs show ({@code README.md},
 * {@code BENCHMARKS.md} and every page of {@code docs/}), run as shown against a cluster with
 * our plugins: the examples word for word, and each synopsis with every flag it names. They run
 * from the unpacked release tarball, with a stand-in Hadoop install ({@code HADOOP_HOME}:
 * {@code RunJar} with a configuration folder, Hadoop's jars and {@code HADOOP_CLASSPATH}). Every
 * other command line of the pages' code blocks is one this test does not run, listed in
 * {@link #NOT_RUN} with the reason. Needs the tarball: the README's test command,
 * {@code mvn -B verify}, packages it before these tests run.
 */
class ReadmeCommandsTest {
  private static final Path ROOT = Release.ROOT;
  /** The pages, by their path from the repository's root, and their text. */
  private static final Map<String, String> PAGES = pages();
  private static final Pattern LAUNCHER = Pattern.compile("bin/(opass|mrap|mrap-copy) ");
  /** What starts a command line in a code block (a launcher of ours, or any other program). */
  private static final Pattern COMMAND = Pattern.compile(
      "(\\S*bin/\\S+|mvn|hadoop|hdfs|yarn|mapred|spark-shell|spark-submit|pyspark|curl|export"
          + "|java|python3?|bash|sh|apt-get|pip3?)(\\s.*)?");
  /** The command lines of the pages this test does not run, and why. */
  private static final Map<String, String> NOT_RUN = Map.of(
      "bin/demo", "README's main job: a tour of minutes on daemons of its own; its steps are "
          + "the launchers this test runs",
      "mvn -B verify", "the test command: it runs this test",
      "spark-shell --jars mrap-spark/target/mrap-spark-*-spark.jar",
      "no Spark distribution in the build: MrapSourceTest runs the data source",
      "pyspark --jars spark/mrap-spark-*-spark.jar (Spark 4: spark/mrap-spark4-*-spark.jar)",
      "no PySpark in the build: ReadmePySparkTest runs the block's statements through Spark's "
          + "Java API");

  private static EmulatedCluster cluster;
  private static Path work;
  private static Path hadoopHome;
  private static String nameNodeHttp;

  @BeforeAll
  static void start() throws Exception {
    cluster = EmulatedCluster.builder().dataNodes(4).racks(2).blockSize(1024 * 1024)
        .baseDir(new File("target/e2e/readme-commands"))
        .set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
            HmLruPlacementPolicy.class.getName())
        .set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, BalancingNetworkTopology.class.getName())
        .set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReadPlanPlugin.class.getName())
        .start();
    nameNodeHttp = cluster.nameNodeHttp().getAuthority();
    Path dir = Files.createTempDirectory(Path.of("target/e2e").toAbsolutePath(), "readme-");
    work = Release.unpack(dir.resolve("release"));
    Configuration site = new Configuration(false); // the cluster's site files: a client's view
    site.set("fs.defaultFS", cluster.uri().toString());
    site.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, nameNodeHttp);
    site.set("mapreduce.framework.name", "local");
    site.set("mapreduce.jobtracker.staging.root.dir", dir.resolve("staging").toString());
    site.set("hadoop.tmp.dir", dir.resolve("tmp").toString());
    hadoopHome = Release.standInHadoop(dir.resolve("hadoop"), site);
    // the inputs the README's examples name
    FileSystem fs = cluster.offClusterFileSystem();
    TestFiles.write(fs, new org.apache.hadoop.fs.Path("/data/reads"), lines("r", 40),
        (short) 2);
    TestFiles.write(fs, new org.apache.hadoop.fs.Path("/data/reference"), lines("ref", 10),
        (short) 2);
    for (com.fasterxml.jackson.databind.JsonNode step
        : org.opass.mrap.science.Fixtures.expected().get("series").get("steps")) {
      org.apache.hadoop.fs.Path run = new org.apache.hadoop.fs.Path("/data/runs/"
          + step.get("file").asText());
      if (!fs.exists(run)) { // NetCDF files netCDF-C wrote (mrap-inputformat's fixtures)
        TestFiles.write(fs, run, org.opass.mrap.science.Fixtures.bytes("series/"
            + run.getName()), (short) 2);
      }
    }
    for (String f : new String[] {"era_0.nc", "era_1.nc", "era_2.nc"}) { // an hourly series
      TestFiles.write(fs, new org.apache.hadoop.fs.Path("/data/era5/" + f),
          org.opass.mrap.science.Fixtures.bytes("index/joins/" + f), (short) 2);
    }
    String listing = new String(org.opass.mrap.science.Fixtures.bytes("zarr/files.txt"),
        java.nio.charset.StandardCharsets.UTF_8);
    for (String f : listing.split("\n")) { // a store xarray wrote, on a local disk
      if (f.startsWith("v2/era5.zarr/")) {
        Path to = work.resolve("scratch/era5.zarr").resolve(f.substring(13));
        Files.createDirectories(to.getParent());
        Files.write(to, org.opass.mrap.science.Fixtures.bytes("zarr/" + f));
      }
    }
    Files.createDirectories(work.resolve("scratch/run42"));
    Files.write(work.resolve("scratch/run42/particles"), TestFiles.randomBytes(1_100_000, 42));
  }

  @AfterAll
  static void stop() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The pages' examples, word for word (a local path moved under the test's folder). */
  @Test
  void theExamplesRunAsShown() throws Exception {
    List<String> examples = commands().stream()
        .filter(c -> !c.contains("[") && !c.contains("PATH...")).collect(Collectors.toList());
    List<String> expected = List.of(
        "bin/mrap-copy -D dfs.blocksize=64m -pattern conf/mrap-pattern-strided.xml "
            + "file:///scratch/run42/particles /data/particles",
        "bin/mrap extract -conf conf/mrap-pattern-strided.xml /data/particles /out/subset",
        "bin/mrap join -D mrap.match.mode=one-to-all /data/reads /data/reference /out/joined",
        "bin/mrap slab-stats -D mrap.pattern.kind=netcdf -D mrap.science.variable=temperature "
            + "-D mrap.science.slab=':, 10:30, 5:45' /data/runs /out/stats",
        "bin/mrap index -D mrap.pattern.kind=netcdf -D mrap.index.variables=t2m /data/era5 "
            + "/data/era5.index",
        "bin/mrap index --verify /data/era5.index",
        "bin/mrap-copy file:///scratch/era5.zarr /data/era5.zarr",
        "bin/mrap-copy -pack file:///scratch/era5.zarr /data/era5-packed",
        "bin/mrap slab-stats -D mrap.pattern.kind=zarr -D mrap.science.variable=t2m "
            + "-D mrap.science.select='latitude=20:40' /data/era5-packed /out/zarr-stats",
        "bin/mrap --help",
        "bin/opass --help");
    assertEquals(new LinkedHashSet<>(expected), new LinkedHashSet<>(examples),
        "the docs' runnable examples changed: run the new ones here");
    // the copy first: the extract example reads what it restructured
    run(expected.get(0).replace("file:///scratch", "file://" + work.resolve("scratch")));
    assertTrue(org.opass.mrap.fs.RestructuredFiles.layoutOf(
        cluster.offClusterFileSystem(), new org.apache.hadoop.fs.Path("/data/particles"))
        != null, "the copy restructured /data/particles");
    run(expected.get(1));
    run(expected.get(2));
    assertTrue(cluster.offClusterFileSystem().exists(
        new org.apache.hadoop.fs.Path("/out/subset/_SUCCESS")));
    assertTrue(cluster.offClusterFileSystem().exists(
        new org.apache.hadoop.fs.Path("/out/joined/_SUCCESS")));
    run(expected.get(3));
    assertTrue(cluster.offClusterFileSystem().exists(
        new org.apache.hadoop.fs.Path("/out/stats/_SUCCESS")));
    assertTrue(run(expected.get(4)).contains("the series joined"), "the hourly files join");
    assertTrue(run(expected.get(5)).contains("3 entries, 0 stale"));
    // a Zarr store copied as it is and packed, then a region of the packed one read
    run(expected.get(6).replace("file:///scratch", "file://" + work.resolve("scratch")));
    assertTrue(cluster.offClusterFileSystem().exists(
        new org.apache.hadoop.fs.Path("/data/era5.zarr/t2m/.zarray")));
    run(expected.get(7).replace("file:///scratch", "file://" + work.resolve("scratch")));
    assertTrue(cluster.offClusterFileSystem().exists(
        new org.apache.hadoop.fs.Path("/data/era5-packed/refs.json")));
    run(expected.get(8));
    assertTrue(cluster.offClusterFileSystem().exists(
        new org.apache.hadoop.fs.Path("/out/zarr-stats/_SUCCESS")));
    assertTrue(run(expected.get(9)).contains("slab-stats"));
    assertTrue(run(expected.get(10)).contains("plan"));
  }

  /**
   * Each synopsis run with every flag it names; each synopsis of the pages is one of these. Our
   * commands parse their flags alike on every release: a compatibility run leaves this to the
   * default release's run, and runs the examples above.
   */
  @Test
  void everySynopsisRunsWithEveryFlagItShows() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeFalse(SeededCases.compatRun(),
        "the default release's run covers it");
    Path processes = Files.write(work.resolve("processes.txt"),
        List.of(cluster.hostName(0), cluster.hostName(1)));
    Path racks = Files.write(work.resolve("racks.txt"), List.of(
        cluster.hostName(0) + " " + cluster.rack(0), cluster.hostName(1) + " " + cluster.rack(1),
        cluster.hostName(2) + " " + cluster.rack(2), cluster.hostName(3) + " " + cluster.rack(3)));
    Map<String, List<String>> synopses = Map.of(
        "bin/opass heat [generic options] [--json] [NAMENODE_HOST:HTTP_PORT]",
        List.of("bin/opass heat",
            "bin/opass heat -D dfs.replication=2 --json " + nameNodeHttp),
        "bin/opass plan [generic options] "
            + "[--json] [--names] [--rack-map FILE] [--submit NAMENODE_HTTP] "
            + "(--processes HOST[,HOST...] | --processes-file FILE) PATH...",
        List.of("bin/opass plan "
                + "--processes " + cluster.hostName(0) + "," + cluster.hostName(1)
                + " /data/reads /data/reference",
            "bin/opass plan -D a=b "
                + "--json --rack-map " + racks + " --submit http://" + nameNodeHttp
                + " --processes-file " + processes + " /data/reads",
            "bin/opass plan --names "
                + "--processes " + cluster.hostAddress(0) + ":"
                + cluster.dataNode(0).getXferPort() + " /data/reads"),
        "bin/mrap-copy [generic options] [-pattern pattern.xml] [-pack] "
            + "[-task-bytes N] [-mode auto|single|parallel] [-overwrite] [-no-verify] SRC... DST",
        List.of("bin/mrap-copy -D dfs.replication=2 "
                + "-D dfs.blocksize=1m -pattern conf/mrap-pattern-strided.xml -task-bytes 2m "
                + "-mode single "
                + "file://" + work.resolve("scratch/run42/particles") + " /copies/a",
            "bin/mrap-copy -mode parallel -overwrite -no-verify "
                + "/data/reads /data/reference /copies",
            "bin/mrap-copy -mode auto -overwrite "
                + "/data/reads /copies/a",
            // two NetCDF files' slabs packed into one container
            "bin/mrap-copy -D mrap.pattern.kind=netcdf -D mrap.science.variable=temperature "
                + "-D mrap.science.slab=:,10:30,5:45 -pack " + series("run_00.nc") + " "
                + series("run_01.nc") + " /copies/series.pack"));
    Set<String> shown = commands().stream().filter(c -> c.contains("[") || c.contains("PATH..."))
        .collect(Collectors.toSet());
    assertEquals(synopses.keySet(), shown, "the docs' synopses changed: run the new ones");
    for (Map.Entry<String, List<String>> s : synopses.entrySet()) {
      Set<String> used = new LinkedHashSet<>();
      for (String command : s.getValue()) {
        String out = run(command);
        assertTrue(!out.isBlank(), command + " printed nothing");
        used.addAll(flags(command));
      }
      Set<String> missing = new LinkedHashSet<>(flags(s.getKey()));
      missing.removeAll(used);
      assertTrue(missing.isEmpty(), "flags of '" + s.getKey() + "' not run: " + missing);
    }
    assertTrue(run("bin/opass heat --json").contains("node_id"),
        "the heat table lists the DataNodes our placement has seen");
  }

  /** A fixture of the NetCDF time series, as a file:// URI. */
  private static String series(String name) {
    return ROOT.resolve("mrap-core/src/test/resources/science/series").resolve(name)
        .toUri().toString();
  }

  /**
   * Every other command line of the pages' code blocks is one this test deliberately does not
   * run, with its reason in {@link #NOT_RUN}; and each of those is still on a page.
   */
  @Test
  void everyOtherCommandOfThePagesIsListedAsNotRun() {
    Map<String, String> notListed = new java.util.TreeMap<>();
    Set<String> seen = new java.util.HashSet<>();
    for (Map.Entry<String, String> page : PAGES.entrySet()) {
      for (String line : codeLines(page.getValue())) {
        String command = line.replaceFirst("\\s+#.*$", "").trim();
        if (LAUNCHER.matcher(line).lookingAt() || !COMMAND.matcher(command).matches()) {
          continue;
        }
        seen.add(command);
        if (!NOT_RUN.containsKey(command)) {
          notListed.put(command, page.getKey());
        }
      }
    }
    assertTrue(notListed.isEmpty(), "commands of the docs neither run here nor listed in "
        + "NOT_RUN with a reason (command=page): " + notListed);
    Set<String> stale = new java.util.TreeSet<>(NOT_RUN.keySet());
    stale.removeAll(seen);
    assertTrue(stale.isEmpty(), "NOT_RUN lists commands no page shows any more: " + stale);
    System.out.println("docs commands not run here: " + NOT_RUN);
  }

  // ---- the pages ----

  /** Every command of the pages' code blocks that runs a launcher of bin/, lines joined. */
  static List<String> commands() {
    List<String> out = new ArrayList<>();
    for (String page : PAGES.values()) {
      for (String line : codeLines(page)) {
        if (LAUNCHER.matcher(line).lookingAt()) {
          out.add(line.replaceFirst(" lists the commands\\)?$", ""));
        }
      }
      // a launcher's command list, shown in the text
      Matcher inline = Pattern.compile("`(bin/(opass|mrap|mrap-copy) --help)`").matcher(page);
      while (inline.find()) {
        out.add(inline.group(1));
      }
    }
    return out;
  }

  /**
   * The lines of a page's code blocks: continued lines joined, a comment's leading {@code #}
   * dropped (a command may be shown in a comment), spaces collapsed.
   */
  private static List<String> codeLines(String page) {
    List<String> out = new ArrayList<>();
    Matcher blocks = Pattern.compile("```[a-z]*\\n(.*?)```", Pattern.DOTALL).matcher(page);
    while (blocks.find()) {
      String text = blocks.group(1).replaceAll("\\\\\\n\\s*", "").replaceAll("\\n\\s+\\[", " [");
      for (String line : text.split("\\n")) {
        out.add(line.replaceFirst("^#\\s*\\(?", "").replaceAll("\\s+", " ").trim());
      }
    }
    return out;
  }

  /** The options a command names ({@code --json}, {@code -pattern}, {@code -D}). */
  private static Set<String> flags(String command) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = Pattern.compile("(?<![\\w/.-])--?[A-Za-z][\\w-]*").matcher(command);
    while (m.find()) {
      out.add(m.group());
    }
    return out;
  }

  // ---- running a command as a user would ----

  /** Runs one command line in the unpacked release; fails unless it exits 0. Its output. */
  private static String run(String command) throws Exception {
    return Release.launch(work, hadoopHome, List.of("bash", "-c", command));
  }

  private static byte[] lines(String prefix, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append("k").append(i % 10).append('\t').append(prefix).append(i).append('\n');
    }
    return b.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** README.md, BENCHMARKS.md and docs/*.md, in that order, by path from the root. */
  static Map<String, String> pages() {
    try {
      List<String> names = new ArrayList<>(List.of("README.md", "BENCHMARKS.md"));
      try (java.util.stream.Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
        docs.map(p -> "docs/" + p.getFileName()).filter(n -> n.endsWith(".md")).sorted()
            .forEach(names::add);
      }
      Map<String, String> out = new java.util.LinkedHashMap<>();
      for (String name : names) {
        out.put(name, Files.readString(ROOT.resolve(name), StandardCharsets.UTF_8));
      }
      return out;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
