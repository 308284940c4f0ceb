package org.opass.mrap.spark;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.spark.sql.SparkSession;

/**
 * One MiniDFSCluster (3 DataNodes, 64 KiB blocks) and one Spark session in {@code local[2]} on
 * it, for all the test classes of this JVM (each would otherwise pay 10 s to start them); both
 * stop when the JVM ends.
 */
final class SparkOnHdfs {
  static final int BLOCK = 64 * 1024;
  private static MiniDFSCluster dfs;
  private static SparkSession spark;

  private SparkOnHdfs() {
  }

  static synchronized SparkSession spark() {
    if (spark == null) {
      try {
        Configuration conf = new Configuration();
        conf.setLong("dfs.blocksize", BLOCK);
        conf.setLong("dfs.namenode.fs-limits.min-block-size", 4096);
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
            new File("target/mrap-spark-dfs").getAbsolutePath());
        dfs = new MiniDFSCluster.Builder(conf).numDataNodes(3).build();
        dfs.waitActive();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      spark = SparkSession.builder().master("local[2]").appName("mrap-spark-tests")
          .config("spark.ui.enabled", "false")
          .config("spark.hadoop.fs.defaultFS", dfs.getURI().toString())
          .config("spark.hadoop.dfs.blocksize", Integer.toString(BLOCK))
          .getOrCreate();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        spark.stop();
        dfs.shutdown();
      }));
    }
    return spark;
  }

  /**
   * Bytes this JVM's HDFS clients (the driver's and the executors' of {@code local[2]}) have
   * read so far: what the DataNodes served them, without checksums. Counted on the client: a
   * DataNode leaves a read out of its own {@code bytesRead} when the client closes before its
   * last, empty packet (a positioned read does, more often on a loaded machine).
   */
  static synchronized long bytesRead() {
    spark();
    return org.apache.hadoop.fs.GlobalStorageStatistics.INSTANCE.get("hdfs")
        .getLong("bytesRead");
  }

  /** The NameNode's web address (WebHDFS), {@code host:port}. */
  static synchronized java.net.InetSocketAddress http() {
    spark();
    return dfs.getNameNode().getHttpAddress();
  }

  static synchronized FileSystem fs() throws IOException {
    spark();
    return dfs.getFileSystem();
  }
}
