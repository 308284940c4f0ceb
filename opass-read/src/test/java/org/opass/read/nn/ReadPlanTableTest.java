package org.opass.read.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.opass.read.nn.ReadPlanTable.PlannedRead;
import org.opass.read.wire.PlanWire;

class ReadPlanTableTest {
  private final AtomicLong now = new AtomicLong(1000);

  private ReadPlanTable plans(int maxReads) {
    return new ReadPlanTable(ReadPlanTable.Limits.builder().maxReads(maxReads).maxReadsPerUser(maxReads)
        .ttlMillis(500).build(), now::get);
  }

  private static PlannedRead read(String reader, String server, String... holders) {
    return new PlannedRead(reader, List.of(holders), server);
  }

  private static long key(String... holders) {
    return ReadPlanTable.holdersKey(holders);
  }

  @Test
  void aPlannedReadIsServedByItsServerWhateverTheHolderOrder() throws Exception {
    ReadPlanTable p = plans(10);
    assertTrue(p.isEmpty());
    p.add("alice", List.of(read("10.0.0.1", "b", "a", "b", "c")));
    assertFalse(p.isEmpty());
    assertEquals("b", p.serverFor("10.0.0.1", key("c", "b", "a")));
    // served once: it keeps being served by b (clients locate a block again)
    assertEquals("b", p.serverFor("10.0.0.1", key("a", "c", "b")));
    assertNull(p.serverFor("10.0.0.2", key("a", "b", "c")), "other reader");
    assertNull(p.serverFor("10.0.0.1", key("a", "b", "d")), "other holders");
    assertNull(p.serverFor("10.0.0.1", key("a", "b")), "a subset of the holders");
  }

  @Test
  void readsSharingReaderAndHoldersServeTheirServersInTurnThenRoundRobin() throws Exception {
    ReadPlanTable p = plans(10);
    p.add("alice", List.of(read("r", "a", "a", "b", "c"), read("r", "c", "a", "b", "c")));
    p.add("bob", List.of(read("r", "b", "a", "b", "c")));
    long key = key("a", "b", "c");
    assertEquals(Map.of("a", 1, "b", 1, "c", 1), p.outstanding());
    List<String> served = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      served.add(p.serverFor("r", key));
    }
    assertEquals(List.of("a", "c", "b", "a", "c", "b"), served);
    assertEquals(Map.of(), p.outstanding());
    assertEquals(2, p.plans().get(0).served());
  }

  /** What the topology does across a sort that may be HDFS's repeat of a file's last block. */
  @Test
  void aClaimIsTakenOnlyWhenTakenAndOnlyOnce() throws Exception {
    ReadPlanTable p = plans(10);
    p.add("alice", List.of(read("r", "a", "a", "b", "c"), read("r", "c", "a", "b", "c")));
    long key = key("a", "b", "c");
    ReadPlanTable.Claim first = p.claimFor("r", key);
    assertEquals("a", first.server());
    assertEquals("a", p.claimFor("r", key).server(), "finding a claim takes nothing");
    assertEquals(Map.of("a", 1, "c", 1), p.outstanding());
    ReadPlanTable.Claim same = p.claimFor("r", key);
    assertTrue(p.take(first));
    assertFalse(p.take(same), "a claim another read took first counts nothing");
    assertEquals(1, p.plans().get(0).served());
    assertEquals(Map.of("c", 1), p.outstanding());
    assertEquals("c", p.claimFor("r", key).server());
    assertEquals("c", p.serverFor("r", key));
    // every planned read served: round-robin, each pick taken
    assertEquals("a", p.serverFor("r", key));
    assertEquals("c", p.serverFor("r", key));
    assertEquals(2, p.plans().get(0).served());
  }

  /** An observer's copy of the active's plan keeps the active's id; ids are not guessable. */
  @Test
  void aCopyKeepsItsIdAndNoIdIsHeldTwice() throws Exception {
    ReadPlanTable p = plans(10);
    String own = p.add("alice", List.of(read("r", "a", "a", "b"))).id();
    assertTrue(PlanWire.PLAN_ID.matcher(own).matches(), own);
    assertEquals("plan-x-7", p.add("bob", List.of(read("r", "b", "a", "b")), "plan-x-7").id());
    ReadPlanTable.IdInUseException inUse = assertThrows(ReadPlanTable.IdInUseException.class,
        () -> p.add("carol", List.of(read("r", "b", "a", "b")), "plan-x-7"));
    assertTrue(inUse.getMessage().contains("plan-x-7"), inUse.getMessage());
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      ids.add(p.add("dave", List.of(read("r", "a", "a", "b"))).id());
    }
    assertEquals(5, ids.size());
    String prefix = own.substring(0, own.lastIndexOf('-') + 1);
    assertFalse(ids.contains(prefix + (Long.parseLong(own.substring(prefix.length())) + 1)),
        "not numbered in turn: " + own + ", " + ids);
  }

  @Test
  void plansExpireAfterTheirTtl() throws Exception {
    ReadPlanTable p = plans(10);
    p.add("alice", List.of(read("r", "a", "a", "b")));
    now.addAndGet(499);
    assertEquals("a", p.serverFor("r", key("a", "b")));
    now.addAndGet(1);
    assertNull(p.serverFor("r", key("a", "b")));
    assertEquals(1, p.expire());
    assertTrue(p.isEmpty());
    assertEquals(0, p.plannedReads());
  }

  @Test
  void anExpiredPlanIsNotServedAfterAListingOrASubmission() throws Exception {
    ReadPlanTable p = plans(10);
    p.add("alice", List.of(read("r", "a", "a", "b"), read("r", "a", "a", "b")));
    now.addAndGet(1000); // past its expiry
    assertEquals(List.of(), p.plans(), "a listing drops it");
    assertNull(p.serverFor("r", key("a", "b")), "and it serves nothing more");
    p.add("bob", List.of(read("s", "b", "a", "b")));
    assertNull(p.serverFor("r", key("a", "b")));
    assertEquals("b", p.serverFor("s", key("a", "b")));
    assertEquals(Map.of(), p.outstanding());
  }

  @Test
  void anEmptyPlanIsRefused() {
    ReadPlanTable p = plans(10);
    assertThrows(IllegalArgumentException.class, () -> p.add("alice", List.of()));
    assertEquals(0, p.plans().size());
  }

  @Test
  void memoryIsBoundedFinishedPlansAreEvictedFirst() throws Exception {
    ReadPlanTable p = plans(3);
    ReadPlanTable.PlanInfo first = p.add("alice", List.of(read("r", "a", "a", "b"),
        read("r", "b", "b", "c")));
    ReadPlanTable.PlanLimitException e = assertThrows(ReadPlanTable.PlanLimitException.class,
        () -> p.add("bob", List.of(read("s", "a", "a", "b"), read("s", "b", "a", "b"))));
    assertTrue(e.getMessage().contains(ReadBalanceKeys.PLAN_MAX_READS), e.getMessage());
    assertFalse(e.userLimit());
    // alice's plan served in full: it gives way
    p.serverFor("r", key("a", "b"));
    p.serverFor("r", key("b", "c"));
    p.add("bob", List.of(read("s", "a", "a", "b"), read("s", "b", "a", "b")));
    assertNull(p.owner(first.id()));
    assertEquals(2, p.plannedReads());
  }

  @Test
  void oneUserAtItsCapDoesNotStopAnother() throws Exception {
    ReadPlanTable p = new ReadPlanTable(ReadPlanTable.Limits.builder().maxReads(100).ttlMillis(500)
        .maxPlansPerUser(3).build(), now::get); // a user may keep a quarter: 25 reads
    List<PlannedRead> big = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      big.add(read("r", "a", "a", "b"));
    }
    p.add("mallory", big);
    ReadPlanTable.PlanLimitException more = assertThrows(ReadPlanTable.PlanLimitException.class,
        () -> p.add("mallory", List.of(read("r", "a", "a", "b"))));
    assertTrue(more.userLimit());
    assertTrue(more.getMessage().contains(ReadBalanceKeys.PLAN_MAX_READS_PER_USER)
        && more.getMessage().contains("mallory"), more.getMessage());
    assertThrows(ReadPlanTable.PlanLimitException.class, () -> p.room("mallory"));
    assertEquals(25, p.room("alice"));
    p.add("alice", big);
    p.add("bob", List.of(read("s", "b", "a", "b")));
    // live plans per user too
    p.add("bob", List.of(read("s", "b", "a", "b")));
    p.add("bob", List.of(read("s", "b", "a", "b")));
    assertTrue(assertThrows(ReadPlanTable.PlanLimitException.class,
        () -> p.add("bob", List.of(read("s", "b", "a", "b")))).userLimit());
    assertEquals(List.of("mallory", "alice", "bob", "bob", "bob"),
        p.plans().stream().map(ReadPlanTable.PlanInfo::owner).toList());
  }

  @Test
  void aUsersOwnFinishedPlansGiveWayWhenItsCapIsReached() throws Exception {
    ReadPlanTable p = new ReadPlanTable(ReadPlanTable.Limits.builder().maxReads(100).maxReadsPerUser(2)
        .ttlMillis(500).build(), now::get);
    String first = p.add("alice", List.of(read("r", "a", "a", "b"), read("r", "b", "a", "b")))
        .id();
    p.add("bob", List.of(read("s", "a", "a", "b"))); // unfinished, someone else's: stays
    p.serverFor("r", key("a", "b"));
    p.serverFor("r", key("a", "b"));
    p.add("alice", List.of(read("r", "a", "a", "b")));
    assertNull(p.owner(first));
    assertEquals(List.of("bob", "alice"),
        p.plans().stream().map(ReadPlanTable.PlanInfo::owner).toList());
  }

  @Test
  void removeDropsOnlyThatPlan() throws Exception {
    ReadPlanTable p = plans(10);
    String a = p.add("alice", List.of(read("r", "a", "a", "b"))).id();
    p.add("bob", List.of(read("s", "b", "a", "b")));
    assertEquals("alice", p.owner(a));
    assertTrue(p.remove(a));
    assertFalse(p.remove(a));
    assertNull(p.serverFor("r", key("a", "b")));
    assertEquals("b", p.serverFor("s", key("a", "b")));
    assertEquals(List.of("bob"), p.plans("bob").stream().map(ReadPlanTable.PlanInfo::owner).toList());
    assertEquals(List.of(), p.plans("alice"));
  }

  @Test
  void aServerMustHoldAReplica() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> read("r", "z", "a", "b"));
    assertTrue(e.getMessage().contains("z"));
  }

  @Test
  void expiryNeverRunsOnTheLookupThread() throws Exception {
    // A million planned reads live; when they expire, a lookup finds nothing for them and
    // returns, leaving the unlinking (proportional to the plan) to expire(), which the plugin
    // runs on a thread of its own.
    ReadPlanTable p = new ReadPlanTable(ReadPlanTable.Limits.builder().maxReads(1 << 21)
        .maxReadsPerUser(1 << 21).ttlMillis(500).build(), now::get);
    List<PlannedRead> million = new ArrayList<>(1_000_000);
    for (int reader = 0; reader < 1000; reader++) {
      for (int i = 0; i < 1000; i++) {
        million.add(read("10.1." + reader / 256 + "." + reader % 256, "dn" + i % 3,
            "dn0", "dn1", "dn2"));
      }
    }
    p.add("alice", million);
    now.addAndGet(300);
    p.add("bob", List.of(read("10.9.9.9", "dn1", "dn0", "dn1", "dn2")));
    assertEquals(1_000_001, p.plannedReads());
    now.addAndGet(200); // alice's plan expires, bob's lives on
    for (int reader = 0; reader < 1000; reader += 37) {
      assertNull(p.serverFor("10.1." + reader / 256 + "." + reader % 256,
          key("dn0", "dn1", "dn2")));
    }
    assertEquals("dn1", p.serverFor("10.9.9.9", key("dn0", "dn1", "dn2")));
    assertEquals(1_000_001, p.plannedReads(), "lookups unlinked nothing");
    assertEquals(1, p.expire());
    assertEquals(1, p.plannedReads());
    assertEquals(Map.of(), p.outstanding());
  }

  @Test
  void concurrentReadersGetEachPlannedServerExactlyOnce() throws Exception {
    ReadPlanTable p = plans(1000);
    List<PlannedRead> reads = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      reads.add(read("r", "dn" + (i % 4), "dn0", "dn1", "dn2", "dn3"));
    }
    p.add("alice", reads);
    long key = key("dn0", "dn1", "dn2", "dn3");
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

  @Test
  void outstandingStaysExactWhilePlansAreServedAndRemovedConcurrently() throws Exception {
    ReadPlanTable p = new ReadPlanTable(ReadPlanTable.Limits.builder().maxReads(1 << 20)
        .maxReadsPerUser(1 << 20).maxPlans(10_000).maxPlansPerUser(10_000).ttlMillis(1 << 30)
        .build(), now::get);
    long key = key("dn0", "dn1", "dn2");
    ExecutorService pool = Executors.newFixedThreadPool(6);
    List<Future<?>> fs = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      fs.add(pool.submit(() -> {
        for (int i = 0; i < 50_000; i++) {
          p.serverFor("r", key);
        }
      }));
    }
    fs.add(pool.submit(() -> {
      for (int round = 0; round < 300; round++) {
        List<PlannedRead> reads = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          reads.add(read("r", "dn" + i % 3, "dn0", "dn1", "dn2"));
        }
        String id = p.add("u" + round % 7, reads).id();
        if (round % 3 != 0) {
          p.remove(id);
        }
      }
      return null;
    }));
    for (Future<?> f : fs) {
      f.get();
    }
    pool.shutdown();
    Map<String, Integer> expected = new HashMap<>();
    for (ReadPlanTable.PlanInfo info : p.plans()) {
      int left = info.reads() - info.served();
      // each plan's reads are dn0, dn1, dn2 in turn, served in that order
      for (int i = info.served(); i < info.reads(); i++) {
        expected.merge("dn" + i % 3, 1, Integer::sum);
      }
      assertTrue(left >= 0);
    }
    assertEquals(expected, p.outstanding());
  }
}
