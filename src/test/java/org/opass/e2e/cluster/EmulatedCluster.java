package org.opass.e2e.cluster;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeoutException;
import javax.net.SocketFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeThrottles;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.apache.hadoop.net.StaticMapping;
import org.opass.e2e.sim.DiskModel;

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
 * storage directory per DataNode (unless {@link Builder#storageTypes} asks for more). Unlike
 * MiniDFSCluster, {@code considerLoad} is on by default, as shipped.
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
  private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(60);
  private static final long POLL_MILLIS = 20;

  private final MiniDFSCluster cluster;
  private final Configuration conf;
  private final int racks;
  private final DataNode[] dataNodes;
  private final Map<String, Integer> indexByIdentity = new HashMap<>();
  private final FileSystem[] hostFileSystems;
  private FileSystem offClusterFileSystem;
  private boolean closed;

  private EmulatedCluster(MiniDFSCluster cluster, Configuration conf, int racks) {
    this.cluster = cluster;
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

  public static Builder builder() {
    return new Builder();
  }

  /** Settings of a cluster to start; every setting has a default. */
  public static final class Builder {
    private int dataNodes = 16;
    private int racks = 2;
    private long blockSize = 1024 * 1024;
    private long readBandwidth;
    static final long READ_THROTTLE_PERIOD_MILLIS = 50;
    /** {@code DataTransferThrottler}'s default period, which the write throttle keeps. */
    static final long WRITE_THROTTLE_PERIOD_MILLIS = 500;
    private long writeBandwidth;
    private DiskModel disk = DiskModel.FAIR_SHARE;
    private File baseDir;
    private boolean stockConsiderLoad = true;
    private StorageType[][] storageTypes;
    private final Configuration overlay = new Configuration(false);

    private Builder() {
    }

    /** Number of DataNodes, 1 to {@value EmulatedCluster#MAX_DATANODES}; default 16. */
    public Builder dataNodes(int count) {
      if (count < 1 || count > MAX_DATANODES) {
        throw new IllegalArgumentException("dataNodes must be in [1, " + MAX_DATANODES + "]: "
            + count);
      }
      this.dataNodes = count;
      return this;
    }

    /** Number of racks, at most the number of DataNodes; default 2. */
    public Builder racks(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("racks must be positive: " + count);
      }
      this.racks = count;
      return this;
    }

    /** HDFS block size in bytes, a multiple of 512; default 1 MiB. */
    public Builder blockSize(long bytes) {
      if (bytes <= 0 || bytes % 512 != 0) {
        throw new IllegalArgumentException("block size must be a positive multiple of 512: "
            + bytes);
      }
      this.blockSize = bytes;
      return this;
    }

    /**
     * Per-DataNode limit on data sent to readers, shared by all its readers
     * ({@code dfs.datanode.data.read.bandwidthPerSec}); 0, the default, is unlimited.
     *
     * <p>The DataNode's throttler lets one 500 ms period's budget through at full speed after
     * an idle spell, so an idle DataNode would serve a chunk of that size instantly, which no
     * disk does. The harness therefore swaps in the same throttler with a
     * {@value #READ_THROTTLE_PERIOD_MILLIS} ms period: the same rate, bursts ten times smaller.
     */
    public Builder readBandwidthPerDataNode(long bytesPerSecond) {
      this.readBandwidth = requireNonNegative(bytesPerSecond);
      return this;
    }

    /**
     * Per-DataNode limit on data received, shared by all its writers and pipeline mirrors
     * ({@code dfs.datanode.data.write.bandwidthPerSec}); 0, the default, is unlimited.
     */
    public Builder writeBandwidthPerDataNode(long bytesPerSecond) {
      this.writeBandwidth = requireNonNegative(bytesPerSecond);
      return this;
    }

    /**
     * How the read and write throttles treat concurrent streams: {@link DiskModel#FAIR_SHARE}
     * (the default) shares a DataNode's bandwidth evenly; another model charges its cost of
     * switching between streams ({@link SeekingThrottler}; Hadoop 3.4.0 on).
     */
    public Builder disk(DiskModel model) {
      this.disk = model;
      return this;
    }

    /**
     * Directory for the cluster's storage, deleted on close; default a fresh directory under
     * {@code target/e2e/emulated-cluster}.
     */
    public Builder baseDir(File dir) {
      this.baseDir = dir;
      return this;
    }

    /**
     * Whether the NameNode avoids busy DataNodes ({@code dfs.namenode.redundancy.considerLoad}).
     * Default true, as Hadoop ships it (MiniDFSCluster on its own turns it off).
     */
    public Builder stockConsiderLoad(boolean on) {
      this.stockConsiderLoad = on;
      return this;
    }

    /**
     * The storages of each DataNode: {@code types[k]} lists the storage types of DataNode
     * {@code k}, one storage directory each (e.g. {@code {SSD, DISK}}). There must be one entry
     * per DataNode, each with at least one type. Default: one {@code DISK} storage each.
     */
    public Builder storageTypes(StorageType[][] types) {
      StorageType[][] copy = new StorageType[types.length][];
      for (int k = 0; k < types.length; k++) {
        if (types[k] == null || types[k].length == 0) {
          throw new IllegalArgumentException("DataNode " + k + " has no storage types");
        }
        copy[k] = types[k].clone();
      }
      this.storageTypes = copy;
      return this;
    }

    /**
     * Adds the properties set in {@code settings} (not the ones it loaded from Hadoop's
     * {@code *-default.xml}) to the configuration of the NameNode, the DataNodes and every
     * client, e.g. {@code dfs.block.replicator.classname}. The builder's own settings win.
     */
    public Builder conf(Configuration settings) {
      for (Map.Entry<String, String> entry : settings) {
        if (!loadedFromDefaults(settings, entry.getKey())) {
          overlay.set(entry.getKey(), entry.getValue());
        }
      }
      return this;
    }

    /** Adds one property, as {@link #conf(Configuration)} does. */
    public Builder set(String key, String value) {
      overlay.set(key, value);
      return this;
    }

    /** Starts the cluster and returns once every DataNode is registered at its address. */
    public EmulatedCluster start() throws IOException, InterruptedException {
      if (racks > dataNodes) {
        throw new IllegalArgumentException(racks + " racks for " + dataNodes + " DataNodes");
      }
      if (readBandwidth > 0 && !canThrottleReads()) {
        throw new UnsupportedOperationException("a read bandwidth per DataNode needs Hadoop "
            + "3.4.0 or later (" + READ_BANDWIDTH_KEY + ")");
      }
      if (storageTypes != null && storageTypes.length != dataNodes) {
        throw new IllegalArgumentException("storage types for " + storageTypes.length
            + " DataNodes, but " + dataNodes + " DataNodes");
      }
      File dir = baseDir != null ? baseDir : freshBaseDir();
      // StaticMapping (the rack map) is JVM-wide; a previous cluster must not leave racks behind.
      StaticMapping.resetMap();
      Configuration conf = clusterConf();
      String[] rackOf = new String[dataNodes];
      String[] hostNames = new String[dataNodes];
      Configuration[] dataNodeConfs = new Configuration[dataNodes];
      for (int k = 0; k < dataNodes; k++) {
        rackOf[k] = rackOf(k, racks, dataNodes);
        hostNames[k] = hostNameOf(k);
        dataNodeConfs[k] = dataNodeConf(hostAddressOf(k));
      }
      MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, dir)
          .numDataNodes(dataNodes)
          .racks(rackOf)
          .hosts(hostNames)
          .storagesPerDatanode(storagesPerDataNode())
          .storageTypes(storageTypes)
          .dataNodeConfOverlays(dataNodeConfs)
          .checkDataNodeAddrConfig(true)
          // after the Builder's constructor, which turns considerLoad off
          .setNNRedundancyConsiderLoad(stockConsiderLoad)
          .build();
      boolean started = false;
      try {
        cluster.waitActive();
        cluster.waitFirstBRCompleted(0, (int) SETTLE_TIMEOUT.toMillis());
        for (DataNode dn : cluster.getDataNodes()) {
          if (readBandwidth > 0) {
            DataNodeThrottles.setReadThrottler(dn, disk == DiskModel.FAIR_SHARE
                ? new DataTransferThrottler(READ_THROTTLE_PERIOD_MILLIS, readBandwidth)
                : new SeekingThrottler(READ_THROTTLE_PERIOD_MILLIS, readBandwidth, disk));
          }
          if (writeBandwidth > 0 && disk != DiskModel.FAIR_SHARE) {
            // the stock throttle's own period (500 ms), charging stream switches too
            DataNodeThrottles.setWriteThrottler(dn,
                new SeekingThrottler(WRITE_THROTTLE_PERIOD_MILLIS, writeBandwidth, disk));
          }
        }
        EmulatedCluster emulated = new EmulatedCluster(cluster, conf, racks);
        emulated.checkRegistrations();
        started = true;
        return emulated;
      } catch (TimeoutException e) {
        throw new IOException("DataNodes did not send their first block reports", e);
      } finally {
        if (!started) {
          cluster.shutdown(true);
          StaticMapping.resetMap();
        }
      }
    }

    // MiniDFSCluster makes this many directories per DataNode, fewer where a DataNode lists
    // fewer storage types.
    private int storagesPerDataNode() {
      return storageTypes == null ? 1
          : Arrays.stream(storageTypes).mapToInt(types -> types.length).max().orElse(1);
    }

    private Configuration clusterConf() {
      Configuration conf = new HdfsConfiguration();
      conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
      conf.setInt(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_KEY, 1);
      conf.setLong(DFSConfigKeys.DFS_BLOCK_SCANNER_VOLUME_BYTES_PER_SECOND, 0);
      for (Map.Entry<String, String> entry : overlay) {
        conf.set(entry.getKey(), entry.getValue());
      }
      conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, blockSize);
      conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, Math.min(blockSize,
          conf.getLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY,
              DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_DEFAULT)));
      conf.setClass(CommonConfigurationKeysPublic.HADOOP_RPC_SOCKET_FACTORY_CLASS_DEFAULT_KEY,
          HostBindingSocketFactory.class, SocketFactory.class);
      return conf;
    }

    // Only what differs per DataNode: a key set here must not be set in the cluster conf, whose
    // explicitly set values would override this overlay.
    private Configuration dataNodeConf(String address) {
      Configuration dn = new Configuration(false);
      dn.set(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY, address + ":0");
      dn.set(DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY, address + ":0");
      dn.set(DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_KEY, address + ":0");
      dn.set(HostBindingSocketFactory.BIND_ADDRESS_KEY, address);
      dn.setLong(READ_BANDWIDTH_KEY, readBandwidth);
      dn.setLong(DFSConfigKeys.DFS_DATANODE_DATA_WRITE_BANDWIDTHPERSEC_KEY, writeBandwidth);
      return dn;
    }

    private static boolean loadedFromDefaults(Configuration settings, String key) {
      String[] sources = settings.getPropertySources(key);
      return sources != null
          && Arrays.stream(sources).allMatch(source -> source.endsWith("-default.xml"));
    }

    private static long requireNonNegative(long bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new IllegalArgumentException("bandwidth must be >= 0: " + bytesPerSecond);
      }
      return bytesPerSecond;
    }

    // Next to the test classes (target/e2e/test-classes), wherever the JVM was started.
    private static File freshBaseDir() throws IOException {
      try {
        java.nio.file.Path classes = java.nio.file.Path.of(
            EmulatedCluster.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        java.nio.file.Path root = classes.getParent().resolve("emulated-cluster");
        Files.createDirectories(root);
        return Files.createTempDirectory(root, "cluster-").toFile();
      } catch (URISyntaxException e) {
        throw new IOException(e);
      }
    }
  }

  private static String hostAddressOf(int k) {
    return "127.0.0." + (k + 2);
  }

  private static String hostNameOf(int k) {
    return "dn" + k + ".emulated";
  }

  private static String rackOf(int k, int racks, int dataNodes) {
    return "/rack" + (k * racks / dataNodes);
  }

  // Fails the start when the NameNode does not see DataNodes where they are meant to be, which
  // is what happens when the socket factory is not in effect (everything registers as 127.0.0.1).
  private void checkRegistrations() {
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
   * {@link #fileSystemOnHost} or {@link #offClusterFileSystem} call makes new ones.
   */
  public synchronized void restartNameNode(Map<String, String> settings)
      throws IOException, InterruptedException {
    IOException failure = closeClients();
    if (failure != null) {
      throw failure;
    }
    // the NameNode's own copy of the configuration, which the restart reads (Hadoop 3.3 has no
    // setNameNodeConf)
    Configuration nn = cluster.getConfiguration(0);
    settings.forEach((key, value) -> {
      if (value == null) {
        nn.unset(key);
      } else {
        nn.set(key, value);
      }
    });
    cluster.restartNameNode(true);
    cluster.waitActive();
    long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
    while (cluster.getNamesystem().isInSafeMode()) {
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

  /** The host name DataNode {@code k} reports ({@code BlockLocation#getHosts()}). */
  public String hostName(int k) {
    checkIndex(k);
    return hostNameOf(k);
  }

  /** The rack of DataNode {@code k}, e.g. "/rack0". */
  public String rack(int k) {
    checkIndex(k);
    return rackOf(k, racks, size());
  }

  public DataNode dataNode(int k) {
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

  public URI uri() {
    return cluster.getURI();
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

  /** {@code counter} on every DataNode, indexed by DataNode. */
  public long[] counterPerDataNode(DataNodeCounter counter) {
    long[] values = new long[size()];
    for (int k = 0; k < size(); k++) {
      values[k] = counter.valueOn(dataNodes[k]);
    }
    return values;
  }

  /** {@code counter} on every DataNode minus {@code before}, an earlier reading of it. */
  public long[] counterSince(DataNodeCounter counter, long[] before) {
    long[] now = counterPerDataNode(counter);
    for (int k = 0; k < now.length; k++) {
      now[k] -= before[k];
    }
    return now;
  }

  /** Bytes each DataNode received and wrote since it started (see {@link DataNodeCounter}). */
  public long[] bytesWrittenPerDataNode() {
    return counterPerDataNode(DataNodeCounter.BYTES_WRITTEN);
  }

  /**
   * Bytes each DataNode sent to readers since it started, checksums included (see
   * {@link DataNodeCounter#BYTES_READ}).
   */
  public long[] bytesReadPerDataNode() {
    return counterPerDataNode(DataNodeCounter.BYTES_READ);
  }

  /**
   * The number of replicas the NameNode records on each DataNode. The NameNode learns of
   * replicas from reports that trail the writes, so this waits until its counts equal the
   * finalized replicas each DataNode holds. Call it with no write or delete in flight.
   *
   * @throws IOException if the counts do not settle within a minute
   */
  public int[] blocksStoredPerDataNode() throws IOException, InterruptedException {
    String blockPool = cluster.getNamesystem().getBlockPoolId();
    long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
    while (true) {
      int[] recorded = new int[size()];
      int[] held = new int[size()];
      for (int k = 0; k < size(); k++) {
        recorded[k] = datanodeDescriptor(k).numBlocks();
        held[k] = dataNodes[k].getFSDataset().getFinalizedBlocks(blockPool).size();
      }
      if (Arrays.equals(recorded, held)) {
        return recorded;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("the NameNode records " + Arrays.toString(recorded)
            + " replicas per DataNode, the DataNodes hold " + Arrays.toString(held));
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /**
   * Waits until the NameNode knows at least {@code replication} replicas of every block of
   * {@code file} (a closed file: the last replicas are reported a moment after close()).
   *
   * @throws IOException if that does not happen within a minute
   */
  public void waitForReplication(Path file, short replication)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
    while (true) {
      List<Set<Integer>> holders = replicaHolders(file);
      if (holders.stream().allMatch(replicas -> replicas.size() >= replication)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(file + " has replicas " + holders + ", wanted " + replication
            + " of each block");
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /**
   * For each block of {@code file}, in order, the indices of the DataNodes the NameNode knows to
   * hold a replica.
   */
  public List<Set<Integer>> replicaHolders(Path file) throws IOException {
    FileSystem fs = cluster.getFileSystem();
    FileStatus status = fs.getFileStatus(file);
    List<Set<Integer>> holders = new ArrayList<>();
    for (BlockLocation block : fs.getFileBlockLocations(status, 0, status.getLen())) {
      Set<Integer> replicas = new TreeSet<>();
      for (String name : block.getNames()) {
        replicas.add(dataNodeIndexOf(name));
      }
      holders.add(Collections.unmodifiableSet(replicas));
    }
    return Collections.unmodifiableList(holders);
  }

  /** The NameNode's block manager (placement policy, replication state). */
  public BlockManager blockManager() {
    return cluster.getNamesystem().getBlockManager();
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
