package org.opass.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.FSClusterStats;
import org.apache.hadoop.hdfs.server.blockmanagement.OpassPlacementPolicyBase;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.util.Time;
import org.apache.hadoop.net.Node;
import org.opass.heatmap.DatanodeHeat;
import org.opass.heatmap.Heatmap;
import org.opass.heatmap.HeatmapRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HM-LRU write placement (Opass Algorithm 3) as a small subclass of the default policy.
 *
 * <p>Wherever the default draws one random DataNode ({@link #chooseDataNode}), this draws up to
 * {@value HmLruKeys#CANDIDATES_DEFAULT} distinct candidates from the same scope and exclusions
 * and keeps the coolest, least recently selected one ({@link HmLru}). Everything else —
 * rack fault tolerance, excluded and favored nodes, storage types, stale, decommissioning and
 * overloaded exclusion, max nodes per rack, verification — is the parent's, because the parent
 * still checks every node we return. Every chosen target is recorded in the NameNode's
 * {@link Heatmap} so that the next choice sees it before the next heartbeat does.
 *
 * <p>Any failure in our code falls back to the default's own random draw, logged once.
 */
public class HmLruPlacementPolicy extends OpassPlacementPolicyBase {
  private static final Logger LOG = LoggerFactory.getLogger(HmLruPlacementPolicy.class);

  private volatile Heatmap heatmap;
  private FSClusterStats clusterStats;
  private int candidates = HmLruKeys.CANDIDATES_DEFAULT;
  private double localMaxHeatRatio = HmLruKeys.LOCAL_MAX_HEAT_RATIO_DEFAULT;
  private final AtomicBoolean failureLogged = new AtomicBoolean();
  private final AtomicLong nextRefreshMillis = new AtomicLong();
  private volatile ScopeIndex<DatanodeDescriptor> scopeIndex;

  @Override
  protected void initialize(Configuration conf, FSClusterStats stats,
      NetworkTopology clusterMap) {
    candidates = conf.getInt(HmLruKeys.CANDIDATES, HmLruKeys.CANDIDATES_DEFAULT);
    if (candidates < 1) {
      throw new IllegalArgumentException(HmLruKeys.CANDIDATES + " must be >= 1, got "
          + candidates);
    }
    localMaxHeatRatio = conf.getDouble(HmLruKeys.LOCAL_MAX_HEAT_RATIO,
        HmLruKeys.LOCAL_MAX_HEAT_RATIO_DEFAULT);
    if (!(localMaxHeatRatio > 0)) {
      throw new IllegalArgumentException(HmLruKeys.LOCAL_MAX_HEAT_RATIO + " must be > 0, got "
          + localMaxHeatRatio);
    }
    clusterStats = stats;
    heatmap = HeatmapRegistry.forTopology(clusterMap, conf);
    LOG.info("HM-LRU block placement initialized: {} = {}, {} = {}", HmLruKeys.CANDIDATES,
        candidates, HmLruKeys.LOCAL_MAX_HEAT_RATIO, localMaxHeatRatio);
  }

  /** The heatmap this policy reads and feeds. */
  public Heatmap heatmap() {
    return heatmap;
  }

  /** Replaces the heatmap; for fault-injection tests. */
  public void setHeatmap(Heatmap heatmap) {
    this.heatmap = heatmap;
  }

  // ---- where the default draws a random node -------------------------------------------

  @Override
  protected DatanodeDescriptor chooseDataNode(String scope, Collection<Node> excludedNodes,
      StorageType type) {
    return chooseAmongCandidates(super.chooseDataNode(scope, excludedNodes, type), scope,
        excludedNodes, type);
  }

  @Override
  protected DatanodeDescriptor chooseDataNode(String scope, Collection<Node> excludedNodes) {
    return chooseAmongCandidates(super.chooseDataNode(scope, excludedNodes), scope,
        excludedNodes, null);
  }

  /**
   * The default's own draw is the first candidate; the others are further random nodes of
   * the same scope that pass the same filters. Any failure returns the default's draw.
   */
  private DatanodeDescriptor chooseAmongCandidates(DatanodeDescriptor first, String scope,
      Collection<Node> excludedNodes, StorageType type) {
    if (first == null || candidates == 1) {
      return first;
    }
    try {
      Heatmap h = heatmap;
      refreshIfDue(h);
      DatanodeDescriptor[] drawn = new DatanodeDescriptor[candidates];
      drawn[0] = first;
      int n = drawMore(drawn, scope, excludedNodes, type);
      int[] heat = new int[n];
      long[] lastSelected = new long[n];
      for (int i = 0; i < n; i++) {
        DatanodeHeat.observe(h, drawn[i]);
        heat[i] = h.heat(drawn[i].getDatanodeUuid());
        lastSelected[i] = h.lastSelectedNanos(drawn[i].getDatanodeUuid());
      }
      h.countChoice();
      return drawn[HmLru.choose(heat, lastSelected, n, ThreadLocalRandom.current())];
    } catch (RuntimeException e) {
      fellBack(e);
      return first; // exactly the default policy's random draw
    }
  }

  /**
   * Fills {@code drawn[1..]} with distinct uniformly random nodes of {@code scope} that pass
   * the filters the default's draw applies. Drawing through the topology re-resolves every
   * excluded node's path per call (that made HM-LRU 4x slower than the default on 1000
   * nodes), so the draw uses a {@link ScopeIndex} refreshed once per heartbeat interval; a
   * node that left the cluster since is filtered out by the liveness and location checks.
   *
   * @return how many candidates {@code drawn} now holds (at least 1)
   */
  private int drawMore(DatanodeDescriptor[] drawn, String scope, Collection<Node> excludedNodes,
      StorageType type) {
    ScopeIndex<DatanodeDescriptor> index = scopeIndex;
    if (index == null) {
      return 1;
    }
    String inScope = scope.startsWith("~") ? "" : scope;
    return index.draw(scope, drawn, 1, 2 * candidates,
        dn -> dn.isAlive()
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
    if (localMachine == null && candidates > 1) {
      DatanodeStorageInfo first = chooseFirstForRemoteWriter(excludedNodes, blocksize,
          maxNodesPerRack, results, avoidStaleNodes, storageTypes);
      if (first != null) {
        return first;
      }
    }
    return super.chooseLocalStorage(localMachine, excludedNodes, blocksize, maxNodesPerRack,
        results, avoidStaleNodes, storageTypes, fallbackToLocalRack);
  }

  /**
   * First replica of a writer that is not a DataNode. The default then puts replicas two and
   * three together on another rack, so a first replica drawn cluster-wide by heat lands on the
   * cooler rack and sends twice as much to the hotter one, a feedback that skews racks (seen
   * as 72 vs 48 blocks per node on two racks). So the rack is drawn as the default draws it
   * (a uniformly random node's rack) and HM-LRU picks the node within that rack.
   */
  private DatanodeStorageInfo chooseFirstForRemoteWriter(Set<Node> excludedNodes,
      long blocksize, int maxNodesPerRack, List<DatanodeStorageInfo> results,
      boolean avoidStaleNodes, EnumMap<StorageType, Integer> storageTypes) {
    ScopeIndex<DatanodeDescriptor> index = scopeIndex;
    DatanodeDescriptor[] probe = new DatanodeDescriptor[1];
    if (index == null || index.draw(NodeBase.ROOT, probe, 0, 1, dn -> true,
        ThreadLocalRandom.current()) == 0) {
      return null;
    }
    try {
      return chooseRandom(probe[0].getNetworkLocation(), excludedNodes, blocksize,
          maxNodesPerRack, results, avoidStaleNodes, storageTypes);
    } catch (NotEnoughReplicasException e) {
      return null; // that rack cannot take it (full, wrong storage types): as the default
    }
  }

  private boolean tooHotForLocalReplica(DatanodeDescriptor local) {
    try {
      Heatmap h = heatmap;
      DatanodeHeat.observe(h, local);
      return h.heat(local.getDatanodeUuid()) > localMaxHeatRatio * Math.max(1.0, meanHeat(h));
    } catch (RuntimeException e) {
      fellBack(e);
      return false;
    }
  }

  /** Heartbeat transfers averaged by the NameNode itself, plus our grants spread evenly. */
  private double meanHeat(Heatmap h) {
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
        returnChosenNodes, excludedNodes, blocksize, storagePolicy, flags), chosenNodes);
  }

  @Override
  public DatanodeStorageInfo[] chooseTarget(String srcPath, int numOfReplicas, Node writer,
      List<DatanodeStorageInfo> chosen, boolean returnChosenNodes, Set<Node> excludedNodes,
      long blocksize, BlockStoragePolicy storagePolicy, EnumSet<AddBlockFlag> flags,
      EnumMap<StorageType, Integer> storageTypes) {
    return recorded(super.chooseTarget(srcPath, numOfReplicas, writer, chosen,
        returnChosenNodes, excludedNodes, blocksize, storagePolicy, flags, storageTypes),
        chosen);
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
        .toArray(DatanodeStorageInfo.EMPTY_ARRAY), null);
  }

  private DatanodeStorageInfo[] recorded(DatanodeStorageInfo[] targets,
      List<DatanodeStorageInfo> alreadyChosen) {
    try {
      Heatmap h = heatmap;
      refreshIfDue(h);
      for (DatanodeStorageInfo t : targets) {
        if (alreadyChosen != null && alreadyChosen.contains(t)) {
          continue; // an existing replica, not new work
        }
        DatanodeDescriptor dn = t.getDatanodeDescriptor();
        DatanodeHeat.observe(h, dn);
        h.grant(dn.getDatanodeUuid());
      }
    } catch (RuntimeException e) {
      fellBack(e);
    }
    return targets;
  }

  /**
   * Candidates are observed when drawn, but the cluster mean needs every node's latest
   * heartbeat, so once per heartbeat interval all nodes are observed.
   */
  private void refreshIfDue(Heatmap h) {
    long now = Time.monotonicNow();
    long due = nextRefreshMillis.get();
    if (now >= due && nextRefreshMillis.compareAndSet(due, now + heartbeatInterval)) {
      List<DatanodeDescriptor> nodes = new ArrayList<>();
      for (Node n : clusterMap.getLeaves(NodeBase.ROOT)) {
        if (n instanceof DatanodeDescriptor dn) {
          nodes.add(dn);
        }
      }
      scopeIndex = ScopeIndex.of(nodes, DatanodeDescriptor::getNetworkLocation);
      for (DatanodeDescriptor dn : nodes) {
        DatanodeHeat.observe(h, dn);
      }
    }
  }

  private void fellBack(RuntimeException e) {
    try {
      heatmap.countFallback();
    } catch (RuntimeException ignored) {
      // the heatmap itself is what failed
    }
    if (failureLogged.compareAndSet(false, true)) {
      LOG.warn("HM-LRU failed; using the default placement for this and any later failure "
          + "(logged once)", e);
    }
  }
}
