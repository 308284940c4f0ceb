package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.opass.mrap.science.Fixtures;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.mrap.fs.CrashingFileSystem;

/**
 * {@code mrap-copy} of a Zarr store, as it is and packed ({@code -pack}), killed before one of
 * its changes to the namespace in twelve, and each of its last four (its client dies: nothing
 * more it asks of HDFS happens, nothing it left is cleaned up): the destination is then absent or the whole store, reading as
 * the store reads; what the dead copy left is hidden beside it, and the next copy removes it.
 */
class ZarrCopyKillTest {
  private static final int BLOCK = 64 * 1024;
  private static EmulatedCluster cluster;
  private static FileSystem fs;
  private static Map<List<Long>, Double> original;

  @TempDir
  static File local;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = cluster.miniCluster().getFileSystem();
    String listing = new String(Fixtures.bytes("zarr/files.txt"), StandardCharsets.UTF_8);
    for (String f : listing.split("\n")) { // the ERA5-shaped store xarray wrote, locally
      if (f.startsWith("v2/era5.zarr/")) {
        java.nio.file.Path to = local.toPath().resolve(f);
        Files.createDirectories(to.getParent());
        Files.write(to, Fixtures.bytes("zarr/" + f));
      }
    }
    assertEquals(0, copy(conf("setup"), false, "/kill-zarr/original.zarr"));
    original = values("/kill-zarr/original.zarr");
  }

  @AfterAll
  static void stop() {
    CrashingFileSystem.disarm();
  }

  private static Configuration conf(String name) {
    return AccessJobTest.jobConf(cluster, "kill-zarr-" + name);
  }

  private static int copy(Configuration conf, boolean pack, String dst) throws Exception {
    String src = new File(local, "v2/era5.zarr").toURI().toString();
    return ToolRunner.run(conf, new MrapCopy(), pack ? new String[] {"-pack", src, dst}
        : new String[] {src, dst});
  }

  /** t2m of a store, by index. */
  private static Map<List<Long>, Double> values(String store) throws Exception {
    Configuration c = conf("read");
    c.set("mrap.pattern.kind", "zarr");
    c.set("mrap.science.variable", "t2m");
    return ZarrReadTest.read(c, store).values;
  }

  private static List<String> names(String dir) throws Exception {
    List<String> out = new ArrayList<>();
    for (FileStatus s : fs.listStatus(new Path(dir))) {
      out.add(s.getPath().getName());
    }
    return out;
  }

  @Test
  void aCopyKilledAtAnyStepLeavesNoStoreOrAWholeOne() throws Exception {
    killedAt(false);
  }

  @Test
  void aPackKilledAtAnyStepLeavesNoStoreOrAWholeOne() throws Exception {
    killedAt(true);
  }

  private void killedAt(boolean pack) throws Exception {
    String dir = "/kill-zarr/" + (pack ? "pack" : "copy");
    String dst = dir + "/s.zarr";
    fs.mkdirs(new Path(dir));
    CrashingFileSystem.disarm();
    assertEquals(0, copy(CrashingFileSystem.on(conf("count")), pack, dst));
    int changes = CrashingFileSystem.changesSinceDisarmed();
    assertTrue(changes >= 3, changes + " changes");
    fs.delete(new Path(dst), true);
    // a twelfth of the steps (a 24th under compat), and the last four, where it publishes
    int every = Math.max(1, changes / (SeededCases.compatRun() ? 24 : 12));
    int killed = 0;
    for (int k = 1; k <= changes; k++) {
      if (k % every != 0 && k < changes - 3) {
        continue;
      }
      CrashingFileSystem.arm(k);
      int rc = copy(CrashingFileSystem.on(conf("crashing")), pack, dst);
      assertTrue(CrashingFileSystem.disarm(), "killed before change " + k + " of " + changes);
      killed++;
      String at = (pack ? "-pack" : "copy") + " killed before change " + k + " of " + changes;
      for (String name : names(dir)) {
        assertTrue(name.equals("s.zarr") || name.startsWith(".s.zarr."), at
            + ": only hidden leftovers beside the store, found " + name);
      }
      if (fs.exists(new Path(dst))) {
        assertEquals(original, values(dst), at + ": the store published reads as the store");
        assertTrue(rc == 0 || rc == 1, at + ": exit " + rc);
        fs.delete(new Path(dst), true);
      } else {
        assertEquals(1, rc, at);
      }
      assertEquals(0, copy(conf("again"), pack, dst), at + ": the next copy");
      assertEquals(List.of("s.zarr"), names(dir), at + ": the next copy removed what was left");
      fs.delete(new Path(dst), true);
    }
    assertTrue(killed >= 3, "killed at " + killed + " steps");
  }
}
