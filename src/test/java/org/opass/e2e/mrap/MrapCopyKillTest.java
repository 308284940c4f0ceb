package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opass.tools.cluster.TestFiles.randomBytes;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.SeededCases;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.mrap.fs.CrashingFileSystem;

/**
 * {@code mrap-copy -overwrite} killed before each of its changes to the namespace in turn (its
 * client dies: nothing more it asks of HDFS happens, nothing it left is cleaned up), in one
 * process (one stream, or several joined) and as a job of chunk writers: the destination is
 * then the old file or the new one, whole and read with its own layout, never neither; what
 * the dead copy left is hidden, and the next copy to that name removes it.
 */
class MrapCopyKillTest {
  private static final int BLOCK = 256 * 1024;
  private static final long START = 10;
  private static final int SIZE = 3000;
  private static final long SPACING = 5000;
  private static final int COUNT = 150;
  private static EmulatedCluster cluster;
  private static FileSystem fs;
  private static byte[] older;
  private static byte[] newer;

  @TempDir
  static File local;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = cluster.miniCluster().getFileSystem();
    older = randomBytes(1_300_000, 3);
    newer = randomBytes(1_300_000, 4);
    Files.write(new File(local, "older").toPath(), older);
    Files.write(new File(local, "newer").toPath(), newer);
  }

  @AfterAll
  static void stop() throws Exception {
    CrashingFileSystem.disarm();
  }

  private static Configuration patternConf(String name) {
    Configuration conf = AccessJobTest.jobConf(cluster, "kill-" + name);
    conf.setLong(PatternConfig.STRIDED_START, START);
    conf.setLong(PatternConfig.STRIDED_SIZE, SIZE);
    conf.setLong(PatternConfig.STRIDED_SPACING, SPACING);
    conf.setLong(PatternConfig.STRIDED_COUNT, COUNT);
    return conf;
  }

  private static int copy(Configuration conf, String mode, String src, String dst)
      throws Exception {
    return ToolRunner.run(conf, new MrapCopy(), new String[] {"-overwrite", "-mode", mode,
        new File(local, src).toURI().toString(), dst});
  }

  /** The destination's records: the older file's, or the newer's. */
  private static byte[] whichOne(String dst) throws Exception {
    List<MrapReads.Rec> got = MrapReads.records(patternConf("read"), new Path(dst));
    if (MrapReads.difference(MrapReads.stridedOracle(older, START, SIZE, SPACING, COUNT), got)
        == null) {
      return older;
    }
    String fromNewer = MrapReads.difference(MrapReads.stridedOracle(newer, START, SIZE,
        SPACING, COUNT), got);
    assertEquals(null, fromNewer, dst + " reads as neither the old file nor the new one");
    return newer;
  }

  private static List<String> names(String dir) throws Exception {
    List<String> out = new ArrayList<>();
    for (FileStatus s : fs.listStatus(new Path(dir))) {
      out.add(s.getPath().getName());
    }
    return out;
  }

  /**
   * After a copy to {@code dst} died before change {@code k}: {@code dst} is the old file or
   * the new one, whole (returned), only hidden leftovers beside it, and the next copy succeeds
   * and removes them.
   */
  private byte[] oldOrNewThenCleared(String dir, String dst, int k) throws Exception {
    byte[] now = whichOne(dst);
    for (String name : names(dir)) {
      assertTrue(name.equals("f") || name.startsWith(".f."), "killed before change " + k
          + ": only hidden leftovers beside f, found " + name);
    }
    assertEquals(0, copy(patternConf("again"), "single", "newer", dst), "the next copy");
    assertEquals(newer, whichOne(dst));
    assertEquals(List.of("f"), names(dir), "the next copy removed what the dead one left");
    return now;
  }

  /**
   * Kills the copy before each change in {@code steps} (null: every change), checking after
   * each what the destination is and that the next copy clears up.
   */
  private void killedAt(String mode, java.util.function.IntPredicate steps) throws Exception {
    String dir = "/kill/" + mode;
    String dst = dir + "/f";
    // the copies around the killed one are made in one process: the parallel mode's kill points
    // are in its own copy
    int changes = changes(mode, dst);
    assertTrue(changes >= 3 && changes < 200, mode + " makes " + changes + " changes");
    int killed = 0;
    for (int k = 1; k <= changes; k++) {
      if (!steps.test(k) && k < changes - 7) {
        continue; // (the last steps, where it publishes, always)
      }
      assertEquals(0, copy(patternConf("setup"), "single", "older", dst));
      CrashingFileSystem.arm(k);
      int rc = copy(CrashingFileSystem.on(patternConf("crashing")), mode, "newer", dst);
      assertTrue(CrashingFileSystem.disarm(), "killed before change " + k + " of " + changes);
      killed++;
      byte[] now = oldOrNewThenCleared(dir, dst, k);
      if (rc == 0) { // it died in clearing up after publishing
        assertEquals(newer, now, "killed before change " + k + ", the copy said it was done");
      } else {
        assertEquals(1, rc, "killed before change " + k);
      }
    }
    assertTrue(killed >= 3, mode + ": killed at " + killed + " steps");
  }

  /**
   * A client killed outright: {@code mrap-copy} in a JVM of its own, stopped before its
   * {@code k}-th change and killed with SIGKILL (its open file stays open, its lease held):
   * {@code CrashingFileSystem.pauseAt} in the child.
   */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      Configuration conf = new Configuration();
      conf.addResource(new Path(args[0]));
      CrashingFileSystem.pauseAt(Integer.parseInt(args[1]));
      System.exit(ToolRunner.run(CrashingFileSystem.on(conf), new MrapCopy(),
          java.util.Arrays.copyOfRange(args, 2, args.length)));
    }
  }

  /** How many changes an overwrite in {@code mode} makes. */
  private static int changes(String mode, String dst) throws Exception {
    assertEquals(0, copy(patternConf("setup"), "single", "older", dst));
    CrashingFileSystem.disarm();
    assertEquals(0, copy(CrashingFileSystem.on(patternConf("count")), mode, "newer", dst));
    return CrashingFileSystem.changesSinceDisarmed();
  }

  private void killedOutright(String mode, java.util.function.IntFunction<int[]> stepsOf)
      throws Exception {
    String dir = "/kill-9/" + mode;
    String dst = dir + "/f";
    int[] steps = stepsOf.apply(changes(mode, dst));
    File conf = new File(local, "child-" + mode + ".xml");
    try (java.io.OutputStream out = new java.io.FileOutputStream(conf)) {
      patternConf("child").writeXml(out);
    }
    for (int k : steps) {
      assertEquals(0, copy(patternConf("setup"), "single", "older", dst));
      File log = new File(local, "child-" + mode + "-" + k + ".log");
      Process p = org.opass.tools.cluster.ChildJvm.startQuick("512m", log, Child.class,
          conf.getPath(), Integer.toString(k), "-overwrite", "-mode", mode,
          new File(local, "newer").toURI().toString(), dst);
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (!Files.readString(log.toPath()).contains("PAUSED") && p.isAlive()) {
        assertTrue(System.nanoTime() < deadline, "the child never reached change " + k);
        Thread.sleep(50);
      }
      assertTrue(p.isAlive(), "the copy ended before change " + k + ": "
          + Files.readString(log.toPath()));
      p.destroyForcibly().waitFor(); // SIGKILL
      oldOrNewThenCleared(dir, dst, k);
    }
  }

  /**
   * A compatibility run ({@link SeededCases#compatRun}) kills the parallel modes once each, a
   * part open (its lease held by the dead client): their other steps are the one stream's.
   */
  @Test
  void aClientKilledOutrightLeavesTheOldFileOrTheNew() throws Exception {
    boolean compat = SeededCases.compatRun();
    killedOutright("single", n -> java.util.stream.IntStream.rangeClosed(1, n).toArray());
    // a writer's part open, and two of the commit's last steps
    killedOutright("parallel", n -> compat ? new int[] {3} : new int[] {3, n - 2, n});
    // several streams from one process (mrap.copy.threads): a part open, the last steps
    killedOutright("auto", n -> compat ? new int[] {3} : new int[] {3, n - 2, n});
  }

  @Test
  void anOverwriteKilledAtAnyStepLeavesTheOldFileOrTheNew() throws Exception {
    killedAt("single", k -> true);
  }

  @Test
  void anOverwriteInSeveralStreamsKilledAtAnyStepLeavesTheOldFileOrTheNew() throws Exception {
    killedAt("auto", k -> true); // -mode auto from a local file: mrap.copy.threads streams
  }

  @Test
  void aParallelOverwriteKilledAtAnyStepLeavesTheOldFileOrTheNew() throws Exception {
    // the writers' steps are alike: the first few and every fifth, and every step of the
    // commit (the last eight); a compatibility run, the commit's steps only
    boolean compat = SeededCases.compatRun();
    killedAt("parallel", k -> !compat && (k <= 3 || k % 5 == 0));
  }
}
