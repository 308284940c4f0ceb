package org.opass.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.tools.cluster.NameNodeWeb;
import org.opass.tools.cluster.ProcessHdfs;
import org.opass.tools.cluster.Release;
import org.opass.tools.cluster.TestFiles;

/**
 * The release installed as INSTALL.md says, on Hadoop's jars alone: a NameNode in a process of
 * its own with {@code namenode/*.jar} on its classpath and the {@code conf/} fragments in its
 * hdfs-site.xml, DataNodes with nothing of ours, and the {@code bin/} launchers (which put
 * {@code client/*.jar} on the client's classpath) against it. A jar missing from either folder
 * fails the NameNode's start or a command; {@link RoleJarsTest} checks that none is extra.
 */
class InstallFromTarballTest {
  private static Path release;
  private static Path hadoopHome;
  private static ProcessHdfs hdfs;
  private static FileSystem fs;

  @BeforeAll
  static void install() throws Exception {
    Path work = Path.of("target/e2e/install").toAbsolutePath();
    release = Release.unpack(work.resolve("release"));
    Map<String, String> site = new LinkedHashMap<>(Release.siteFragments(release));
    site.put("dfs.replication", "2");
    hdfs = ProcessHdfs.builder(work.resolve("hdfs").toFile()).dataNodes(3).settings(site)
        .installed(Release.jars(release, "namenode")).start();
    Configuration client = hdfs.clientConf();
    client.set("dfs.namenode.http-address", hdfs.nameNodeHttp().replace("http://", ""));
    client.set("dfs.replication", "2");
    client.set("mapreduce.framework.name", "local");
    client.set("mapreduce.jobtracker.staging.root.dir", work.resolve("staging").toString());
    client.set("hadoop.tmp.dir", work.resolve("tmp").toString());
    hadoopHome = Release.standInHadoop(work.resolve("hadoop"), client);
    fs = FileSystem.newInstance(client);
  }

  @AfterAll
  static void stop() throws IOException {
    if (fs != null) {
      fs.close();
    }
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void theLaunchersRunAgainstTheInstalledPlugins() throws Exception {
    byte[] particles = TestFiles.randomBytes(1_100_000, 7);
    Path local = Files.write(release.getParent().resolve("particles"), particles);
    run("bin/mrap-copy", "-pattern", "conf/mrap-pattern-strided.xml", local.toUri().toString(),
        "/data/particles");
    run("bin/mrap", "extract", "-conf", "conf/mrap-pattern-strided.xml", "/data/particles",
        "/out/subset");
    // conf/mrap-pattern-strided.xml: 100 regions of 32 bytes, 10,000 bytes apart; a record's
    // key is where its bytes start among the regions'
    Map<Long, byte[]> got = extracted("/out/subset");
    assertEquals(100, got.size(), got.keySet().toString());
    for (int k = 0; k < 100; k++) {
      int at = k * 10_032;
      assertArrayEquals(Arrays.copyOfRange(particles, at, at + 32), got.get(32L * k),
          "region " + k);
    }
    // the heatmap in the NameNode, fed by HM-LRU placement as the copy wrote
    String heat = run("bin/opass", "heat", "--json");
    assertTrue(heat.contains("node_id"), heat);
    // the read-plan endpoint, served with the balancing topology
    String plan = run("bin/opass", "plan", "--submit", hdfs.nameNodeHttp(), "--processes",
        "127.0.0.1", "/data/particles");
    assertTrue(plan.contains("NameNode plan"), plan);
    String log = hdfs.nameNodeLogTail(1 << 20);
    assertFalse(log.contains("(logged once)"), "a plugin fell back to stock:\n" + log);
  }

  /**
   * An operator's first look: WebHDFS ({@code curl .../webhdfs/v1/...?op=LISTSTATUS}) and the
   * web UI's file browser, which calls it. Both answered HTTP 500 when the daemons ran on Java
   * 17 without the {@code --add-opens} Hadoop's launch scripts give them (JAXB's
   * {@code Injector} failed to initialize in the NameNode).
   */
  @Test
  void theNameNodeServesWebHdfsAndItsFileBrowser() throws Exception {
    fs.mkdirs(new org.apache.hadoop.fs.Path("/browse/a folder"));
    fs.create(new org.apache.hadoop.fs.Path("/browse/b")).close();
    String nn = hdfs.nameNodeHttp();
    assertEquals(List.of("a folder", "b"),
        NameNodeWeb.listStatus(nn, "/browse", System.getProperty("user.name")));
    NameNodeWeb.Browsed browsed = NameNodeWeb.browse(nn, "/browse");
    assertEquals(List.of("a folder", "b"), browsed.names());
    assertTrue(browsed.scripts() > 1, "explorer.html's scripts: " + browsed.scripts());
  }

  @Test
  void eachLauncherListsItsCommands() throws Exception {
    assertTrue(run("bin/opass", "--help").contains("heat"));
    assertTrue(run("bin/mrap", "--help").contains("extract"));
    assertTrue(run("bin/mrap-copy", "--help").contains("-pattern"));
  }

  private static Map<Long, byte[]> extracted(String dir) throws IOException {
    Map<Long, byte[]> out = new LinkedHashMap<>();
    for (FileStatus part : fs.listStatus(new org.apache.hadoop.fs.Path(dir),
        p -> p.getName().startsWith("part-"))) {
      try (SequenceFile.Reader r = new SequenceFile.Reader(fs.getConf(),
          SequenceFile.Reader.file(part.getPath()))) {
        LongWritable k = new LongWritable();
        BytesWritable v = new BytesWritable();
        while (r.next(k, v)) {
          out.put(k.get(), v.copyBytes());
        }
      }
    }
    return out;
  }

  /** Runs a launcher of the release from its folder, as a user would; its output, or fails. */
  private static String run(String... command) throws Exception {
    return Release.launch(release, hadoopHome, List.of(command));
  }
}
