package org.opass.tools.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * {@link EmulatedCluster#restartNameNode}, on a cluster of its own: a restart disturbs the
 * DataNodes' counters that {@link EmulatedClusterTest}'s shared cluster is checked by.
 */
class EmulatedClusterRestartTest {

  @Test
  void aRestartedNameNodeTakesNewSettingsKeepsTheDataAndTheClientsStillWork() throws Exception {
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(5).racks(2)
        .blockSize(64 * 1024).baseDir(new File("target/e2e/restart")).start()) {
      Path file = new Path("/restart/file");
      byte[] data = new byte[3 * (int) cluster.blockSize()];
      new Random(7).nextBytes(data);
      try (FSDataOutputStream out = cluster.fileSystemOnHost(1).create(file, (short) 3)) {
        out.write(data);
      }
      cluster.replicas().waitFor(file, (short) 3);
      cluster.restartNameNode(Map.of("opass.test.restart-marker", "on"));
      assertEquals("on", cluster.miniCluster().getNameNode().getConf()
          .get("opass.test.restart-marker"));
      for (int host : new int[] {1, 4}) {
        byte[] back = new byte[data.length];
        try (FSDataInputStream in = cluster.fileSystemOnHost(host).open(file)) {
          in.readFully(back);
        }
        assertArrayEquals(data, back, "read from host " + host + " after the restart");
      }
    }
  }
}
