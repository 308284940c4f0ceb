package org.opass.mrap.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.fs.CrashingFileSystem;

/**
 * A Spark application writing with {@code format("mrap")}, killed outright ({@code kill -9},
 * in a JVM of its own) before one of its changes to the namespace: while its tasks write their
 * parts, and before and after the rename that publishes. The
 * destination is then absent or the whole dataset; what the dead write left is hidden beside it,
 * and the next write removes it.
 */
class ScienceWriteKillTest {
  private static SparkSession spark;
  private static FileSystem fs;

  @TempDir
  static File local;

  @BeforeAll
  static void start() throws Exception {
    spark = SparkOnHdfs.spark();
    spark.conf().set("spark.sql.session.timeZone", "UTC");
    fs = SparkOnHdfs.fs();
  }

  /** The child: writes {@link #data} to {@code args[1]} as {@code args[2]}, paused before
   * change {@code args[3]} (0: not paused; it prints how many changes it made). */
  public static final class Child {
    public static void main(String[] args) throws Exception {
      SparkSession s = SparkSession.builder().master("local[2]").appName("killed-write")
          .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
          .config("spark.hadoop.fs.defaultFS", args[0])
          .config("spark.hadoop.fs.hdfs.impl", CrashingFileSystem.class.getName())
          .config("spark.hadoop.fs.hdfs.impl.disable.cache", "true").getOrCreate();
      s.sparkContext().setLogLevel("ERROR");
      Dataset<Row> d = data(s);
      int k = Integer.parseInt(args[3]);
      CrashingFileSystem.disarm();
      if (k > 0) {
        CrashingFileSystem.pauseAt(k);
      }
      write(d, args[2], args[1], "errorifexists");
      System.out.println("CHANGES " + CrashingFileSystem.changesSinceDisarmed());
      System.out.flush();
      s.stop();
    }
  }

  /** 40 hours x 30 latitudes x 60 longitudes of two variables, a few points missing. */
  static Dataset<Row> data(SparkSession s) {
    return s.range(0, 40 * 30 * 60).where("id % 97 != 5")
        .selectExpr("timestamp_seconds(1577836800 + 3600 * cast(id / 1800 AS int)) AS time",
            "cast(-44.5 + 3 * cast((id / 60) % 30 AS int) AS float) AS lat",
            "cast(id % 60 AS double) * 6 AS lon", "sin(id / 100.0) * 10 + 280 AS t",
            "cast(id % 13 AS int) AS n");
  }

  static void write(Dataset<Row> d, String kind, String dst, String mode) {
    org.apache.spark.sql.DataFrameWriter<Row> w = d.write().format("mrap")
        .option("mrap.science.output", kind).option("mrap.science.variables", "t,n")
        .option("mrap.science.output.part.bytes", "64k");
    if (kind.equals("zarr")) {
      w = w.option("mrap.science.output.chunks", "4,30,60");
    }
    w.mode(mode).save(dst);
  }

  private static Process child(String dst, String kind, int k, File log) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("-Xmx")) {
        cmd.add(a);
      }
    }
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Child.class.getName(),
        fs.getUri().toString(), dst, kind, Integer.toString(k)));
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.to(log)).start();
  }

  private static List<String> names(Path dir) throws Exception {
    List<String> out = new ArrayList<>();
    for (FileStatus s : fs.listStatus(dir)) {
      out.add(s.getPath().getName());
    }
    return out;
  }

  @Test
  void aWriteKilledOutrightLeavesNoDatasetOrAWholeOne() throws Exception {
    Dataset<Row> want = data(spark);
    long rows = want.count();
    // bin/compat's other releases: one kind, killed before it publishes
    boolean compat = Boolean.getBoolean("opass.tests.compat");
    for (String kind : compat ? new String[] {"zarr"} : new String[] {"netcdf", "zarr"}) {
      Path dir = new Path("/kill-write/" + kind);
      Path dst = new Path(dir, "out." + kind);
      fs.mkdirs(dir);
      File countLog = new File(local, kind + "-count.log");
      Process counting = child(dst.toString(), kind, 0, countLog);
      assertEquals(0, counting.waitFor(), Files.readString(countLog.toPath()));
      String text = Files.readString(countLog.toPath());
      int changes = Integer.parseInt(text.substring(text.indexOf("CHANGES ") + 8).trim()
          .split("\\s")[0]);
      assertTrue(changes > 8, kind + ": " + changes + " changes");
      fs.delete(dst, true);
      // amid the tasks' parts, before the rename that publishes, and after it (before the
      // work folder goes)
      int[] steps = compat ? new int[] {changes - 1}
          : new int[] {changes / 2, changes - 1, changes};
      for (int k : steps) {
        String at = kind + " killed -9 before change " + k + " of " + changes;
        File log = new File(local, kind + "-" + k + ".log");
        Process p = child(dst.toString(), kind, k, log);
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (!Files.readString(log.toPath()).contains("PAUSED") && p.isAlive()) {
          assertTrue(System.nanoTime() < deadline, at + ": never reached");
          Thread.sleep(50);
        }
        assertTrue(p.isAlive(), at + ": it ended first: " + Files.readString(log.toPath()));
        p.destroyForcibly().waitFor(); // SIGKILL
        for (String name : names(dir)) {
          assertTrue(name.equals(dst.getName()) || name.startsWith("." + dst.getName() + "."),
              at + ": only hidden leftovers beside the dataset, found " + name);
        }
        if (fs.exists(dst)) { // published before it died: whole
          Dataset<Row> back = spark.read().format("mrap").option("mrap.pattern.kind", kind)
              .option("mrap.science.layout", "table").option("mrap.science.variables", "t,n")
              .load(fs.makeQualified(dst).toString()).where("t IS NOT NULL");
          assertEquals(rows, back.count(), at);
          assertEquals(0, want.except(back).count(), at);
        }
        write(want, kind, fs.makeQualified(dst).toString(), "overwrite");
        assertEquals(List.of(dst.getName()), names(dir), at + ": the next write cleared it");
        fs.delete(dst, true);
      }
    }
  }
}
