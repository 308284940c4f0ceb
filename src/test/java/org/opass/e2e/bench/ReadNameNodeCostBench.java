package org.opass.e2e.bench;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNodeReads;
import org.opass.e2e.cluster.EmulatedCluster;
import org.opass.read.nn.BalancingNetworkTopology;

/**
 * NameNode cost of online read balancing: {@code getBlockLocations} calls per second with
 * stock {@code DFSNetworkTopology} and with {@link BalancingNetworkTopology}, each on its own
 * emulated cluster holding the same namespace, timed in interleaved rounds in one JVM. Two of
 * three callers are DataNode hosts, one is off the cluster.
 */
final class ReadNameNodeCostBench implements BenchMain.Bench {
  private static final int BLOCK = 1024;

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int files = quick ? 40 : 100;
    int blocksPerFile = quick ? 10 : 20;
    // Many short rounds (about 25 ms), alternating: the noise on this VM comes in bursts that
    // change a round's rate up to 3x for either system, so each round is paired with the
    // other system's next one and the ratio is the median over pairs.
    int callsPerRound = 1000;
    int rounds = quick ? 40 : 300;
    try (EmulatedCluster stock = start(outDir, "stock", DFSNetworkTopology.class);
        EmulatedCluster ours = start(outDir, "ours", BalancingNetworkTopology.class)) {
      populate(stock, files, blocksPerFile);
      populate(ours, files, blocksPerFile);
      BalancingNetworkTopology topology = (BalancingNetworkTopology) ours.datanodeManager()
          .getNetworkTopology();
      for (int warm = 1; warm <= 40; warm++) { // JIT both paths before timing
        timeRound(stock, files, callsPerRound, warm);
        timeRound(ours, files, callsPerRound, warm);
      }
      long choicesBefore = topology.heatmap().choices();
      double[][] so = Interleaved.rounds(rounds,
          r -> timeRound(stock, files, callsPerRound, 100 + r),
          r -> timeRound(ours, files, callsPerRound, 100 + r));
      double[] s = so[0];
      double[] o = so[1];
      long choices = topology.heatmap().choices() - choicesBefore;
      if (choices == 0) {
        throw new IllegalStateException("the balancing topology made no choice: not loaded");
      }
      double stockRate = Interleaved.median(s);
      double oursRate = Interleaved.median(o);
      double[] pairRatios = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        pairRatios[r] = o[r] / s[r];
      }
      double ratio = Interleaved.median(pairRatios);
      System.out.printf("%ngetBlockLocations (%d files x %d blocks, 8 DataNodes): stock %.0f "
              + "calls per CPU-second, balancing topology %.0f (ratio %.3f, median of %d paired "
              + "rounds; %d sorts counted)%n%n",
          files, blocksPerFile, stockRate, oursRate, ratio, rounds, choices);
      Map<String, Object> summary = new LinkedHashMap<>();
      summary.put("getblocklocations_ratio", ratio);
      // rounds interleave the two NameNodes, so round r of each pairs
      Stats.ratio(o, s).putInto(summary, "getblocklocations_mean_ratio");
      // the least disturbed round of each: a check on the medians when the machine is noisy
      summary.put("getblocklocations_best_round_ratio",
          Arrays.stream(o).max().orElseThrow() / Arrays.stream(s).max().orElseThrow());
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("summary", summary);
      doc.put("setup", Map.of("datanodes", 8, "files", files, "blocks_per_file", blocksPerFile,
          "calls_per_round", callsPerRound, "rounds", rounds));
      doc.put("stock_calls_per_sec", stockRate);
      doc.put("balancing_calls_per_sec", oursRate);
      doc.put("stock_rounds", s);
      doc.put("balancing_rounds", o);
      doc.put("balancing_sorts_counted", choices);
      return doc;
    }
  }

  private static EmulatedCluster start(File outDir, String name, Class<?> topology)
      throws Exception {
    return EmulatedCluster.builder().dataNodes(8).racks(2).blockSize(BLOCK)
        .baseDir(new File(outDir, "nn-cost-" + name))
        .set(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, "0")
        .set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, topology.getName())
        .start();
  }

  /** The same namespace on both: files written from hosts in turn, replication 3. */
  private static void populate(EmulatedCluster c, int files, int blocksPerFile)
      throws Exception {
    byte[] data = new byte[BLOCK * blocksPerFile];
    for (int f = 0; f < files; f++) {
      FileSystem fs = c.fileSystemOnHost(f % c.size());
      try (FSDataOutputStream out = fs.create(new Path("/nn-cost/f" + f), (short) 3)) {
        out.write(data);
      }
    }
  }

  private static double timeRound(EmulatedCluster c, int files, int calls, long seed)
      throws Exception {
    FSNamesystem fsn = c.miniCluster().getNamesystem();
    SplittableRandom r = new SplittableRandom(seed);
    String[] clients = new String[calls];
    String[] paths = new String[calls];
    for (int i = 0; i < calls; i++) {
      clients[i] = i % 3 == 2 ? EmulatedCluster.OFF_CLUSTER_ADDRESS
          : c.hostAddress(r.nextInt(c.size()));
      paths[i] = "/nn-cost/f" + r.nextInt(files);
    }
    long blocks = 0;
    // CPU time of this thread: the clusters' own threads (heartbeats, scanners) and GC pauses
    // on a 2-core machine swing wall-clock rounds by 2x; what a call costs the NameNode is CPU.
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    long t0 = cpu.getCurrentThreadCpuTime();
    for (int i = 0; i < calls; i++) {
      LocatedBlocks lbs = NameNodeReads.getBlockLocations(fsn, clients[i], paths[i], 0,
          Long.MAX_VALUE);
      blocks += lbs.locatedBlockCount();
    }
    long t1 = cpu.getCurrentThreadCpuTime();
    if (blocks == 0) {
      throw new IllegalStateException("no blocks located");
    }
    return calls / ((t1 - t0) / 1e9);
  }
}
