package org.opass.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.classification.VisibleForTesting;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.FSClusterStats;
import org.apache.hadoop.hdfs.server.blockmanagement.OpassPlacementPolicyBase;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.util.Time;
import org.opass.conf.StrictConf;
import org.opass.heatmap.HeatRules;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.nn.HeatTableFeed;
import org.opass.heatmap.nn.HeatTableRegistry;
import org.opass.plugin.FallbackLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HM-LRU write placement (Opass Algorithm 3) as a small subclass of the default policy.
 *
 * <p>Wherever the default draws one random DataNode ({@link #chooseDataNode}), this draws up to
 * {@value HmLruKeys#CANDIDATES_DEFAULT} distinct candidates from the same scope and exclusions
 * and keeps the one with the fewest writes in flight, then the coolest, then the least
 * recently selected ({@link HmLru}; {@link HmLruKeys#RANKING} also offers Algorithm 3's rank
 * sum). Writes in flight are the NameNode's own count of blocks scheduled on a node and not
 * yet reported received ({@code DatanodeDescriptor#getBlocksScheduled}), exact between
 * heartbeats, where heat is partly a heartbeat old. Everything else —
 * rack fault tolerance, excluded and favored nodes, storage types, stale, decommissioning and
 * overloaded exclusion, max nodes per rack, verification — is the parent's, because the parent
 * still checks every node we return. Every chosen target is recorded in the NameNode's
 * {@link HeatTable} so that the next choice sees it before the next heartbeat does.
 *
 * <p>Any failure in our code falls back to the default's own random draw, logged once.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class HmLruPlacementPolicy extends OpassPlacementPolicyBase {
  private static final Logger LOG = LoggerFactory.getLogger(HmLruPlacementPolicy.class);

  private volatile HeatTable heatmap;
  private FSClusterStats clusterStats;
  private int candidates = HmLruKeys.CANDIDATES_DEFAULT;
  private double localMaxHeatRatio = HmLruKeys.LOCAL_MAX_HEAT_RATIO_DEFAULT;
  /** How candidates are compared ({@link HmLruKeys#RANKING}). */
  private enum Ranking { RANK_SUM, HEAT_FIRST, IN_FLIGHT }

  private Ranking ranking = Ranking.IN_FLIGHT;
  private final FallbackLog fallbacks = new FallbackLog(LOG,
      "HM-LRU failed; using the default placement for this and any later failure");
  private final AtomicLong nextRefreshMillis = new AtomicLong();
  private volatile ScopeIndex<DatanodeDescriptor> scopeIndex;

  /**
   * The scope {@link #chooseLocalStorage} hands the parent's {@code chooseRandom} for the first
   * replica of a writer that is no DataNode: the whole cluster (equal to {@code NodeBase.ROOT},
   * so whatever else reads it sees the root), told apart by identity in {@link #choose}, which
   * then lets the default's draw pick the rack and HM-LRU the node in it. This is how that one
   * decision reaches {@code chooseDataNode} without state beside the call: {@code chooseRandom}
   * passes its scope to {@code chooseDataNode} and uses it for nothing else (Hadoop 3.3.6 to
   * 3.5.0, checked in their sources and bytecode).
   */
  private static final String ROOT_RACK_OF_DEFAULT_DRAW = new String(NodeBase.ROOT);

  @Override
  protected void initialize(Configuration conf, FSClusterStats stats,
      NetworkTopology clusterMap) {
    candidates = StrictConf.atLeast(conf, HmLruKeys.CANDIDATES, 1,
        HmLruKeys.CANDIDATES_DEFAULT);
    localMaxHeatRatio = StrictConf.positive(conf, HmLruKeys.LOCAL_MAX_HEAT_RATIO,
        HmLruKeys.LOCAL_MAX_HEAT_RATIO_DEFAULT);
    String rankingName = StrictConf.oneOf(conf, HmLruKeys.RANKING, HmLruKeys.RANKING_DEFAULT,
        "rank-sum", "heat-first", "in-flight");
    ranking = Ranking.valueOf(rankingName.toUpperCase(Locale.ROOT).replace('-', '_'));
    clusterStats = stats;
    heatmap = HeatTableRegistry.forTopology(clusterMap, conf);
    LOG.info("HM-LRU block placement initialized: {} = {}, {} = {}, {} = {}",
        HmLruKeys.CANDIDATES, candidates, HmLruKeys.LOCAL_MAX_HEAT_RATIO, localMaxHeatRatio,
        HmLruKeys.RANKING, rankingName);
  }

  /** The heatmap this policy reads and feeds. */
  public HeatTable heatmap() {
    return heatmap;
  }

  /** Replaces the heatmap; for fault-injection tests. */
  @VisibleForTesting
  public void setHeatmap(HeatTable heatmap) {
    this.heatmap = heatmap;
  }

  // ---- where the default draws a random node -------------------------------------------

  @Override
  protected DatanodeDescriptor chooseDataNode(String scope, Collection<Node> excludedNodes,
      StorageType type) {
    return choose(scope, excludedNodes, type,
        () -> super.chooseDataNode(scope, excludedNodes, type));
  }

  @Override
  protected DatanodeDescriptor chooseDataNode(String scope, Collection<Node> excludedNodes) {
    return choose(scope, excludedNodes, null, () -> super.chooseDataNode(scope, excludedNodes));
  }

  /**
   * Draws up to {@code candidates} distinct random nodes of {@code scope} that pass the
   * filters of the default's draw and keeps the HM-LRU choice. The draw uses a
   * {@link ScopeIndex} because the topology's own chooseRandom re-resolves every excluded
   * node's path per call (three such draws made chooseTarget 4x slower than the default on
   * 1000 nodes). When the index yields nothing, or anything fails, the default's draw decides.
   */
  private DatanodeDescriptor choose(String scope, Collection<Node> excludedNodes,
      StorageType type, Supplier<DatanodeDescriptor> defaultDraw) {
    if (candidates == 1) {
      return defaultDraw.get();
    }
    DatanodeDescriptor[] drawn;
    int n;
    HeatTable h;
    try {
      h = heatmap;
      refreshIfDue(h);
      drawn = new DatanodeDescriptor[candidates];
      if (scope == ROOT_RACK_OF_DEFAULT_DRAW) { // identity: see the field
        // the default's draw picks the rack, HM-LRU the node in it (see chooseLocalStorage)
        DatanodeDescriptor first = defaultDraw.get();
        if (first == null) {
          return null;
        }
        drawn[0] = first;
        n = draw(drawn, 1, first.getNetworkLocation(), excludedNodes, type);
      } else {
        n = draw(drawn, 0, scope, excludedNodes, type);
      }
    } catch (RuntimeException | LinkageError e) {
      fellBack(e);
      return defaultDraw.get();
    }
    if (n == 0) {
      return defaultDraw.get();
    }
    try {
      int[] heat = new int[n];
      long[] lastSelected = new long[n];
      for (int i = 0; i < n; i++) {
        // one lookup per candidate: the row answers both (null: untracked, heat 0, never chosen)
        HeatTable.Row row = HeatTableFeed.observeRow(h, drawn[i]);
        heat[i] = row == null ? 0 : row.heat();
        lastSelected[i] = row == null ? Long.MIN_VALUE : row.lastSelectedNanos();
      }
      h.countChoice();
      ThreadLocalRandom random = ThreadLocalRandom.current();
      switch (ranking) {
        case IN_FLIGHT:
          int[] writes = new int[n];
          for (int i = 0; i < n; i++) {
            // the NameNode's own count: up on each new block's targets, down on each replica
            // an incremental block report says received
            writes[i] = drawn[i].getBlocksScheduled();
          }
          return drawn[HmLru.chooseInFlightFirst(writes, heat, lastSelected, n, random)];
        case HEAT_FIRST:
          return drawn[HmLru.chooseHeatFirst(heat, lastSelected, n, random)];
        default:
          return drawn[HmLru.choose(heat, lastSelected, n, random)];
      }
    } catch (RuntimeException | LinkageError e) {
      fellBack(e);
      return drawn[0]; // a uniformly random node that passed the default's filters
    }
  }

  /**
   * Adds to {@code drawn[n..]} distinct uniformly random nodes of {@code scope} ("~path" for
   * all outside it) that are alive, in service, in scope, not excluded and have the storage
   * type. The index may be up to one heartbeat interval old, so every node is checked again
   * here, and the parent still applies all of its own checks to the node we return.
   *
   * @return how many nodes {@code drawn} now holds
   */
  private int draw(DatanodeDescriptor[] drawn, int n, String scope,
      Collection<Node> excludedNodes, StorageType type) {
    ScopeIndex<DatanodeDescriptor> index = scopeIndex;
    if (index == null) {
      return n;
    }
    String inScope = scope.startsWith("~") ? "" : scope;
    return index.draw(scope, drawn, n, 4 * candidates,
        // in service: a decommissioning node gets no grants, so it would look coolest
        dn -> dn.isAlive() && dn.isInService()
            && ScopeIndex.within(dn.getNetworkLocation(), inScope)
            && (excludedNodes == null || !excludedNodes.contains(dn))
            && (type == null || dn.hasStorageType(type)),
        ThreadLocalRandom.current());
  }

  // ---- the writer's own node ---------------------------------------------------------------

  @Override
  protected DatanodeStorageInfo chooseLocalStorage(Node localMachine, Set<Node> excludedNodes,
      long blocksize, int maxNodesPerRack, List<DatanodeStorageInfo> results,
      boolean avoidStaleNodes, EnumMap<StorageType, Integer> storageTypes,
      boolean fallbackToLocalRack) throws NotEnoughReplicasException {
    if (fallbackToLocalRack && localMachine instanceof DatanodeDescriptor
        && tooHotForLocalReplica((DatanodeDescriptor) localMachine)) {
      // As the default does when the writer's node is unusable: a node of the writer's rack,
      // here the HM-LRU choice among candidates of that rack.
      return chooseLocalRack(localMachine, excludedNodes, blocksize, maxNodesPerRack, results,
          avoidStaleNodes, storageTypes);
    }
    if (localMachine == null) {
      // A writer that is no DataNode: the default draws the first replica cluster-wide and
      // then puts replicas two and three together on another rack. Candidates drawn
      // cluster-wide by heat would pull the first replica to the cooler rack and so send
      // twice as much to the hotter one, a feedback that skewed two racks to 72 vs 48 blocks
      // per node. So the default's draw picks the rack and HM-LRU the node within it. This is
      // the parent's own path for a null writer (chooseLocalOrFavoredStorage), with our scope.
      return chooseRandom(ROOT_RACK_OF_DEFAULT_DRAW, excludedNodes, blocksize, maxNodesPerRack,
          results, avoidStaleNodes, storageTypes);
    }
    return super.chooseLocalStorage(localMachine, excludedNodes, blocksize, maxNodesPerRack,
        results, avoidStaleNodes, storageTypes, fallbackToLocalRack);
  }

  private boolean tooHotForLocalReplica(DatanodeDescriptor local) {
    try {
      HeatTable h = heatmap;
      return HeatRules.tooHot(HeatTableFeed.observe(h, local), localMaxHeatRatio, meanHeat(h));
    } catch (RuntimeException | LinkageError e) {
      fellBack(e);
      return false;
    }
  }

  /**
   * Heartbeat transfers averaged by the NameNode itself, plus our grants spread evenly (why
   * this mean for writes: {@link HeatRules}).
   */
  private double meanHeat(HeatTable h) {
    FSClusterStats stats = clusterStats;
    int nodes = stats == null ? 0 : stats.getNumDatanodesInService();
    if (nodes <= 0) {
      return h.meanHeat();
    }
    return stats.getInServiceXceiverAverage() + (double) h.outstandingGrants() / nodes;
  }

  // ---- recording what was chosen -----------------------------------------------------------

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosenNodes, boolean returnChosenNodes, Set<Node> excludedNodes,
      long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags) {
    return recorded(super.chooseTarget(srcPath, numOfReplicas, writer, chosenNodes,
        returnChosenNodes, excludedNodes, blocksize, storagePolicy, flags), chosenNodes,
        writer);
  }

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes,
      long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags,
      EnumMap<StorageType, Integer> storageTypes) {
    return recorded(super.chooseTarget(srcPath, numOfReplicas, writer, chosen,
        returnChosenNodes, excludedNodes, blocksize, storagePolicy, flags, storageTypes),
        chosen, writer);
  }

  @Override
  protected void chooseFavouredNodes(String src, int numOfReplicas,
      List<DatanodeDescriptor> favoredNodes,
      Set<Node> favoriteAndExcludedNodes, long blocksize, int maxNodesPerRack,
      List<DatanodeStorageInfo> results, boolean avoidStaleNodes,
      EnumMap<StorageType, Integer> storageTypes) throws NotEnoughReplicasException {
    int before = results.size();
    super.chooseFavouredNodes(src, numOfReplicas, favoredNodes, favoriteAndExcludedNodes,
        blocksize, maxNodesPerRack, results, avoidStaleNodes, storageTypes);
    recorded(results.subList(before, results.size())
        .toArray(DatanodeStorageInfo.EMPTY_ARRAY), null, null);
  }

  /**
   * Grants every new target but the writer's own node: one writer's blocks would otherwise
   * pile grants onto its node between heartbeats (small blocks, many per heartbeat) until the
   * hot-writer rule moved its own first replicas away. Local writes that really run at once
   * show in the heartbeat's transfer count.
   */
  private DatanodeStorageInfo[] recorded(DatanodeStorageInfo[] targets,
      List<DatanodeStorageInfo> alreadyChosen, Node writer) {
    try {
      HeatTable h = heatmap;
      refreshIfDue(h);
      for (DatanodeStorageInfo t : targets) {
        if ((alreadyChosen != null && alreadyChosen.contains(t))
            || t.getDatanodeDescriptor().equals(writer)) {
          continue; // an existing replica, or the writer's own node
        }
        // every node is tracked since the last refresh; candidates were just observed
        h.grant(t.getDatanodeDescriptor().getDatanodeUuid());
      }
    } catch (RuntimeException | LinkageError e) {
      fellBack(e);
    }
    return targets;
  }

  /**
   * Once per heartbeat interval, and within a second when DataNodes joined or left: rebuilds
   * the candidate index and observes every node (candidates are observed when drawn, but the
   * cluster mean needs every node's latest heartbeat).
   */
  private void refreshIfDue(HeatTable h) {
    long now = Time.monotonicNow();
    long due = nextRefreshMillis.get();
    ScopeIndex<DatanodeDescriptor> index = scopeIndex;
    boolean changed = index == null || index.size() != clusterMap.getNumOfLeaves();
    long lastRefresh = due - heartbeatInterval;
    if ((now >= due || (changed && now - lastRefresh >= 1000))
        && nextRefreshMillis.compareAndSet(due, now + heartbeatInterval)) {
      List<DatanodeDescriptor> nodes = new ArrayList<>();
      for (Node n : HeatTableFeed.observeAll(h, clusterMap)) {
        if (n instanceof DatanodeDescriptor) {
          nodes.add((DatanodeDescriptor) n);
        }
      }
      scopeIndex = ScopeIndex.of(nodes, DatanodeDescriptor::getNetworkLocation);
    }
  }

  /** Also takes LinkageError: mismatched opass jars on a NameNode must not fail writes. */
  private void fellBack(Throwable e) {
    fallbacks.record(heatmap, e);
  }
}
