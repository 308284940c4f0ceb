package org.opass.e2e.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opass.tools.cluster.TestFiles.read;

import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.Test;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.TestFiles;

/** The NameNode-side read balancer on a real in-process cluster, judged by the DataNodes. */
class ReadBalancingClusterTest {
  private static final int BLOCK = 64 * 1024;

  private static EmulatedCluster start(int dataNodes) throws Exception {
    return EmulatedCluster.builder().dataNodes(dataNodes).racks(2).blockSize(BLOCK)
        .baseDir(new File("target/e2e/read-balancing"))
        .set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, BalancingNetworkTopology.class.getName())
        .set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
            HmLruPlacementPolicy.class.getName())
        .start();
  }

  private static BalancingNetworkTopology topology(EmulatedCluster c) {
    return (BalancingNetworkTopology) c.datanodeManager().getNetworkTopology();
  }

  private static byte[] write(FileSystem fs, Path file, int blocks) throws IOException {
    byte[] data = TestFiles.randomBytes(blocks * BLOCK, blocks);
    TestFiles.write(fs, file, data, (short) 3);
    return data;
  }

  /**
   * Heartbeats from every DataNode: the grants of the write are then cleared, as they are on
   * a cluster that was left alone for a heartbeat interval.
   */
  private static void settle(EmulatedCluster c) throws IOException {
    c.miniCluster().triggerHeartbeats();
  }

  @Test
  void aReaderOffTheClusterIsSpreadEvenlyOverTheReplicas() throws Exception {
    try (EmulatedCluster c = start(3)) {
      // three DataNodes, replication 3: every DataNode holds every block
      Path file = new Path("/spread");
      byte[] data = write(c.offClusterFileSystem(), file, 30);
      c.replicas().waitFor(file, (short) 3);
      settle(c);
      long[] before = c.counters().perDataNode(DataNodeCounter.BLOCKS_READ);
      assertArrayEquals(data, read(c.offClusterFileSystem(), file));
      GenericTestUtils.waitFor(() -> Arrays.stream(
          c.counters().since(DataNodeCounter.BLOCKS_READ, before)).sum() >= 30,
          10, 30_000);
      long[] served = c.counters().since(DataNodeCounter.BLOCKS_READ, before);
      long max = Arrays.stream(served).max().orElseThrow();
      long min = Arrays.stream(served).min().orElseThrow();
      // a random replica per block (stock) passes this only about 18% of the time
      assertTrue(max - min <= 2, "blocks served per DataNode " + Arrays.toString(served));
      assertTrue(topology(c).heatmap().choices() >= 30);
      assertEquals(0, topology(c).heatmap().fallbacks());
    }
  }

  @Test
  void aReaderOnADataNodeReadsItsLocalReplica() throws Exception {
    try (EmulatedCluster c = start(6)) {
      int host = 4;
      Path file = new Path("/local");
      byte[] data = write(c.fileSystemOnHost(host), file, 24);
      c.replicas().waitFor(file, (short) 3);
      settle(c);
      long[] before = c.counters().perDataNode(DataNodeCounter.BLOCKS_READ);
      assertArrayEquals(data, read(c.fileSystemOnHost(host), file));
      long[] expected = new long[6];
      expected[host] = 24;
      GenericTestUtils.waitFor(() -> Arrays.equals(expected,
          c.counters().since(DataNodeCounter.BLOCKS_READ, before)), 10, 30_000);
    }
  }

  @Test
  void placementAndReadBalancingShareOneHeatmap() throws Exception {
    try (EmulatedCluster c = start(3)) {
      HmLruPlacementPolicy policy = (HmLruPlacementPolicy) c.blockManager()
          .getBlockPlacementPolicy();
      assertSame(policy.heatmap(), topology(c).heatmap());
    }
  }
}
