package org.opass.tools.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.SocketFactory;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.qjournal.MiniQJMHACluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataNodeThrottles;
import org.apache.hadoop.hdfs.server.namenode.ha.ObserverReadProxyProvider;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.net.StaticMapping;
import org.opass.tools.sim.DiskModel;

/**
 * Settings of an {@link EmulatedCluster} to start ({@link EmulatedCluster#builder()}); every
 * setting has a default.
 */
public final class EmulatedClusterBuilder {
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
  private boolean highAvailability;
  private boolean namedByAddress;
  private int observers;
  private final Configuration overlay = new Configuration(false);

  EmulatedClusterBuilder() {
  }

  /** Number of DataNodes, 1 to {@value EmulatedCluster#MAX_DATANODES}; default 16. */
  public EmulatedClusterBuilder dataNodes(int count) {
    if (count < 1 || count > EmulatedCluster.MAX_DATANODES) {
      throw new IllegalArgumentException("dataNodes must be in [1, " + EmulatedCluster.MAX_DATANODES + "]: "
          + count);
    }
    this.dataNodes = count;
    return this;
  }

  /** Number of racks, at most the number of DataNodes; default 2. */
  public EmulatedClusterBuilder racks(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("racks must be positive: " + count);
    }
    this.racks = count;
    return this;
  }

  /** HDFS block size in bytes, a multiple of 512; default 1 MiB. */
  public EmulatedClusterBuilder blockSize(long bytes) {
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
  public EmulatedClusterBuilder readBandwidthPerDataNode(long bytesPerSecond) {
    this.readBandwidth = requireNonNegative(bytesPerSecond);
    return this;
  }

  /**
   * Per-DataNode limit on data received, shared by all its writers and pipeline mirrors
   * ({@code dfs.datanode.data.write.bandwidthPerSec}); 0, the default, is unlimited.
   */
  public EmulatedClusterBuilder writeBandwidthPerDataNode(long bytesPerSecond) {
    this.writeBandwidth = requireNonNegative(bytesPerSecond);
    return this;
  }

  /**
   * How the read and write throttles treat concurrent streams: {@link DiskModel#FAIR_SHARE}
   * (the default) shares a DataNode's bandwidth evenly; another model charges its cost of
   * switching between streams ({@link SeekingThrottler}; Hadoop 3.4.0 on).
   */
  public EmulatedClusterBuilder disk(DiskModel model) {
    this.disk = model;
    return this;
  }

  /**
   * Directory for the cluster's storage, deleted on close; default a fresh directory under
   * {@code target/e2e/emulated-cluster}.
   */
  public EmulatedClusterBuilder baseDir(File dir) {
    this.baseDir = dir;
    return this;
  }

  /**
   * Whether the NameNode avoids busy DataNodes ({@code dfs.namenode.redundancy.considerLoad}).
   * Default true, as Hadoop ships it (MiniDFSCluster on its own turns it off).
   */
  public EmulatedClusterBuilder stockConsiderLoad(boolean on) {
    this.stockConsiderLoad = on;
    return this;
  }

  /**
   * The storages of each DataNode: {@code types[k]} lists the storage types of DataNode
   * {@code k}, one storage directory each (e.g. {@code {SSD, DISK}}). There must be one entry
   * per DataNode, each with at least one type. Default: one {@code DISK} storage each.
   */
  public EmulatedClusterBuilder storageTypes(StorageType[][] types) {
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
   * DataNode hosts named by their addresses (DataNode k is 127.0.0.(k+2) in
   * {@code BlockLocation#getHosts()} too), as NodeManagers on those hosts are known to YARN
   * ({@link HostYarn}): this JVM cannot resolve made-up host names to loopback addresses.
   */
  public EmulatedClusterBuilder hostsNamedByAddress() {
    this.namedByAddress = true;
    return this;
  }

  /**
   * Two NameNodes (nameservice {@value MiniQJMHACluster#NAMESERVICE}, NameNode 0 active) sharing
   * their edits through three JournalNodes, as a production HA cluster does (Hadoop's
   * {@code MiniQJMHACluster}). The cluster's URI is then {@code hdfs://ns1}: its clients fail
   * over ({@code ConfiguredFailoverProxyProvider}). Default: one NameNode.
   */
  public EmulatedClusterBuilder highAvailability() {
    this.highAvailability = true;
    return this;
  }

  /**
   * An HA cluster ({@link #highAvailability}) with {@code n} more NameNodes as observers
   * (NameNodes 2 to n+1; Hadoop 3.3+), tailing the edits in progress every 100 ms, and every
   * client of the cluster reading through them ({@code ObserverReadProxyProvider}, with an
   * msync before each read), as an operator who enables observer reads sets it up.
   */
  public EmulatedClusterBuilder observers(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("observers: " + n + " (at least 1)");
    }
    this.highAvailability = true;
    this.observers = n;
    return this;
  }

  /**
   * Adds the properties set in {@code settings} (not the ones it loaded from Hadoop's
   * {@code *-default.xml}) to the configuration of the NameNode, the DataNodes and every
   * client, e.g. {@code dfs.block.replicator.classname}. The builder's own settings win.
   */
  public EmulatedClusterBuilder conf(Configuration settings) {
    for (Map.Entry<String, String> entry : settings) {
      if (!loadedFromDefaults(settings, entry.getKey())) {
        overlay.set(entry.getKey(), entry.getValue());
      }
    }
    return this;
  }

  /** Adds one property, as {@link #conf(Configuration)} does. */
  public EmulatedClusterBuilder set(String key, String value) {
    overlay.set(key, value);
    return this;
  }

  /** Starts the cluster and returns once every DataNode is registered at its address. */
  public EmulatedCluster start() throws IOException, InterruptedException {
    if (racks > dataNodes) {
      throw new IllegalArgumentException(racks + " racks for " + dataNodes + " DataNodes");
    }
    if (readBandwidth > 0 && !EmulatedCluster.canThrottleReads()) {
      throw new UnsupportedOperationException("a read bandwidth per DataNode needs Hadoop "
          + "3.4.0 or later (" + EmulatedCluster.READ_BANDWIDTH_KEY + ")");
    }
    if (storageTypes != null && storageTypes.length != dataNodes) {
      throw new IllegalArgumentException("storage types for " + storageTypes.length
          + " DataNodes, but " + dataNodes + " DataNodes");
    }
    File dir = baseDir != null ? baseDir : freshBaseDir();
    // StaticMapping (the rack map) is JVM-wide; a previous cluster must not leave racks behind.
    StaticMapping.resetMap();
    Configuration conf = clusterConf();
    if (conf.get(DFSConfigKeys.DFS_HOSTS_EXCLUDE, "").isEmpty()) {
      // an exclude file from the start, empty: Faults decommissions by writing it (Hadoop 3.3
      // re-reads only the file its NameNode started with)
      File exclude = new File(dir, "exclude-hosts");
      Files.createDirectories(dir.toPath());
      Files.writeString(exclude.toPath(), "");
      conf.set(DFSConfigKeys.DFS_HOSTS_EXCLUDE, exclude.getAbsolutePath());
    }
    String[] rackOf = new String[dataNodes];
    String[] hostNames = new String[dataNodes];
    Configuration[] dataNodeConfs = new Configuration[dataNodes];
    for (int k = 0; k < dataNodes; k++) {
      rackOf[k] = EmulatedCluster.rackOf(k, racks, dataNodes);
      hostNames[k] = namedByAddress ? EmulatedCluster.hostAddressOf(k)
          : EmulatedCluster.hostNameOf(k);
      dataNodeConfs[k] = dataNodeConf(EmulatedCluster.hostAddressOf(k));
    }
    MiniQJMHACluster.Builder ha = null;
    MiniDFSCluster.Builder dfs;
    if (highAvailability) {
      conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.getAbsolutePath()); // 3.3: no File
      if (observers > 0) { // as Hadoop's ObserverNameNode guide sets them up
        conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_STATE_CONTEXT_ENABLED_KEY, true);
        conf.setBoolean(DFSConfigKeys.DFS_HA_TAILEDITS_INPROGRESS_KEY, true);
        conf.setTimeDuration(DFSConfigKeys.DFS_HA_TAILEDITS_PERIOD_KEY, 100,
            TimeUnit.MILLISECONDS);
      }
      ha = new MiniQJMHACluster.Builder(conf).baseDir(new File(dir, "journal").getPath())
          .setNumNameNodes(2 + observers);
      dfs = ha.getDfsBuilder();
    } else {
      dfs = new MiniDFSCluster.Builder(conf, dir);
    }
    dfs.numDataNodes(dataNodes)
        .racks(rackOf)
        .hosts(hostNames)
        .storagesPerDatanode(storagesPerDataNode())
        .storageTypes(storageTypes)
        .dataNodeConfOverlays(dataNodeConfs)
        .checkDataNodeAddrConfig(true)
        // after the Builder's constructor, which turns considerLoad off
        .setNNRedundancyConsiderLoad(stockConsiderLoad);
    MiniQJMHACluster journaled = ha == null ? null : ha.build();
    MiniDFSCluster cluster = journaled == null ? dfs.build() : journaled.getDfsCluster();
    boolean started = false;
    try {
      cluster.waitActive();
      if (journaled != null) {
        cluster.transitionToActive(0);
        for (int k = 2; k < 2 + observers; k++) {
          cluster.transitionToObserver(k);
        }
        if (observers > 0) { // set by MiniQJMHACluster's build to the plain failover provider
          conf.set(HdfsClientConfigKeys.Failover.PROXY_PROVIDER_KEY_PREFIX + "."
              + MiniQJMHACluster.NAMESERVICE, ObserverReadProxyProvider.class.getName());
          // each read first catches up with the active (msync), so a client reads what
          // another wrote before it: the tests' clients stand for processes of one job
          conf.set("dfs.client.failover.observer.auto-msync-period."
              + MiniQJMHACluster.NAMESERVICE, "0ms");
        }
      }
      for (int nn = 0; nn < cluster.getNumNameNodes(); nn++) {
        cluster.waitFirstBRCompleted(nn, (int) EmulatedCluster.SETTLE_TIMEOUT.toMillis());
      }
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
      if (namedByAddress) {
        // MiniDFSCluster resolves every DataNode's host name to localhost
        // (NetUtils#addStaticResolution), which is why DataNodes named by address listen on
        // every address (dataNodeConf); from now on an address resolves to itself, so that
        // YARN reaches a NodeManager at its address and not at 127.0.0.1
        for (String host : hostNames) {
          NetUtils.addStaticResolution(host, host);
        }
      }
      EmulatedCluster emulated = new EmulatedCluster(cluster, journaled, conf, racks,
          hostNames);
      emulated.checkRegistrations();
      started = true;
      return emulated;
    } catch (TimeoutException e) {
      throw new IOException("DataNodes did not send their first block reports", e);
    } finally {
      if (!started) {
        cluster.shutdown(true);
        if (journaled != null) {
          journaled.getJournalCluster().shutdown();
        }
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
    String listen = namedByAddress ? "0.0.0.0" : address;
    dn.set(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY, listen + ":0");
    dn.set(DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY, listen + ":0");
    dn.set(DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_KEY, listen + ":0");
    dn.set(HostBindingSocketFactory.BIND_ADDRESS_KEY, address);
    dn.setLong(EmulatedCluster.READ_BANDWIDTH_KEY, readBandwidth);
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

  // Below the repository's target/e2e (as the tests' own build), wherever the JVM was started.
  private static File freshBaseDir() throws IOException {
    java.nio.file.Path root = Release.repositoryRoot().resolve("target/e2e/emulated-cluster");
    Files.createDirectories(root);
    return Files.createTempDirectory(root, "cluster-").toFile();
  }
}
