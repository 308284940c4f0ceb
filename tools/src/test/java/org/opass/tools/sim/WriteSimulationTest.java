package org.opass.tools.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.Arrays;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.junit.jupiter.api.Test;
import org.opass.placement.HmLruPlacementPolicy;

/** The write simulation runs the real placement policies and conserves every byte. */
class WriteSimulationTest {

  private static WriteSimulation.Result run(String policy) throws Exception {
    File dir = Files.createTempDirectory("sim-write").toFile();
    return WriteSimulation.run(dir, new WriteSimulation.Setup(16, 2, policy).writers(32, 4)
        .bandwidth(4 << 20, 1 << 20));
  }

  @Test
  void everyBlockIsStoredThreeTimesAndNoDataNodeWritesFasterThanItsDisk() throws Exception {
    for (String policy : new String[] {BlockPlacementPolicyDefault.class.getName(),
        HmLruPlacementPolicy.class.getName()}) {
      WriteSimulation.Result r = run(policy);
      assertEquals(32 * 4 * 3, Arrays.stream(r.storedPerDataNode()).sum(), policy);
      // 384 MiB of replicas on 16 disks of 4 MiB/s take at least 6 s
      assertTrue(r.makespanSec() >= 6.0 - 1e-9, policy + ": makespan " + r.makespanSec());
      for (double bw : r.writerBandwidth()) {
        assertTrue(bw > 0 && bw <= 4.0 + 1e-9, policy + ": writer at " + bw + " MiB/s");
      }
      System.out.printf("%s: bw %.2f..%.2f MiB/s, stored max %d, makespan %.1f s%n", policy,
          Arrays.stream(r.writerBandwidth()).min().getAsDouble(),
          Arrays.stream(r.writerBandwidth()).max().getAsDouble(),
          Arrays.stream(r.storedPerDataNode()).max().getAsInt(), r.makespanSec());
    }
  }
}
