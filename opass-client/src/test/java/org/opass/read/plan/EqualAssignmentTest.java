package org.opass.read.plan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.opass.maxflow.ReferenceMaxFlow;

class EqualAssignmentTest {

  @Test
  void localCountIsTheMaxFlowOptimumOnRandomInstances() {
    Random rnd = new Random(1);
    for (int round = 0; round < 400; round++) {
      int hosts = 1 + rnd.nextInt(8);
      int m = 1 + rnd.nextInt(8);
      int n = rnd.nextInt(40);
      List<Proc> procs = PlanTestSupport.processes(rnd, m, hosts + 2);
      List<Chunk> chunks = PlanTestSupport.chunks(rnd, n, hosts + 3, 3);
      Plan plan = EqualAssignment.plan(chunks, procs);
      String where = "round " + round + ": n=" + n + " m=" + m;
      assertEquals(PlanTestSupport.jgraphtLocalOptimum(chunks, procs), plan.localChunks(), where);
      assertEquals(plan.localOptimum(), plan.localChunks(), where);
      assertValid(plan, where);
    }
  }

  @Test
  void localCountEqualsBruteForceOnTinyInstances() {
    Random rnd = new Random(2);
    for (int round = 0; round < 300; round++) {
      int m = 1 + rnd.nextInt(3);
      int n = rnd.nextInt(8);
      List<Proc> procs = PlanTestSupport.processes(rnd, m, 3);
      List<Chunk> chunks = PlanTestSupport.chunks(rnd, n, 4, 2);
      Plan plan = EqualAssignment.plan(chunks, procs);
      assertEquals(PlanTestSupport.bruteForceLocalOptimum(chunks, procs), plan.localChunks(),
          "round " + round + ": " + chunks + " " + procs);
      assertValid(plan, "round " + round);
    }
  }

  @Test
  void ceilQuotaAloneWouldLeaveAProcessShort() {
    // n=4, m=3, every chunk on h0 or h1: capping at ceil(4/3)=2 alone would give 2+2+0
    List<Proc> procs = List.of(new Proc(0, "h0"), new Proc(1, "h1"), new Proc(2, "h2"));
    List<Chunk> chunks = List.of(Chunk.of(0, 1, "h0"), Chunk.of(1, 1, "h0"),
        Chunk.of(2, 1, "h1"), Chunk.of(3, 1, "h1"));
    Plan plan = EqualAssignment.plan(chunks, procs);
    assertEquals(1, plan.minShare());
    assertEquals(2, plan.maxShare());
    assertEquals(3, plan.localChunks());
    assertEquals(1, plan.chunksOf(2).size());
    assertEquals(Locality.REMOTE, plan.localityOf(plan.chunkIndicesOf(2)[0]));
  }

  @Test
  void rackLocalFillBeatsOrderOfArrival() {
    // no chunk is local; filling in index order would give p0 the rack-B chunk and p1 the
    // rack-A chunk, both remote
    List<Proc> procs = List.of(new Proc(0, "a1"), new Proc(1, "b1"));
    List<Chunk> chunks = List.of(Chunk.of(0, 5, "b2"), Chunk.of(1, 7, "a2"));
    RackResolver racks = RackResolver.of(Map.of("a1", "/A", "a2", "/A", "b1", "/B", "b2", "/B"));
    Plan plan = EqualAssignment.plan(chunks, procs, racks);
    assertEquals(0, plan.localChunks());
    assertEquals(2, plan.rackLocalChunks());
    assertEquals(12, plan.rackLocalBytes());
    assertEquals(1, plan.processOf(0));
    assertEquals(0, plan.processOf(1));
    // without racks the same plan counts as remote
    Plan flat = EqualAssignment.plan(chunks, procs);
    assertEquals(2, flat.remoteChunks());
  }

  @Test
  void rackLocalCountIsMaximalGivenTheLocalMatching() {
    Random rnd = new Random(3);
    for (int round = 0; round < 300; round++) {
      int hosts = 2 + rnd.nextInt(10);
      int m = 1 + rnd.nextInt(6);
      int n = rnd.nextInt(30);
      Map<String, String> rackMap = new HashMap<>();
      int rackCount = 1 + rnd.nextInt(4);
      for (int h = 0; h < hosts + 3; h++) {
        // some hosts have no rack
        if (rnd.nextInt(8) > 0) {
          rackMap.put("h" + h, "/r" + rnd.nextInt(rackCount));
        }
      }
      RackResolver racks = RackResolver.of(rackMap);
      List<Proc> procs = PlanTestSupport.processes(rnd, m, hosts);
      List<Chunk> chunks = PlanTestSupport.chunks(rnd, n, hosts + 3, 2);
      Plan plan = EqualAssignment.plan(chunks, procs, racks);
      String where = "round " + round;
      assertEquals(PlanTestSupport.jgraphtLocalOptimum(chunks, procs), plan.localChunks(), where);
      assertEquals(rackOptimumGivenLocal(plan, racks), plan.rackLocalChunks(), where);
      assertValid(plan, where);
      for (int c = 0; c < n; c++) {
        assertEquals(Plan.classify(chunks.get(c), procs.get(plan.processOf(c)).host(), racks),
            plan.localityOf(c));
      }
    }
  }

  /** JGraphT max flow of the rack stage: the plan's local chunks fixed, the rest open. */
  private static int rackOptimumGivenLocal(Plan plan, RackResolver racks) {
    int n = plan.chunks().size();
    int m = plan.processes().size();
    int[] local = new int[m];
    for (int c = 0; c < n; c++) {
      if (plan.localityOf(c) == Locality.LOCAL) {
        local[plan.processOf(c)]++;
      }
    }
    int floor = n / m;
    int atCeil = 0;
    for (int l : local) {
      atCeil += l > floor ? 1 : 0;
    }
    ReferenceMaxFlow<String> g = new ReferenceMaxFlow<>();
    g.arc("s", "x", n % m - atCeil);
    for (int p = 0; p < m; p++) {
      g.arc("s", "p" + p, Math.max(0, floor - local[p]));
      if (local[p] <= floor) {
        g.arc("x", "p" + p, 1);
      }
    }
    for (int c = 0; c < n; c++) {
      if (plan.localityOf(c) == Locality.LOCAL) {
        continue;
      }
      g.arc("c" + c, "t", 1);
      for (int p = 0; p < m; p++) {
        Locality l = Plan.classify(plan.chunks().get(c), plan.processes().get(p).host(), racks);
        if (l == Locality.RACK_LOCAL) {
          g.arc("p" + p, "c" + c, 1);
        }
      }
    }
    return (int) g.value("s", "t");
  }

  @Test
  void processesSharingAHostSplitItsChunks() {
    List<Proc> procs = List.of(new Proc(0, "h0"), new Proc(1, "h0"), new Proc(2, "h1"));
    List<Chunk> chunks = new ArrayList<>();
    for (int c = 0; c < 9; c++) {
      chunks.add(Chunk.of(c, 100, c < 6 ? "h0" : "h1"));
    }
    Plan plan = EqualAssignment.plan(chunks, procs);
    assertEquals(9, plan.localChunks());
    for (int p = 0; p < 3; p++) {
      assertEquals(3, plan.chunksOf(p).size());
    }
    assertEquals(900, plan.localBytes());
  }

  @Test
  void fewerChunksThanProcessesAndNoChunks() {
    List<Proc> procs = List.of(new Proc(0, "h0"), new Proc(1, "h1"), new Proc(2, "h2"));
    Plan plan = EqualAssignment.plan(List.of(Chunk.of(0, 1, "h2"), Chunk.of(1, 1, "h2")), procs);
    assertEquals(0, plan.minShare());
    assertEquals(1, plan.maxShare());
    assertEquals(1, plan.localChunks());
    assertEquals(1, plan.chunksOf(2).size());
    assertEquals(Locality.LOCAL, plan.localityOf(plan.chunkIndicesOf(2)[0]));
    Plan empty = EqualAssignment.plan(List.of(), procs);
    assertEquals(0, empty.chunks().size());
    assertEquals(0, empty.maxShare());
  }

  @Test
  void bytesAddUp() {
    List<Proc> procs = List.of(new Proc(0, "h0"), new Proc(1, "h1"));
    List<Chunk> chunks = List.of(Chunk.of(0, 10, "h0"), Chunk.of(1, 20, "h9"),
        Chunk.of(2, 30, "h1"), Chunk.of(3, 40, "h1", "h0"));
    Plan plan = EqualAssignment.plan(chunks, procs);
    assertEquals(3, plan.localChunks());
    assertEquals(80, plan.localBytes());
    assertEquals(1, plan.remoteChunks());
    assertEquals(20, plan.remoteBytes());
    assertEquals(100, plan.totalBytes());
  }

  @Test
  void badArgumentsAreNamed() {
    List<Chunk> chunks = List.of(Chunk.of(0, 1, "h0"), Chunk.of(0, 1, "h1"));
    List<Proc> procs = List.of(new Proc(0, "h0"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> EqualAssignment.plan(chunks, procs)).getMessage().contains("chunks[1]"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> EqualAssignment.plan(List.of(), List.of())).getMessage().contains("processes"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> EqualAssignment.plan(List.of(), List.of(new Proc(1, "a"), new Proc(1, "b"))))
        .getMessage().contains("processes[1]"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new Chunk(0, "/f", -1, 1, List.of())).getMessage().contains("offset"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new Chunk(0, "/f", 0, -1, List.of())).getMessage().contains("length"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new Proc(3, "")).getMessage().contains("process 3"));
  }

  @Test
  void duplicateReplicaHostsCountOnce() {
    Chunk c = new Chunk(0, "/f", 0, 1, List.of("h0", "h1", "h0"));
    assertEquals(List.of("h0", "h1"), c.hosts());
  }

  @Test
  void deterministic() {
    Random rnd = new Random(4);
    List<Proc> procs = PlanTestSupport.processes(rnd, 7, 5);
    List<Chunk> chunks = PlanTestSupport.chunks(rnd, 50, 8, 3);
    Plan a = EqualAssignment.plan(chunks, procs);
    Plan b = EqualAssignment.plan(chunks, procs);
    for (int p = 0; p < procs.size(); p++) {
      assertArrayEquals(a.chunkIndicesOf(p), b.chunkIndicesOf(p));
    }
  }

  /** Every chunk exactly once, shares floor/ceil with exactly n mod m at ceil. */
  static void assertValid(Plan plan, String where) {
    int n = plan.chunks().size();
    int m = plan.processes().size();
    int[] seen = new int[n];
    int[] count = new int[m];
    for (int p = 0; p < m; p++) {
      for (int c : plan.chunkIndicesOf(p)) {
        seen[c]++;
        count[p]++;
        assertEquals(p, plan.processOf(c), where);
      }
    }
    for (int c = 0; c < n; c++) {
      assertEquals(1, seen[c], where + ": chunk " + c + " assigned " + seen[c] + " times");
    }
    assertTrue(PlanTestSupport.balanced(count, n), where + ": unbalanced "
        + java.util.Arrays.toString(count));
    assertEquals(n, plan.localChunks() + plan.rackLocalChunks() + plan.remoteChunks(), where);
  }
}
