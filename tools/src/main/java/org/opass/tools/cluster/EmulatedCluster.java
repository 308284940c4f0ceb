package org.opass.tools.cluster;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.qjournal.MiniQJMHACluster;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeThrottles;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.NameNodeRpcServer;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.net.StaticMapping;

/**
 * A MiniDFSCluster in which every DataNode is a host of its own on the loopback network, so that
 * the NameNode sees writer locality, rack placement and per-host load as on a real cluster.
 *
 * <p>Addressing: the NameNode is at {@value #NAMENODE_ADDRESS} (its URI names it localhost);
 * DataNode {@code k} (0-based) listens, registers and sends from {@code 127.0.0.(k+2)} (see
 * {@link #hostAddress(int)}) under the host name {@code dn<k>.emulated}; the client outside the
 * cluster sends from {@value #OFF_CLUSTER_ADDRESS}. Racks are {@code /rack0, /rack1, ...}, each a contiguous block
 * of DataNodes: DataNode {@code k} is on rack {@code k * racks / dataNodes} (as in
 * {@code SimulatedPlacementCluster}). Every outgoing socket of a DataNode or a host-bound client
 * is bound to its host's address by {@link HostBindingSocketFactory}.
 *
 * <p>Settings for tests, on top of the caller's overlay: heartbeats every second (load statistics
 * and NameNode commands arrive within a second), redundancy work every second (re-replication and
 * deletions settle within seconds), no background block scanner (no hidden disk reads), one
 * storage directory per DataNode (unless {@link EmulatedClusterBuilder#storageTypes} asks for more). Unlike
 * MiniDFSCluster, {@code considerLoad} is on by default, as shipped.
 *
 * <p>HA ({@link EmulatedClusterBuilder#highAvailability}): two NameNodes of nameservice
 * {@code ns1} with three JournalNodes; the methods that name "the NameNode" mean the active one,
 * {@link #failover} switches it, and clients of {@link #uri()} fail over by themselves.
 *
 * <p>Start with {@link #builder()}; {@link #close()} stops everything and deletes the base
 * directory. Run one cluster at a time in a JVM: the rack map ({@code StaticMapping}) is global.
 */
public final class EmulatedCluster implements AutoCloseable {

  /** The NameNode's address. */
  public static final String NAMENODE_ADDRESS = "127.0.0.1";
  /** The address of the client outside the cluster; no DataNode has it. */
  public static final String OFF_CLUSTER_ADDRESS = "127.0.1.1";
  /** DataNode addresses 127.0.0.2 .. 127.0.0.254. */
  public static final int MAX_DATANODES = 253;
  /** The DataNode read throttle's key (Hadoop 3.4.0 on; {@link #canThrottleReads()}). */
  public static final String READ_BANDWIDTH_KEY = "dfs.datanode.data.read.bandwidthPerSec";

  /** Whether this Hadoop's DataNodes can throttle reads (not 3.3). */
  public static boolean canThrottleReads() {
    return DataNodeThrottles.canThrottleReads();
  }

  // How long the harness waits for the cluster to start or its NameNode's view to settle.
  static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(60);
  static final long POLL_MILLIS = 20;

  private final MiniDFSCluster cluster;
  /** The JournalNodes of an HA cluster ({@link EmulatedClusterBuilder#highAvailability}). */
  private final MiniQJMHACluster ha;
  /** The NameNode that is active (index in the MiniDFSCluster); always 0 without HA. */
  private volatile int active;
  private final Configuration conf;
  private final int racks;
  private final DataNode[] dataNodes;
  private final String[] hostNames;
  private final Map<String, Integer> indexByIdentity = new HashMap<>();
  private final FileSystem[] hostFileSystems;
  private FileSystem offClusterFileSystem;
  private Faults faults;
  private boolean closed;

  EmulatedCluster(MiniDFSCluster cluster, MiniQJMHACluster ha, Configuration conf, int racks,
      String[] hostNames) {
    this.hostNames = hostNames.clone();
    this.cluster = cluster;
    this.ha = ha;
    this.conf = conf;
    this.racks = racks;
    this.dataNodes = cluster.getDataNodes().toArray(new DataNode[0]);
    this.hostFileSystems = new FileSystem[dataNodes.length];
    for (int k = 0; k < dataNodes.length; k++) {
      indexByIdentity.put(hostAddress(k), k);
      indexByIdentity.put(hostName(k), k);
      indexByIdentity.put(dataNodes[k].getDatanodeUuid(), k);
    }
  }

  public static EmulatedClusterBuilder builder() {
    return new EmulatedClusterBuilder();
  }

  static String hostAddressOf(int k) {
    return "127.0.0." + (k + 2);
  }

  static String hostNameOf(int k) {
    return "dn" + k + ".emulated";
  }

  static String rackOf(int k, int racks, int dataNodes) {
    return "/rack" + (k * racks / dataNodes);
  }

  // Fails the start when the NameNode does not see DataNodes where they are meant to be, which
  // is what happens when the socket factory is not in effect (everything registers as 127.0.0.1).
  void checkRegistrations() {
    for (int k = 0; k < size(); k++) {
      DatanodeDescriptor registered = datanodeDescriptor(k);
      if (registered == null || !registered.getIpAddr().equals(hostAddress(k))
          || !registered.getNetworkLocation().equals(rack(k))) {
        throw new IllegalStateException("DataNode " + k + " should be at " + hostAddress(k)
            + " on " + rack(k) + " but the NameNode has " + (registered == null ? "nothing"
            : registered.getIpAddr() + " on " + registered.getNetworkLocation()));
      }
    }
  }

  /**
   * Restarts the NameNode with {@code settings} applied to its configuration (a null value
   * unsets the key), keeping the namespace and every replica where it is, and waits until the
   * DataNodes are registered again and the NameNode has left safe mode. This is how one data
   * set is read under several NameNode configurations in one run. The shared clients are
   * closed first (their connections would fail on the new NameNode); the next
   * {@link #fileSystemOnHost} or {@link #offClusterFileSystem} call makes new ones. On an HA
   * cluster both NameNodes restart (as standbys) and the active one becomes active again.
   */
  public synchronized void restartNameNode(Map<String, String> settings)
      throws IOException, InterruptedException {
    IOException failure = closeClients();
    if (failure != null) {
      throw failure;
    }
    for (int k = 0; k < cluster.getNumNameNodes(); k++) {
      // the NameNode's own copy of the configuration, which the restart reads (Hadoop 3.3 has
      // no setNameNodeConf)
      Configuration nn = cluster.getConfiguration(k);
      settings.forEach((key, value) -> {
        if (value == null) {
          nn.unset(key);
        } else {
          nn.set(key, value);
        }
      });
    }
    if (ha == null) {
      cluster.restartNameNode(true);
    } else {
      cluster.restartNameNode(1 - active, false);
      cluster.restartNameNode(active, false);
      cluster.transitionToActive(active);
    }
    cluster.waitActive();
    long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
    while (cluster.getNamesystem(active).isInSafeMode()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the restarted NameNode stayed in safe mode");
      }
      Thread.sleep(POLL_MILLIS);
    }
    checkRegistrations();
    // A host's clients share one RPC client with its DataNode, whose pooled connection to the
    // old NameNode fails the next call once; make that call here rather than in a workload.
    for (int k = 0; k <= size(); k++) {
      FileSystem fs = k < size() ? fileSystemOnHost(k) : offClusterFileSystem();
      for (int attempt = 1; ; attempt++) {
        try {
          fs.getFileStatus(new Path("/"));
          break;
        } catch (IOException e) {
          if (attempt == 3) {
            throw e;
          }
        }
      }
    }
  }

  /** Number of DataNodes. */
  public int size() {
    return dataNodes.length;
  }

  /** The loopback address DataNode {@code k} and clients on its host use: 127.0.0.(k+2). */
  public String hostAddress(int k) {
    checkIndex(k);
    return hostAddressOf(k);
  }

  /**
   * The host name DataNode {@code k} reports ({@code BlockLocation#getHosts()}):
   * {@code dn<k>.emulated}, or its address ({@link EmulatedClusterBuilder#hostsNamedByAddress}).
   */
  public String hostName(int k) {
    checkIndex(k);
    return hostNames[k];
  }

  /** The rack of DataNode {@code k}, e.g. "/rack0". */
  public String rack(int k) {
    checkIndex(k);
    return rackOf(k, racks, size());
  }

  public synchronized DataNode dataNode(int k) {
    checkIndex(k);
    return dataNodes[k];
  }

  /** The NameNode's record of DataNode {@code k}. */
  public DatanodeDescriptor datanodeDescriptor(int k) {
    return datanodeManager().getDatanode(dataNode(k).getDatanodeUuid());
  }

  public MiniDFSCluster miniCluster() {
    return cluster;
  }

  /** {@code hdfs://ns1} on an HA cluster, else the NameNode's {@code hdfs://localhost:port}. */
  public URI uri() {
    return ha != null ? URI.create("hdfs://" + MiniQJMHACluster.NAMESERVICE) : cluster.getURI();
  }

  /** MiniDFSCluster's own client (at 127.0.0.1) of the active NameNode. */
  public FileSystem nameNodeFileSystem() throws IOException {
    return cluster.getFileSystem(active);
  }

  /** Whether this is an HA cluster ({@link EmulatedClusterBuilder#highAvailability}). */
  public boolean highAvailability() {
    return ha != null;
  }

  /** The active NameNode. */
  public NameNode activeNameNode() {
    return cluster.getNameNode(active);
  }

  /** NameNode {@code k} of an HA cluster (0 or 1), whatever its state; null while stopped. */
  public NameNode nameNode(int k) {
    return cluster.getNameNode(k);
  }

  /** How an HA cluster's active NameNode hands over ({@link #failover}). */
  public enum Failover {
    /** The active steps down, then the standby takes over (an operator's haadmin -failover). */
    GRACEFUL,
    /** The active's process dies; the standby takes over (fencing would kill it). */
    KILLED
  }

  /**
   * Makes the standby NameNode active, the active one stepping down ({@link Failover#GRACEFUL})
   * or stopped first ({@link Failover#KILLED}; {@link #restartStandby} brings it back as the
   * standby). Clients of {@link #uri()} fail over by themselves.
   */
  public synchronized void failover(Failover how) throws IOException {
    if (ha == null) {
      throw new UnsupportedOperationException("not an HA cluster: builder().highAvailability()");
    }
    int from = active;
    int to = 1 - from;
    if (how == Failover.KILLED) {
      silence(cluster.getNameNode(from));
      cluster.shutdownNameNode(from);
    } else {
      cluster.transitionToStandby(from);
    }
    cluster.transitionToActive(to);
    active = to;
  }

  /**
   * Stops a NameNode's RPC servers (client, and service and lifeline where configured) and
   * waits for their connections to close, as a dying process drops them. Only then may
   * {@code NameNode#stop} run: it closes the edit log before it stops its RPC servers, and a
   * call served in between fails on Hadoop's own {@code assert isOpenForWrite()} in
   * {@code FSEditLogAsync#logEdit}, an answer no killed process gives
   * ({@code docs/hadoop-facts.md}).
   */
  private static void silence(NameNode nn) throws IOException {
    List<RPC.Server> servers = new ArrayList<>();
    NameNodeRpcServer rpc = (NameNodeRpcServer) nn.getRpcServer();
    servers.add(rpc.getClientRpcServer());
    for (String getter : new String[] {"getServiceRpcServer", "getLifelineRpcServer"}) {
      try { // package-private in every release we run on
        Method m = NameNodeRpcServer.class.getDeclaredMethod(getter);
        m.setAccessible(true);
        RPC.Server s = (RPC.Server) m.invoke(rpc);
        if (s != null) {
          servers.add(s);
        }
      } catch (ReflectiveOperationException e) {
        throw new IOException("NameNodeRpcServer#" + getter + " of this Hadoop release", e);
      }
    }
    servers.forEach(RPC.Server::stop);
    long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
    for (RPC.Server s : servers) {
      while (s.getNumOpenConnections() > 0) {
        if (System.nanoTime() > deadline) {
          throw new IOException("the killed NameNode's RPC connections did not close");
        }
        try {
          Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("killing a NameNode");
        }
      }
    }
  }

  /**
   * (Re)starts the NameNode of an HA cluster that is not active, after {@link Failover#KILLED}
   * the killed one: a standby. Returns once every DataNode is registered with it, so that it
   * can take over.
   */
  public synchronized void restartStandby() throws IOException, InterruptedException {
    int k = 1 - active;
    cluster.restartNameNode(k, false);
    long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
    while (cluster.getNamesystem(k).getBlockManager().getDatanodeManager()
        .getNumLiveDataNodes() < size()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the DataNodes did not register with restarted NameNode " + k);
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /**
   * Counts keyed by DataNode address ({@code ip:port}, as a plan's {@code served_by_datanode}
   * names them), as an array indexed by DataNode.
   */
  public long[] byDataNode(Map<String, Integer> byAddress) {
    long[] out = new long[size()];
    byAddress.forEach((address, n) -> out[dataNodeIndexOf(address)] += n);
    return out;
  }

  /** The DataNode records of every running NameNode (one, or two on an HA cluster). */
  public List<DatanodeManager> datanodeManagers() {
    List<DatanodeManager> out = new ArrayList<>();
    for (int k = 0; k < cluster.getNumNameNodes(); k++) {
      NameNode nn = cluster.getNameNode(k);
      if (nn != null) {
        out.add(nn.getNamesystem().getBlockManager().getDatanodeManager());
      }
    }
    return out;
  }

  /**
   * The NameNode's web server (/jmx, /fsck, the read-plan API): {@code http://host:port}, or
   * with {@code dfs.http.policy=HTTPS_ONLY} (a kerberized cluster) {@code https://localhost:port},
   * the host name its SPNEGO principal {@code HTTP/localhost} is for.
   */
  public URI nameNodeHttp() {
    return nameNodeHttp(active);
  }

  /** NameNode {@code k}'s web server, as {@link #nameNodeHttp()}. */
  public URI nameNodeHttp(int k) {
    NameNode nn = cluster.getNameNode(k);
    if (DFSUtil.getHttpPolicy(conf) == HttpConfig.Policy.HTTPS_ONLY) {
      return URI.create("https://localhost:" + nn.getHttpsAddress().getPort());
    }
    return URI.create("http://" + NetUtils.getHostPortString(nn.getHttpAddress()));
  }

  /** A copy of the cluster's configuration (no bind address: a client of it is at 127.0.0.1). */
  public Configuration conf() {
    return new Configuration(conf);
  }

  /** The HDFS block size of the cluster. */
  public long blockSize() {
    return conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY,
        DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT);
  }

  /**
   * A client on DataNode {@code k}'s host: the NameNode treats it as local to that DataNode (its
   * writes get their first replica there, its reads prefer replicas there). One instance per
   * host, shared by its callers and closed with the cluster.
   */
  public synchronized FileSystem fileSystemOnHost(int k) throws IOException {
    checkIndex(k);
    if (hostFileSystems[k] == null) {
      hostFileSystems[k] = newClient(hostAddress(k), "opass-host-" + k);
    }
    return hostFileSystems[k];
  }

  /**
   * A client on a host with no DataNode: the NameNode places its writes as for a client outside
   * the cluster (first replica on a random node). Shared, and closed with the cluster.
   */
  public synchronized FileSystem offClusterFileSystem() throws IOException {
    if (offClusterFileSystem == null) {
      offClusterFileSystem = newClient(OFF_CLUSTER_ADDRESS, "opass-off-cluster");
    }
    return offClusterFileSystem;
  }

  private FileSystem newClient(String address, String clientContext) throws IOException {
    if (closed) {
      throw new IllegalStateException("the cluster is closed");
    }
    return FileSystem.newInstance(uri(), clientConf(address, clientContext));
  }

  private Configuration clientConf(String address, String clientContext) {
    Configuration client = conf();
    client.set(HostBindingSocketFactory.BIND_ADDRESS_KEY, address);
    // Clients of one context share a cache of DataNode connections; with one context per host
    // a cached connection never carries another host's address.
    client.set(HdfsClientConfigKeys.DFS_CLIENT_CONTEXT, clientContext);
    return client;
  }

  /**
   * The configuration of a client on host {@code k}, for code that opens its own file system
   * from a configuration (record readers): give each host its own user, or Hadoop's file
   * system cache hands every host the first host's client.
   */
  public Configuration hostConf(int k) {
    checkIndex(k);
    return clientConf(hostAddress(k), "opass-host-" + k);
  }

  /**
   * The index of the DataNode with this IP address (optionally with ":port", as in
   * {@code BlockLocation#getNames()}), host name or DataNode UUID; -1 if none has it.
   */
  public int dataNodeIndexOf(String ipAddrOrUuid) {
    Integer k = indexByIdentity.get(ipAddrOrUuid);
    if (k == null && ipAddrOrUuid.indexOf(':') > 0) {
      k = indexByIdentity.get(ipAddrOrUuid.substring(0, ipAddrOrUuid.lastIndexOf(':')));
    }
    return k == null ? -1 : k;
  }

  /** What the DataNodes counted: bytes and blocks written and read, local clients. */
  public DataNodeCounters counters() {
    return new DataNodeCounters(dataNodes);
  }

  /** Stops, restarts, stalls and decommissions DataNodes. */
  public synchronized Faults faults() {
    if (faults == null) {
      faults = new Faults(this, new java.io.File(conf.get(DFSConfigKeys.DFS_HOSTS_EXCLUDE)));
    }
    return faults;
  }

  // DataNode k, started again by Faults: the same host, port and storage, a new process
  synchronized void replaceDataNode(int k, DataNode started) {
    dataNodes[k] = started;
  }

  /** Where the replicas are, as the NameNode and the DataNodes see them. */
  public Replicas replicas() {
    return new Replicas(this);
  }

  /** The NameNode's block manager (placement policy, replication state). */
  public BlockManager blockManager() {
    return cluster.getNamesystem(active).getBlockManager();
  }

  /** The NameNode's DataNode records and network topology. */
  public DatanodeManager datanodeManager() {
    return blockManager().getDatanodeManager();
  }

  private void checkIndex(int k) {
    if (k < 0 || k >= size()) {
      throw new IndexOutOfBoundsException("DataNode " + k + " of " + size());
    }
  }

  /** Closes the clients, stops the cluster, deletes its base directory and forgets its racks. */
  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException failure = closeClients();
    try {
      cluster.shutdown(true);
      if (ha != null) {
        ha.getJournalCluster().shutdown();
      }
    } finally {
      StaticMapping.resetMap();
    }
    if (failure != null) {
      throw failure;
    }
  }

  // Closes and forgets the shared clients; returns the first failure, the others suppressed.
  private IOException closeClients() {
    IOException failure = null;
    List<FileSystem> clients = new ArrayList<>(Arrays.asList(hostFileSystems));
    clients.add(offClusterFileSystem);
    Arrays.fill(hostFileSystems, null);
    offClusterFileSystem = null;
    for (FileSystem client : clients) {
      if (client == null) {
        continue;
      }
      try {
        client.close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    return failure;
  }

}
