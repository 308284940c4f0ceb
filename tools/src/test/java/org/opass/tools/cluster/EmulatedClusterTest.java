package org.opass.tools.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opass.tools.cluster.TestFiles.randomBytes;
import static org.opass.tools.cluster.TestFiles.read;
import static org.opass.tools.cluster.TestFiles.write;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The emulated cluster gives each DataNode a host of its own, and the harness measures it. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EmulatedClusterTest {

  private static final int DATANODES = 6;
  private static final long THROTTLE = 64L * 1024 * 1024;
  private static final String LOAD_FACTOR = "3.5";
  private static final short REPLICATION = 3;
  // a DataNode's bytes read include the CRC32C checksums it sends along (4 bytes per 512)
  private static final int BYTES_PER_CHECKSUM = 512;
  private static final int CHECKSUM_BYTES = 4;

  private EmulatedCluster cluster;
  private long blockSize;

  @BeforeAll
  void startCluster() throws Exception {
    // with Hadoop's defaults loaded, as callers usually make one; only what is set must apply
    Configuration settings = new HdfsConfiguration();
    settings.set(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_FACTOR, LOAD_FACTOR);
    cluster = EmulatedCluster.builder()
        .dataNodes(DATANODES)
        .racks(2)
        .readBandwidthPerDataNode(EmulatedCluster.canThrottleReads() ? THROTTLE : 0)
        .writeBandwidthPerDataNode(THROTTLE)
        .conf(settings)
        .start();
    blockSize = cluster.blockSize();
  }

  @AfterAll
  void stopCluster() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theNameNodeRunsWithTheCallersSettingsAndLoadAwarenessAsShipped() {
    Configuration nameNode = cluster.miniCluster().getConfiguration(0);
    assertEquals(LOAD_FACTOR,
        nameNode.get(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_FACTOR));
    assertTrue(nameNode.getBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false));
    // the defaults the caller's configuration loaded did not replace the harness's settings
    assertEquals(1, nameNode.getLong(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 0));
  }

  @Test
  void everyDataNodeRegistersAtItsOwnAddressOnItsRack() throws IOException {
    assertEquals(DATANODES, cluster.size());
    assertEquals(EmulatedCluster.NAMENODE_ADDRESS,
        InetAddress.getByName(cluster.uri().getHost()).getHostAddress());
    for (int k = 0; k < DATANODES; k++) {
      DatanodeDescriptor registered = cluster.datanodeDescriptor(k);
      assertEquals("127.0.0." + (k + 2), cluster.hostAddress(k));
      assertEquals(cluster.hostAddress(k), registered.getIpAddr());
      assertEquals(cluster.hostName(k), registered.getHostName());
      assertEquals(k < DATANODES / 2 ? "/rack0" : "/rack1", cluster.rack(k));
      assertEquals(cluster.rack(k), registered.getNetworkLocation());

      assertEquals(k, cluster.dataNodeIndexOf(registered.getIpAddr()));
      assertEquals(k, cluster.dataNodeIndexOf(registered.getXferAddr()));
      assertEquals(k, cluster.dataNodeIndexOf(registered.getHostName()));
      assertEquals(k, cluster.dataNodeIndexOf(registered.getDatanodeUuid()));

      // the DataNode's own connections (pipeline mirrors, block transfers) leave from its host
      try (Socket socket = NetUtils.getDefaultSocketFactory(cluster.dataNode(k).getConf())
          .createSocket()) {
        assertEquals(InetAddress.getByName(cluster.hostAddress(k)), socket.getLocalAddress());
      }
      assertEquals(EmulatedCluster.canThrottleReads() ? THROTTLE : 0, cluster.dataNode(k)
          .getConf().getLong(EmulatedCluster.READ_BANDWIDTH_KEY, 0));
      assertEquals(THROTTLE, cluster.dataNode(k).getConf()
          .getLong(DFSConfigKeys.DFS_DATANODE_DATA_WRITE_BANDWIDTHPERSEC_KEY, 0));
    }
    assertEquals(-1, cluster.dataNodeIndexOf(EmulatedCluster.OFF_CLUSTER_ADDRESS));
    assertEquals(-1, cluster.dataNodeIndexOf(EmulatedCluster.NAMENODE_ADDRESS));
  }

  @Test
  void aWriterOnAHostGetsAReplicaOfEveryBlockThereAndReadsItBackFromThere() throws Exception {
    int host = 4;
    int blocks = 6;
    Path file = new Path("/locality/host-" + host);
    byte[] data = randomBytes(blocks * blockSize, host);
    FileSystem fs = cluster.fileSystemOnHost(host);
    assertSame(fs, cluster.fileSystemOnHost(host));
    long[] localWritesBefore = cluster.counters().perDataNode(DataNodeCounter.WRITES_FROM_LOCAL_CLIENT);
    int[] storedBefore = cluster.replicas().storedPerDataNode();

    write(fs, file, data, REPLICATION);
    cluster.replicas().waitFor(file, REPLICATION);

    List<Set<Integer>> holders = cluster.replicas().holders(file);
    assertEquals(blocks, holders.size());
    for (Set<Integer> replicas : holders) {
      assertEquals(REPLICATION, replicas.size(), "replicas " + replicas);
      assertTrue(replicas.contains(host), "replicas " + replicas);
    }
    // Only DataNode `host` saw a writer at its own address: the client's data connections are
    // bound to the host, and the pipeline's mirror connections come from other hosts.
    long[] localWrites =
        cluster.counters().since(DataNodeCounter.WRITES_FROM_LOCAL_CLIENT, localWritesBefore);
    assertEquals(blocks, localWrites[host]);
    assertEquals(blocks, Arrays.stream(localWrites).sum());
    int[] stored = minus(cluster.replicas().storedPerDataNode(), storedBefore);
    assertEquals(blocks, stored[host]);
    assertEquals(REPLICATION * blocks, Arrays.stream(stored).sum());

    long[] readBefore = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
    long[] blocksReadBefore = cluster.counters().perDataNode(DataNodeCounter.BLOCKS_READ);
    long[] localReadsBefore = cluster.counters().perDataNode(DataNodeCounter.READS_FROM_LOCAL_CLIENT);
    assertArrayEquals(data, read(fs, file));

    // A DataNode counts a read when the reader acknowledges the block's end, after readFully
    // returned: bytes first, then blocks, then local or remote reader.
    Supplier<long[]> blocksRead =
        () -> cluster.counters().since(DataNodeCounter.BLOCKS_READ, blocksReadBefore);
    Supplier<long[]> localReads =
        () -> cluster.counters().since(DataNodeCounter.READS_FROM_LOCAL_CLIENT, localReadsBefore);
    GenericTestUtils.waitFor(() -> Arrays.stream(blocksRead.get()).sum() >= blocks, 10, 30_000);
    long[] expectedBytes = new long[DATANODES];
    expectedBytes[host] = data.length + data.length / BYTES_PER_CHECKSUM * CHECKSUM_BYTES;
    long[] expectedBlocks = new long[DATANODES];
    expectedBlocks[host] = blocks;
    assertArrayEquals(expectedBlocks, blocksRead.get(), "blocks read per DataNode");
    assertArrayEquals(expectedBytes, cluster.counters().since(DataNodeCounter.BYTES_READ, readBefore),
        "bytes read per DataNode");
    // ... and DataNode `host` saw the reader at its own address
    GenericTestUtils.waitFor(() -> Arrays.equals(expectedBlocks, localReads.get()), 10, 10_000);
  }

  @Test
  void aWriterOutsideTheClusterIsPlacedLikeARemoteClient() throws Exception {
    int blocks = 8;
    Path file = new Path("/off-cluster/file");
    byte[] data = randomBytes(blocks * blockSize, 99);
    FileSystem fs = cluster.offClusterFileSystem();
    long[] localWritesBefore = cluster.counters().perDataNode(DataNodeCounter.WRITES_FROM_LOCAL_CLIENT);

    write(fs, file, data, REPLICATION);
    cluster.replicas().waitFor(file, REPLICATION);

    assertArrayEquals(data, read(fs, file));
    Set<Integer> used = new HashSet<>();
    for (Set<Integer> replicas : cluster.replicas().holders(file)) {
      assertEquals(REPLICATION, replicas.size(), "replicas " + replicas);
      used.addAll(replicas);
    }
    assertTrue(used.size() > REPLICATION, "all blocks on DataNodes " + used);
    assertEquals(0, Arrays.stream(cluster.counters().since(
        DataNodeCounter.WRITES_FROM_LOCAL_CLIENT, localWritesBefore)).sum());
  }

  @Test
  void aWorkloadReportsEveryProcessAndChunkConsistentlyWithTheDataNodes() throws Exception {
    int[] hosts = {0, 2, 3, 5};
    int blocks = 3;
    Path dir = new Path("/workload");
    long[] writtenBefore = cluster.counters().perDataNode(DataNodeCounter.BYTES_WRITTEN);
    long[] replicasBefore = cluster.counters().perDataNode(DataNodeCounter.BLOCKS_WRITTEN);
    Workload workload = new Workload(cluster);
    for (int host : hosts) {
      workload.process(host, Workload.writeFiles(dir, blocks));
    }

    WorkloadResult result = workload.run();

    assertEquals(hosts.length, result.processes().size());
    long lastFinish = 0;
    for (int id = 0; id < hosts.length; id++) {
      WorkloadResult.ProcessResult process = result.process(id);
      assertEquals(id, process.processId());
      assertEquals(hosts[id], process.host());
      assertEquals(blocks * blockSize, process.bytes());
      assertEquals(blocks * blockSize, cluster.miniCluster().getFileSystem()
          .getFileStatus(Workload.fileOf(dir, id)).getLen());
      assertEquals(process.bytes() * 1e9 / process.elapsedNanos(), process.bandwidth(),
          process.bandwidth() * 1e-9);
      assertEquals(blocks, process.chunks().size());
      long previous = process.startNanos();
      assertTrue(previous >= 0);
      for (WorkloadResult.Chunk chunk : process.chunks()) {
        assertEquals(blockSize, chunk.bytes());
        assertTrue(chunk.startNanos() >= previous, "chunks of a process are sequential");
        assertTrue(chunk.finishNanos() >= chunk.startNanos());
        assertEquals(chunk.finishNanos() - chunk.startNanos(), chunk.durationNanos());
        previous = chunk.finishNanos();
      }
      assertTrue(previous <= process.finishNanos());
      lastFinish = Math.max(lastFinish, process.finishNanos());
    }
    assertEquals(lastFinish, result.makespanNanos());
    assertEquals(hosts.length * blocks * blockSize, result.totalBytes());

    // every replica of every block, counted by the DataNodes that wrote it
    long[] written = cluster.counters().since(DataNodeCounter.BYTES_WRITTEN, writtenBefore);
    assertEquals(REPLICATION * result.totalBytes(), Arrays.stream(written).sum(),
        "bytes written per DataNode " + Arrays.toString(written));
    assertEquals(REPLICATION * hosts.length * blocks, Arrays.stream(
        cluster.counters().since(DataNodeCounter.BLOCKS_WRITTEN, replicasBefore)).sum());
  }

  @Test
  void theFirstFailingProcessFailsTheRun() {
    Workload workload = new Workload(cluster)
        .process(0, context -> Thread.sleep(10))
        .process(1, context -> {
          throw new IOException("disk on fire");
        });

    Workload.ProcessFailedException failure =
        assertThrows(Workload.ProcessFailedException.class, workload::run);

    assertEquals(1, failure.processId());
    assertInstanceOf(IOException.class, failure.getCause());
  }

  private static int[] minus(int[] after, int[] before) {
    int[] delta = new int[after.length];
    Arrays.setAll(delta, k -> after[k] - before[k]);
    return delta;
  }
}
