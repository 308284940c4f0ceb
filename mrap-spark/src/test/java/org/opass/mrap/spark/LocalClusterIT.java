package org.opass.mrap.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.pattern.PatternConfig;

/**
 * Spark in {@code local-cluster} mode: two executors in JVMs of their own, whose classpath is
 * Spark's and Hadoop's jars ({@code SPARK_HOME/jars}, filled here from the test classpath
 * without any jar of ours) and the release's one jar, {@code mrap-spark-*-spark.jar}, passed as
 * {@code spark.jars} as {@code --jars} passes it. The rows are the pattern's bytes, read in the
 * executors' JVMs.
 */
class LocalClusterIT {
  @Test
  void theShadedJarAloneServesExecutorsInTheirOwnJvms() throws Exception {
    Path jar = Paths.get(System.getProperty("mrap.spark.jar"));
    assertTrue(Files.isRegularFile(jar), jar + ": mvn package builds it");
    sparkHome(Paths.get(System.getenv("SPARK_HOME")));
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/mrap-spark-it-dfs").getAbsolutePath());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(2).build();
    SparkSession spark = null;
    try {
      dfs.waitActive();
      byte[] data = new byte[3 << 20];
      new Random(5).nextBytes(data);
      try (FSDataOutputStream out = dfs.getFileSystem().create(
          new org.apache.hadoop.fs.Path("/it/data.bin"))) {
        out.write(data);
      }
      spark = SparkSession.builder().master("local-cluster[2,1,1024]").appName("mrap-it")
          .config("spark.ui.enabled", "false")
          .config("spark.jars", jar.toUri().toString())
          .config("spark.executor.extraJavaOptions", System.getProperty("mrap.spark.opens",
              String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()
                  .stream().filter(a -> a.startsWith("--add-opens")).toArray(String[]::new))))
          .config("spark.hadoop.fs.defaultFS", dfs.getURI().toString())
          .getOrCreate();
      Dataset<Row> df = spark.read().format(MrapSource.NAME)
          .option(PatternConfig.STRIDED_START, "1000")
          .option(PatternConfig.STRIDED_SIZE, "4096")
          .option(PatternConfig.STRIDED_SPACING, "28672")
          .option(PatternConfig.STRIDED_COUNT, "96")
          .option(AccessInputFormat.SPLIT_BYTES, "64k")
          .load("/it/data.bin");
      List<Row> rows = new ArrayList<>(df.collectAsList());
      rows.sort((x, y) -> Long.compare(x.getLong(1), y.getLong(1)));
      assertEquals(96, rows.size());
      for (int k = 0; k < 96; k++) {
        int at = 1000 + k * 32768;
        assertArrayEquals(Arrays.copyOfRange(data, at, at + 4096), (byte[]) rows.get(k).get(2),
            "region " + k);
      }
      // local-cluster runs no task in the driver: the rows were read by the two executors,
      // whose JVMs hold none of our classes but the shaded jar's
      assertEquals(3, spark.sparkContext().statusTracker().getExecutorInfos().length,
          "the driver and two executors");
    } finally {
      if (spark != null) {
        spark.stop();
      }
      dfs.shutdown();
    }
  }

  /** A Spark home whose jars/ are the test classpath's jars but for ours. */
  private static void sparkHome(Path home) throws IOException {
    Path jars = home.resolve("jars");
    if (Files.isDirectory(jars)) { // a build for another Scala or Spark line left its own
      try (java.util.stream.Stream<Path> old = Files.list(jars)) {
        for (Path p : (Iterable<Path>) old::iterator) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(jars);
    String cp = System.getProperty("surefire.test.class.path",
        System.getProperty("java.class.path"));
    for (String entry : cp.split(File.pathSeparator)) {
      Path p = Paths.get(entry);
      String name = p.getFileName().toString();
      boolean ours = entry.contains(File.separator + "org" + File.separator + "opass"
          + File.separator) || name.startsWith("mrap-") || name.startsWith("opass-");
      if (name.endsWith(".jar") && !ours && Files.isRegularFile(p)) {
        Path link = jars.resolve(name);
        if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
          Files.createSymbolicLink(link, p.toAbsolutePath());
        }
      }
    }
  }
}
