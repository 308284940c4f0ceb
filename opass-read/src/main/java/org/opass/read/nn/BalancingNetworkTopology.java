package org.opass.read.nn;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.classification.VisibleForTesting;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.util.functional.CallableRaisingIOE;
import org.opass.conf.StrictConf;
import org.opass.heatmap.HeatRules;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.nn.HeatTableFeed;
import org.opass.heatmap.nn.HeatTableRegistry;
import org.opass.plugin.FallbackLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Online read balancing for every {@code getBlockLocations}: after the stock sort (distance,
 * then stale/decommissioned last), the first replica is the reader's local one when there is
 * one and it is not too hot; otherwise the coolest active replica by the NameNode's heatmap
 * (heartbeat transfers + reads granted since that heartbeat), the least recently chosen on
 * ties, and the stock order after that. The choice is recorded as a grant, so the next reader
 * sees it before the next heartbeat does: that is what keeps readers from herding onto the
 * node that looked coolest at the last heartbeat, as stock {@code dfs.namenode.read.considerLoad}
 * does.
 *
 * <p>What counts as a grant: every replica put first for a reader that is not on that
 * DataNode. Each {@code getBlockLocations} grants every block it locates (clients locate ten
 * blocks ahead), so one reader's sequential blocks rotate over the replicas, but not HDFS's
 * repeat sort of the file's last block at the end of the call ({@link CallEffects}). Locating
 * blocks without reading them (split planning, fsck) counts too, until the next heartbeat.
 *
 * <p>Reads covered by a batch read plan ({@link ReadPlanPlugin}) are served by their planned
 * replica instead, as long as it is still active.
 *
 * <p>Loaded with {@code dfs.net.topology.impl}. Any failure leaves the stock order and is
 * logged once. It shares the heatmap with {@code HmLruPlacementPolicy} of the same NameNode.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class BalancingNetworkTopology extends DFSNetworkTopology implements Configurable {
  private static final Logger LOG = LoggerFactory.getLogger(BalancingNetworkTopology.class);

  /**
   * Set while the NameNode locates blocks for planning: no reordering, no grants. The plan
   * service locates blocks as the caller, through the NameNode's own {@code getBlockLocations}
   * (permissions, audit, locks), which ends in {@code DatanodeManager#sortLocatedBlocks} and so
   * in {@link #sortByDistance}; Hadoop passes nothing that says who asks. The flag lives only
   * around that one call on the service's thread ({@link #withoutBalancing}); it carries no
   * state between our overrides. Tested by {@code ReadPlanClusterTest}
   * ({@code planningLocatesBlocksWithoutBalancingThem}).
   */
  private static final ThreadLocal<Boolean> SUSPENDED = new ThreadLocal<>();

  private Configuration conf;
  private volatile HeatTable heatmap;
  private volatile ReadPlanTable plans;
  private boolean enabled = ReadBalanceKeys.ENABLED_DEFAULT;
  private double localMaxHeatRatio = ReadBalanceKeys.LOCAL_MAX_HEAT_RATIO_DEFAULT;
  private long refreshPeriodMillis = 3000;
  private final AtomicLong nextRefreshMillis = new AtomicLong();
  private final FallbackLog fallbacks = new FallbackLog(LOG,
      "Opass read balancing failed; keeping the stock replica order for this and any later "
          + "failure");

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    enabled = StrictConf.bool(conf, ReadBalanceKeys.ENABLED, ReadBalanceKeys.ENABLED_DEFAULT);
    localMaxHeatRatio = StrictConf.positive(conf, ReadBalanceKeys.LOCAL_MAX_HEAT_RATIO,
        ReadBalanceKeys.LOCAL_MAX_HEAT_RATIO_DEFAULT);
    refreshPeriodMillis = conf.getTimeDuration(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
        DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT, TimeUnit.SECONDS, TimeUnit.MILLISECONDS);
    heatmap = HeatTableRegistry.forTopology(this, conf);
    LOG.info("Opass read balancing {}: {} = {}", enabled ? "on" : "off",
        ReadBalanceKeys.LOCAL_MAX_HEAT_RATIO, localMaxHeatRatio);
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  /** The heatmap this topology reads and feeds (shared with our placement policy). */
  public HeatTable heatmap() {
    return heatmap;
  }

  /** The read plans this topology serves, or null when {@link ReadPlanPlugin} is off. */
  public ReadPlanTable plans() {
    return plans;
  }

  /** Read plans to serve before online balancing ({@link ReadPlanPlugin} sets them). */
  public void setPlans(ReadPlanTable plans) {
    this.plans = plans;
  }

  /** Runs {@code action} on this thread with balancing off: stock order, nothing granted. */
  static <T> T withoutBalancing(CallableRaisingIOE<T> action) throws IOException {
    SUSPENDED.set(Boolean.TRUE);
    try {
      return action.apply();
    } finally {
      SUSPENDED.remove();
    }
  }

  /** Replaces the heatmap; for fault-injection tests. */
  @VisibleForTesting
  public void setHeatmap(HeatTable heatmap) {
    this.heatmap = heatmap;
  }

  @Override
  public <T extends Node> void sortByDistance(Node reader, T[] nodes, int activeLen,
      Consumer<List<T>> secondarySort) {
    super.sortByDistance(reader, nodes, activeLen, secondarySort);
    balance(reader, nodes, activeLen);
  }

  @Override
  public <T extends Node> void sortByDistanceUsingNetworkLocation(Node reader, T[] nodes,
      int activeLen, Consumer<List<T>> secondarySort) {
    super.sortByDistanceUsingNetworkLocation(reader, nodes, activeLen, secondarySort);
    balance(reader, nodes, activeLen);
  }

  /** Moves the chosen replica to the front of {@code nodes[0..activeLen)} and grants it. */
  private <T extends Node> void balance(Node reader, T[] nodes, int activeLen) {
    HeatTable h = heatmap;
    if (!enabled || h == null || SUSPENDED.get() != null) {
      return;
    }
    try {
      // before anything else: the previous sort of this call was a read (CallEffects)
      CallEffects effects = CallEffects.begin();
      if (activeLen < 1 || !(nodes[0] instanceof DatanodeInfo)) {
        return;
      }
      DatanodeInfo first = (DatanodeInfo) nodes[0];
      refreshIfDue(h, first.getLastUpdateMonotonic());
      ReadPlanTable p = plans;
      if (p != null && !p.isEmpty() && servePlanned(p, h, effects, reader, nodes, activeLen)) {
        return;
      }
      boolean localFirst = reader != null && reader.equals(first);
      HeatTable.Row firstRow = HeatTableFeed.observeRow(h, first);
      int firstHeat = heat(firstRow);
      h.countChoice();
      if (localFirst && !(HeatRules.mayBeTooHot(firstHeat, localMaxHeatRatio)
          && HeatRules.tooHot(firstHeat, localMaxHeatRatio, h.meanHeat()))) {
        // A kept local read is not granted: one reader's blocks, located ten at a time,
        // would otherwise make its own node look hot and push it off its own data. Local
        // transfers that really run at once show in the heartbeat's count.
        return;
      }
      HeatTable.Row chosen = moveCoolestFirst(h, nodes, activeLen, firstRow);
      // an untracked node (null row) is only counted
      effects.grant(h, chosen, ((DatanodeInfo) nodes[0]).getDatanodeUuid());
    } catch (RuntimeException | LinkageError e) {
      // LinkageError too: mismatched opass jars on a NameNode must not fail reads. The array
      // is only rewritten by the arraycopy in moveCoolestFirst, which cannot fail half-way here.
      fallbacks.record(h, e);
    }
  }

  /**
   * Puts the planned replica first if a live plan covers this reader and holder set and that
   * replica is active; grants it unless it is the reader's own DataNode. A plan never moves a
   * reader off an active local replica: whoever submitted it, it only chooses among remote
   * replicas.
   */
  private static <T extends Node> boolean servePlanned(ReadPlanTable p, HeatTable h,
      CallEffects effects, Node reader, T[] nodes, int activeLen) {
    String readerKey = reader instanceof DatanodeInfo ? ((DatanodeInfo) reader).getIpAddr()
        : reader == null ? null : reader.getName();
    if (readerKey == null || !p.hasReader(readerKey)) {
      return false;
    }
    long key = 0;
    for (T n : nodes) {
      if (!(n instanceof DatanodeInfo)) {
        return false;
      }
      key += ReadPlanTable.holderHash(((DatanodeInfo) n).getDatanodeUuid());
    }
    ReadPlanTable.Claim claim = p.claimFor(readerKey, key);
    if (claim == null) {
      return false;
    }
    effects.take(p, claim);
    if (nodes[0].equals(reader)) {
      return true; // the local replica stays first (the stock sort put it there); no grant
    }
    String server = claim.server();
    for (int i = 0; i < activeLen; i++) {
      if (((DatanodeInfo) nodes[i]).getDatanodeUuid().equals(server)) {
        T node = nodes[i];
        System.arraycopy(nodes, 0, nodes, 1, i);
        nodes[0] = node;
        effects.grant(h, null, server);
        return true;
      }
    }
    return false; // the planned replica went stale or out of service: balance online
  }

  /**
   * Moves the coolest replica of {@code nodes[0..activeLen)}, least recently chosen on ties,
   * to the front (the rest keep their order) and returns its heat row.
   */
  private static <T extends Node> HeatTable.Row moveCoolestFirst(HeatTable h, T[] nodes,
      int activeLen, HeatTable.Row firstRow) {
    HeatTable.Row best = firstRow;
    int bestIndex = 0;
    int bestHeat = heat(firstRow);
    for (int i = 1; i < activeLen; i++) {
      if (!(nodes[i] instanceof DatanodeInfo)) {
        continue;
      }
      HeatTable.Row row = HeatTableFeed.observeRow(h, (DatanodeInfo) nodes[i]);
      int heat = heat(row);
      if (HeatRules.cooler(heat, row, bestHeat, best)) {
        best = row;
        bestIndex = i;
        bestHeat = heat;
      }
    }
    if (bestIndex > 0) {
      T node = nodes[bestIndex];
      System.arraycopy(nodes, 0, nodes, 1, bestIndex);
      nodes[0] = node;
    }
    return best;
  }

  /** An untracked node (the table is full) has heat 0. */
  private static int heat(HeatTable.Row row) {
    return row == null ? 0 : row.heat();
  }

  /**
   * Once per heartbeat interval every DataNode is observed, so the mean heat is current. The
   * interval is read off the heartbeat times of the replicas located, not a clock: that costs
   * nothing per block, and the heat changes only when heartbeats arrive.
   */
  private void refreshIfDue(HeatTable h, long heartbeatMillis) {
    long due = nextRefreshMillis.get();
    if (heartbeatMillis >= due
        && nextRefreshMillis.compareAndSet(due, heartbeatMillis + refreshPeriodMillis)) {
      HeatTableFeed.observeAll(h, this);
    }
  }

  /**
   * The NameNode calls this when it declares a DataNode dead or removes it (decommissioned and
   * excluded, re-registered elsewhere): its heat row goes with it, so a dead node never counts
   * in the mean heat.
   */
  @Override
  public void remove(Node node) {
    super.remove(node);
    HeatTable h = heatmap;
    if (h != null && node instanceof DatanodeInfo) {
      try {
        h.forget(((DatanodeInfo) node).getDatanodeUuid());
      } catch (RuntimeException | LinkageError e) {
        fallbacks.record(h, e);
      }
    }
  }
}
