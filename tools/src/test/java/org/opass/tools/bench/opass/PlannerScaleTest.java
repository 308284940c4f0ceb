package org.opass.tools.bench.opass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.opass.read.plan.Chunk;

/** Smoke test of the benchmark's instance generator and bookkeeping (no timing asserted). */
class PlannerScaleTest {

  @Test
  void smallRunAddsUp() {
    PlannerScale.Result r = PlannerScale.measure(16, 128, 3, 1, 1);
    assertEquals(128, r.localChunks() + r.rackLocalChunks() + r.remoteChunks());
    assertTrue(r.algorithm1ColocatedBytes() <= r.algorithm1TotalBytes());
    for (Chunk c : PlannerScale.randomChunks(new Random(2), 50, 4, 3)) {
      assertEquals(3, c.hosts().size());
    }
  }
}
