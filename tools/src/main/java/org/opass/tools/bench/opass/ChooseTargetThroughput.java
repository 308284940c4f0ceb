package org.opass.tools.bench.opass;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.SimulatedPlacementCluster;
import org.apache.hadoop.net.Node;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.tools.bench.Interleaved;
import org.opass.tools.bench.Stats;

/**
 * NameNode cost of placement: {@code chooseTarget} calls per second of HM-LRU and of the
 * default policy on the same simulated cluster shape (a real NameNode, simulated DataNodes),
 * timed in interleaved rounds in one JVM so that drift hits both alike.
 */
public final class ChooseTargetThroughput {

  /**
   * Result: calls per second (median over rounds), the ratio of the mean rates over the paired
   * rounds with its interval, and how many HM-LRU choices were made.
   */
  public record Result(int nodes, int racks, int callsPerRound, int rounds,
      double stockCallsPerSec, double hmLruCallsPerSec, Stats meanRatio, long hmLruChoices,
      long hmLruCalls) {
    public double ratio() {
      return hmLruCallsPerSec / stockCallsPerSec;
    }

    Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("nodes", nodes);
      m.put("racks", racks);
      m.put("calls_per_round", callsPerRound);
      m.put("rounds", rounds);
      m.put("stock_calls_per_sec", stockCallsPerSec);
      m.put("hmlru_calls_per_sec", hmLruCallsPerSec);
      m.put("ratio", ratio());
      m.put("mean_ratio", meanRatio.json());
      m.put("hmlru_calls", hmLruCalls);
      m.put("hmlru_candidate_choices", hmLruChoices);
      return m;
    }
  }

  private ChooseTargetThroughput() {
  }

  public static Result run(File dir, int nodes, int racks, int callsPerRound, int rounds)
      throws Exception {
    try {
      return measure(dir, nodes, racks, callsPerRound, rounds);
    } finally {
      FileUtil.fullyDelete(dir); // the two NameNodes' name directories
    }
  }

  private static Result measure(File dir, int nodes, int racks, int callsPerRound, int rounds)
      throws Exception {
    try (SimulatedPlacementCluster stock = SimulatedPlacementCluster.start(new File(dir, "stock"),
            nodes, racks, Map.of(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
                BlockPlacementPolicyDefault.class.getName()), null);
        SimulatedPlacementCluster ours = SimulatedPlacementCluster.start(new File(dir, "hmlru"),
            nodes, racks, Map.of(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
                HmLruPlacementPolicy.class.getName()), null)) {
      HmLruPlacementPolicy policy = (HmLruPlacementPolicy) ours.policy();
      // warm-up: JIT both code paths
      timeRound(stock, callsPerRound, 1);
      timeRound(ours, callsPerRound, 1);
      long choicesBefore = policy.heatmap().choices();
      // after each timed round a heartbeat, as on a real cluster (it also resets grants)
      double[][] so = Interleaved.rounds(rounds,
          r -> heartbeatAfter(stock, timeRound(stock, callsPerRound, 100 + r)),
          r -> heartbeatAfter(ours, timeRound(ours, callsPerRound, 100 + r)));
      long choices = policy.heatmap().choices() - choicesBefore;
      if (choices == 0) {
        throw new IllegalStateException("HM-LRU made no choice: its code did not run");
      }
      return new Result(nodes, racks, callsPerRound, rounds, Interleaved.median(so[0]),
          Interleaved.median(so[1]), Stats.ratio(so[1], so[0]), choices,
          (long) callsPerRound * rounds);
    }
  }

  /** Calls per second for one round; two of three writers are DataNodes, one is remote. */
  private static double timeRound(SimulatedPlacementCluster c, int calls, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    BlockStoragePolicy hot = c.storagePolicy("HOT");
    List<Node> writers = new ArrayList<>(calls);
    for (int i = 0; i < calls; i++) {
      writers.add(i % 3 == 2 ? null : c.dataNode(r.nextInt(c.dataNodes().length)));
    }
    long sink = 0;
    long t0 = System.nanoTime();
    for (Node w : writers) {
      DatanodeStorageInfo[] t = c.chooseTarget(3, w, null, hot);
      sink += t.length;
    }
    long t1 = System.nanoTime();
    if (sink != 3L * calls) {
      throw new IllegalStateException("expected 3 targets per call, got " + sink + "/" + calls);
    }
    return calls / ((t1 - t0) / 1e9);
  }

  private static double heartbeatAfter(SimulatedPlacementCluster c, double rate) {
    c.heartbeatAll(0);
    return rate;
  }
}
