package org.opass.e2e.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.SimulatedPlacementCluster;
import org.apache.hadoop.net.Node;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.nn.HeatTableFeed;
import org.opass.placement.HmLruKeys;
import org.opass.placement.HmLruPlacementPolicy;

/**
 * HM-LRU keeps every invariant of the default policy, checked on a real NameNode whose
 * DataNodes are simulated (placement decisions only, no data).
 */
class HmLruPolicySimulatedTest {
  @TempDir
  File dir;

  /** The ranking as key and value: the paper's rank sum with 3 candidates, or in-flight's 8. */
  private static final String RANKING = "ranking";

  private SimulatedPlacementCluster start(int nodes, int racks, StorageType[] types,
      String... keyValues) throws Exception {
    Map<String, String> conf = new HashMap<>();
    conf.put(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
        HmLruPlacementPolicy.class.getName());
    for (int i = 0; i < keyValues.length; i += 2) {
      if (keyValues[i].equals(RANKING)) {
        conf.put(HmLruKeys.RANKING, keyValues[i + 1]);
        conf.put(HmLruKeys.CANDIDATES, keyValues[i + 1].equals("in-flight") ? "8" : "3");
      } else {
        conf.put(keyValues[i], keyValues[i + 1]);
      }
    }
    SimulatedPlacementCluster c = SimulatedPlacementCluster.start(dir, nodes, racks, conf, types);
    assertInstanceOf(HmLruPlacementPolicy.class, c.policy());
    return c;
  }

  private static HeatTable heatmap(SimulatedPlacementCluster c) {
    return ((HmLruPlacementPolicy) c.policy()).heatmap();
  }

  private static List<DatanodeDescriptor> nodes(DatanodeStorageInfo[] targets) {
    return Arrays.stream(targets).map(DatanodeStorageInfo::getDatanodeDescriptor).toList();
  }

  private static void assertRackFaultTolerant(SimulatedPlacementCluster c,
      DatanodeStorageInfo[] targets, int replicas) {
    List<DatanodeDescriptor> dns = nodes(targets);
    assertEquals(replicas, dns.size(), "targets " + dns);
    assertEquals(replicas, new HashSet<>(dns).size(), "duplicate target in " + dns);
    Map<String, Long> perRack = dns.stream()
        .collect(Collectors.groupingBy(Node::getNetworkLocation, Collectors.counting()));
    assertEquals(2, perRack.size(), "replicas not on both racks: " + dns);
    assertTrue(perRack.values().stream().allMatch(n -> n <= 2), "more than 2 per rack: " + dns);
    assertTrue(c.policy().verifyBlockPlacement(dns.toArray(new DatanodeInfo[0]), replicas)
        .isPlacementPolicySatisfied());
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank-sum", "in-flight"})
  void replicationThreeAlwaysSpansBothRacks(String ranking) throws Exception {
    try (SimulatedPlacementCluster c = start(16, 2, null, RANKING, ranking)) {
      Random r = new Random(1);
      for (int i = 0; i < 1000; i++) {
        Node writer = i % 3 == 0 ? null : c.dataNode(r.nextInt(16));
        assertRackFaultTolerant(c, c.chooseTarget(3, writer), 3);
      }
      assertTrue(heatmap(c).choices() > 1000, "HM-LRU made no choices");
      assertEquals(0, heatmap(c).fallbacks());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank-sum", "in-flight"})
  void coolWriterKeepsTheFirstReplicaAndHotWriterGivesItToItsRack(String ranking) throws Exception {
    try (SimulatedPlacementCluster c = start(16, 2, null, RANKING, ranking)) {
      DatanodeDescriptor writer = c.dataNode(3);
      assertEquals(writer, nodes(c.chooseTarget(3, writer)).get(0));
      // ten times the cluster mean: well past the default ratio of 2
      Thread.sleep(2); // heartbeat times are monotonic milliseconds
      c.heartbeat(writer, 40);
      for (int i = 0; i < 50; i++) {
        DatanodeDescriptor first = nodes(c.chooseTarget(3, writer)).get(0);
        assertFalse(first.equals(writer), "hot writer kept the first replica");
        assertEquals(writer.getNetworkLocation(), first.getNetworkLocation());
      }
    }
  }

  @Test
  void localRatioIsConfigurable() throws Exception {
    try (SimulatedPlacementCluster c = start(16, 2, null,
        HmLruKeys.LOCAL_MAX_HEAT_RATIO, "1000")) {
      DatanodeDescriptor writer = c.dataNode(3);
      Thread.sleep(2); // heartbeat times are monotonic milliseconds
      c.heartbeat(writer, 40);
      assertEquals(writer, nodes(c.chooseTarget(3, writer)).get(0));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank-sum", "in-flight"})
  void excludedAndDecommissioningNodesAreNeverChosen(String ranking) throws Exception {
    try (SimulatedPlacementCluster c = start(16, 2, null, RANKING, ranking)) {
      DatanodeDescriptor decommissioning = c.dataNode(5);
      c.startDecommission(decommissioning);
      Random r = new Random(2);
      for (int i = 0; i < 500; i++) {
        Set<Node> excluded = new HashSet<>();
        for (int k = 0; k < 4; k++) {
          excluded.add(c.dataNode(r.nextInt(16)));
        }
        Set<Node> excludedCopy = new HashSet<>(excluded);
        DatanodeStorageInfo[] t = c.chooseTarget(3, c.dataNode(r.nextInt(16)), excluded,
            c.storagePolicy("HOT"));
        for (DatanodeDescriptor dn : nodes(t)) {
          assertFalse(excludedCopy.contains(dn), dn + " was excluded");
          assertFalse(dn.equals(decommissioning), "decommissioning node chosen");
        }
        assertEquals(3, t.length);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank-sum", "in-flight"})
  void mixedStorageTypesOfAPolicyAreHonoured(String ranking) throws Exception {
    StorageType[] types = new StorageType[16];
    for (int i = 0; i < 16; i++) {
      types[i] = i % 2 == 0 ? StorageType.SSD : StorageType.DISK;
    }
    try (SimulatedPlacementCluster c = start(16, 2, types, RANKING, ranking)) {
      BlockStoragePolicy oneSsd = c.storagePolicy("ONE_SSD");
      for (int i = 0; i < 300; i++) {
        DatanodeStorageInfo[] t = c.chooseTarget(3, c.dataNode(i % 16), null, oneSsd);
        assertRackFaultTolerant(c, t, 3);
        long ssd = Arrays.stream(t).filter(s -> s.getStorageType() == StorageType.SSD).count();
        assertEquals(1, ssd, "ONE_SSD wants exactly one SSD replica: " + Arrays.toString(t));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank-sum", "in-flight"})
  void clustersSmallerThanTheCandidateCountStillPlaceEveryReplica(String ranking) throws Exception {
    try (SimulatedPlacementCluster c = start(3, 1, null, RANKING, ranking)) {
      for (int i = 0; i < 50; i++) {
        DatanodeStorageInfo[] t = c.chooseTarget(3, null);
        assertEquals(Set.of(c.dataNodes()), new HashSet<>(nodes(t)));
      }
    }
    try (SimulatedPlacementCluster c = start(2, 2, null, RANKING, ranking)) {
      // two nodes, replication 3: the default gives two targets, and so do we
      assertEquals(2, c.chooseTarget(3, c.dataNode(0)).length);
    }
  }

  @Test
  void aWriterOffTheClusterGetsItsFirstReplicaOnTheRackTheDefaultWouldDraw() throws Exception {
    // Rack 0 is hot, rack 1 cool. Candidates drawn cluster-wide would put about 7 in 8 first
    // replicas on rack 1 (all three on rack 0 only 1 time in 8), and so the two others on
    // rack 0. HM-LRU lets the default's uniform draw pick the first replica's rack and
    // chooses the node within it, so each rack gets about half of the first replicas.
    try (SimulatedPlacementCluster c = start(16, 2, null)) {
      int firstOnHotRack = 0;
      for (int round = 0; round < 4; round++) {
        for (DatanodeDescriptor dn : c.dataNodes()) {
          c.heartbeat(dn, dn.getNetworkLocation().equals("/rack0") ? 20 : 0);
        }
        for (int i = 0; i < 40; i++) { // grants stay below rack 0's heat meanwhile
          DatanodeStorageInfo[] targets = c.chooseTarget(3, null);
          if (targets[0].getDatanodeDescriptor().getNetworkLocation().equals("/rack0")) {
            firstOnHotRack++;
          }
        }
      }
      // binomial(160, 1/2): mean 80, 50 is 4.7 standard deviations below; cluster-wide: 20
      assertTrue(firstOnHotRack >= 50 && firstOnHotRack <= 110,
          firstOnHotRack + " of 160 first replicas on the hot rack");
    }
  }

  @Test
  void grantsBalanceWritesBetweenHeartbeats() throws Exception {
    // No heartbeat arrives during the run: all the balance comes from grants and recency.
    try (SimulatedPlacementCluster c = start(16, 2, null)) {
      Map<DatanodeDescriptor, Integer> count = new HashMap<>();
      for (int i = 0; i < 320; i++) {
        for (DatanodeDescriptor dn : nodes(c.chooseTarget(3, null))) {
          count.merge(dn, 1, Integer::sum);
        }
      }
      int max = count.values().stream().max(Integer::compare).orElseThrow();
      int min = count.size() < 16 ? 0 : count.values().stream().min(Integer::compare).orElseThrow();
      // mean 60 per node; uniform random placement spreads about +-8 per standard deviation
      assertTrue(max - min <= 10, "spread " + min + ".." + max + ": " + count.values());
      // a heartbeat resets the grants it covers, as soon as the node is looked at again
      assertTrue(heatmap(c).outstandingGrants() > 0);
      Thread.sleep(2); // heartbeat times are monotonic milliseconds
      c.heartbeatAll(0);
      for (DatanodeDescriptor dn : c.dataNodes()) {
        HeatTableFeed.observe(heatmap(c), dn);
      }
      assertEquals(0, heatmap(c).outstandingGrants());
      assertEquals(16, heatmap(c).trackedNodes());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank-sum", "in-flight"})
  void injectedHeatmapFailureFallsBackToTheDefault(String ranking) throws Exception {
    try (SimulatedPlacementCluster c = start(16, 2, null, RANKING, ranking)) {
      ((HmLruPlacementPolicy) c.policy()).setHeatmap(new FailingHeatTable());
      for (int i = 0; i < 200; i++) {
        assertRackFaultTolerant(c, c.chooseTarget(3, c.dataNode(i % 16)), 3);
        assertRackFaultTolerant(c, c.chooseTarget(3, null), 3);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"rank-sum", "in-flight"})
  void concurrentChoicesAreSafe(String ranking) throws Exception {
    try (SimulatedPlacementCluster c = start(32, 4, null, RANKING, ranking)) {
      ExecutorService pool = Executors.newFixedThreadPool(32);
      List<Future<Integer>> fs = new ArrayList<>();
      for (int t = 0; t < 32; t++) {
        int id = t;
        fs.add(pool.submit(() -> {
          int notWriter = 0;
          for (int i = 0; i < 200; i++) {
            DatanodeDescriptor writer = c.dataNode((id + i) % 32);
            DatanodeStorageInfo[] targets = c.chooseTarget(3, writer);
            if (targets.length != 3 || new HashSet<>(nodes(targets)).size() != 3) {
              throw new AssertionError("bad targets " + Arrays.toString(targets));
            }
            notWriter += (int) nodes(targets).stream().filter(dn -> !dn.equals(writer)).count();
            if (id == 0 && i % 50 == 0) {
              c.heartbeatAll(1);
            }
          }
          return notWriter;
        }));
      }
      long granted = 0;
      for (Future<Integer> f : fs) {
        granted += f.get();
      }
      pool.shutdown();
      assertEquals(0, heatmap(c).fallbacks());
      // every target but the writer's own node was granted, none twice, none lost
      assertEquals(granted, heatmap(c).grantsTotal());
      assertTrue(granted >= 2L * 32 * 200);
    }
  }

  /**
   * In-flight ranking sees the writes the NameNode has scheduled and not yet seen reported,
   * which a heartbeat does not clear and heat and recency do not show: with every node drawn,
   * the remote replicas go to the nodes of the other rack with the fewest in flight.
   */
  @Test
  void inFlightWritesSteerPlacementUntilReported() throws Exception {
    try (SimulatedPlacementCluster c = start(16, 2, null, HmLruKeys.RANKING, "in-flight",
        HmLruKeys.CANDIDATES, "64")) { // 256 draws: every node of the scope, all but surely
      DatanodeDescriptor writer = c.dataNode(0);
      List<DatanodeStorageInfo> outstanding = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        DatanodeStorageInfo[] t = c.allocate(3, writer);
        assertRackFaultTolerant(c, t, 3);
        outstanding.addAll(Arrays.asList(t));
      }
      // 80 remote replicas over rack 1's 8 nodes, the fewest in flight first: 10 each
      for (int k = 8; k < 16; k++) {
        assertEquals(10, c.dataNode(k).getBlocksScheduled(), "node " + k);
      }
      // nodes 12..15 (and rack 0) report their replicas; 8..11 still receive theirs
      Set<DatanodeDescriptor> busy = Set.of(c.dataNode(8), c.dataNode(9), c.dataNode(10),
          c.dataNode(11));
      for (DatanodeStorageInfo t : outstanding) {
        if (!busy.contains(t.getDatanodeDescriptor())) {
          c.received(t);
        }
      }
      Thread.sleep(2); // heartbeat times are monotonic milliseconds
      c.heartbeatAll(0); // no heat anywhere: only the writes in flight tell the nodes apart
      Map<DatanodeDescriptor, Integer> remote = new HashMap<>();
      for (int i = 0; i < 8; i++) {
        DatanodeStorageInfo[] t = c.allocate(3, writer);
        assertEquals(writer, t[0].getDatanodeDescriptor(), "the writer keeps its replica");
        for (int k = 1; k < 3; k++) {
          remote.merge(t[k].getDatanodeDescriptor(), 1, Integer::sum);
        }
      }
      assertEquals(Map.of(c.dataNode(12), 4, c.dataNode(13), 4, c.dataNode(14), 4,
          c.dataNode(15), 4), remote, "16 replicas on the 4 nodes with no write in flight");
      assertEquals(0, heatmap(c).fallbacks());
    }
  }

  @Test
  void wrongConfigurationStopsStartupNamingTheKey() {
    Exception e = assertThrows(Exception.class,
        () -> start(4, 2, null, HmLruKeys.CANDIDATES, "0").close());
    Throwable t = e;
    while (t.getCause() != null && !String.valueOf(t.getMessage()).contains(HmLruKeys.CANDIDATES)) {
      t = t.getCause();
    }
    assertTrue(String.valueOf(t.getMessage()).contains(HmLruKeys.CANDIDATES), e.toString());
  }
}
