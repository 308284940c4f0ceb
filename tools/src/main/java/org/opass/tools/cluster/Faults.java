package org.opass.tools.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster.DataNodeProperties;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeTestUtils;

/**
 * Faults of an {@link EmulatedCluster}'s DataNodes, as operators and failures cause them
 * ({@link EmulatedCluster#faults()}): a DataNode stopped and started again on the same host,
 * port and storage; heartbeats that stall (the NameNode marks the node stale, then dead);
 * decommissioning through the exclude file, as {@code dfsadmin -refreshNodes} does it, and
 * recommissioning. A restarted DataNode keeps its index; it runs without the harness's read
 * throttle.
 */
public final class Faults {
  private final EmulatedCluster cluster;
  private final Map<Integer, DataNodeProperties> stopped = new HashMap<>();
  private final Set<Integer> excluded = new TreeSet<>();
  private final File excludeFile;

  Faults(EmulatedCluster cluster, File excludeFile) {
    this.cluster = cluster;
    this.excludeFile = excludeFile;
  }

  /** Stops DataNode {@code k} (its process ends; the NameNode notices by heartbeats). */
  public synchronized void stopDataNode(int k) {
    if (stopped.containsKey(k)) {
      throw new IllegalStateException("DataNode " + k + " is stopped already");
    }
    String name = cluster.dataNode(k).getDatanodeId().getXferAddr();
    DataNodeProperties props = cluster.miniCluster().stopDataNode(name);
    if (props == null) {
      throw new IllegalStateException("MiniDFSCluster has no DataNode at " + name);
    }
    stopped.put(k, props);
  }

  /**
   * Starts stopped DataNode {@code k} again with its configuration, ports and storage, and
   * waits until the NameNode has it registered at its address and heartbeating.
   */
  public synchronized void restartDataNode(int k) throws IOException, InterruptedException {
    DataNodeProperties props = stopped.remove(k);
    if (props == null) {
      throw new IllegalStateException("DataNode " + k + " is not stopped");
    }
    cluster.miniCluster().restartDataNode(props, true);
    DataNode started = cluster.miniCluster().getDataNodes().get(
        cluster.miniCluster().getDataNodes().size() - 1);
    cluster.replaceDataNode(k, started);
    try {
      cluster.miniCluster().waitDatanodeFullyStarted(started,
          (int) EmulatedCluster.SETTLE_TIMEOUT.toMillis());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IOException("restarted DataNode " + k + " did not start", e);
    }
    waitUntil(() -> {
      DatanodeDescriptor d = cluster.datanodeDescriptor(k);
      return d != null && d.isAlive() && !d.isStale(staleMillis())
          && d.getIpAddr().equals(cluster.hostAddress(k));
    }, "DataNode " + k + " to register again");
  }

  public synchronized boolean isStopped(int k) {
    return stopped.containsKey(k);
  }

  /** Stops or resumes DataNode {@code k}'s heartbeats (the process keeps serving). */
  public void stallHeartbeats(int k, boolean stalled) {
    DataNodeTestUtils.setHeartbeatsDisabledForTests(cluster.dataNode(k), stalled);
  }

  /** Puts DataNode {@code k} in the exclude file and refreshes the NameNode's node lists. */
  public synchronized void decommission(int k) throws IOException {
    excluded.add(k);
    refreshNodes();
  }

  /** Takes DataNode {@code k} out of the exclude file and refreshes. */
  public synchronized void recommission(int k) throws IOException {
    excluded.remove(k);
    refreshNodes();
  }

  /** Waits until the NameNode has moved every block of DataNode {@code k} elsewhere. */
  public void waitDecommissioned(int k) throws IOException, InterruptedException {
    waitUntil(() -> cluster.datanodeDescriptor(k).isDecommissioned(),
        "DataNode " + k + " to be decommissioned");
  }

  /** Waits until DataNode {@code k} is in service again. */
  public void waitInService(int k) throws IOException, InterruptedException {
    waitUntil(() -> cluster.datanodeDescriptor(k).isInService(),
        "DataNode " + k + " to be in service");
  }

  // What dfsadmin -refreshNodes makes the NameNode do: re-read the exclude file the cluster
  // started with. FSNamesystem#refreshNodes would name it from the hdfs-site.xml on the
  // classpath, which an in-process NameNode does not have; so the cluster's configuration is
  // passed (Hadoop 3.4 reads the file's name from it, 3.3 keeps the one it started with: the
  // same file).
  private void refreshNodes() throws IOException {
    String lines = excluded.stream().map(cluster::hostAddress)
        .collect(Collectors.joining("\n", "", "\n"));
    Files.writeString(excludeFile.toPath(), excluded.isEmpty() ? "" : lines,
        StandardCharsets.UTF_8);
    for (DatanodeManager nameNode : cluster.datanodeManagers()) { // as dfsadmin: every one
      nameNode.refreshNodes(cluster.conf());
    }
  }

  private long staleMillis() {
    return cluster.conf().getLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
        DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT);
  }

  interface Condition {
    boolean holds() throws IOException;
  }

  static void waitUntil(Condition condition, String what)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + EmulatedCluster.SETTLE_TIMEOUT.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("timed out waiting for " + what);
      }
      Thread.sleep(EmulatedCluster.POLL_MILLIS);
    }
  }
}
