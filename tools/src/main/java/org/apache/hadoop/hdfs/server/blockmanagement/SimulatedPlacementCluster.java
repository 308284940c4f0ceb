package org.apache.hadoop.hdfs.server.blockmanagement;

import java.io.File;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;

/**
 * A real NameNode whose DataNodes are simulated descriptors (no DataNode processes, no data),
 * built as Hadoop's own {@code BaseReplicationPolicyTest} builds one. Placement decisions run
 * through the NameNode's real BlockManager, topology and heartbeat statistics, so tests of
 * placement invariants and timings of {@code chooseTarget} on 1000 nodes take seconds.
 *
 * <p>It lives in Hadoop's package because the heartbeat and descriptor helpers it needs are
 * package-private; it is test code only.
 */
public final class SimulatedPlacementCluster implements AutoCloseable {
  public static final long BLOCK_SIZE = 1024;
  private static final long CAPACITY = 2L * HdfsServerConstants.MIN_BLOCKS_FOR_WRITE
      * BLOCK_SIZE * 1000;

  private final NameNode namenode;
  private final BlockManager blockManager;
  private final DatanodeDescriptor[] dataNodes;

  private SimulatedPlacementCluster(NameNode namenode, DatanodeDescriptor[] dataNodes) {
    this.namenode = namenode;
    this.blockManager = namenode.getNamesystem().getBlockManager();
    this.dataNodes = dataNodes;
  }

  /**
   * Starts a NameNode with {@code nodes} DataNodes spread in contiguous blocks over
   * {@code racks} racks ("/rack0", "/rack1", ...).
   *
   * @param overlay NameNode settings (e.g. {@code dfs.block.replicator.classname})
   * @param types storage type of each node; null for all DISK
   */
  public static SimulatedPlacementCluster start(File baseDir, int nodes, int racks,
      Map<String, String> overlay, StorageType[] types) throws Exception {
    DefaultMetricsSystem.setMiniClusterMode(true);
    Configuration conf = new HdfsConfiguration();
    FileSystem.setDefaultUri(conf, "hdfs://127.0.0.1:0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, new File(baseDir, "name").getPath());
    overlay.forEach(conf::set);
    DFSTestUtil.formatNameNode(conf);
    NameNode nn = new NameNode(conf);
    DatanodeDescriptor[] dns = new DatanodeDescriptor[nodes];
    for (int i = 0; i < nodes; i++) {
      String rack = "/rack" + (i * racks / nodes);
      String ip = "127.1." + (i / 250) + "." + (i % 250 + 1);
      StorageType type = types == null ? StorageType.DEFAULT : types[i];
      dns[i] = DFSTestUtil.createDatanodeStorageInfo("s" + i, ip, rack, "host" + i, type, null)
          .getDatanodeDescriptor();
    }
    SimulatedPlacementCluster c = new SimulatedPlacementCluster(nn, dns);
    DatanodeManager dm = c.blockManager.getDatanodeManager();
    for (DatanodeDescriptor dn : dns) {
      dm.getNetworkTopology().add(dn);
      dm.getHost2DatanodeMap().add(dn); // how getBlockLocations finds a reader's DataNode
      dm.getHeartbeatManager().addDatanode(dn);
      dm.getHeartbeatManager().updateDnStat(dn);
    }
    c.heartbeatAll(0);
    return c;
  }

  public BlockPlacementPolicy policy() {
    return blockManager.getBlockPlacementPolicy();
  }

  public NetworkTopology topology() {
    return blockManager.getDatanodeManager().getNetworkTopology();
  }

  public DatanodeDescriptor[] dataNodes() {
    return dataNodes.clone();
  }

  public DatanodeDescriptor dataNode(int i) {
    return dataNodes[i];
  }

  /** A heartbeat from {@code dn} reporting {@code xceivers} active transfers. */
  public void heartbeat(DatanodeDescriptor dn, int xceivers) {
    dn.getStorageInfos()[0].setUtilizationForTesting(CAPACITY, 0L, CAPACITY, 0L);
    blockManager.getDatanodeManager().getHeartbeatManager().updateHeartbeat(dn,
        BlockManagerTestUtil.getStorageReportsForDatanode(dn), 0L, 0L, xceivers, 0, null);
  }

  /**
   * Same, as of {@code monotonicMillis} on the NameNode's clock: for a simulation whose time
   * runs ahead of the wall clock, so that every simulated heartbeat is a new one.
   */
  public void heartbeat(DatanodeDescriptor dn, int xceivers, long monotonicMillis) {
    heartbeat(dn, xceivers);
    dn.setLastUpdateMonotonic(monotonicMillis);
  }

  public void heartbeatAll(int xceivers) {
    for (DatanodeDescriptor dn : dataNodes) {
      heartbeat(dn, xceivers);
    }
  }

  public BlockStoragePolicy storagePolicy(String name) {
    return blockManager.getStoragePolicy(name);
  }

  /** What the NameNode asks the policy for when {@code writer} adds a new block. */
  public DatanodeStorageInfo[] chooseTarget(int replicas, Node writer, Set<Node> excluded,
      BlockStoragePolicy storagePolicy) {
    return policy().chooseTarget("/file", replicas, writer, new ArrayList<>(), false, excluded,
        BLOCK_SIZE, storagePolicy, EnumSet.noneOf(AddBlockFlag.class));
  }

  /**
   * A new block's targets as {@code BlockManager#chooseTarget4NewBlock} gives them: the
   * policy's choice, then one more block scheduled on each target (until {@link #received}).
   */
  public DatanodeStorageInfo[] allocate(int replicas, Node writer) {
    DatanodeStorageInfo[] targets = chooseTarget(replicas, writer);
    DatanodeStorageInfo.incrementBlocksScheduled(targets);
    return targets;
  }

  /** A DataNode's incremental report of a replica received: one block less scheduled. */
  public void received(DatanodeStorageInfo target) {
    DatanodeStorageInfo.decrementBlocksScheduled(target);
  }

  public DatanodeStorageInfo[] chooseTarget(int replicas, Node writer) {
    return chooseTarget(replicas, writer, null, storagePolicy("HOT"));
  }

  /**
   * The replicas of a block held by {@code holders} in the order the NameNode hands them to a
   * reader on {@code readerHost} (an address), as {@code getBlockLocations} sorts them: the
   * configured topology's {@code sortByDistance} with the NameNode's secondary sort
   * ({@code dfs.namenode.read.considerLoad}). The reader reads from the first.
   */
  public DatanodeInfo[] sortedForReader(String readerHost, DatanodeDescriptor[] holders) {
    LocatedBlock block = new LocatedBlock(new ExtendedBlock("sim", 1), holders);
    blockManager.getDatanodeManager().sortLocatedBlocks(readerHost, List.of(block));
    return block.getLocations();
  }

  /** Marks a node decommissioning, as the admin manager does. */
  public void startDecommission(DatanodeDescriptor dn) {
    blockManager.getDatanodeManager().getHeartbeatManager().startDecommission(dn);
  }

  @Override
  public void close() {
    namenode.stop();
    namenode.join();
  }
}
