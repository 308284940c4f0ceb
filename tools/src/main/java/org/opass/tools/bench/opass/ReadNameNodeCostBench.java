package org.opass.tools.bench.opass;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNodeReads;
import org.apache.hadoop.hdfs.server.namenode.NnThroughputRounds;
import org.opass.heatmap.HeatTable;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadPlanPlugin;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Interleaved;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.EmulatedClusterBuilder;

/**
 * NameNode cost of online read balancing: {@code getBlockLocations} calls per second with
 * stock {@code DFSNetworkTopology} and with {@link BalancingNetworkTopology}, each on its own
 * emulated cluster holding the same namespace, timed in interleaved rounds in one JVM. Two of
 * three callers are DataNode hosts, one is off the cluster.
 */
public final class ReadNameNodeCostBench implements Bench {
  private static final int BLOCK = 1024;

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    try (EmulatedCluster stock = start(outDir, "stock", false);
        EmulatedCluster ours = start(outDir, "ours", true)) {
      Map<String, Object> loop = inProcessLoop(stock, ours, quick);
      Map<String, Object> tool = nnThroughputBenchmark(stock, ours, quick);
      Map<String, Object> summary = new LinkedHashMap<>();
      summary.putAll(summaryOf(tool));
      summary.putAll(summaryOf(loop));
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("summary", summary);
      doc.put("nnthroughputbenchmark", tool);
      doc.put("in_process_loop", loop);
      return doc;
    }
  }

  @SuppressWarnings("unchecked") // both parts put a Map<String, Object> there
  private static Map<String, Object> summaryOf(Map<String, Object> part) {
    return (Map<String, Object>) part.remove("summary");
  }

  /** The in-process loop alone (what {@code read-single} reports next to its reads). */
  Map<String, Object> inProcessLoop(File outDir, boolean quick) throws Exception {
    try (EmulatedCluster stock = start(outDir, "stock", false);
        EmulatedCluster ours = start(outDir, "ours", true)) {
      return inProcessLoop(stock, ours, quick);
    }
  }

  /**
   * {@code FSNamesystem#getBlockLocations} called in this thread, no RPC: what the sort costs
   * on its own, in CPU time (the diagnostic; the tool below is the figure operators use).
   */
  private Map<String, Object> inProcessLoop(EmulatedCluster stock, EmulatedCluster ours,
      boolean quick) throws Exception {
    int files = quick ? 40 : 100;
    int blocksPerFile = quick ? 10 : 20;
    // Many short rounds (about 25 ms), alternating: the noise on this VM comes in bursts that
    // change a round's rate up to 3x for either system, so each round is paired with the
    // other system's next one and the ratio is the median over pairs.
    int callsPerRound = 1000;
    int rounds = quick ? 40 : 300;
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
    System.out.printf("%ngetBlockLocations in-process (%d files x %d blocks, 8 DataNodes): "
            + "stock %.0f calls per CPU-second, balancing topology %.0f (ratio %.3f, median "
            + "of %d paired rounds; %d sorts counted)%n%n",
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

  /**
   * Hadoop's {@code NNThroughputBenchmark} over RPC against each NameNode in alternating
   * rounds, its threads on one client off the cluster (every open is a balanced choice, every
   * new block a placement with no local writer): {@code open} over files of one block,
   * {@code create} with the first {@code addBlock}, and {@code create} as shipped (no block).
   */
  private Map<String, Object> nnThroughputBenchmark(EmulatedCluster stock, EmulatedCluster ours,
      boolean quick) throws Exception {
    int openFiles = quick ? 4000 : 10000;
    int createFiles = quick ? 2000 : 5000;
    int threads = 16;
    int rounds = quick ? 8 : 20;
    NnThroughputRounds tool = new NnThroughputRounds(stock.conf(), "/nnbench", threads, BLOCK,
        100);
    List<String> names = tool.openFileNames(openFiles);
    writeOneBlockEach(stock, names);
    writeOneBlockEach(ours, names);
    DistributedFileSystem s = (DistributedFileSystem) stock.offClusterFileSystem();
    DistributedFileSystem o = (DistributedFileSystem) ours.offClusterFileSystem();
    BalancingNetworkTopology topology = (BalancingNetworkTopology) ours.datanodeManager()
        .getNetworkTopology();
    // the topology and HM-LRU share one heatmap, which counts the choices of both
    HeatTable heat = topology.heatmap();
    if (((HmLruPlacementPolicy) ours.blockManager().getBlockPlacementPolicy()).heatmap()
        != heat) {
      throw new IllegalStateException("HM-LRU and the balancing topology do not share a heatmap");
    }
    for (int warm = 0; warm < 2; warm++) { // JIT both NameNodes' paths before timing
      tool.open(s, openFiles);
      tool.open(o, openFiles);
      tool.createWithBlock(s, createFiles);
      tool.createWithBlock(o, createFiles);
    }
    long before = heat.choices();
    double[][] open = Interleaved.rounds(rounds, r -> tool.open(s, openFiles),
        r -> tool.open(o, openFiles));
    long sorts = heat.choices() - before;
    double[][] create = Interleaved.rounds(rounds, r -> tool.createWithBlock(s, createFiles),
        r -> tool.createWithBlock(o, createFiles));
    double[][] createNoBlock = Interleaved.rounds(rounds, r -> tool.create(s, createFiles),
        r -> tool.create(o, createFiles));
    long placements = heat.choices() - before - sorts;
    if (sorts < (long) rounds * openFiles || placements < (long) rounds * createFiles) {
      throw new IllegalStateException("our plugins were not on the path: " + sorts
          + " sorts, " + placements + " placements counted");
    }
    Stats openRatio = Stats.ratio(open[1], open[0]);
    Stats createRatio = Stats.ratio(create[1], create[0]);
    Stats createNoBlockRatio = Stats.ratio(createNoBlock[1], createNoBlock[0]);
    System.out.printf("%nNNThroughputBenchmark, %d threads off the cluster, %d rounds each "
            + "(ops/s, means):%n  open (%d files of a block): stock %.0f, ours %.0f, ratio "
            + "%.3f +- %.3f%n  create + addBlock (%d files): stock %.0f, ours %.0f, ratio "
            + "%.3f +- %.3f%n  create as shipped (no block): stock %.0f, ours %.0f, ratio "
            + "%.3f +- %.3f%n%n", threads, rounds,
        openFiles, mean(open[0]), mean(open[1]), openRatio.mean, openRatio.ci95,
        createFiles, mean(create[0]), mean(create[1]), createRatio.mean, createRatio.ci95,
        mean(createNoBlock[0]), mean(createNoBlock[1]), createNoBlockRatio.mean,
        createNoBlockRatio.ci95);
    Map<String, Object> summary = new LinkedHashMap<>();
    openRatio.putInto(summary, "nnbench_open_ratio");
    createRatio.putInto(summary, "nnbench_create_ratio");
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("setup", Map.of("datanodes", 8, "threads", threads, "client", "off the cluster",
        "open_files", openFiles, "create_files", createFiles, "rounds", rounds,
        "ours", "BalancingNetworkTopology, HmLruPlacementPolicy, ReadPlanPlugin"));
    doc.put("open_stock_ops_per_sec", open[0]);
    doc.put("open_ours_ops_per_sec", open[1]);
    doc.put("create_with_block_stock_ops_per_sec", create[0]);
    doc.put("create_with_block_ours_ops_per_sec", create[1]);
    doc.put("create_no_block_stock_ops_per_sec", createNoBlock[0]);
    doc.put("create_no_block_ours_ops_per_sec", createNoBlock[1]);
    doc.put("create_no_block_ratio", createNoBlockRatio.json());
    doc.put("sorts_counted", sorts);
    doc.put("placements_counted", placements);
    return doc;
  }

  private static double mean(double[] v) {
    return Arrays.stream(v).average().orElse(Double.NaN);
  }

  /**
   * One block each, written by parallel writers from the DataNode hosts in turn. A file's
   * close asks the NameNode to complete it until its block is reported, waiting 400 ms at
   * first by default (a few files a second per writer): these clients wait 10 ms.
   */
  private static void writeOneBlockEach(EmulatedCluster c, List<String> paths) throws Exception {
    byte[] data = new byte[BLOCK];
    int writers = 8;
    List<FileSystem> clients = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      for (int w = 0; w < writers; w++) {
        Configuration conf = c.hostConf(w % c.size());
        conf.setInt(HdfsClientConfigKeys.BlockWrite.LOCATEFOLLOWINGBLOCK_INITIAL_DELAY_MS_KEY,
            10);
        clients.add(FileSystem.newInstance(c.uri(), conf));
      }
      List<Future<?>> writes = new ArrayList<>();
      for (int i = 0; i < paths.size(); i++) {
        FileSystem fs = clients.get(i % writers);
        Path p = new Path(paths.get(i));
        writes.add(pool.submit(() -> {
          try (FSDataOutputStream out = fs.create(p, (short) 3)) {
            out.write(data);
          }
          return null;
        }));
      }
      for (Future<?> w : writes) {
        w.get();
      }
    } finally {
      pool.shutdownNow();
      for (FileSystem fs : clients) {
        fs.close();
      }
    }
  }

  /** Stock as shipped, or with our three NameNode plugins as docs/operating.md sets them. */
  private static EmulatedCluster start(File outDir, String name, boolean ourPlugins)
      throws Exception {
    EmulatedClusterBuilder b = EmulatedCluster.builder().dataNodes(8).racks(2)
        .blockSize(BLOCK).baseDir(new File(outDir, "nn-cost-" + name))
        .set(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, "0");
    if (ourPlugins) {
      b.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, BalancingNetworkTopology.class.getName())
          .set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
              HmLruPlacementPolicy.class.getName())
          .set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReadPlanPlugin.class.getName());
    }
    return b.start();
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
