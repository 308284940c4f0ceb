package org.opass.e2e.cluster;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * One emulated cluster (4 DataNodes on 2 racks, stock settings but the block size) for the test
 * classes of this JVM that need no cluster of their own: each would otherwise start and stop
 * one. A class takes it in its {@code @BeforeAll} and leaves it running; the next class to take
 * it finds its namespace empty (the files, snapshots and quotas of the class before it gone), as
 * on a cluster of its own. A class that restarts, stops or reconfigures its NameNode or
 * DataNodes, or counts what they store, starts its own instead.
 *
 * <p>One cluster at a time: a class that asks for another block size gets a new cluster, the
 * old one stopped. Surefire runs a module's classes by name, so the classes of one block size
 * mostly follow each other. The last cluster stops when the JVM ends.
 */
public final class SharedClusters {
  private static EmulatedCluster cluster;
  private static long blockSize;
  private static boolean stopsWithTheJvm;

  private SharedClusters() {
  }

  /** The shared cluster of {@code bytes}-byte blocks, its namespace empty. */
  public static synchronized EmulatedCluster take(long bytes)
      throws IOException, InterruptedException {
    if (cluster != null && blockSize == bytes) {
      empty(cluster.miniCluster().getFileSystem());
      return cluster;
    }
    if (!stopsWithTheJvm) {
      Runtime.getRuntime().addShutdownHook(new Thread(SharedClusters::stop));
      stopsWithTheJvm = true;
    }
    stop();
    cluster = EmulatedCluster.builder().dataNodes(4).racks(2).blockSize(bytes)
        .baseDir(new File("target/e2e/shared-cluster")).start();
    blockSize = bytes;
    return cluster;
  }

  /** Every entry of {@code /} deleted, snapshots first (a directory with some cannot go). */
  private static void empty(DistributedFileSystem fs) throws IOException {
    SnapshottableDirectoryStatus[] snapshottable = fs.getSnapshottableDirListing();
    if (snapshottable != null) {
      for (SnapshottableDirectoryStatus s : snapshottable) {
        Path dir = s.getFullPath();
        for (FileStatus snapshot : fs.listStatus(new Path(dir, ".snapshot"))) {
          fs.deleteSnapshot(dir, snapshot.getPath().getName());
        }
        fs.disallowSnapshot(dir);
      }
    }
    for (FileStatus f : fs.listStatus(new Path("/"))) {
      if (!fs.delete(f.getPath(), true)) {
        throw new IOException("could not empty the shared cluster: " + f.getPath() + " stays");
      }
    }
  }

  private static synchronized void stop() {
    if (cluster != null) {
      try {
        cluster.close();
      } catch (Exception e) {
        // stopping: a cluster that cannot close holds nothing the next one needs
      }
      cluster = null;
    }
  }
}
