package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.index.SeriesIndex;
import org.opass.mrap.mapreduce.index.IndexJob;
import org.opass.mrap.mapreduce.index.IndexKeys;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.settings.VariableSettings;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.mrap.fs.CrashingFileSystem;

/**
 * {@code bin/mrap index} killed before its changes to the namespace in turn (every fifth of the
 * job's, each of the last ten: its client dies, nothing more it asks of HDFS happens), and in a
 * JVM of its own killed with SIGKILL: a
 * build leaves no index or the whole one, never part of one; an update leaves the old index or
 * the new one, each whole (every entry it names readable); what a dead one left beside it is
 * hidden, and the next run succeeds.
 */
class SeriesIndexKillTest {
  private static final int BLOCK = 64 * 1024;
  private static EmulatedCluster cluster;
  private static FileSystem fs;

  @TempDir
  static File local;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = cluster.miniCluster().getFileSystem();
    for (String f : new String[] {"era_0.nc", "era_1.nc", "era_2.nc"}) {
      try (FSDataOutputStream out = fs.create(new Path("/kill/grow/" + f), (short) 2)) {
        out.write(Fixtures.bytes("index/joins/" + f));
      }
    }
  }

  @AfterAll
  static void stop() {
    CrashingFileSystem.disarm();
  }

  private static Configuration conf(String name) {
    Configuration conf = AccessJobTest.jobConf(cluster, "index-kill-" + name);
    conf.set(VariableSettings.KIND, "netcdf");
    conf.set(IndexKeys.VARIABLES, "t2m");
    return conf;
  }

  private static int index(Configuration conf, String... args) throws Exception {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true);
    return ToolRunner.run(conf, new IndexJob(quiet, quiet), args);
  }

  /** The old index: the series' first two files. */
  private static final String[] OLD = {"/kill/grow/era_0.nc", "/kill/grow/era_1.nc", "/kill/idx/i"};
  /** The update: the whole folder. */
  private static final String[] UPDATE = {"--update", "/kill/grow", "/kill/idx/i"};

  /**
   * The index's entries if it is whole (its manifest, lookup and every entry it names read and
   * fresh); -1 where there is none. Only hidden names beside it.
   */
  private static int whole() throws Exception {
    for (FileStatus f : fs.listStatus(new Path("/kill/idx"))) {
      String n = f.getPath().getName();
      assertTrue(n.equals("i") || n.startsWith(".i."), "only hidden leftovers beside i: " + n);
    }
    if (!fs.exists(new Path("/kill/idx/i"))) {
      return -1;
    }
    Configuration conf = conf("check");
    SeriesIndex idx = SeriesIndex.open(conf, new Path("/kill/idx/i"));
    try (SeriesIndex.Reader r = idx.reader(conf)) {
      for (String p : idx.paths()) {
        assertTrue(r.entry(fs.getFileStatus(new Path(p)), new StringBuilder()) != null, p);
      }
    }
    return idx.size();
  }

  private static void clear() throws IOException {
    fs.delete(new Path("/kill/idx"), true);
    fs.mkdirs(new Path("/kill/idx"));
  }

  /** How many changes a run with {@code args} makes (after {@code before}, if given). */
  private static int changes(String[] before, String... args) throws Exception {
    clear();
    if (before != null) {
      assertEquals(0, index(conf("setup"), before));
    }
    CrashingFileSystem.disarm();
    assertEquals(0, index(CrashingFileSystem.on(conf("count")), args));
    return CrashingFileSystem.changesSinceDisarmed();
  }

  @Test
  void aBuildKilledAtAnyStepLeavesNoIndexOrTheWholeOne() throws Exception {
    int changes = changes(null, OLD);
    assertTrue(changes >= 5 && changes < 200, changes + " changes");
    for (int k = 1; k <= changes; k++) {
      if (!sampled(k, changes)) {
        continue;
      }
      clear();
      CrashingFileSystem.arm(k);
      int rc = index(CrashingFileSystem.on(conf("crashing")), OLD);
      assertTrue(CrashingFileSystem.disarm(), "killed before change " + k + " of " + changes);
      int entries = whole();
      assertTrue(entries == -1 || entries == 2, "killed before change " + k + ": " + entries);
      if (rc == 0) {
        assertEquals(2, entries, "it said it was done");
      }
      if (entries == -1) {
        assertEquals(0, index(conf("again"), OLD), "the next build, after change " + k);
        assertEquals(2, whole());
      }
    }
  }

  @Test
  void anUpdateKilledAtAnyStepLeavesTheOldIndexOrTheNew() throws Exception {
    int changes = changes(OLD, UPDATE);
    assertTrue(changes >= 5 && changes < 200, changes + " changes");
    List<Integer> seen = new ArrayList<>();
    for (int k = 1; k <= changes; k++) {
      if (!sampled(k, changes)) {
        continue;
      }
      clear();
      assertEquals(0, index(conf("setup"), OLD));
      CrashingFileSystem.arm(k);
      int rc = index(CrashingFileSystem.on(conf("crashing")), UPDATE);
      assertTrue(CrashingFileSystem.disarm(), "killed before change " + k + " of " + changes);
      int entries = whole();
      assertTrue(entries == 2 || entries == 3, "killed before change " + k + ": the old index "
          + "(2 entries) or the new (3), not " + entries);
      if (rc == 0) {
        assertEquals(3, entries, "it said it was done");
      }
      seen.add(entries);
      assertEquals(0, index(conf("again"), UPDATE), "the next update, after change " + k);
      assertEquals(3, whole());
    }
    assertTrue(seen.contains(2) && seen.contains(3), "killed before and after the switch");
  }

  /**
   * The kill points tried: every fifth change of the job's (its staging, tasks and commit, alike
   * one to the next), and each of the last ten, where the index is published or switched; a
   * compatibility run ({@link org.opass.e2e.SeededCases#compatRun}) the last ten only, where
   * the releases' renames decide.
   */
  private static boolean sampled(int k, int changes) {
    return k > changes - 10 || !org.opass.e2e.SeededCases.compatRun() && k % 5 == 1;
  }

  /** bin/mrap index in a JVM of its own, paused before its k-th change for SIGKILL. */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      Configuration conf = new Configuration();
      conf.addResource(new Path(args[0]));
      CrashingFileSystem.pauseAt(Integer.parseInt(args[1]));
      PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true);
      System.exit(ToolRunner.run(CrashingFileSystem.on(conf), new IndexJob(System.out,
          quiet), java.util.Arrays.copyOfRange(args, 2, args.length)));
    }
  }

  @Test
  void anUpdateKilledOutrightLeavesAWholeIndex() throws Exception {
    int changes = changes(OLD, UPDATE);
    File xml = new File(local, "child.xml");
    try (java.io.OutputStream out = new java.io.FileOutputStream(xml)) {
      conf("child").writeXml(out);
    }
    for (int k : new int[] {changes / 2, changes - 2}) {
      clear();
      assertEquals(0, index(conf("setup"), OLD));
      File log = new File(local, "child-" + k + ".log");
      List<String> args = new ArrayList<>(List.of(xml.getPath(), Integer.toString(k)));
      args.addAll(List.of(UPDATE));
      Process p = org.opass.tools.cluster.ChildJvm.startQuick("512m", log, Child.class,
          args.toArray(new String[0]));
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (!Files.readString(log.toPath()).contains("PAUSED") && p.isAlive()) {
        assertTrue(System.nanoTime() < deadline, "the child never reached change " + k);
        Thread.sleep(50);
      }
      assertTrue(p.isAlive(), "the update ended before change " + k + ": "
          + Files.readString(log.toPath()));
      p.destroyForcibly().waitFor(); // SIGKILL
      int entries = whole();
      assertTrue(entries == 2 || entries == 3, "killed -9 before change " + k + ": " + entries);
      assertEquals(0, index(conf("again"), UPDATE));
      assertEquals(3, whole());
      assertFalse(fs.exists(new Path("/kill/idx/i/" + SeriesIndex.COMBINED + ".missing")));
    }
  }
}
