package org.opass.heatmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeatmapTest {
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Heatmap heatmap = Heatmap.builder().nanoClock(clock::get)
      .forgetAfter(Duration.ofSeconds(60)).maxNodes(4).build();

  @Test
  void heatIsHeartbeatTransfersPlusGrantsSinceThatHeartbeat() {
    heatmap.observe("a", "a:1", 5, 100, true);
    heatmap.grant("a");
    heatmap.grant("a");
    assertEquals(7, heatmap.heat("a"));
    // the same heartbeat seen again changes nothing
    heatmap.observe("a", "a:1", 5, 100, true);
    assertEquals(7, heatmap.heat("a"));
    // a newer heartbeat replaces transfers and clears grants
    heatmap.observe("a", "a:1", 3, 200, true);
    assertEquals(3, heatmap.heat("a"));
    assertEquals(0, heatmap.outstandingGrants());
    assertEquals(2, heatmap.grantsTotal());
  }

  @Test
  void missingHeartbeatsLetGrantsAccumulate() {
    heatmap.observe("a", "a:1", 0, 100, true);
    for (int i = 0; i < 10; i++) {
      heatmap.grant("a");
      heatmap.observe("a", "a:1", 0, 100, true);
    }
    assertEquals(10, heatmap.heat("a"));
  }

  @Test
  void unknownNodesAreCoolAndNeverSelected() {
    assertEquals(0, heatmap.heat("nobody"));
    assertEquals(Long.MIN_VALUE, heatmap.lastSelectedNanos("nobody"));
    heatmap.grant("nobody"); // not tracked: counted in the total only
    assertEquals(0, heatmap.trackedNodes());
    assertEquals(1, heatmap.grantsTotal());
  }

  @Test
  void lastSelectedFollowsGrants() {
    heatmap.observe("a", "a:1", 0, 1, true);
    heatmap.observe("b", "b:1", 0, 1, true);
    heatmap.grant("a");
    clock.addAndGet(10);
    heatmap.grant("b");
    assertTrue(heatmap.lastSelectedNanos("a") < heatmap.lastSelectedNanos("b"));
  }

  @Test
  void meanIsOverTrackedNodes() {
    heatmap.observe("a", "a:1", 4, 1, true);
    heatmap.observe("b", "b:1", 0, 1, true);
    heatmap.grant("b");
    heatmap.grant("b");
    assertEquals(3.0, heatmap.meanHeat(), 1e-9);
  }

  @Test
  void deadNodesAreForgottenAndTheirHeatLeavesTheMean() {
    heatmap.observe("a", "a:1", 4, 1, true);
    heatmap.observe("b", "b:1", 2, 1, true);
    heatmap.grant("b");
    heatmap.observe("b", "b:1", 2, 1, false);
    assertEquals(1, heatmap.trackedNodes());
    assertEquals(4.0, heatmap.meanHeat(), 1e-9);
    assertEquals(0, heatmap.outstandingGrants());
  }

  @Test
  void nodesNotSeenForAWhileAreForgotten() {
    heatmap.observe("old", "old:1", 1, 1, true);
    clock.addAndGet(Duration.ofSeconds(61).toNanos());
    heatmap.observe("new", "new:1", 1, 1, true);
    clock.addAndGet(Duration.ofSeconds(16).toNanos());
    heatmap.observe("new", "new:1", 1, 2, true); // a sweep runs at most every forgetAfter/4
    assertEquals(List.of("new"), heatmap.snapshot().stream().map(NodeHeat::nodeId).toList());
  }

  @Test
  void sizeIsBounded() {
    for (int i = 0; i < 10; i++) {
      heatmap.observe("n" + i, "n" + i, 0, 1, true);
    }
    assertEquals(4, heatmap.trackedNodes());
    assertEquals(0, heatmap.heat("n9"));
  }

  @Test
  void snapshotIsHottestFirst() {
    heatmap.observe("a", "a:1", 1, 1, true);
    heatmap.observe("b", "b:1", 3, 1, true);
    heatmap.grant("a");
    List<NodeHeat> rows = heatmap.snapshot();
    assertEquals("b", rows.get(0).nodeId());
    assertEquals(new NodeHeat("a", "a:1", 1, 1, 0), rows.get(1));
  }

  @Test
  void builderRejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> Heatmap.builder().maxNodes(0));
    assertThrows(IllegalArgumentException.class,
        () -> Heatmap.builder().forgetAfter(Duration.ZERO));
  }

  @Test
  void concurrentGrantsAndHeartbeatsKeepSumsExact() throws Exception {
    Heatmap h = Heatmap.builder().build();
    int threads = 8;
    int perThread = 20_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      fs.add(pool.submit(() -> {
        for (int i = 0; i < perThread; i++) {
          String node = "n" + (i % 16);
          h.observe(node, node, 0, id == 0 ? i : 0, true);
          h.grant(node);
          h.heat(node);
        }
      }));
    }
    for (Future<?> f : fs) {
      f.get();
    }
    pool.shutdown();
    assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    assertEquals((long) threads * perThread, h.grantsTotal());
    long sum = h.snapshot().stream().mapToLong(NodeHeat::heat).sum();
    assertEquals(sum, h.outstandingGrants());
    assertEquals((double) sum / 16, h.meanHeat(), 1e-9);
  }
}
