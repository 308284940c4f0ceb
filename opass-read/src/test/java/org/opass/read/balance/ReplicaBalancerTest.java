package org.opass.read.balance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.opass.maxflow.ReferenceMaxFlow;

class ReplicaBalancerTest {

  private static final ReplicaBalancer OPT = new ReplicaBalancer();

  // ------------------------------------------------------------ optimality vs brute force

  /**
   * OPTIMAL against exhaustive search: its sorted (descending) load vector is the
   * lexicographically smallest of all assignments, so in particular its max load is the
   * minimum and the number of DataNodes at it is the fewest.
   */
  @Test
  void optimalMatchesBruteForceOnTinyInstances() {
    Random rnd = new Random(2024);
    for (int t = 0; t < 600; t++) {
      int n = 1 + rnd.nextInt(4);
      List<ChunkRead> reads = Algorithm2TargetsTest.randomReads(rnd, rnd.nextInt(9), n);
      Map<String, Integer> nc = randomLoads(rnd, n, t % 5 == 0 ? 9 : 3);
      long seed = rnd.nextLong();
      StrategyComparison cmp = new ReplicaBalancer(Strategy.OPTIMAL, seed).compare(reads, nc);
      long[] brute = bruteForce(reads, nc);
      String what = "instance " + t + " reads=" + reads + " nc=" + nc;
      assertEquals(brute.length == 0 ? 0 : brute[0], cmp.optimal().maxLoad(), what);
      assertEquals(java.util.Arrays.toString(brute), java.util.Arrays.toString(
          sortedDescending(cmp.optimal())), "lexicographically balanced, " + what);
      assertTrue(cmp.algorithm2().maxLoad() >= cmp.optimal().maxLoad(), what);
      assertValid(reads, nc, cmp.optimal());
      assertValid(reads, nc, cmp.algorithm2());
    }
  }

  /**
   * With a tiny level budget OPTIMAL finishes by bisection: still the exact min-max, and
   * still the fewest DataNodes at it.
   */
  @Test
  void bisectionPhaseIsExactOnTinyInstances() {
    Random rnd = new Random(77);
    for (int t = 0; t < 600; t++) {
      int n = 1 + rnd.nextInt(4);
      List<ChunkRead> reads = Algorithm2TargetsTest.randomReads(rnd, rnd.nextInt(9), n);
      Map<String, Integer> nc = randomLoads(rnd, n, t % 3 == 0 ? 9 : 3);
      int budget = t % 4;
      BalanceResult r = new ReplicaBalancer(Strategy.OPTIMAL, t, 100, budget).assign(reads, nc);
      long[] brute = bruteForce(reads, nc);
      String what = "budget " + budget + ", instance " + t + " reads=" + reads + " nc=" + nc;
      long best = brute.length == 0 ? 0 : brute[0];
      assertEquals(best, r.maxLoad(), what);
      long bruteAtMax = java.util.Arrays.stream(brute).filter(v -> v == best).count();
      assertEquals(bruteAtMax, countAt(r, best), "fewest DataNodes at the peak, " + what);
      assertValid(reads, nc, r);
    }
  }

  /** The lexicographically smallest descending-sorted holder-load vector over all assignments. */
  static long[] bruteForce(List<ChunkRead> reads, Map<String, Integer> nc) {
    Map<String, Long> load = new TreeMap<>();
    for (ChunkRead r : reads) {
      for (String h : r.holders()) {
        load.put(h, (long) nc.getOrDefault(h, 0));
      }
    }
    long[][] best = {null};
    enumerate(reads, 0, load, best);
    return reads.isEmpty() ? new long[0] : best[0];
  }

  private static void enumerate(List<ChunkRead> reads, int i, Map<String, Long> load,
      long[][] best) {
    if (i == reads.size()) {
      long[] v = load.values().stream().mapToLong(Long::longValue)
          .boxed().sorted(Collections.reverseOrder()).mapToLong(Long::longValue).toArray();
      if (best[0] == null || java.util.Arrays.compare(v, best[0]) < 0) {
        best[0] = v;
      }
      return;
    }
    for (String h : reads.get(i).holders()) {
      load.merge(h, 1L, Long::sum);
      enumerate(reads, i + 1, load, best);
      load.merge(h, -1L, Long::sum);
    }
  }

  private static long[] sortedDescending(BalanceResult r) {
    return r.loads().values().stream().sorted(Collections.reverseOrder())
        .mapToLong(Long::longValue).toArray();
  }

  private static long countAt(BalanceResult r, long level) {
    return r.loads().values().stream().filter(v -> v == level).count();
  }

  // ------------------------------------------------------------ larger random instances

  /**
   * On bigger instances, with and without the bisection phase: OPTIMAL <= ALGORITHM2, and
   * JGraphT's push-relabel confirms B* feasible and B*-1 not.
   */
  @Test
  void optimalIsExactOnLargerInstancesPerJGraphT() {
    Random rnd = new Random(99);
    for (int t = 0; t < 60; t++) {
      int n = 2 + rnd.nextInt(30);
      List<ChunkRead> reads = Algorithm2TargetsTest.randomReads(rnd, 1 + rnd.nextInt(200), n);
      Map<String, Integer> nc = randomLoads(rnd, n, 1 + rnd.nextInt(20));
      StrategyComparison cmp =
          new ReplicaBalancer(Strategy.OPTIMAL, t, 1000, t % 2 == 0 ? 128 : t % 7)
          .compare(reads, nc);
      long best = cmp.optimal().maxLoad();
      assertValid(reads, nc, cmp.optimal());
      assertValid(reads, nc, cmp.algorithm2());
      assertTrue(cmp.maxLoadGap() >= 0);
      assertEquals(reads.size(), jgraphtMaxFlow(reads, nc, best), "B* feasible, instance " + t);
      long maxNc = cmp.optimal().loads().keySet().stream()
          .mapToLong(dn -> nc.getOrDefault(dn, 0)).max().orElse(0);
      if (best - 1 >= maxNc) {
        assertTrue(jgraphtMaxFlow(reads, nc, best - 1) < reads.size(),
            "B*-1 infeasible, instance " + t);
      } else {
        assertEquals(maxNc, best, "B* can only be below-max-NC-infeasible at max NC");
      }
    }
  }

  private static long jgraphtMaxFlow(List<ChunkRead> reads, Map<String, Integer> nc, long bound) {
    ReferenceMaxFlow<String> g = new ReferenceMaxFlow<>();
    for (ChunkRead r : reads) {
      g.arc("S", "r:" + r.id(), 1);
      for (String h : r.holders()) {
        String dn = "d:" + h;
        if (!g.has(dn)) {
          g.arc(dn, "T", Math.max(0, bound - nc.getOrDefault(h, 0)));
        }
        g.arc("r:" + r.id(), dn, 1);
      }
    }
    return g.value("S", "T");
  }

  @Test
  void optimalNeverWorseThanAlgorithm2() {
    Random rnd = new Random(5);
    for (int t = 0; t < 300; t++) {
      int n = 1 + rnd.nextInt(16);
      List<ChunkRead> reads = Algorithm2TargetsTest.randomReads(rnd, rnd.nextInt(80), n);
      Map<String, Integer> nc = randomLoads(rnd, n, 1 + rnd.nextInt(30));
      StrategyComparison cmp = new ReplicaBalancer(Strategy.OPTIMAL, t).compare(reads, nc);
      assertTrue(cmp.algorithm2().maxLoad() >= cmp.optimal().maxLoad(), "instance " + t);
    }
  }

  // ------------------------------------------------------------ the gap, by example

  /**
   * Algorithm 2 strictly worse than the optimum (found by random search over tiny instances;
   * the gap held for every seed tried, 0..15). Idle cluster, m = 6, L = (5, 1, 2, 2).
   * Round-robin: one full pass gives every DataNode 1, the 2 left go to the first two of
   * dn0, dn2, dn3 in seeded order; with seed 0, C = (2, 1, 1, 2). C sums to 6 but is not
   * realizable: dn1 and dn3 together hold only r0 and r4, so their 3 targets can take 2 reads.
   * The flow matches 5 reads and puts r2 on dn0 beside one of r1, r3; the other is left, and
   * its only holder is dn0: loads (3, 0, 1, 2), max 3. Optimum: r1, r3 on dn0, r2, r5 on dn2, r0 on dn1, r4 on
   * dn3: loads (2, 1, 2, 1), max 2.
   */
  @Test
  void algorithm2StrictlyWorseExample() {
    StrategyComparison cmp =
        new ReplicaBalancer(Strategy.OPTIMAL, GAP_SEED).compare(GAP_READS, GAP_NC);
    assertEquals(Map.of("dn0", 2, "dn1", 1, "dn2", 1, "dn3", 2), cmp.algorithm2().targets());
    assertEquals(1, cmp.algorithm2().unmatchedByFlow());
    assertEquals(Map.of("dn0", 3L, "dn1", 0L, "dn2", 1L, "dn3", 2L), cmp.algorithm2().loads());
    assertEquals(3, cmp.algorithm2().maxLoad());
    assertEquals(2, cmp.optimal().maxLoad());
    assertEquals(1, cmp.maxLoadGap());
    for (long seed = 0; seed < 16; seed++) {
      assertTrue(new ReplicaBalancer(Strategy.OPTIMAL, seed).compare(GAP_READS, GAP_NC)
          .maxLoadGap() > 0, "seed " + seed);
    }
  }

  static final long GAP_SEED = 0;
  static final List<ChunkRead> GAP_READS = List.of(
      ChunkRead.of("r0", "dn1", "dn3"),
      ChunkRead.of("r1", "dn0"),
      ChunkRead.of("r2", "dn0", "dn2"),
      ChunkRead.of("r3", "dn0"),
      ChunkRead.of("r4", "dn0", "dn3"),
      ChunkRead.of("r5", "dn0", "dn2"));
  static final Map<String, Integer> GAP_NC = Map.of();

  // ------------------------------------------------------------ edge cases

  @Test
  void emptyBatch() {
    for (Strategy s : Strategy.values()) {
      BalanceResult r = new ReplicaBalancer(s, 3).assign(List.of(), Map.of("dn1", 5));
      assertTrue(r.assignment().isEmpty());
      assertTrue(r.loads().isEmpty());
      assertTrue(r.targets().isEmpty());
      assertEquals(0, r.maxLoad());
      assertEquals(0, r.unmatchedByFlow());
      assertEquals(s, r.strategy());
    }
  }

  @Test
  void singleReplicaReadsAreForced() {
    List<ChunkRead> reads = List.of(
        ChunkRead.of("r1", "a"), ChunkRead.of("r2", "a"), ChunkRead.of("r3", "a"),
        ChunkRead.of("r4", "b"), ChunkRead.of("r5", "a", "b"));
    Map<String, Integer> nc = Map.of("b", 4);
    for (Strategy s : Strategy.values()) {
      BalanceResult r = new ReplicaBalancer(s, 11).assign(reads, nc);
      assertEquals("a", r.assignment().get("r1"));
      assertEquals("a", r.assignment().get("r2"));
      assertEquals("a", r.assignment().get("r3"));
      assertEquals("b", r.assignment().get("r4"));
      assertValid(reads, nc, r);
    }
    BalanceResult opt = OPT.assign(reads, nc);
    assertEquals("a", opt.assignment().get("r5"), "b is at 5 already, a at 3");
    assertEquals(Map.of("a", 4L, "b", 5L), opt.loads());
  }

  /**
   * A read held only by a DataNode at Integer.MAX_VALUE fixes B* there; the others must still
   * be balanced (plain min-max would let them fill up to B*), and nothing overflows.
   */
  @Test
  void hugeCurrentLoadIsAvoidedAndDoesNotOverflow() {
    List<ChunkRead> reads = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      reads.add(ChunkRead.of("r" + i, "hot", "dn" + (i % 5), "dn" + ((i + 1) % 5)));
    }
    reads.add(ChunkRead.of("forced", "hot"));
    Map<String, Integer> nc = Map.of("hot", Integer.MAX_VALUE, "dn0", 1_000_000_000);
    for (Strategy s : Strategy.values()) {
      for (long seed = 0; seed < 5; seed++) {
        BalanceResult r = new ReplicaBalancer(s, seed).assign(reads, nc);
        assertValid(reads, nc, r);
        assertEquals(Integer.MAX_VALUE + 1L, r.maxLoad());
        assertEquals(1, r.assignedTo("hot"), s + ": only the forced read goes to the hot node");
      }
    }
    for (long seed = 0; seed < 5; seed++) {
      BalanceResult opt = OPT.withSeed(seed).assign(reads, nc);
      assertEquals(0, opt.assignedTo("dn0"), "dn0 is far hotter than dn1..dn4");
      // dn1 and dn4 must take the 10 reads they share with dn0 each; 50 over 4 evens to 12/13.
      for (String dn : List.of("dn1", "dn2", "dn3", "dn4")) {
        long load = opt.loads().get(dn);
        assertTrue(load == 12 || load == 13, dn + " = " + load + " in " + opt.loads());
      }
    }
  }

  @Test
  void resultDoesNotDependOnInputOrderOrMapIterationOrder() {
    Random rnd = new Random(3);
    for (int t = 0; t < 50; t++) {
      List<ChunkRead> reads = Algorithm2TargetsTest.randomReads(rnd, 1 + rnd.nextInt(100), 12);
      Map<String, Integer> nc = randomLoads(rnd, 12, 6);
      List<ChunkRead> shuffled = new ArrayList<>();
      for (ChunkRead r : reads) {
        List<String> hs = new ArrayList<>(r.holders());
        Collections.reverse(hs);
        shuffled.add(new ChunkRead(r.id(), hs));
      }
      Collections.shuffle(shuffled, rnd);
      Map<String, Integer> nc2 = new LinkedHashMap<>();
      List<String> keys = new ArrayList<>(nc.keySet());
      Collections.shuffle(keys, rnd);
      for (String k : keys) {
        nc2.put(k, nc.get(k));
      }
      for (Strategy s : Strategy.values()) {
        ReplicaBalancer bal = new ReplicaBalancer(s, t);
        BalanceResult a = bal.assign(reads, new TreeMap<>(nc));
        BalanceResult b = bal.assign(shuffled, nc2);
        assertEquals(a.assignment(), b.assignment());
        assertEquals(a.loads(), b.loads());
        assertEquals(a.targets(), b.targets());
        assertEquals(a.unmatchedByFlow(), b.unmatchedByFlow());
        assertEquals(a, bal.assign(reads, new HashMap<>(nc)), "same seed, same result");
      }
    }
  }

  @Test
  void seedOnlyChangesTieBreaks() {
    List<ChunkRead> reads = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      reads.add(ChunkRead.of("r" + i, "a", "b", "c", "d"));
    }
    java.util.Set<Map<String, String>> seen = new java.util.HashSet<>();
    for (long seed = 0; seed < 30; seed++) {
      BalanceResult r = OPT.withSeed(seed).assign(reads, Map.of());
      assertEquals(2, r.maxLoad());
      seen.add(r.assignment());
    }
    assertTrue(seen.size() > 1, "different seeds should break ties differently");
  }

  // ------------------------------------------------------------ bad input

  @Test
  void readWithNoReplicaIsRejectedByName() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ChunkRead.of("blk_42@tenantB"));
    assertTrue(e.getMessage().contains("blk_42@tenantB"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> new ChunkRead("r9", List.of()));
    assertTrue(e.getMessage().contains("'r9'"), e.getMessage());
    NullPointerException npe =
        assertThrows(NullPointerException.class, () -> new ChunkRead("r9", null));
    assertTrue(npe.getMessage().contains("'r9'"), npe.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> ChunkRead.of("r8", "a", null));
    assertTrue(e.getMessage().contains("'r8'"), e.getMessage());
  }

  @Test
  void badArgumentsAreNamed() {
    List<ChunkRead> ok = List.of(ChunkRead.of("r1", "a"));
    // a null argument is a NullPointerException naming it; a bad value an
    // IllegalArgumentException naming it (null elements included)
    assertNullNamed("reads", () -> OPT.assign(null, Map.of()));
    assertNullNamed("currentLoad", () -> OPT.assign(ok, null));
    assertMessage("reads[1]", () -> OPT.assign(java.util.Arrays.asList(ok.get(0), null),
        Map.of()));
    assertMessage("'r1'", () -> OPT.assign(List.of(ok.get(0), ChunkRead.of("r1", "b")),
        Map.of()));
    assertMessage("'a'", () -> OPT.assign(ok, Map.of("a", -1)));
    assertMessage("maxReads", () -> new ReplicaBalancer(Strategy.OPTIMAL, 0, 1)
        .assign(List.of(ok.get(0), ChunkRead.of("r2", "a")), Map.of()));
    assertMessage("maxReads", () -> new ReplicaBalancer(Strategy.OPTIMAL, 0, 0));
    assertNullNamed("strategy", () -> new ReplicaBalancer(null, 0));
    // A negative load of a DataNode the batch does not touch is irrelevant, not an error.
    assertEquals(1, OPT.assign(ok, Map.of("zz", -5)).maxLoad());
  }

  private static void assertNullNamed(String fragment, Runnable r) {
    NullPointerException e = assertThrows(NullPointerException.class, r::run);
    assertTrue(e.getMessage().contains(fragment), "'" + fragment + "' not in: " + e.getMessage());
  }

  private static void assertMessage(String fragment, Runnable r) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
    assertTrue(e.getMessage().contains(fragment), "'" + fragment + "' not in: " + e.getMessage());
  }

  // ------------------------------------------------------------ helpers

  static Map<String, Integer> randomLoads(Random rnd, int n, int bound) {
    Map<String, Integer> nc = new HashMap<>();
    for (int d = 0; d < n; d++) {
      if (rnd.nextInt(4) > 0) {
        nc.put("dn" + d, rnd.nextInt(bound));
      }
    }
    return nc;
  }

  /** Every read once, to one of its holders; loads = NC + count; maxLoad = max of loads. */
  static void assertValid(List<ChunkRead> reads, Map<String, Integer> nc, BalanceResult r) {
    assertEquals(reads.size(), r.assignment().size());
    Map<String, Long> expected = new TreeMap<>();
    for (ChunkRead cr : reads) {
      for (String h : cr.holders()) {
        expected.putIfAbsent(h, (long) nc.getOrDefault(h, 0));
      }
    }
    for (ChunkRead cr : reads) {
      String dn = r.assignment().get(cr.id());
      assertTrue(cr.holders().contains(dn), cr.id() + " -> " + dn + " not a holder");
      expected.merge(dn, 1L, Long::sum);
    }
    assertEquals(expected, new TreeMap<>(r.loads()));
    assertEquals(expected.values().stream().mapToLong(Long::longValue).max().orElse(0),
        r.maxLoad());
  }
}
