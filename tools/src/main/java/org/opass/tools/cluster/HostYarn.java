package org.opass.tools.cluster;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;

/**
 * YARN on the hosts of an emulated cluster: MiniMRYarnCluster's ResourceManager and history
 * server, and a NodeManager on each DataNode host k, listening at 127.0.0.(k+2) and known to
 * the ResourceManager by that address. A task whose split names a host runs on it, and its HDFS
 * client sends from that host ({@link #jobConf}): the write locality the LocalJobRunner, whose
 * tasks are all one client, cannot show. MiniYARNCluster puts every NodeManager on one host
 * name, so these are started here. The DataNodes must be named by their addresses
 * ({@link EmulatedClusterBuilder#hostsNamedByAddress}), as the NodeManagers are.
 */
public final class HostYarn implements AutoCloseable {
  private final MiniMRYarnCluster yarn;
  private final List<NodeManager> nodeManagers = new ArrayList<>();

  private HostYarn(MiniMRYarnCluster yarn) {
    this.yarn = yarn;
  }

  /**
   * Starts YARN with a NodeManager on each of {@code cluster}'s DataNode hosts, each offering
   * {@code containersPerHost} containers of 512 MiB.
   */
  public static HostYarn start(EmulatedCluster cluster, File dir, int containersPerHost)
      throws Exception {
    for (int k = 0; k < cluster.size(); k++) {
      if (!cluster.hostName(k).equals(cluster.hostAddress(k))) {
        throw new IllegalArgumentException("name the DataNodes by their addresses "
            + "(EmulatedClusterBuilder#hostsNamedByAddress): NodeManagers are");
      }
    }
    Configuration base = new Configuration(cluster.conf());
    base.set("fs.defaultFS", cluster.uri().toString());
    // tasks with the JVM defaults: a benchmark times them as an operator would run them
    HostYarn y = new HostYarn(MiniYarn.start(base, "host-yarn", 0, ""));
    try {
      for (int k = 0; k < cluster.size(); k++) {
        y.startNodeManager(cluster.hostAddress(k), new File(dir, "nm-" + k),
            containersPerHost);
      }
      y.awaitNodes(cluster.size());
      return y;
    } catch (Exception | Error e) {
      y.close();
      throw e;
    }
  }

  private void startNodeManager(String address, File dir, int containers) {
    YarnConfiguration c = new YarnConfiguration(yarn.getConfig());
    // bound to the host's address and known by it (ContainerManagerImpl#buildNodeId)
    c.set(YarnConfiguration.NM_BIND_HOST, address);
    c.set(YarnConfiguration.NM_ADDRESS, address + ":0");
    c.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, address + ":0");
    c.set(YarnConfiguration.NM_WEBAPP_ADDRESS, address + ":0");
    c.set(YarnConfiguration.NM_LOCAL_DIRS, new File(dir, "local").getAbsolutePath());
    c.set(YarnConfiguration.NM_LOG_DIRS, new File(dir, "log").getAbsolutePath());
    c.setInt(YarnConfiguration.NM_PMEM_MB, 512 * containers);
    c.setInt(YarnConfiguration.NM_VCORES, containers);
    c.setBoolean("yarn.nodemanager.resource.detect-hardware-capabilities", false);
    c.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100.0f);
    NodeManager nm = new NodeManager();
    nm.init(c);
    nm.start();
    nodeManagers.add(nm);
  }

  private void awaitNodes(int n) throws InterruptedException {
    long deadline = System.nanoTime() + EmulatedCluster.SETTLE_TIMEOUT.toNanos();
    while (true) {
      long running = 0;
      for (RMNode node : yarn.getResourceManager().getRMContext().getRMNodes().values()) {
        running += node.getState() == NodeState.RUNNING ? 1 : 0;
      }
      if (running == n) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(running + " of " + n + " NodeManagers running");
      }
      Thread.sleep(100);
    }
  }

  /**
   * A job client's configuration: the ResourceManager's addresses, and every task's HDFS
   * client sending from its NodeManager's host (YARN gives containers {@code NM_HOST}); the
   * submitting client sends from the off-cluster address.
   */
  public Configuration jobConf() {
    Configuration c = new Configuration(yarn.getConfig());
    c.set(HostBindingSocketFactory.BIND_ADDRESS_KEY,
        "${env.NM_HOST:-" + EmulatedCluster.OFF_CLUSTER_ADDRESS + "}");
    return c;
  }

  @Override
  public void close() throws Exception {
    List<Thread> stopping = new ArrayList<>();
    for (NodeManager nm : nodeManagers) {
      Thread t = new Thread(nm::stop, "stop-" + nm.getName());
      t.start();
      stopping.add(t);
    }
    for (Thread t : stopping) {
      t.join();
    }
    yarn.stop();
  }
}
