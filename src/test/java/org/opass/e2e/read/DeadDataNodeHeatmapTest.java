package org.opass.e2e.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.File;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.Test;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.NodeHeat;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * The NameNode takes a DataNode out of its topology when it declares it dead; the heatmap row
 * must go with it, or the dead node's last transfer count keeps skewing the mean heat (for up
 * to {@code opass.heatmap.forget-after-ms}, 30 minutes).
 */
class DeadDataNodeHeatmapTest {

  @Test
  void aDeadDataNodesHeatRowIsGoneWhenTheNameNodeRemovesIt() throws Exception {
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(4).racks(2)
        .blockSize(64 * 1024).baseDir(new File("target/e2e/dead-datanode-heat"))
        .set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, BalancingNetworkTopology.class.getName())
        .start()) {
      BlockManager bm = cluster.blockManager();
      HeatTable heat = ((BalancingNetworkTopology) bm.getDatanodeManager().getNetworkTopology())
          .heatmap();
      Path f = new Path("/heat/f");
      byte[] data = new byte[64 * 1024];
      new Random(1).nextBytes(data);
      FileSystem fs = cluster.offClusterFileSystem();
      try (FSDataOutputStream out = fs.create(f, (short) 2)) {
        out.write(data);
      }
      // reads refresh the heatmap (once a heartbeat interval): then every DataNode has a row
      GenericTestUtils.waitFor(() -> {
        readBack(fs, f, data);
        return heat.trackedNodes() == 4;
      }, 100, 30_000);

      DatanodeDescriptor dead = cluster.datanodeDescriptor(3);
      cluster.miniCluster().stopDataNode(3);
      DFSTestUtil.setDatanodeDead(dead);
      BlockManagerTestUtil.checkHeartbeat(bm); // the NameNode's own dead-node check

      assertFalse(bm.getDatanodeManager().getNetworkTopology().contains(dead),
          "the NameNode removed it");
      assertEquals(3, heat.trackedNodes());
      assertFalse(heat.snapshot().stream().map(NodeHeat::nodeId)
          .anyMatch(dead.getDatanodeUuid()::equals), "its row is gone");
      readBack(fs, f, data); // and reads go on
      assertEquals(3, heat.trackedNodes());
    }
  }

  private static void readBack(FileSystem fs, Path f, byte[] data) {
    try (FSDataInputStream in = fs.open(f)) {
      byte[] back = new byte[data.length];
      in.readFully(back);
      assertArrayEquals(data, back);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
