package org.opass.e2e.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.util.Time;
import org.junit.jupiter.api.Test;
import org.opass.heatmap.HeatTable;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadBalanceKeys;

/**
 * The read balancer's ordering, driven as the NameNode drives it (the stock sort first, then
 * ours), on DataNode descriptors whose heartbeat figures the test sets.
 */
class BalancingTopologyTest {
  private final DatanodeDescriptor[] dns = new DatanodeDescriptor[6];

  private BalancingNetworkTopology topology(String... keyValues) {
    Configuration conf = new HdfsConfiguration();
    conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, BalancingNetworkTopology.class.getName());
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.set(keyValues[i], keyValues[i + 1]);
    }
    BalancingNetworkTopology t =
        assertInstanceOf(BalancingNetworkTopology.class, DFSNetworkTopology.getInstance(conf));
    for (int i = 0; i < dns.length; i++) {
      dns[i] = DFSTestUtil.getDatanodeDescriptor("127.2.0." + (i + 1), "/rack" + (i % 2),
          "h" + i);
      dns[i].setAlive(true);
      heartbeat(dns[i], 0);
      t.add(dns[i]);
    }
    return t;
  }

  private static void heartbeat(DatanodeDescriptor dn, int xceivers) {
    dn.setXceiverCount(xceivers);
    dn.setLastUpdateMonotonic(Time.monotonicNow() + dn.getXceiverCount() + bump++);
  }

  private static long bump;

  private DatanodeDescriptor[] replicas(int... idx) {
    DatanodeDescriptor[] r = new DatanodeDescriptor[idx.length];
    for (int i = 0; i < idx.length; i++) {
      r[i] = dns[idx[i]];
    }
    return r;
  }

  @Test
  void aCoolLocalReplicaStaysFirst() {
    BalancingNetworkTopology t = topology();
    for (int i = 0; i < 20; i++) {
      DatanodeDescriptor[] r = replicas(1, 2, 3);
      t.sortByDistance(dns[2], r, 3, null);
      assertEquals(dns[2], r[0]);
    }
  }

  @Test
  void aHotLocalReplicaGivesWayToTheCoolestAndTheRestKeepsTheStockOrder() {
    BalancingNetworkTopology t = topology();
    heartbeat(dns[2], 30);
    heartbeat(dns[1], 5);
    DatanodeDescriptor[] r = replicas(1, 2, 3);
    t.sortByDistance(dns[2], r, 3, null);
    assertEquals(dns[3], r[0], "the coolest replica first");
    assertEquals(dns[2], r[1], "then the stock order: local before remote");
  }

  @Test
  void readersOffTheClusterRotateOverReplicasBetweenHeartbeats() {
    BalancingNetworkTopology t = topology();
    Map<DatanodeDescriptor, Integer> first = new HashMap<>();
    NodeBase reader = new NodeBase("/rack9/client");
    for (int i = 0; i < 300; i++) {
      DatanodeDescriptor[] r = replicas(0, 3, 4);
      t.sortByDistanceUsingNetworkLocation(reader, r, 3, null);
      first.merge(r[0], 1, Integer::sum);
    }
    // no heartbeat in between: grants alone spread the readers evenly
    assertEquals(Map.of(dns[0], 100, dns[3], 100, dns[4], 100), first);
    assertEquals(300, t.heatmap().grantsTotal());
  }

  @Test
  void inactiveReplicasStayLast() {
    BalancingNetworkTopology t = topology();
    heartbeat(dns[0], 50);
    heartbeat(dns[3], 50);
    // dns[4] stands for a stale or decommissioned replica: outside activeLen
    DatanodeDescriptor[] r = replicas(0, 3, 4);
    t.sortByDistance(dns[5], r, 2, null);
    assertEquals(dns[4], r[2]);
  }

  @Test
  void aFailingHeatTableLeavesTheStockOrder() {
    BalancingNetworkTopology t = topology();
    t.setHeatmap(new HeatTable(HeatTable.builder()) {
      @Override
      public Row observeRow(String nodeId, String name, int xceivers, long hb,
          boolean alive) {
        throw new IllegalStateException("injected heatmap failure");
      }
    });
    heartbeat(dns[2], 30);
    for (int i = 0; i < 20; i++) {
      DatanodeDescriptor[] r = replicas(1, 2, 3);
      t.sortByDistance(dns[2], r, 3, null);
      assertEquals(dns[2], r[0], "stock order puts the local replica first");
    }
  }

  @Test
  void disabledMeansStockOrder() {
    BalancingNetworkTopology t = topology(ReadBalanceKeys.ENABLED, "false");
    heartbeat(dns[2], 30);
    DatanodeDescriptor[] r = replicas(1, 2, 3);
    t.sortByDistance(dns[2], r, 3, null);
    assertEquals(dns[2], r[0]);
    assertEquals(0, t.heatmap().grantsTotal());
  }

  @Test
  void stockSortStillDecidesAmongEquals() {
    // with all replicas equally cool and never chosen, the first is the closest one
    BalancingNetworkTopology t = topology();
    DatanodeDescriptor[] r = replicas(1, 3, 2);
    t.sortByDistance(dns[1], r, 3, null);
    assertEquals(dns[1], r[0]);
    DatanodeDescriptor[] sameRack = replicas(5, 1, 2);
    t.sortByDistance(dns[3], sameRack, 3, null);
    // dns[3] is on /rack1 with dns[1] and dns[5]; dns[2] is remote: never first here
    assertNotEquals(dns[2], sameRack[0]);
    assertTrue(sameRack[0] == dns[1] || sameRack[0] == dns[5]);
  }

  @Test
  void badRatioNamesTheKey() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> topology(ReadBalanceKeys.LOCAL_MAX_HEAT_RATIO, "0"));
    assertTrue(e.getMessage().contains(ReadBalanceKeys.LOCAL_MAX_HEAT_RATIO), e.getMessage());
  }
}
