package org.opass.e2e.bench;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.util.ToolRunner;
import org.opass.e2e.cluster.EmulatedCluster;
import org.opass.e2e.cluster.HostYarn;
import org.opass.mrap.copy.CopyOptions;
import org.opass.mrap.copy.RestructuringCopy;

/**
 * The parallel copy of one large file on a real YARN ({@link HostYarn}: a NodeManager on each
 * DataNode host, tasks' HDFS clients on their hosts), against DistCp {@code -blocksperchunk}
 * on the same cluster and file: {@code mrap-copy -mode parallel} (a writer task on each node
 * chosen by aggregator selection, each writing the chunks whose source bytes its node holds)
 * and DistCp splitting the file into as many chunks as we have writers, one map each, joined
 * by its committer's concat. Every copy is checked against the source's composite CRC.
 */
final class CopyOnYarn {
  private static final int DATANODES = 16;
  private static final long BLOCK = 4L << 20;
  private static final long DISK_BANDWIDTH = 8L << 20;

  private CopyOnYarn() {
  }

  /**
   * Seconds per copy: {@code "parallel"} and {@code "distcp"}, repetitions in turn; and
   * {@code "parallel-one-block"}, {@code "distcp-one-block"}: one job of each over a file of
   * one block, what a job costs whatever it copies.
   */
  static Map<String, double[]> run(File outDir, boolean quick) throws Exception {
    int reps = quick ? 3 : 5;
    long fileBytes = (quick ? 128L : 256L) << 20;
    Map<String, double[]> seconds = new LinkedHashMap<>();
    String[] systems = {"parallel", "distcp"};
    for (String s : systems) {
      seconds.put(s, new double[reps]);
    }
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(DISK_BANDWIDTH)
        .writeBandwidthPerDataNode(DISK_BANDWIDTH).hostsNamedByAddress()
        .baseDir(new File(outDir, "copy-yarn-cluster")).start();
        HostYarn yarn = HostYarn.start(cluster, new File(outDir, "copy-yarn"), 2)) {
      Configuration conf = yarn.jobConf();
      conf.setInt("dfs.replication", 3);
      FileSystem fs = cluster.offClusterFileSystem();
      Path src = new Path("/yarn/src");
      byte[] buf = new byte[8 << 20];
      Random rnd = new Random(40);
      try (FSDataOutputStream out = fs.create(src)) {
        for (long left = fileBytes; left > 0; left -= buf.length) {
          rnd.nextBytes(buf);
          out.write(buf, 0, (int) Math.min(buf.length, left));
        }
      }
      cluster.replicas().waitFor(src, (short) 3);
      int expected = RestructuringCopy.crcOf(conf, src);
      System.out.printf("%ncopy on YARN: %d MiB, %d DataNodes each a NodeManager, %d "
          + "repetitions%n", fileBytes >> 20, DATANODES, reps);
      for (int rep = -1; rep < reps; rep++) { // -1: each once untimed
        for (int k = 0; k < systems.length; k++) {
          String s = systems[Math.floorMod(k + rep, systems.length)];
          double t = copy(conf, fs, s, src, new Path("/yarn/" + s + "-" + rep), expected,
              (int) (fileBytes / BLOCK) / DATANODES);
          System.out.printf("  %-9s %6.1f s%n", s, t);
          if (rep >= 0) {
            seconds.get(s)[rep] = t;
          }
        }
      }
      // what a job costs whatever it copies: the same jobs over a file of one block
      Path small = new Path("/yarn/one-block");
      try (FSDataOutputStream out = fs.create(small)) {
        out.write(buf, 0, (int) BLOCK);
      }
      cluster.replicas().waitFor(small, (short) 3);
      int smallCrc = RestructuringCopy.crcOf(conf, small);
      for (String s : systems) {
        seconds.put(s + "-one-block", new double[] {copy(conf, fs, s, small,
            new Path("/yarn/" + s + "-one-block"), smallCrc, 1)});
      }
    }
    return seconds;
  }

  /** Copies {@code src} as {@code system} does, checks it, removes it; returns seconds. */
  private static double copy(Configuration conf, FileSystem fs, String system, Path src,
      Path dst, int expectedCrc, int blocksPerChunk) throws Exception {
    Path copied = dst;
    if (system.equals("distcp")) { // a file's chunks are copied into a folder, as the file
      fs.mkdirs(dst);
      copied = new Path(dst, src.getName());
    }
    long t0 = System.nanoTime();
    if (system.equals("parallel")) {
      RestructuringCopy.copy(conf, src, dst, CopyOptions.builder()
          .mode(CopyOptions.Mode.PARALLEL).build(), null);
    } else {
      // as many chunks as there are writers, a map each
      int rc = ToolRunner.run(conf, new DistCp(conf, null), new String[] {"-blocksperchunk",
          Integer.toString(blocksPerChunk), "-m", Integer.toString(DATANODES), src.toString(),
          dst.toString()});
      if (rc != 0) {
        throw new IllegalStateException("DistCp exited " + rc);
      }
    }
    double t = (System.nanoTime() - t0) / 1e9;
    if (RestructuringCopy.crcOf(conf, copied) != expectedCrc) {
      throw new IllegalStateException(system + " copied other bytes");
    }
    fs.delete(dst, true);
    return t;
  }
}
