package org.opass.tools.bench.opass;

import java.io.File;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.AvailableSpaceBlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.opass.placement.HmLruKeys;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Charts;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.EmulatedClusterBuilder;
import org.opass.tools.cluster.Workload;
import org.opass.tools.cluster.WorkloadResult;
import org.opass.tools.sim.DiskModel;

/**
 * The parallel-write experiment of Opass §5.1.5 on the emulated cluster: W writers spread
 * evenly over the DataNode hosts, each writing B blocks with replication 3, under stock
 * default placement (as shipped, considerLoad on), stock AvailableSpaceBlockPlacementPolicy
 * and HM-LRU, in one run. Plus the NameNode cost of placement (chooseTarget throughput).
 */
public final class WriteBench implements Bench {
  static final int DATANODES = 16;
  static final int RACKS = 2;
  static final long BLOCK = 1 << 20;
  /** Per-DataNode write throttle: what makes a hot DataNode slow in wall-clock time. */
  static final long WRITE_BYTES_PER_SEC = 4L << 20;

  /**
   * @param balancedPipelines whether each writer names its pipeline as favored nodes, a
   *     static schedule in which every DataNode carries the same number of pipelines at every
   *     moment while all write: what is left of the imbalance then is not placement's
   */
  record SystemUnderTest(String name, String policyClass, Map<String, String> conf,
      boolean balancedPipelines) {
    SystemUnderTest(String name, String policyClass, Map<String, String> conf) {
      this(name, policyClass, conf, false);
    }
  }

  static final List<SystemUnderTest> SYSTEMS = List.of(
      new SystemUnderTest("stock", BlockPlacementPolicyDefault.class.getName(), Map.of()),
      new SystemUnderTest("available-space", AvailableSpaceBlockPlacementPolicy.class.getName(),
          Map.of()),
      // as shipped: the in-flight ranking, 8 candidates
      new SystemUnderTest("hm-lru", HmLruPlacementPolicy.class.getName(), Map.of()));
  /** Algorithm 3 as the paper has it: 3 candidates, the rank sum of heat and recency. */
  static final SystemUnderTest PAPER = new SystemUnderTest("hm-lru-paper",
      HmLruPlacementPolicy.class.getName(),
      Map.of(HmLruKeys.RANKING, "rank-sum", HmLruKeys.CANDIDATES, "3"));
  /** The same load on every DataNode at every moment, by favored nodes (a reference). */
  static final SystemUnderTest BALANCED_STATIC = new SystemUnderTest("balanced-static",
      BlockPlacementPolicyDefault.class.getName(), Map.of(), true);
  /** Full runs also measure the heat-first ranking against the paper's rank sum. */
  static final SystemUnderTest HEAT_FIRST = new SystemUnderTest("hm-lru-heat-first",
      HmLruPlacementPolicy.class.getName(), Map.of(HmLruKeys.RANKING, "heat-first"));

  private final DiskModel disk;
  /** "write", or "write-seek" under the seeking disk model. */
  private final String name;

  public WriteBench(DiskModel disk) {
    this.disk = disk;
    this.name = disk == DiskModel.FAIR_SHARE ? "write" : "write-seek";
  }

  /** The imbalance cut's 95% interval a run aims for (half-width), at the largest writer count. */
  static final double CUT_CI_GOAL = 0.10;

  /**
   * Repetitions are rounds: every system's cluster stays up, and each round runs every writer
   * count on every system in turn, so a slow moment of the machine hits all systems alike and
   * round r of stock pairs with round r of HM-LRU. Rounds go on until the imbalance cut's
   * interval at the largest writer count is within {@link #CUT_CI_GOAL}, between a minimum and
   * a maximum number of rounds.
   */
  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    // quick: only the writer count the targets are about, and the two systems they compare
    int[] writerCounts = quick ? new int[] {64} : new int[] {16, 32, 64};
    int blocksPerWriter = quick ? 8 : 16;
    int minRounds = quick ? 4 : 3;
    int maxRounds = quick ? 20 : 12;
    List<SystemUnderTest> systems = new ArrayList<>(quick
        ? List.of(SYSTEMS.get(0), SYSTEMS.get(2)) : SYSTEMS);
    systems.add(PAPER);
    systems.add(BALANCED_STATIC);
    if (!quick) {
      systems.add(HEAT_FIRST);
    }
    int largest = writerCounts[writerCounts.length - 1];
    // runs.get(system).get(writers) = list over rounds
    Map<String, Map<Integer, List<Run>>> runs = new LinkedHashMap<>();
    List<EmulatedCluster> clusters = new ArrayList<>();
    try {
      for (SystemUnderTest sut : systems) {
        EmulatedClusterBuilder builder = EmulatedCluster.builder().dataNodes(DATANODES)
            .racks(RACKS).blockSize(BLOCK).writeBandwidthPerDataNode(WRITE_BYTES_PER_SEC)
            .disk(disk).baseDir(new File(outDir, name + "-cluster/" + sut.name()))
            .set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, sut.policyClass());
        sut.conf().forEach(builder::set);
        clusters.add(builder.start());
        runs.put(sut.name(), new LinkedHashMap<>());
      }
      for (int round = 0; round < maxRounds; round++) {
        for (int writers : writerCounts) {
          for (int k = 0; k < systems.size(); k++) {
            String system = systems.get(k).name();
            Run r = runOnce(clusters.get(k), writers, blocksPerWriter,
                "/bench/" + writers + "-" + round, systems.get(k).balancedPipelines());
            runs.get(system).computeIfAbsent(writers, x -> new ArrayList<>()).add(r);
            System.err.printf("%s: round %d %-16s %3d writers: bw %.3f/%.3f/%.3f MB/s, "
                    + "stored max/mean %.2f, makespan %.1f s%n", name, round + 1, system,
                writers, r.bwMin(), r.bwAvg(), r.bwMax(), r.storedMaxOverMean(),
                r.makespanSec());
          }
        }
        Stats cut = imbalanceCut(runs, "hm-lru", largest);
        System.out.printf(Locale.ROOT, "  round %d: imbalance cut at %d writers %s%n",
            round + 1, largest, cut);
        if (round + 1 >= minRounds && cut.ci95 <= CUT_CI_GOAL) {
          break;
        }
      }
    } finally {
      for (EmulatedCluster c : clusters) {
        c.close();
      }
    }
    // placement's NameNode cost does not depend on the disks
    ChooseTargetThroughput.Result ct = disk != DiskModel.FAIR_SHARE ? null
        : ChooseTargetThroughput.run(new File(outDir, "choose-target"), 1000, 20,
            quick ? 5000 : 20000, quick ? 5 : 9);

    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary(runs, largest, ct));
    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put("datanodes", DATANODES);
    setup.put("racks", RACKS);
    setup.put("block_bytes", BLOCK);
    setup.put("write_throttle_bytes_per_sec_per_datanode", WRITE_BYTES_PER_SEC);
    setup.put("blocks_per_writer", blocksPerWriter);
    setup.put("writer_counts", writerCounts);
    setup.put("rounds", runs.get("stock").get(largest).size());
    setup.put("rounds_min_max", new int[] {minRounds, maxRounds});
    setup.put("imbalance_cut_ci95_goal", CUT_CI_GOAL);
    setup.put("quick", quick);
    setup.put("disk", disk.toString());
    doc.put("setup", setup);
    Map<String, Object> results = new LinkedHashMap<>();
    runs.forEach((sys, bySize) -> {
      Map<String, Object> m = new LinkedHashMap<>();
      bySize.forEach((w, list) -> m.put(String.valueOf(w), list.stream().map(Run::toMap).toList()));
      results.put(sys, m);
    });
    doc.put("runs", results);
    if (ct != null) {
      doc.put("choose_target", ct.toMap());
    }
    printTable(runs, writerCounts, ct);
    File png = new File(outDir, name + ".png");
    Charts.write(png, charts(runs, largest));
    System.out.println("chart: " + png);
    return doc;
  }

  /** One workload's figures. Bandwidths in MB/s (2^20 bytes), times in seconds. */
  record Run(int writers, double[] writerBandwidth, int[] storedPerDataNode,
      double[] sortedChunkFinish, double makespanSec) {
    double bwMin() {
      return Arrays.stream(writerBandwidth).min().orElse(0);
    }

    double bwMax() {
      return Arrays.stream(writerBandwidth).max().orElse(0);
    }

    double bwAvg() {
      return Arrays.stream(writerBandwidth).average().orElse(0);
    }

    double imbalance() {
      return bwMax() - bwMin();
    }

    /** Coefficient of variation of the writers' bandwidth (population standard deviation). */
    double bwCv() {
      double mean = bwAvg();
      double var = Arrays.stream(writerBandwidth).map(b -> (b - mean) * (b - mean)).average()
          .orElse(0);
      return mean == 0 ? 0 : Math.sqrt(var) / mean;
    }

    /** The writers' bandwidth at quantile q (nearest rank), over their mean. */
    double bwQuantileOverMean(double q) {
      double[] sorted = Arrays.stream(writerBandwidth).sorted().toArray();
      int i = Math.min(sorted.length - 1, Math.max(0, (int) Math.ceil(q * sorted.length) - 1));
      return sorted[i] / bwAvg();
    }

    double storedMaxOverMean() {
      double mean = Arrays.stream(storedPerDataNode).average().orElse(0);
      return Arrays.stream(storedPerDataNode).max().orElse(0) / mean;
    }

    Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("writer_bw_mb_s", Map.of("min", bwMin(), "avg", bwAvg(), "max", bwMax()));
      m.put("imbalance_mb_s", imbalance());
      m.put("stored_blocks_per_datanode", storedPerDataNode);
      m.put("stored_max_over_mean", storedMaxOverMean());
      m.put("makespan_s", makespanSec);
      m.put("writer_bw_mb_s_each", writerBandwidth);
      m.put("sorted_chunk_finish_s", sortedChunkFinish);
      return m;
    }
  }

  static Run runOnce(EmulatedCluster cluster, int writers, int blocks, String dirName,
      boolean balancedPipelines) throws Exception {
    Path dir = new Path(dirName);
    Workload w = new Workload(cluster);
    IntFunction<InetSocketAddress[]> favored = balancedPipelines
        ? p -> balancedPipeline(cluster, p) : null;
    for (int p = 0; p < writers; p++) {
      w.process(p % cluster.size(), Workload.writeFiles(dir, blocks, (short) 3, favored));
    }
    WorkloadResult result = w.run();
    int[] stored = new int[cluster.size()];
    for (int p = 0; p < writers; p++) {
      for (Set<Integer> holders : cluster.replicas().holders(Workload.fileOf(dir, p))) {
        for (int dn : holders) {
          stored[dn]++;
        }
      }
    }
    double[] bw = result.processes().stream().mapToDouble(pr -> pr.bandwidth() / (1 << 20))
        .toArray();
    double[] finish = result.processes().stream().flatMap(pr -> pr.chunks().stream())
        .mapToDouble(c -> c.finishNanos() / 1e9).sorted().toArray();
    // free the space and let heartbeats report the DataNodes idle before the next run
    FileSystem fs = FileSystem.newInstance(cluster.uri(), cluster.conf());
    try {
      fs.delete(dir, true);
    } finally {
      fs.close();
    }
    Thread.sleep(3000);
    return new Run(writers, bw, stored, finish, result.makespanNanos() / 1e9);
  }

  private static double mean(List<Run> runs, ToDoubleFunction<Run> f) {
    return runs.stream().mapToDouble(f).average().orElse(Double.NaN);
  }

  /** 1 - the system's mean imbalance over stock's, rounds paired. */
  private static Stats imbalanceCut(Map<String, Map<Integer, List<Run>>> runs, String system,
      int writers) {
    return Stats.cut(Stats.each(runs.get(system).get(writers), Run::imbalance),
        Stats.each(runs.get("stock").get(writers), Run::imbalance));
  }

  /**
   * Writer p's pipeline in the balanced static schedule: its own DataNode, then two of the
   * other rack. The writers of a rack, numbered j = 0, 1, ..., send their second replica to
   * node 2j and their third to node 2j + 1 of the other rack (mod its size), so with a whole
   * number of writers per DataNode host every node of a rack receives the same number of
   * pipelines from the other rack, and every DataNode carries the same load while all write.
   */
  static InetSocketAddress[] balancedPipeline(EmulatedCluster cluster, int process) {
    int n = cluster.size();
    int perRack = n / RACKS;
    int host = process % n;
    int rack = host / perRack;
    int j = process / n * perRack + host % perRack;
    int other = (rack + 1) % RACKS * perRack;
    return new InetSocketAddress[] {cluster.dataNode(host).getXferAddress(),
        cluster.dataNode(other + 2 * j % perRack).getXferAddress(),
        cluster.dataNode(other + (2 * j + 1) % perRack).getXferAddress()};
  }

  private static Stats makespanRatio(Map<String, Map<Integer, List<Run>>> runs, String system,
      int writers) {
    return Stats.ratio(Stats.each(runs.get(system).get(writers), Run::makespanSec),
        Stats.each(runs.get("stock").get(writers), Run::makespanSec));
  }

  /** Each ratio as the ratio of the means over rounds, with its 95% interval ({@code _ci95}). */
  static Map<String, Object> summary(Map<String, Map<Integer, List<Run>>> runs, int largest,
      ChooseTargetThroughput.Result ct) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("writers", largest);
    s.put("rounds", runs.get("stock").get(largest).size());
    Stats cut = imbalanceCut(runs, "hm-lru", largest);
    cut.putInto(s, "imbalance_cut");
    s.put("imbalance_cut_ci_low", cut.low());
    Stats.of(Stats.each(runs.get("hm-lru").get(largest), Run::storedMaxOverMean))
        .putInto(s, "stored_max_over_mean");
    makespanRatio(runs, "hm-lru", largest).putInto(s, "makespan_ratio");
    if (ct != null) {
      s.put("choose_target_ratio", ct.ratio());
      ct.meanRatio().putInto(s, "choose_target_mean_ratio");
    }
    Stats.of(Stats.each(runs.get("stock").get(largest), Run::storedMaxOverMean))
        .putInto(s, "stock_stored_max_over_mean");
    // max - min is one lucky writer against one unlucky one; the spread of all writers too
    for (String sys : runs.keySet()) {
      String prefix = sys.equals("hm-lru") ? "" : sys.replace('-', '_') + "_";
      List<Run> l = runs.get(sys).get(largest);
      Stats.of(Stats.each(l, Run::bwCv)).putInto(s, prefix + "writer_bw_cv");
      Stats.of(Stats.each(l, r -> r.bwQuantileOverMean(0.1)))
          .putInto(s, prefix + "writer_bw_p10_over_mean");
      Stats.of(Stats.each(l, r -> r.bwQuantileOverMean(0.9)))
          .putInto(s, prefix + "writer_bw_p90_over_mean");
    }
    putOthers(s, runs, BALANCED_STATIC.name(), "balanced_static", largest);
    putOthers(s, runs, PAPER.name(), "paper", largest);
    if (runs.containsKey("available-space")) {
      imbalanceCut(runs, "available-space", largest).putInto(s, "available_space_imbalance_cut");
    }
    putOthers(s, runs, HEAT_FIRST.name(), "heat_first", largest);
    return s;
  }

  /**
   * A system beside the default, if it ran: its imbalance cut, stored max/mean and makespan
   * ratio, under {@code prefix}.
   */
  private static void putOthers(Map<String, Object> s, Map<String, Map<Integer, List<Run>>> runs,
      String system, String prefix, int largest) {
    if (!runs.containsKey(system)) {
      return;
    }
    imbalanceCut(runs, system, largest).putInto(s, prefix + "_imbalance_cut");
    Stats.of(Stats.each(runs.get(system).get(largest), Run::storedMaxOverMean))
        .putInto(s, prefix + "_stored_max_over_mean");
    makespanRatio(runs, system, largest).putInto(s, prefix + "_makespan_ratio");
  }

  private static void printTable(Map<String, Map<Integer, List<Run>>> runs, int[] writerCounts,
      ChooseTargetThroughput.Result ct) {
    System.out.println();
    System.out.printf("%-8s %-16s %8s %8s %8s %10s %12s %10s%n", "writers", "placement",
        "bw min", "bw avg", "bw max", "imbalance", "stored max/", "makespan");
    System.out.printf("%-8s %-16s %8s %8s %8s %10s %12s %10s%n", "", "", "MB/s", "MB/s", "MB/s",
        "MB/s", "mean", "s");
    for (int w : writerCounts) {
      for (String sys : runs.keySet()) {
        List<Run> l = runs.get(sys).get(w);
        System.out.printf("%-8d %-16s %8.2f %8.2f %8.2f %10.2f %12.2f %10.1f%n", w, sys,
            mean(l, Run::bwMin), mean(l, Run::bwAvg), mean(l, Run::bwMax),
            mean(l, Run::imbalance), mean(l, Run::storedMaxOverMean), mean(l, Run::makespanSec));
      }
    }
    System.out.println();
    for (int w : writerCounts) {
      for (String sys : runs.keySet()) {
        if (!sys.equals("stock")) {
          System.out.printf(Locale.ROOT, "%3d writers, %-16s vs stock: imbalance cut %s, "
              + "makespan ratio %s (95%% intervals over %d rounds)%n", w, sys,
              imbalanceCut(runs, sys, w), makespanRatio(runs, sys, w), runs.get(sys).get(w).size());
        }
      }
    }
    if (ct == null) {
      return;
    }
    System.out.printf("%nchooseTarget on %d simulated DataNodes / %d racks: stock %.0f calls/s, "
            + "HM-LRU %.0f calls/s (ratio %.2f; %d HM-LRU choices counted)%n%n", ct.nodes(),
        ct.racks(), ct.stockCallsPerSec(), ct.hmLruCallsPerSec(), ct.ratio(), ct.hmLruChoices());
  }

  private static List<Charts.Panel> charts(Map<String, Map<Integer, List<Run>>> runs,
      int largest) {
    Map<String, double[]> stored = new LinkedHashMap<>();
    Map<String, double[]> bw = new LinkedHashMap<>();
    for (String sys : runs.keySet()) {
      Run r = runs.get(sys).get(largest).get(0);
      stored.put(sys, Arrays.stream(r.storedPerDataNode()).asDoubleStream().toArray());
      bw.put(sys, Arrays.stream(r.writerBandwidth()).sorted().toArray());
    }
    int writers = runs.get("stock").get(largest).get(0).writers();
    return List.of(
        new Charts.Panel("Blocks stored per DataNode (" + largest + " writers)", "blocks",
            IntStream.range(0, DATANODES).mapToObj(i -> "dn" + i).toList(), stored),
        new Charts.Panel("Per-writer bandwidth, sorted (" + largest + " writers)", "MB/s",
            IntStream.range(0, writers).mapToObj(i -> String.valueOf(i)).toList(), bw));
  }
}
