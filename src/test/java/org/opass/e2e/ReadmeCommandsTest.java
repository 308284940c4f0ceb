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
import org.opass.e2e.cluster.EmulatedCluster;
import org.opass.e2e.cluster.Release;
import org.opass.e2e.cluster.TestFiles;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadPlanPlugin;

/**
 * Every command of the release's {@code bin/} the README shows, run as shown against a cluster
 * with our plugins: the examples word for word, and each synopsis with every flag it names.
 * They run from the unpacked release tarball, with a stand-in Hadoop install
 * ({@code HADOOP_HOME}: {@code RunJar} with a configuration folder, Hadoop's jars and
 * {@code HADOOP_CLASSPATH}). Needs the tarball: the README's test command,
 * {@code mvn -B verify}, packages it before these tests run.
 */
class ReadmeCommandsTest {
  private static final Path ROOT = Release.ROOT;
  private static final String README = readme();
  private static final Pattern LAUNCHER = Pattern.compile("bin/(opass|mrap|mrap-copy) ");

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
    Files.createDirectories(work.resolve("scratch/run42"));
    Files.write(work.resolve("scratch/run42/particles"), TestFiles.randomBytes(1_100_000, 42));
  }

  @AfterAll
  static void stop() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The README's examples, word for word (a local path moved under the test's folder). */
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
        "bin/mrap --help",
        "bin/opass --help");
    assertEquals(new LinkedHashSet<>(expected), new LinkedHashSet<>(examples),
        "the README's runnable examples changed: run the new ones here");
    // the copy first: the extract example reads what it restructured
    run(expected.get(0).replace("file:///scratch", "file://" + work.resolve("scratch")));
    assertTrue(org.opass.mrap.read.RestructuredFiles.layoutOf(
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
    assertTrue(run(expected.get(4)).contains("slab-stats"));
    assertTrue(run(expected.get(5)).contains("plan"));
  }

  /** Each synopsis run with every flag it names; each README synopsis is one of these. */
  @Test
  void everySynopsisRunsWithEveryFlagItShows() throws Exception {
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
    assertEquals(synopses.keySet(), shown, "the README's synopses changed: run the new ones");
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

  // ---- the README ----

  /** Every command of the README's code blocks that runs a launcher of bin/, lines joined. */
  static List<String> commands() {
    List<String> out = new ArrayList<>();
    Matcher blocks = Pattern.compile("```[a-z]*\\n(.*?)```", Pattern.DOTALL).matcher(README);
    while (blocks.find()) {
      String text = blocks.group(1).replaceAll("\\\\\\n\\s*", "").replaceAll("\\n\\s+\\[", " [");
      for (String line : text.split("\\n")) {
        line = line.replaceFirst("^#\\s*\\(?", "").replaceAll("\\s+", " ").trim();
        if (LAUNCHER.matcher(line).lookingAt()) {
          out.add(line.replaceFirst(" lists the commands\\)?$", ""));
        }
      }
    }
    // a launcher's command list, shown in the text
    Matcher inline = Pattern.compile("`(bin/(opass|mrap|mrap-copy) --help)`").matcher(README);
    while (inline.find()) {
      out.add(inline.group(1));
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

  private static String readme() {
    try {
      return Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
