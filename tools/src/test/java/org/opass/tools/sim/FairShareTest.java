package org.opass.tools.sim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FairShareTest {
  private static final double EPS = 1e-9;

  @Test
  void oneResourceIsSharedEvenly() {
    assertArrayEquals(new double[] {2, 2, 2},
        FairShare.rates(new int[][] {{0}, {0}, {0}}, new double[] {6}), EPS);
  }

  @Test
  void aPipelineMovesAtItsSlowestMembersShareAndLeavesTheRestToOthers() {
    // pipeline {0,1}; a stream on 1 only; resource 0 is slow
    double[] r = FairShare.rates(new int[][] {{0, 1}, {1}}, new double[] {2, 6});
    assertArrayEquals(new double[] {2, 4}, r, EPS);
  }

  @Test
  void ratesAreFeasibleAndEveryFlowHasABottleneck() {
    Random rnd = new Random(3);
    for (int round = 0; round < 200; round++) {
      int resources = 1 + rnd.nextInt(12);
      double[] cap = new double[resources];
      for (int i = 0; i < resources; i++) {
        cap[i] = 1 + rnd.nextInt(10);
      }
      int[][] flows = new int[rnd.nextInt(30)][];
      for (int f = 0; f < flows.length; f++) {
        flows[f] = rnd.ints(0, resources).distinct()
            .limit(1 + rnd.nextInt(Math.min(3, resources))).toArray();
      }
      double[] rate = FairShare.rates(flows, cap);
      double[] load = FairShare.load(flows, rate, resources);
      for (int i = 0; i < resources; i++) {
        assertTrue(load[i] <= cap[i] * (1 + 1e-6), "resource " + i + " over capacity");
      }
      // max-min: each flow crosses a full resource on which no flow is faster
      for (int f = 0; f < flows.length; f++) {
        boolean bottleneck = false;
        for (int r : flows[f]) {
          if (load[r] >= cap[r] * (1 - 1e-6)) {
            boolean fastest = true;
            for (int g = 0; g < flows.length; g++) {
              for (int q : flows[g]) {
                if (q == r && rate[g] > rate[f] * (1 + 1e-6)) {
                  fastest = false;
                }
              }
            }
            bottleneck |= fastest;
          }
        }
        assertTrue(bottleneck, "round " + round + ": flow " + f + " has no bottleneck");
      }
    }
  }
}
