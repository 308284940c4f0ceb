package org.opass.read.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The NameNode's table of submitted read plans: which DataNode serves a planned reader's
 * chunk. Pure Java (DataNodes and readers are strings), thread-safe, bounded.
 *
 * <h2>How a read finds its plan</h2>
 * The NameNode's replica sort sees the reader and the block's replica holders, not the block.
 * A planned read is therefore keyed by (reader, set of holders). Reads of one reader whose
 * chunks have the same holders are interchangeable for balancing, so they share a slot that
 * serves its planned DataNodes in turn; once every planned read of a slot has been served,
 * it keeps serving them round-robin (clients locate blocks again after a failure or a seek).
 * A DataNode that joins or leaves a block's holders changes the key, and that read falls back
 * to online balancing, which is what should happen. A different file of the same reader whose
 * block has exactly the same holders is served by the plan too: still one of its replicas.
 *
 * <h2>Bounds</h2>
 * At most {@code maxReads} planned reads are kept over all plans; a plan lives {@code ttl}
 * milliseconds. A submission that does not fit first evicts finished plans (every read
 * served), oldest first, then is refused. Lookups are lock-free on an index rebuilt on every
 * change of the plan set; changes are rare (one per submission, removal or expiry).
 */
public final class ReadPlans {

  /**
   * One planned chunk read.
   *
   * @param reader  the reader's address as the NameNode sees it (IP address)
   * @param holders ids of the DataNodes holding the chunk when it was planned
   * @param server  the id of the holder that serves it
   */
  public record PlannedRead(String reader, Collection<String> holders, String server) {
    public PlannedRead {
      if (reader == null || holders == null || server == null) {
        throw new IllegalArgumentException("planned read with a null field");
      }
      if (!holders.contains(server)) {
        throw new IllegalArgumentException("planned server " + server + " holds no replica: "
            + holders);
      }
    }
  }

  /** What a plan is now: id, owner, times (clock millis), planned and served reads. */
  public record PlanInfo(String id, String owner, long createdMillis, long expiresMillis,
      int reads, int served) {
  }

  /** A submission does not fit under {@code maxReads}. */
  public static final class PlanLimitException extends Exception {
    PlanLimitException(String message) {
      super(message);
    }
  }

  private final int maxReads;
  private final long ttlMillis;
  private final LongSupplier clock;
  private final AtomicLong ids = new AtomicLong();

  private final Object lock = new Object();
  /** Live plans in submission order; guarded by {@link #lock}. */
  private final LinkedHashMap<String, Plan> plans = new LinkedHashMap<>();
  private int plannedReads;

  /** reader -> holders key -> slot; replaced, never mutated, after construction. */
  private volatile Map<String, Map<String, Slot>> index = Map.of();
  private volatile long nextExpiryMillis = Long.MAX_VALUE;

  /**
   * @param maxReads  planned reads kept over all plans, >= 1
   * @param ttlMillis lifetime of a plan, >= 1
   * @param clock     monotonic milliseconds
   */
  public ReadPlans(int maxReads, long ttlMillis, LongSupplier clock) {
    if (maxReads < 1 || ttlMillis < 1 || clock == null) {
      throw new IllegalArgumentException("maxReads and ttlMillis must be >= 1 and clock set");
    }
    this.maxReads = maxReads;
    this.ttlMillis = ttlMillis;
    this.clock = clock;
  }

  /** Canonical key of a holder set: sorted ids joined by commas. */
  public static String holdersKey(String... holderIds) {
    String[] ids = holderIds.clone();
    Arrays.sort(ids);
    return String.join(",", ids);
  }

  /** True when no plan is live: the fast path of every {@code getBlockLocations}. */
  public boolean isEmpty() {
    return index.isEmpty();
  }

  /**
   * Adds a plan.
   *
   * @return the new plan's id
   * @throws PlanLimitException if it does not fit under {@code maxReads}, even after evicting
   *     finished plans
   */
  public PlanInfo add(String owner, List<PlannedRead> reads) throws PlanLimitException {
    if (reads.size() > maxReads) {
      throw new PlanLimitException("a plan of " + reads.size() + " reads exceeds "
          + ReadBalanceKeys.PLAN_MAX_READS + "=" + maxReads + "; split it");
    }
    synchronized (lock) {
      expire();
      for (Iterator<Plan> it = plans.values().iterator();
          it.hasNext() && plannedReads + reads.size() > maxReads; ) {
        Plan p = it.next();
        if (p.served() == p.reads) {
          it.remove();
          plannedReads -= p.reads;
        }
      }
      if (plannedReads + reads.size() > maxReads) {
        throw new PlanLimitException(plannedReads + " planned reads are live and "
            + reads.size() + " more exceed " + ReadBalanceKeys.PLAN_MAX_READS + "=" + maxReads
            + "; wait for plans to expire (" + ReadBalanceKeys.PLAN_TTL + "), delete finished "
            + "plans, or submit a smaller batch");
      }
      long now = clock.getAsLong();
      Plan plan = new Plan("plan-" + ids.incrementAndGet(), owner, now, now + ttlMillis, reads);
      plans.put(plan.id, plan);
      plannedReads += plan.reads;
      rebuild();
      return plan.info();
    }
  }

  /**
   * The DataNode planned to serve {@code reader}'s chunk held by {@code holdersKey}, or null
   * when no live plan covers it.
   */
  public String serverFor(String reader, String holdersKey) {
    if (clock.getAsLong() >= nextExpiryMillis) {
      synchronized (lock) {
        if (expire()) {
          rebuild();
        }
      }
    }
    Map<String, Slot> byHolders = index.get(reader);
    if (byHolders == null) {
      return null;
    }
    Slot slot = byHolders.get(holdersKey);
    return slot == null ? null : slot.next();
  }

  /** True if {@code reader} has a live plan (cheap; lets callers skip building a key). */
  public boolean hasReader(String reader) {
    return index.containsKey(reader);
  }

  /** Planned reads not yet served, by serving DataNode, over every live plan. */
  public Map<String, Integer> outstanding() {
    Map<String, Integer> out = new HashMap<>();
    synchronized (lock) {
      expire();
      for (Plan p : plans.values()) {
        for (Part part : p.parts) {
          long taken = Math.min(part.taken.get(), part.servers.length);
          for (int i = (int) taken; i < part.servers.length; i++) {
            out.merge(part.servers[i], 1, Integer::sum);
          }
        }
      }
    }
    return out;
  }

  /** Removes a plan; false if there is none with that id (or it expired). */
  public boolean remove(String id) {
    synchronized (lock) {
      Plan p = plans.remove(id);
      if (p == null) {
        return false;
      }
      plannedReads -= p.reads;
      expire();
      rebuild();
      return true;
    }
  }

  /** The owner of a live plan, or null. */
  public String owner(String id) {
    synchronized (lock) {
      Plan p = plans.get(id);
      return p == null ? null : p.owner;
    }
  }

  /** Live plans, oldest first. */
  public List<PlanInfo> plans() {
    synchronized (lock) {
      expire();
      List<PlanInfo> out = new ArrayList<>(plans.size());
      for (Plan p : plans.values()) {
        out.add(p.info());
      }
      return out;
    }
  }

  /** Planned reads kept over all live plans. */
  public int plannedReads() {
    synchronized (lock) {
      return plannedReads;
    }
  }

  // Drops expired plans; true if any was dropped. Caller holds the lock.
  private boolean expire() {
    long now = clock.getAsLong();
    boolean dropped = false;
    for (Iterator<Plan> it = plans.values().iterator(); it.hasNext(); ) {
      Plan p = it.next();
      if (now >= p.expiresMillis) {
        it.remove();
        plannedReads -= p.reads;
        dropped = true;
      }
    }
    return dropped;
  }

  // Caller holds the lock.
  private void rebuild() {
    Map<String, Map<String, List<Part>>> parts = new HashMap<>();
    long next = Long.MAX_VALUE;
    for (Plan p : plans.values()) {
      next = Math.min(next, p.expiresMillis);
      for (Part part : p.parts) {
        parts.computeIfAbsent(part.reader, r -> new HashMap<>())
            .computeIfAbsent(part.holdersKey, k -> new ArrayList<>()).add(part);
      }
    }
    Map<String, Map<String, Slot>> built = new HashMap<>();
    parts.forEach((reader, byKey) -> {
      Map<String, Slot> slots = new HashMap<>();
      byKey.forEach((key, list) -> slots.put(key, new Slot(list.toArray(new Part[0]))));
      built.put(reader, slots);
    });
    index = Collections.unmodifiableMap(built);
    nextExpiryMillis = next;
  }

  /** One plan's reads of one (reader, holders) key; {@code taken} survives index rebuilds. */
  private static final class Part {
    final String reader;
    final String holdersKey;
    final String[] servers;
    final AtomicLong taken = new AtomicLong();

    Part(String reader, String holdersKey, String[] servers) {
      this.reader = reader;
      this.holdersKey = holdersKey;
      this.servers = servers;
    }
  }

  /** The parts of every plan sharing a key: served in plan order, then round-robin. */
  private static final class Slot {
    final Part[] parts;
    final String[] all;
    final AtomicLong cycle = new AtomicLong();

    Slot(Part[] parts) {
      this.parts = parts;
      List<String> servers = new ArrayList<>();
      for (Part p : parts) {
        servers.addAll(Arrays.asList(p.servers));
      }
      this.all = servers.toArray(new String[0]);
    }

    String next() {
      for (Part p : parts) {
        if (p.taken.get() < p.servers.length) {
          long i = p.taken.getAndIncrement();
          if (i < p.servers.length) {
            return p.servers[(int) i];
          }
        }
      }
      return all[(int) Math.floorMod(cycle.getAndIncrement(), (long) all.length)];
    }
  }

  private static final class Plan {
    final String id;
    final String owner;
    final long createdMillis;
    final long expiresMillis;
    final int reads;
    final List<Part> parts;

    Plan(String id, String owner, long createdMillis, long expiresMillis,
        List<PlannedRead> reads) {
      this.id = id;
      this.owner = owner;
      this.createdMillis = createdMillis;
      this.expiresMillis = expiresMillis;
      this.reads = reads.size();
      Map<List<String>, List<String>> grouped = new LinkedHashMap<>();
      for (PlannedRead r : reads) {
        String key = holdersKey(r.holders().toArray(new String[0]));
        grouped.computeIfAbsent(List.of(r.reader(), key), k -> new ArrayList<>()).add(r.server());
      }
      List<Part> built = new ArrayList<>(grouped.size());
      grouped.forEach((k, servers) ->
          built.add(new Part(k.get(0), k.get(1), servers.toArray(new String[0]))));
      this.parts = List.copyOf(built);
    }

    int served() {
      int served = 0;
      for (Part p : parts) {
        served += (int) Math.min(p.taken.get(), p.servers.length);
      }
      return served;
    }

    PlanInfo info() {
      return new PlanInfo(id, owner, createdMillis, expiresMillis, reads, served());
    }
  }
}
