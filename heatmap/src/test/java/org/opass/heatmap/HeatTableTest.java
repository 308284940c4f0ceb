package org.opass.heatmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class HeatTableTest {
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final HeatTable table = HeatTable.builder().nanoClock(clock::get)
      .forgetAfter(Duration.ofSeconds(60)).maxNodes(4).build();

  @Test
  void heatIsHeartbeatTransfersPlusGrantsSinceThatHeartbeat() {
    table.observe("a", "a:1", 5, 100, true);
    table.grant("a");
    table.grant("a");
    assertEquals(7, table.heat("a"));
    // the same heartbeat seen again changes nothing
    table.observe("a", "a:1", 5, 100, true);
    assertEquals(7, table.heat("a"));
    // a newer heartbeat replaces transfers and clears grants
    table.observe("a", "a:1", 3, 200, true);
    assertEquals(3, table.heat("a"));
    assertEquals(0, table.outstandingGrants());
    assertEquals(2, table.grantsTotal());
  }

  @Test
  void aRowAnswersAndGrantsWithoutAnotherLookup() {
    HeatTable.Row a = table.observeRow("a", "a:1", 5, 100, true);
    clock.addAndGet(7);
    table.grant(a);
    assertEquals(6, a.heat());
    assertEquals(6, table.heat("a"));
    assertEquals(clock.get(), a.lastSelectedNanos());
    assertEquals(1, table.outstandingGrants());
    assertEquals(null, table.observeRow("b", "b:1", 0, 100, false), "dead: no row");

    table.forget("a");
    table.grant(a); // a row held across a forget: counted in the total, not in the sums
    assertEquals(0, table.outstandingGrants());
    assertEquals(2, table.grantsTotal());
    assertEquals(5, table.observeRow("a", "a:1", 5, 100, true).heat(),
        "tracked afresh, without the old row's grants");
  }

  @Test
  void missingHeartbeatsLetGrantsAccumulate() {
    table.observe("a", "a:1", 0, 100, true);
    for (int i = 0; i < 10; i++) {
      table.grant("a");
      table.observe("a", "a:1", 0, 100, true);
    }
    assertEquals(10, table.heat("a"));
  }

  @Test
  void unknownNodesAreCoolAndNeverSelected() {
    assertEquals(0, table.heat("nobody"));
    assertEquals(Long.MIN_VALUE, table.lastSelectedNanos("nobody"));
    table.grant("nobody"); // not tracked: counted in the total only
    assertEquals(0, table.trackedNodes());
    assertEquals(1, table.grantsTotal());
  }

  @Test
  void lastSelectedFollowsGrants() {
    table.observe("a", "a:1", 0, 1, true);
    table.observe("b", "b:1", 0, 1, true);
    table.grant("a");
    clock.addAndGet(10);
    table.grant("b");
    assertTrue(table.lastSelectedNanos("a") < table.lastSelectedNanos("b"));
  }

  @Test
  void meanIsOverTrackedNodes() {
    table.observe("a", "a:1", 4, 1, true);
    table.observe("b", "b:1", 0, 1, true);
    table.grant("b");
    table.grant("b");
    assertEquals(3.0, table.meanHeat(), 1e-9);
  }

  @Test
  void deadNodesAreForgottenAndTheirHeatLeavesTheMean() {
    table.observe("a", "a:1", 4, 1, true);
    table.observe("b", "b:1", 2, 1, true);
    table.grant("b");
    table.observe("b", "b:1", 2, 1, false);
    assertEquals(1, table.trackedNodes());
    assertEquals(4.0, table.meanHeat(), 1e-9);
    assertEquals(0, table.outstandingGrants());
  }

  @Test
  void nodesNotSeenForAWhileAreForgotten() {
    table.observe("old", "old:1", 1, 1, true);
    clock.addAndGet(Duration.ofSeconds(61).toNanos());
    table.observe("new", "new:1", 1, 1, true);
    clock.addAndGet(Duration.ofSeconds(16).toNanos());
    table.observe("new", "new:1", 1, 2, true); // a sweep runs at most every forgetAfter/4
    assertEquals(List.of("new"), table.snapshot().stream().map(NodeHeat::nodeId).toList());
  }

  @Test
  void sizeIsBounded() {
    for (int i = 0; i < 10; i++) {
      table.observe("n" + i, "n" + i, 0, 1, true);
    }
    assertEquals(4, table.trackedNodes());
    assertEquals(0, table.heat("n9"));
  }

  @Test
  void snapshotIsHottestFirst() {
    table.observe("a", "a:1", 1, 1, true);
    table.observe("b", "b:1", 3, 1, true);
    table.grant("a");
    List<NodeHeat> rows = table.snapshot();
    assertEquals("b", rows.get(0).nodeId());
    assertEquals(new NodeHeat("a", "a:1", 1, 1, 0, 0), rows.get(1));
  }

  @Test
  void aRowSaysHowOldItsHeartbeatIs() {
    table.observe("a", "a:1", 5, 1, true);
    table.grant("a");
    clock.addAndGet(15_000_000_000L); // 15 s without anyone looking at the node
    NodeHeat row = table.snapshot().get(0);
    assertEquals(6, row.heat(), "the state as last seen");
    assertEquals(15_000, row.heartbeatAgeMillis(), "and how old it is");
    table.observe("a", "a:1", 0, 2, true); // a newer heartbeat
    assertEquals(new NodeHeat("a", "a:1", 0, 0, 15_000, 0), table.snapshot().get(0));
  }

  @Test
  void builderRejectsNonsense() {
    assertThrows(IllegalArgumentException.class, () -> HeatTable.builder().maxNodes(0));
    assertThrows(IllegalArgumentException.class,
        () -> HeatTable.builder().forgetAfter(Duration.ZERO));
  }

  @Test
  void concurrentGrantsAndHeartbeatsKeepSumsExact() throws Exception {
    HeatTable h = HeatTable.builder().build();
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

  @Test
  void maxNodesIsAHardCapUnderConcurrentInserts() throws Exception {
    // Sweeps keep emptying the table (the clock runs past forgetAfter), so it fills up again
    // and again with 8 threads racing for the last places.
    int cap = 50;
    HeatTable h = HeatTable.builder().maxNodes(cap).nanoClock(clock::get)
        .forgetAfter(Duration.ofNanos(400)).build();
    int threads = 8;
    CountDownLatch go = new CountDownLatch(1);
    AtomicInteger mostSeen = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      fs.add(pool.submit(() -> {
        go.await();
        for (int i = 0; i < 100_000; i++) {
          String node = "t" + id + "-n" + (i % 5_000);
          h.observe(node, node, 1, clock.incrementAndGet(), true);
          mostSeen.accumulateAndGet(h.trackedNodes(), Math::max);
        }
        return null;
      }));
    }
    go.countDown();
    for (Future<?> f : fs) {
      f.get();
    }
    pool.shutdown();
    assertTrue(mostSeen.get() <= cap, "tracked " + mostSeen.get() + " nodes under a cap of " + cap);
    List<NodeHeat> rows = h.snapshot();
    assertEquals(rows.size(), h.trackedNodes());
    assertEquals(rows.stream().mapToLong(NodeHeat::heat).sum(), h.meanHeat() * rows.size(),
        1e-6, "the sums count exactly the tracked nodes");
  }

  @Test
  void aFullTableOfLiveNodesDoesNotSweepForEveryNewNode() {
    AtomicInteger clockReads = new AtomicInteger();
    HeatTable h = HeatTable.builder().maxNodes(2).forgetAfter(Duration.ofSeconds(60))
        .nanoClock(() -> {
          clockReads.incrementAndGet();
          return clock.get();
        }).build();
    h.observe("a", "a", 0, 1, true);
    h.observe("b", "b", 0, 1, true);
    int before = clockReads.get();
    for (int i = 0; i < 100; i++) {
      h.observe("c" + i, "c", 0, 1, true); // not tracked: the table is full of live nodes
    }
    assertEquals(2, h.trackedNodes());
    // one clock read per refused node (to see whether a sweep is due), no sweep of its own
    assertEquals(100, clockReads.get() - before);
  }

  @Test
  void retainOnlyForgetsNodesTheNameNodeNoLongerHasButKeepsNewcomers() {
    table.observe("a", "a:1", 4, 1, true);
    table.observe("dead", "dead:1", 8, 1, true);
    long walkStart = table.clockNanos();
    clock.addAndGet(1);
    table.observe("joined", "joined:1", 0, 1, true); // registered while the walk ran
    table.retainOnly(Set.of("a"), walkStart);
    assertEquals(Set.of("a", "joined"),
        Set.copyOf(table.snapshot().stream().map(NodeHeat::nodeId).toList()));
    assertEquals(2.0, table.meanHeat(), 1e-9, "the dead node's 8 transfers left the mean");
  }

  @Test
  void sweepsRacingHeartbeatsKeepSumsAndSizeExact() throws Exception {
    // The clock jumps past forgetAfter all the time, so sweeps keep retiring entries that
    // other threads are refreshing, granting and re-creating.
    HeatTable h = HeatTable.builder().nanoClock(clock::get).forgetAfter(Duration.ofNanos(1000))
        .maxNodes(8).build();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      fs.add(pool.submit(() -> {
        for (int i = 1; i <= 50_000; i++) {
          String node = "n" + (i % 12);
          clock.addAndGet(700);
          h.observe(node, node, i % 5, clock.get(), true);
          h.grant(node);
        }
      }));
    }
    for (Future<?> f : fs) {
      f.get();
    }
    pool.shutdown();
    List<NodeHeat> rows = h.snapshot();
    assertTrue(rows.size() <= 8);
    assertEquals(rows.size(), h.trackedNodes());
    assertEquals(rows.stream().mapToLong(NodeHeat::grantsSinceHeartbeat).sum(),
        h.outstandingGrants());
    assertEquals(rows.stream().mapToLong(NodeHeat::heat).sum(),
        h.meanHeat() * rows.size(), 1e-6);
  }
}
