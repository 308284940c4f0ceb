package org.opass.tools.soak;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.net.NetworkTopology;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.nn.HeatTableRegistry;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * A heatmap clock that can jump, installed in a running NameNode in place of its heatmap (for
 * placement and reads alike): {@code System.nanoTime()} plus an offset that faults move forward
 * (past the forget-after time: every row is swept) and back (sweeps stop until the clock catches
 * up). The table keeps the NameNode's limits.
 */
final class HeatTableClock {
  private final AtomicLong offsetNanos = new AtomicLong();
  private HeatTable installedIn;

  /** Jumps by {@code by} (negative: back), installing the clock first if the NameNode is new. */
  synchronized void jump(EmulatedCluster cluster, Duration by) {
    NetworkTopology topology = cluster.datanodeManager().getNetworkTopology();
    HeatTable current = topology instanceof BalancingNetworkTopology
        ? ((BalancingNetworkTopology) topology).heatmap() : null;
    if (current != null && current != installedIn) {
      HeatTable h = HeatTable.builder().maxNodes(current.maxNodes())
          .forgetAfter(Duration.ofMillis(cluster.conf().getLong(
              org.opass.heatmap.nn.HeatmapKeys.FORGET_AFTER_MS,
              org.opass.heatmap.nn.HeatmapKeys.FORGET_AFTER_MS_DEFAULT)))
          .nanoClock(() -> System.nanoTime() + offsetNanos.get()).build();
      HeatTableRegistry.install(topology, h);
      ((BalancingNetworkTopology) topology).setHeatmap(h);
      BlockPlacementPolicy policy = cluster.blockManager().getBlockPlacementPolicy();
      if (policy instanceof HmLruPlacementPolicy) {
        ((HmLruPlacementPolicy) policy).setHeatmap(h);
      }
      installedIn = h;
    }
    offsetNanos.addAndGet(by.toNanos());
  }
}
