package org.opass.read.balance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Algorithm 2's target counts C (Opass §4.5) over a batch. */
class Algorithm2TargetsTest {

  /**
   * The paper's Fig. 7 has no numbers in the text we have, so this instance is built from the
   * text: one file of 6 chunks, 3 replicas each, on 4 DataNodes already serving NC = 3, 1, 0, 2.
   * By hand: nc_j = 3 (dn0); dn1: 3-1 = 2 <= l=4 so c=2, m=4; dn2: 3 <= 5 so c=3, m=1;
   * dn3: 1 <= 5 so c=1, m=0; the while loop does nothing. C = (0, 2, 3, 1): every DataNode
   * ends at 3, and the max flow realizes it (e.g. dn1: f0 f3, dn2: f1 f4 f5, dn3: f2).
   */
  static final List<ChunkRead> FIG7_READS = List.of(
      ChunkRead.of("f0", "dn0", "dn1", "dn2"),
      ChunkRead.of("f1", "dn0", "dn2", "dn3"),
      ChunkRead.of("f2", "dn1", "dn2", "dn3"),
      ChunkRead.of("f3", "dn0", "dn1", "dn3"),
      ChunkRead.of("f4", "dn1", "dn2", "dn3"),
      ChunkRead.of("f5", "dn0", "dn2", "dn3"));
  static final Map<String, Integer> FIG7_NC = Map.of("dn0", 3, "dn1", 1, "dn2", 0, "dn3", 2);

  @Test
  void fig7ExampleTargetsAndFlow() {
    for (long seed = 0; seed < 20; seed++) {
      ReplicaBalancer alg2 = new ReplicaBalancer(Strategy.ALGORITHM2, seed);
      assertEquals(Map.of("dn0", 0, "dn1", 2, "dn2", 3, "dn3", 1),
          alg2.algorithm2Targets(FIG7_READS, FIG7_NC));
      BalanceResult r = alg2.assign(FIG7_READS, FIG7_NC);
      assertEquals(0, r.unmatchedByFlow(), "C is realizable, the flow must realize it");
      assertEquals(Map.of("dn0", 3L, "dn1", 3L, "dn2", 3L, "dn3", 3L), r.loads());
      assertEquals(3, r.maxLoad());
      assertEquals(r.targets().get("dn2"), r.assignedTo("dn2"));
      assertEquals(3, new ReplicaBalancer(Strategy.OPTIMAL, seed).assign(FIG7_READS, FIG7_NC)
          .maxLoad());
    }
  }

  /** Idle cluster: the first loop does nothing (no nc_i below nc_j), round-robin does it all. */
  @Test
  void roundRobinOnIdleCluster() {
    List<ChunkRead> reads = List.of(
        ChunkRead.of("r1", "a", "b"),
        ChunkRead.of("r2", "a", "b"),
        ChunkRead.of("r3", "b", "c"),
        ChunkRead.of("r4", "a", "c"),
        ChunkRead.of("r5", "a", "b", "c"));
    // L = (4, 4, 3), m = 5: one full pass (1, 1, 1), then the first two in seeded order get +1.
    for (long seed = 0; seed < 20; seed++) {
      Map<String, Integer> c = new ReplicaBalancer(Strategy.ALGORITHM2, seed)
          .algorithm2Targets(reads, Map.of());
      int[] sorted = c.values().stream().mapToInt(Integer::intValue).sorted().toArray();
      assertArrayEquals(new int[] {1, 2, 2}, sorted, "seed " + seed + ": " + c);
      CanonicalBatch b = new CanonicalBatch(reads, Map.of(), seed, 100);
      assertEquals(1, c.get(b.dnIds[2]), "the last DataNode in seeded order misses the +1");
    }
  }

  /** c_i is capped by l_i; the paper's first loop ignores m, so C may sum to more than m. */
  @Test
  void firstLoopCapsByHoldingsAndMayOvershootM() {
    List<ChunkRead> reads = List.of(
        ChunkRead.of("r1", "a", "b"),
        ChunkRead.of("r2", "b", "c"),
        ChunkRead.of("r3", "b"),
        ChunkRead.of("r4", "c"));
    Map<String, Integer> nc = Map.of("a", 10, "c", 7); // b absent: 0
    // nc_j = 10; b: 10 > l=3 -> 3, m = 1; c: 3 > l=2 -> 2, m = -1; a is the max: 0.
    Map<String, Integer> c = new ReplicaBalancer(Strategy.ALGORITHM2, 1)
        .algorithm2Targets(reads, nc);
    assertEquals(Map.of("a", 0, "b", 3, "c", 2), c);
    BalanceResult r = new ReplicaBalancer(Strategy.ALGORITHM2, 1).assign(reads, nc);
    assertEquals(0, r.unmatchedByFlow());
    assertEquals("b", r.assignment().get("r1"), "a is the hot one and has target 0");
    assertEquals("b", r.assignment().get("r3"));
    assertEquals("c", r.assignment().get("r4"));
  }

  /** First loop partly fills the cool DataNodes, the while loop spreads the rest. */
  @Test
  void firstLoopThenRoundRobin() {
    List<ChunkRead> reads = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      reads.add(ChunkRead.of("r" + i, "a", "b", "c"));
    }
    Map<String, Integer> nc = Map.of("a", 2);
    // nc_j = 2: b -> 2, c -> 2, m = 2; then a partial pass gives +1 to the first two in order.
    for (long seed = 0; seed < 10; seed++) {
      CanonicalBatch b = new CanonicalBatch(reads, nc, seed, 100);
      int[] c = ReplicaBalancer.targets(b);
      Map<String, Integer> byId = new HashMap<>();
      for (int d = 0; d < b.n; d++) {
        byId.put(b.dnIds[d], c[d]);
      }
      assertEquals(6, Arrays.stream(c).sum());
      assertEquals(0 + (rank(b, "a") < 2 ? 1 : 0), byId.get("a"));
      assertEquals(2 + (rank(b, "b") < 2 ? 1 : 0), byId.get("b"));
      assertEquals(2 + (rank(b, "c") < 2 ? 1 : 0), byId.get("c"));
    }
  }

  /** The bulk round-robin equals the pseudo-code's one-chunk-at-a-time loop. */
  @Test
  void matchesLiteralPseudoCode() {
    Random rnd = new Random(42);
    for (int t = 0; t < 2000; t++) {
      List<ChunkRead> reads = randomReads(rnd, 1 + rnd.nextInt(60), 1 + rnd.nextInt(12));
      Map<String, Integer> nc = new HashMap<>();
      for (int d = 0; d < 12; d++) {
        if (rnd.nextBoolean()) {
          nc.put("dn" + d, rnd.nextInt(rnd.nextBoolean() ? 3 : 40));
        }
      }
      CanonicalBatch b = new CanonicalBatch(reads, nc, t, 1000);
      assertArrayEquals(literal(b), ReplicaBalancer.targets(b), "instance " + t);
    }
  }

  /** Algorithm 2 transliterated line by line, over the batch, DataNodes in rank order. */
  static int[] literal(CanonicalBatch b) {
    int n = b.n;
    long[] nc = b.nc;
    int[] l = b.degree;
    int[] c = new int[n];
    long m = b.m;
    long ncj = Long.MIN_VALUE;
    for (long v : nc) {
      ncj = Math.max(ncj, v);
    }
    for (int i = 0; i < n; i++) {
      if (nc[i] < ncj) {
        if (ncj - nc[i] > l[i]) {
          c[i] = l[i];
          m = m - c[i];
        } else {
          c[i] = (int) (ncj - nc[i]);
          m = m - c[i];
        }
      }
    }
    while (m > 0) {
      for (int i = 0; i < n && m > 0; i++) {
        if (c[i] < l[i]) {
          c[i] = c[i] + 1;
          m = m - 1;
        }
      }
    }
    return c;
  }

  static List<ChunkRead> randomReads(Random rnd, int m, int n) {
    List<ChunkRead> reads = new ArrayList<>();
    for (int r = 0; r < m; r++) {
      int k = 1 + rnd.nextInt(Math.min(3, n));
      List<String> hs = new ArrayList<>();
      while (hs.size() < k) {
        String dn = "dn" + rnd.nextInt(n);
        if (!hs.contains(dn)) {
          hs.add(dn);
        }
      }
      reads.add(new ChunkRead("r" + r, hs));
    }
    return reads;
  }

  private static int rank(CanonicalBatch b, String dn) {
    for (int d = 0; d < b.n; d++) {
      if (b.dnIds[d].equals(dn)) {
        return d;
      }
    }
    throw new AssertionError(dn);
  }

  @Test
  void sumOfTargetsCoversTheBatch() {
    Random rnd = new Random(7);
    for (int t = 0; t < 500; t++) {
      List<ChunkRead> reads = randomReads(rnd, rnd.nextInt(40), 1 + rnd.nextInt(8));
      CanonicalBatch b = new CanonicalBatch(reads, Map.of("dn0", rnd.nextInt(5)), t, 1000);
      int[] c = ReplicaBalancer.targets(b);
      assertTrue(Arrays.stream(c).sum() >= b.m);
      for (int d = 0; d < b.n; d++) {
        assertTrue(c[d] >= 0 && c[d] <= b.degree[d]);
      }
    }
  }
}
