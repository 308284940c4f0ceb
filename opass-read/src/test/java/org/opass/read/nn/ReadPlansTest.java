package org.opass.read.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.opass.read.nn.ReadPlans.PlannedRead;

class ReadPlansTest {
  private final AtomicLong now = new AtomicLong(1000);

  private ReadPlans plans(int maxReads) {
    return new ReadPlans(maxReads, 500, now::get);
  }

  private static PlannedRead read(String reader, String server, String... holders) {
    return new PlannedRead(reader, List.of(holders), server);
  }

  @Test
  void aPlannedReadIsServedByItsServerWhateverTheHolderOrder() throws Exception {
    ReadPlans p = plans(10);
    assertTrue(p.isEmpty());
    p.add("alice", List.of(read("10.0.0.1", "b", "a", "b", "c")));
    assertFalse(p.isEmpty());
    assertEquals("b", p.serverFor("10.0.0.1", ReadPlans.holdersKey("c", "b", "a")));
    // served once: it keeps being served by b (clients locate a block again)
    assertEquals("b", p.serverFor("10.0.0.1", ReadPlans.holdersKey("a", "c", "b")));
    assertNull(p.serverFor("10.0.0.2", ReadPlans.holdersKey("a", "b", "c")), "other reader");
    assertNull(p.serverFor("10.0.0.1", ReadPlans.holdersKey("a", "b", "d")), "other holders");
  }

  @Test
  void readsSharingReaderAndHoldersServeTheirServersInTurnThenRoundRobin() throws Exception {
    ReadPlans p = plans(10);
    p.add("alice", List.of(read("r", "a", "a", "b", "c"), read("r", "c", "a", "b", "c")));
    p.add("bob", List.of(read("r", "b", "a", "b", "c")));
    String key = ReadPlans.holdersKey("a", "b", "c");
    assertEquals(Map.of("a", 1, "b", 1, "c", 1), p.outstanding());
    List<String> served = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      served.add(p.serverFor("r", key));
    }
    assertEquals(List.of("a", "c", "b", "a", "c", "b"), served);
    assertEquals(Map.of(), p.outstanding());
    assertEquals(2, p.plans().get(0).served());
  }

  @Test
  void plansExpireAfterTheirTtl() throws Exception {
    ReadPlans p = plans(10);
    p.add("alice", List.of(read("r", "a", "a", "b")));
    now.addAndGet(499);
    assertEquals("a", p.serverFor("r", ReadPlans.holdersKey("a", "b")));
    now.addAndGet(1);
    assertNull(p.serverFor("r", ReadPlans.holdersKey("a", "b")));
    assertTrue(p.isEmpty());
    assertEquals(0, p.plannedReads());
  }

  @Test
  void memoryIsBoundedFinishedPlansAreEvictedFirst() throws Exception {
    ReadPlans p = plans(3);
    ReadPlans.PlanInfo first = p.add("alice", List.of(read("r", "a", "a", "b"),
        read("r", "b", "b", "c")));
    ReadPlans.PlanLimitException e = assertThrows(ReadPlans.PlanLimitException.class,
        () -> p.add("bob", List.of(read("s", "a", "a", "b"), read("s", "b", "a", "b"))));
    assertTrue(e.getMessage().contains(ReadBalanceKeys.PLAN_MAX_READS), e.getMessage());
    assertThrows(ReadPlans.PlanLimitException.class, () -> p.add("bob",
        List.of(read("s", "a", "a"), read("s", "a", "a"), read("s", "a", "a"),
            read("s", "a", "a"))));
    // alice's plan served in full: it gives way
    p.serverFor("r", ReadPlans.holdersKey("a", "b"));
    p.serverFor("r", ReadPlans.holdersKey("b", "c"));
    p.add("bob", List.of(read("s", "a", "a", "b"), read("s", "b", "a", "b")));
    assertNull(p.owner(first.id()));
    assertEquals(2, p.plannedReads());
  }

  @Test
  void removeDropsOnlyThatPlan() throws Exception {
    ReadPlans p = plans(10);
    String a = p.add("alice", List.of(read("r", "a", "a", "b"))).id();
    p.add("bob", List.of(read("s", "b", "a", "b")));
    assertEquals("alice", p.owner(a));
    assertTrue(p.remove(a));
    assertFalse(p.remove(a));
    assertNull(p.serverFor("r", ReadPlans.holdersKey("a", "b")));
    assertEquals("b", p.serverFor("s", ReadPlans.holdersKey("a", "b")));
  }

  @Test
  void aServerMustHoldAReplica() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> read("r", "z", "a", "b"));
    assertTrue(e.getMessage().contains("z"));
  }

  @Test
  void concurrentReadersGetEachPlannedServerExactlyOnce() throws Exception {
    ReadPlans p = plans(1000);
    List<PlannedRead> reads = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      reads.add(read("r", "dn" + (i % 4), "dn0", "dn1", "dn2", "dn3"));
    }
    p.add("alice", reads);
    String key = ReadPlans.holdersKey("dn0", "dn1", "dn2", "dn3");
    Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    for (int t = 0; t < 8; t++) {
      pool.submit(() -> {
        for (int i = 0; i < 50; i++) {
          counts.computeIfAbsent(p.serverFor("r", key), k -> new AtomicInteger())
              .incrementAndGet();
        }
      });
    }
    pool.shutdown();
    assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
    for (int d = 0; d < 4; d++) {
      assertEquals(100, counts.get("dn" + d).get());
    }
  }
}
