package org.opass.tools.bench.mrap;

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
import org.opass.mrap.copy.CopyOptions;
import org.opass.mrap.copy.RestructuringCopy;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.HostYarn;

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
   * Seconds per copy: {@code "parallel"} and {@code "distcp"}, repetitions in turn;
   * {@code "parallel-same-shape"} and {@code "distcp-same-shape"}: the same jobs (as many
   * chunks, writers and maps) over a file of as many blocks of 64 KiB, what those jobs cost
   * with next to nothing to copy; and for each of these, the share of this machine's CPU time
   * that was busy during its copies.
   */
  static Runs run(File outDir, boolean quick) throws Exception {
    int reps = quick ? 3 : 5;
    long fileBytes = (quick ? 128L : 256L) << 20;
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(DISK_BANDWIDTH)
        .writeBandwidthPerDataNode(DISK_BANDWIDTH).hostsNamedByAddress()
        .set("dfs.namenode.fs-limits.min-block-size", "65536") // the same-shape file's blocks
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
      int blocksPerChunk = (int) (fileBytes / BLOCK) / DATANODES;
      Comparison copies = new Comparison(conf, fs, "parallel", "distcp");
      copies.repeat(new Source(src, expected, BLOCK, blocksPerChunk), reps, "");
      // what these jobs cost with next to nothing to copy: as many blocks, of 64 KiB, copied
      // in as many chunks (ours in chunks of a block) by as many writers and maps
      Path shape = new Path("/yarn/same-shape");
      int shapeBlock = 64 << 10;
      try (FSDataOutputStream out = fs.create(shape, true, 4096, (short) 3, shapeBlock)) {
        out.write(buf, 0, (int) (fileBytes / BLOCK * shapeBlock));
      }
      cluster.replicas().waitFor(shape, (short) 3);
      copies.repeat(new Source(shape, RestructuringCopy.crcOf(conf, shape), shapeBlock,
          blocksPerChunk), quick ? 1 : 2, "-same-shape");
      return new Runs(copies.seconds, copies.cpuBusy());
    }
  }

  /** What {@link #run} measured, by system ({@code "parallel"}, {@code "distcp-same-shape"}...). */
  static final class Runs {
    /** Seconds per copy, repetitions in turn. */
    final Map<String, double[]> seconds;
    /** The machine's busy share of CPU time (not idle, not waiting on I/O) during the copies. */
    final Map<String, Double> cpuBusy;

    Runs(Map<String, double[]> seconds, Map<String, Double> cpuBusy) {
      this.seconds = seconds;
      this.cpuBusy = cpuBusy;
    }
  }

  /**
   * A file to copy: the CRC every copy must have, its block size (a chunk of ours is a block,
   * as DistCp's) and DistCp's chunk in blocks (as many chunks as we have writers).
   */
  private record Source(Path path, int crc, long blockBytes, int blocksPerChunk) {
  }

  /**
   * The systems copying on one cluster, in turn, and what their copies took: seconds and busy
   * and total CPU ticks, by system name and suffix.
   */
  private static final class Comparison {
    final Configuration conf;
    final FileSystem fs;
    final String[] systems;
    final Map<String, double[]> seconds = new LinkedHashMap<>();
    final Map<String, long[]> cpu = new LinkedHashMap<>();

    Comparison(Configuration conf, FileSystem fs, String... systems) {
      this.conf = conf;
      this.fs = fs;
      this.systems = systems;
    }

    /**
     * {@code reps} copies of {@code src} by each system in turn (each once untimed first), their
     * seconds under the system's name and {@code suffix}, their busy and total CPU ticks added
     * to {@link #cpu}.
     */
    void repeat(Source src, int reps, String suffix) throws Exception {
      for (String s : systems) {
        seconds.put(s + suffix, new double[reps]);
      }
      for (int rep = -1; rep < reps; rep++) {
        for (int k = 0; k < systems.length; k++) {
          String s = systems[Math.floorMod(k + rep, systems.length)];
          long[] before = cpuTicks();
          double t = copy(s, src, new Path("/yarn/" + s + suffix + "-" + rep));
          long[] after = cpuTicks();
          System.out.printf("  %-9s%s %6.1f s%n", s, suffix, t);
          if (rep >= 0) {
            seconds.get(s + suffix)[rep] = t;
            long[] sum = cpu.computeIfAbsent(s + suffix, x -> new long[2]);
            sum[0] += after[0] - before[0];
            sum[1] += after[1] - before[1];
          }
        }
      }
    }

    /** Copies {@code src} as {@code system} does, checks it, removes it; returns seconds. */
    double copy(String system, Source src, Path dst) throws Exception {
      Path copied = dst;
      if (system.equals("distcp")) { // a file's chunks are copied into a folder, as the file
        fs.mkdirs(dst);
        copied = new Path(dst, src.path().getName());
      }
      long t0 = System.nanoTime();
      if (system.equals("parallel")) {
        Configuration chunks = new Configuration(conf);
        chunks.setLong("dfs.blocksize", src.blockBytes()); // a chunk a block, as DistCp's
        RestructuringCopy.copy(chunks, src.path(), dst, CopyOptions.builder()
            .mode(CopyOptions.Mode.PARALLEL).build(), null);
      } else {
        // as many chunks as there are writers, a map each
        int rc = ToolRunner.run(conf, new DistCp(conf, null), new String[] {"-blocksperchunk",
            Integer.toString(src.blocksPerChunk()), "-m", Integer.toString(DATANODES),
            src.path().toString(), dst.toString()});
        if (rc != 0) {
          throw new IllegalStateException("DistCp exited " + rc);
        }
      }
      double t = (System.nanoTime() - t0) / 1e9;
      if (RestructuringCopy.crcOf(conf, copied) != src.crc()) {
        throw new IllegalStateException(system + " copied other bytes");
      }
      fs.delete(dst, true);
      return t;
    }

    /** Each system's busy share of CPU time during its copies. */
    Map<String, Double> cpuBusy() {
      Map<String, Double> busy = new LinkedHashMap<>();
      cpu.forEach((s, ticks) -> busy.put(s, ticks[1] == 0 ? 0 : (double) ticks[0] / ticks[1]));
      return busy;
    }
  }

  /** This machine's busy and total CPU ticks so far ({@code /proc/stat}); zeros elsewhere. */
  private static long[] cpuTicks() {
    try {
      String[] f = java.nio.file.Files.readAllLines(java.nio.file.Paths.get("/proc/stat"))
          .get(0).trim().split("\\s+");
      long total = 0;
      for (int i = 1; i < f.length; i++) {
        total += Long.parseLong(f[i]);
      }
      long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]); // idle, iowait
      return new long[] {total - idle, total};
    } catch (java.io.IOException | RuntimeException e) {
      return new long[2];
    }
  }
}
