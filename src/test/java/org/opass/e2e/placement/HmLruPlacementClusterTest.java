package org.opass.e2e.placement;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opass.tools.cluster.TestFiles.randomBytes;
import static org.opass.tools.cluster.TestFiles.read;
import static org.opass.tools.cluster.TestFiles.write;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.NodeHeat;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.EmulatedClusterBuilder;
import org.opass.tools.cluster.Workload;

/**
 * HM-LRU on a real MiniDFSCluster (the emulated cluster: every DataNode a host of its own, two
 * racks): real clients write real blocks through the NameNode's HM-LRU policy, and every
 * invariant of the default policy still holds on what the DataNodes end up storing.
 *
 * <p>Each test starts its own small cluster (8 DataNodes on 2 racks unless said), because
 * several of them take DataNodes out of service.
 */
class HmLruPlacementClusterTest {

  private static final int DATANODES = 8;
  private static final int RACKS = 2;
  private static final short REPLICATION = 3;
  private static final int BLOCK_SIZE = 512 * 1024;
  // Hosts of the writers of most tests: two on each rack. -1 is the client outside the cluster.
  private static final int[] WRITERS = {0, 3, 4, 7, -1};
  private static final int OFF_CLUSTER = -1;

  @TempDir
  java.nio.file.Path tmp;

  private static EmulatedCluster start(UnaryOperator<EmulatedClusterBuilder> settings)
      throws IOException, InterruptedException {
    EmulatedClusterBuilder builder = EmulatedCluster.builder()
        .dataNodes(DATANODES)
        .racks(RACKS)
        .blockSize(BLOCK_SIZE)
        .set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
            HmLruPlacementPolicy.class.getName());
    EmulatedCluster cluster = settings.apply(builder).start();
    try {
      assertInstanceOf(HmLruPlacementPolicy.class, placementPolicy(cluster));
      return cluster;
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  private static EmulatedCluster start() throws IOException, InterruptedException {
    return start(builder -> builder);
  }

  private static BlockPlacementPolicy placementPolicy(EmulatedCluster cluster) {
    return cluster.blockManager().getBlockPlacementPolicy();
  }

  private static HmLruPlacementPolicy policy(EmulatedCluster cluster) {
    return (HmLruPlacementPolicy) placementPolicy(cluster);
  }

  // ---- 1. rack fault tolerance ------------------------------------------------------------

  @Test
  void filesFromHostsAndFromOutsideAlwaysHaveEveryBlockOnBothRacks() throws Exception {
    try (EmulatedCluster cluster = start()) {
      HeatTable heatmap = policy(cluster).heatmap();
      Map<Path, byte[]> files = new LinkedHashMap<>();
      int blocks = 0;
      for (int round = 0; round < 3; round++) {
        for (int host : WRITERS) {
          Path file = new Path("/spread/" + where(host) + "-" + round);
          // 2 full blocks and a partial third one
          byte[] data = randomBytes(2 * BLOCK_SIZE + 1000, files.size());
          write(writer(cluster, host), file, data, REPLICATION, BLOCK_SIZE);
          files.put(file, data);
          blocks += 3;
        }
      }

      for (Map.Entry<Path, byte[]> file : files.entrySet()) {
        List<Set<Integer>> holders = assertRackFaultTolerant(cluster, file.getKey());
        assertEquals(3, holders.size());
        int host = hostOf(file.getKey());
        if (host != OFF_CLUSTER) {
          // HM-LRU keeps the first replica on the writer's node or, when that node is hot, on
          // another node of the writer's rack: either way the writer's rack has a replica
          for (Set<Integer> replicas : holders) {
            assertTrue(racksOf(cluster, replicas).contains(cluster.rack(host)),
                file.getKey() + " block on " + replicas + " misses the writer's rack");
          }
        }
      }
      assertArrayEquals(files.values().iterator().next(),
          read(cluster.offClusterFileSystem(), files.keySet().iterator().next()));
      // the policy really ran: it chose among candidates and recorded every target
      assertTrue(heatmap.choices() > 0, "HM-LRU made no choice");
      // every target but the writer's own node is granted
      assertTrue(heatmap.grantsTotal() >= (long) (REPLICATION - 1) * blocks,
          heatmap.grantsTotal() + " grants for " + blocks + " blocks");
      assertEquals(0, heatmap.fallbacks(), "HM-LRU fell back to the default");
      assertEquals(DATANODES, heatmap.trackedNodes());
    }
  }

  // ---- 2. nodes out of service -------------------------------------------------------------

  @Test
  void aDecommissioningDataNodeGetsNoNewBlockEvenFromItsOwnHost() throws Exception {
    // The decommission monitor's first check is this far away, so the node stays
    // DECOMMISSION_INPROGRESS (rather than becoming DECOMMISSIONED) for the whole test.
    // The NameNode reads the exclude file named at its start: Hadoop 3.3's refreshNodes
    // ignores a configuration passed to it.
    java.nio.file.Path exclude = tmp.resolve("dfs.exclude");
    Files.writeString(exclude, "", StandardCharsets.UTF_8);
    try (EmulatedCluster cluster = start(builder -> builder
        .set(DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_INTERVAL_KEY, "3600")
        .set(DFSConfigKeys.DFS_HOSTS_EXCLUDE, exclude.toString()))) {
      int leaving = 2;
      // blocks on it before it leaves, as on a real cluster (a cool writer's node keeps the
      // first replica)
      Map<Path, byte[]> before = writeFromEach(cluster, "/before", new int[] {leaving}, 2, 0);
      Path first = before.keySet().iterator().next();
      cluster.replicas().waitFor(first, REPLICATION);
      assertTrue(cluster.replicas().holders(first).get(0).contains(leaving));

      // As an administrator does (and as Hadoop's TestDecommission): list the DataNode in the
      // exclude file and refresh the NameNode's node lists (dfsadmin -refreshNodes).
      Files.writeString(exclude, cluster.datanodeDescriptor(leaving).getXferAddr() + "\n",
          StandardCharsets.UTF_8);
      cluster.datanodeManager().refreshNodes(cluster.conf());
      DatanodeDescriptor descriptor = cluster.datanodeDescriptor(leaving);
      assertTrue(descriptor.isDecommissionInProgress(), descriptor.getAdminState().toString());

      // its own host writes too: the writer's node is then no candidate for the first replica
      int[] writers = {leaving, 0, 1, 3, 5, 6, OFF_CLUSTER};
      Map<Path, byte[]> after = writeFromEach(cluster, "/after", writers, 3, 100);
      for (Path file : after.keySet()) {
        for (Set<Integer> replicas : assertRackFaultTolerant(cluster, file)) {
          assertFalse(replicas.contains(leaving), file + " has a block on decommissioning "
              + "DataNode " + leaving + ": " + replicas);
        }
      }
      assertTrue(cluster.datanodeDescriptor(leaving).isDecommissionInProgress());
      assertEquals(0, policy(cluster).heatmap().fallbacks());
    }
  }

  @Test
  void aStoppedDataNodeThatClientsExcludeIsNeverWhereBlocksEndUp() throws Exception {
    // What "excluded" means end to end: when a DataNode of a pipeline cannot be reached, the
    // client abandons the block and asks again with that DataNode in the excluded nodes of
    // addBlock, which is the excludedNodes argument of chooseTarget. A DataNode that has just
    // stopped, before the NameNode notices it is dead (minutes), is exactly that case.
    try (EmulatedCluster cluster = start()) {
      int stopped = 5;
      String uuid = cluster.dataNode(stopped).getDatanodeUuid();
      String xferAddr = cluster.datanodeDescriptor(stopped).getXferAddr();
      HeatTable heatmap = policy(cluster).heatmap();
      long stoppedAt = System.nanoTime();
      assertNotNull(cluster.miniCluster().stopDataNode(xferAddr));
      assertTrue(cluster.datanodeDescriptor(stopped).isAlive(),
          "the NameNode should not know yet that the DataNode is gone");

      // Writers on other hosts: the stopped DataNode reports no transfers, so HM-LRU soon
      // offers it as a cool remote replica; the client then has to exclude it and ask again.
      int[] others = {0, 1, 2, 3, 4, 6, 7};
      Map<Path, byte[]> files = new java.util.HashMap<>();
      for (int round = 0; round < 20 && heatmap.lastSelectedNanos(uuid) <= stoppedAt; round++) {
        files.putAll(writeFromEach(cluster, "/stopped" + round, others, 1, round));
      }
      assertTrue(heatmap.lastSelectedNanos(uuid) > stoppedAt,
          "the NameNode never offered the stopped DataNode, so no client had to exclude it");
      files.putAll(writeFromEach(cluster, "/others", WRITERS, 3, 10));

      for (Map.Entry<Path, byte[]> file : files.entrySet()) {
        for (Set<Integer> replicas : assertRackFaultTolerant(cluster, file.getKey())) {
          assertFalse(replicas.contains(stopped), file.getKey() + " has a block on the "
              + "stopped DataNode: " + replicas);
        }
        assertArrayEquals(file.getValue(), read(cluster.offClusterFileSystem(), file.getKey()));
      }
      // It never heartbeats again, so what it was granted stays counted as its heat.
      NodeHeat row = heatmap.snapshot().stream().filter(n -> n.nodeId().equals(uuid))
          .findFirst().orElseThrow();
      assertTrue(row.grantsSinceHeartbeat() >= 1, row.toString());
      assertEquals(0, heatmap.fallbacks());
    }
  }

  // ---- 3. storage policies -----------------------------------------------------------------

  @Test
  void storagePoliciesWithMixedStorageTypesGetExactlyTheTypesTheyAskFor() throws Exception {
    // Even DataNodes have an SSD and a disk, odd ones a disk and an archive: two of each per
    // rack, so that SSD and ARCHIVE replicas must be drawn from half of the cluster.
    StorageType[][] types = new StorageType[DATANODES][];
    for (int k = 0; k < DATANODES; k++) {
      types[k] = k % 2 == 0
          ? new StorageType[] {StorageType.SSD, StorageType.DISK}
          : new StorageType[] {StorageType.DISK, StorageType.ARCHIVE};
    }
    // Load awareness off: a node whose last heartbeat still counts the previous file's pipeline
    // is "overloaded" against a near-zero mean (load 1 > 2 x 3/8), and with only four nodes of
    // a type the stock policy may then fall back to another type (DISK for ALL_SSD). That would
    // be stock behaviour, not HM-LRU's, and here the exact types are the point.
    try (EmulatedCluster cluster = start(builder -> builder
        .storageTypes(types)
        .stockConsiderLoad(false))) {
      for (int k = 0; k < DATANODES; k++) {
        assertEquals(new TreeSet<>(Arrays.asList(types[k])),
            new TreeSet<>(cluster.datanodeDescriptor(k).getStorageTypes()));
      }
      DistributedFileSystem dfs = cluster.miniCluster().getFileSystem();
      Map<String, BlockStoragePolicy> policies = new HashMap<>();
      for (BlockStoragePolicy p : dfs.getAllStoragePolicies()) {
        policies.put(p.getName(), p);
      }
      // ONE_SSD: SSD + 2 DISK; ALL_SSD: 3 SSD; WARM: DISK + 2 ARCHIVE; HOT: 3 DISK
      String[] names = {"ONE_SSD", "ALL_SSD", "WARM", "HOT"};
      int[] hosts = {0, 1, 6, OFF_CLUSTER};
      for (String name : names) {
        Path dir = new Path("/" + name);
        dfs.mkdirs(dir);
        dfs.setStoragePolicy(dir, name);
        List<StorageType> wanted = policies.get(name).chooseStorageTypes(REPLICATION);
        Map<Path, byte[]> files = writeFromEach(cluster, dir.toString(), hosts, 2,
            name.hashCode());
        for (Path file : files.keySet()) {
          assertRackFaultTolerant(cluster, file);
          List<LocatedBlock> blocks = dfs.getClient()
              .getLocatedBlocks(file.toUri().getPath(), 0, Long.MAX_VALUE).getLocatedBlocks();
          assertEquals(3, blocks.size()); // two full blocks and a partial one
          for (LocatedBlock block : blocks) {
            assertEquals(countByType(wanted), countByType(Arrays.asList(block.getStorageTypes())),
                name + ": " + file + " block " + block.getBlock() + " on "
                    + Arrays.toString(block.getLocations()));
          }
        }
      }
      assertEquals(0, policy(cluster).heatmap().fallbacks());
      assertTrue(policy(cluster).heatmap().choices() > 0);
    }
  }

  // ---- 4. a failing heatmap ----------------------------------------------------------------

  @Test
  void writesSucceedWithTheDefaultPlacementWhenTheHeatmapFails() throws Exception {
    try (EmulatedCluster cluster = start()) {
      FailingHeatTable failing = new FailingHeatTable();
      policy(cluster).setHeatmap(failing);

      Map<Path, byte[]> files = writeFromEach(cluster, "/failing", new int[] {1, 2, 5, 6,
          OFF_CLUSTER}, 2, 0);

      for (Map.Entry<Path, byte[]> file : files.entrySet()) {
        assertRackFaultTolerant(cluster, file.getKey());
        // read by a client on another host than the writer's
        assertArrayEquals(file.getValue(), read(cluster.fileSystemOnHost(3), file.getKey()));
        assertArrayEquals(file.getValue(), read(cluster.offClusterFileSystem(), file.getKey()));
      }
      // the injected failure was hit, and every time the policy fell back instead of failing
      assertTrue(failing.fallbacks() > 0, "the failing heatmap was never used");
      assertEquals(0, failing.choices());
    }
  }

  // ---- 5. many concurrent writers ----------------------------------------------------------

  @Test
  void thirtyTwoConcurrentWritersAllGetFullyReplicatedRackSpreadFiles() throws Exception {
    try (EmulatedCluster cluster = start()) {
      HeatTable heatmap = policy(cluster).heatmap();
      int processes = 32;
      int blocks = 3;
      Path dir = new Path("/concurrent");
      Workload workload = new Workload(cluster);
      for (int id = 0; id < processes; id++) {
        workload.process(id % DATANODES, Workload.writeFiles(dir, blocks, REPLICATION));
      }

      workload.run(); // throws if any process failed

      FileSystem fs = cluster.miniCluster().getFileSystem();
      for (int id = 0; id < processes; id++) {
        Path file = Workload.fileOf(dir, id);
        assertEquals((long) blocks * BLOCK_SIZE, fs.getFileStatus(file).getLen());
        assertEquals(blocks, assertRackFaultTolerant(cluster, file).size());
      }
      // every target but the writer's own node is granted
      assertTrue(heatmap.grantsTotal() >= (long) (REPLICATION - 1) * blocks * processes,
          heatmap.grantsTotal() + " grants");
      assertEquals(0, heatmap.fallbacks());
    }
  }

  // ---- 6. a rack goes down -----------------------------------------------------------------

  @Test
  void everyFileIsStillReadableAfterAWholeRackStops() throws Exception {
    try (EmulatedCluster cluster = start()) {
      Map<Path, byte[]> files = writeFromEach(cluster, "/rackdown", WRITERS, 2, 0);
      String downRack = cluster.rack(0);
      List<Integer> down = new ArrayList<>();
      for (int k = 0; k < DATANODES; k++) {
        if (cluster.rack(k).equals(downRack)) {
          down.add(k);
        }
      }
      for (Path file : files.keySet()) {
        // every block has replicas on both racks, so each block loses one or two of them
        assertRackFaultTolerant(cluster, file);
      }

      for (int k : down) {
        assertNotNull(cluster.miniCluster().stopDataNode(
            cluster.datanodeDescriptor(k).getXferAddr()), "DataNode " + k);
      }

      // The NameNode still lists the stopped replicas (it has not noticed yet), so readers
      // must skip them: from outside the cluster (replicas in random order) and from a host
      // of the surviving rack (its own rack first).
      int survivor = DATANODES - 1;
      for (Map.Entry<Path, byte[]> file : files.entrySet()) {
        assertArrayEquals(file.getValue(), read(cluster.offClusterFileSystem(), file.getKey()),
            file.getKey().toString());
        assertArrayEquals(file.getValue(), read(cluster.fileSystemOnHost(survivor),
            file.getKey()), file.getKey().toString());
      }
    }
  }

  // ---- helpers -----------------------------------------------------------------------------

  /**
   * Waits until every block of {@code file} has its replicas reported, then checks the
   * replicas the NameNode records: exactly {@link #REPLICATION} distinct known DataNodes, on
   * both racks, at most two on a rack, and the NameNode's own verification agrees.
   *
   * @return the holders of each block
   */
  private static List<Set<Integer>> assertRackFaultTolerant(EmulatedCluster cluster, Path file)
      throws IOException, InterruptedException {
    cluster.replicas().waitFor(file, REPLICATION);
    List<Set<Integer>> holders = cluster.replicas().holders(file);
    assertFalse(holders.isEmpty(), file + " has no blocks");
    for (Set<Integer> replicas : holders) {
      assertEquals(REPLICATION, replicas.size(), file + " replicas " + replicas);
      assertFalse(replicas.contains(-1), file + " has a replica on an unknown node");
      Map<String, Long> perRack = replicas.stream()
          .collect(Collectors.groupingBy(cluster::rack, TreeMap::new, Collectors.counting()));
      assertEquals(RACKS, perRack.size(), file + " block on one rack only: " + replicas);
      assertTrue(perRack.values().stream().allMatch(n -> n <= 2),
          file + " more than two replicas on a rack: " + perRack);
    }
    DistributedFileSystem dfs = cluster.miniCluster().getFileSystem();
    for (LocatedBlock block : dfs.getClient()
        .getLocatedBlocks(file.toUri().getPath(), 0, Long.MAX_VALUE).getLocatedBlocks()) {
      assertTrue(placementPolicy(cluster)
              .verifyBlockPlacement(block.getLocations(), REPLICATION)
              .isPlacementPolicySatisfied(),
          file + " block " + block.getBlock() + " fails the NameNode's placement check");
    }
    return holders;
  }

  private static Set<String> racksOf(EmulatedCluster cluster, Set<Integer> replicas) {
    return replicas.stream().map(cluster::rack).collect(Collectors.toSet());
  }

  /**
   * Each host in {@code hosts} writes one file of {@code blocks} full blocks and a partial one
   * to {@code dir}, one after the other; returns each file with its content.
   */
  private static Map<Path, byte[]> writeFromEach(EmulatedCluster cluster, String dir,
      int[] hosts, int blocks, long seed) throws IOException {
    Map<Path, byte[]> files = new LinkedHashMap<>();
    for (int host : hosts) {
      Path file = new Path(dir, where(host) + "-" + files.size());
      byte[] data = randomBytes(blocks * BLOCK_SIZE + 777, seed + files.size());
      write(writer(cluster, host), file, data, REPLICATION, BLOCK_SIZE);
      files.put(file, data);
    }
    return files;
  }

  private static FileSystem writer(EmulatedCluster cluster, int host) throws IOException {
    return host == OFF_CLUSTER ? cluster.offClusterFileSystem() : cluster.fileSystemOnHost(host);
  }

  private static String where(int host) {
    return host == OFF_CLUSTER ? "off" : "host" + host;
  }

  // The writer's host from a file name made by where(host)
  private static int hostOf(Path file) {
    String name = file.getName();
    return name.startsWith("off") ? OFF_CLUSTER
        : Integer.parseInt(name.substring("host".length(), name.indexOf('-')));
  }

  private static Map<StorageType, Long> countByType(List<StorageType> types) {
    return types.stream().collect(Collectors.groupingBy(t -> t, TreeMap::new,
        Collectors.counting()));
  }
}
