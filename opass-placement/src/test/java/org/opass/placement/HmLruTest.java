package org.opass.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class HmLruTest {
  private final Random random = new Random(7);

  @Test
  void coolestAndLeastRecentWins() {
    // candidate 1 is both the coolest and the least recently selected
    assertEquals(1, HmLru.choose(new int[] {5, 1, 3}, new long[] {30, 10, 20}, 3, random));
  }

  @Test
  void sumOfRanksNotOfValues() {
    // heat ranks 0,1,2; recency ranks 2,0,1 -> weights 2,1,3: candidate 1, although candidate
    // 0 is much cooler in absolute terms
    assertEquals(1, HmLru.choose(new int[] {0, 50, 100}, new long[] {30, 10, 20}, 3, random));
  }

  @Test
  void allEqualHeatFallsToRecency() {
    assertEquals(2, HmLru.choose(new int[] {4, 4, 4}, new long[] {30, 20, 10}, 3, random));
  }

  @Test
  void neverSelectedIsOldest() {
    assertEquals(0, HmLru.choose(new int[] {2, 2}, new long[] {Long.MIN_VALUE, 5}, 2, random));
  }

  @Test
  void tiesAreBrokenUniformly() {
    int[] counts = new int[3];
    for (int i = 0; i < 30_000; i++) {
      counts[HmLru.choose(new int[] {1, 1, 1}, new long[] {7, 7, 7}, 3, random)]++;
    }
    for (int c : counts) {
      assertTrue(Math.abs(c - 10_000) < 600, java.util.Arrays.toString(counts));
    }
  }

  @Test
  void onlyThePrefixCompetes() {
    assertEquals(0, HmLru.choose(new int[] {9, 0, 0}, new long[] {9, 0, 0}, 1, random));
  }

  @Test
  void singleCandidateAndBadCounts() {
    assertEquals(0, HmLru.choose(new int[] {3}, new long[] {3}, 1, random));
    assertThrows(IllegalArgumentException.class,
        () -> HmLru.choose(new int[] {1}, new long[] {1}, 0, random));
    assertThrows(IllegalArgumentException.class,
        () -> HmLru.choose(new int[] {1}, new long[] {1, 2}, 2, random));
  }

  @Test
  void neverPicksADominatedCandidate() {
    Random r = new Random(11);
    for (int round = 0; round < 2000; round++) {
      int n = 1 + r.nextInt(5);
      int[] heat = new int[n];
      long[] last = new long[n];
      for (int i = 0; i < n; i++) {
        heat[i] = r.nextInt(4);
        last[i] = r.nextInt(4);
      }
      int c = HmLru.choose(heat, last, n, r);
      for (int j = 0; j < n; j++) {
        boolean dominates = heat[j] <= heat[c] && last[j] <= last[c]
            && (heat[j] < heat[c] || last[j] < last[c]);
        assertTrue(!dominates, "chose " + c + " dominated by " + j);
      }
    }
  }

  @Test
  void heatFirstKeepsTheCoolestAndUsesRecencyForTies() {
    // rank-sum picks candidate 1 here (weights 2,1,3); heat-first picks the coolest
    assertEquals(0, HmLru.chooseHeatFirst(new int[] {0, 50, 100}, new long[] {30, 10, 20}, 3,
        random));
    assertEquals(2, HmLru.chooseHeatFirst(new int[] {4, 9, 4}, new long[] {30, 1, 20}, 3,
        random));
    int[] counts = new int[3];
    for (int i = 0; i < 30_000; i++) {
      counts[HmLru.chooseHeatFirst(new int[] {1, 1, 1}, new long[] {7, 7, 7}, 3, random)]++;
    }
    for (int c : counts) {
      assertTrue(Math.abs(c - 10_000) < 600, java.util.Arrays.toString(counts));
    }
    assertThrows(IllegalArgumentException.class,
        () -> HmLru.chooseHeatFirst(new int[] {1}, new long[] {1}, 0, random));
  }

  @Test
  void inFlightFirstThenHeatThenRecency() {
    // fewest writes in flight wins although it is the hottest and the most recent
    assertEquals(2, HmLru.chooseInFlightFirst(new int[] {3, 2, 1}, new int[] {0, 0, 9},
        new long[] {1, 2, 3}, 3, random));
    // equal writes in flight: the coolest
    assertEquals(1, HmLru.chooseInFlightFirst(new int[] {1, 1, 1}, new int[] {5, 2, 3},
        new long[] {1, 2, 3}, 3, random));
    // equal writes and heat: the least recently selected
    assertEquals(2, HmLru.chooseInFlightFirst(new int[] {1, 1, 1}, new int[] {2, 2, 2},
        new long[] {30, 20, 10}, 3, random));
    // only the prefix competes
    assertEquals(0, HmLru.chooseInFlightFirst(new int[] {5, 0}, new int[] {5, 0},
        new long[] {5, 0}, 1, random));
    assertThrows(IllegalArgumentException.class,
        () -> HmLru.chooseInFlightFirst(new int[] {1}, new int[] {1, 1}, new long[] {1, 1}, 2,
            random));
  }

  @Test
  void inFlightTiesAreBrokenUniformly() {
    int[] counts = new int[3];
    for (int i = 0; i < 30_000; i++) {
      counts[HmLru.chooseInFlightFirst(new int[] {2, 2, 2}, new int[] {1, 1, 1},
          new long[] {7, 7, 7}, 3, random)]++;
    }
    for (int c : counts) {
      assertTrue(Math.abs(c - 10_000) < 600, java.util.Arrays.toString(counts));
    }
  }
}
