package org.opass.tools.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DiskModelTest {
  @Test
  void fairShareDeliversTheWholeBandwidthToAnyNumberOfStreams() {
    for (int streams = 0; streams < 10; streams++) {
      assertEquals(1.0, DiskModel.FAIR_SHARE.efficiency(streams));
    }
  }

  @Test
  void aSataDiskUnderCfqLosesASeekAndHalfARotationPerSlice() {
    DiskModel disk = DiskModel.SATA_7200_CFQ;
    assertEquals(1.0, disk.efficiency(1), "one stream never switches");
    // 100 ms slices, 8.5 ms seek + 4.17 ms half rotation at 7200 rpm per switch
    double expected = 100 / (100 + 8.5 + 60_000.0 / 7200 / 2);
    assertEquals(expected, disk.efficiency(2), 1e-12);
    assertEquals(0.887, disk.efficiency(5), 0.001);
    assertArrayEquals(new double[] {4, 4 * expected, 4},
        disk.capacities(4, new int[] {0, 3, 1}), 1e-12);
  }
}
