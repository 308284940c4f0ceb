package org.opass.read.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.function.LongSupplier;

/**
 * What a {@link ReadPlanTable} answers the NameNode's replica sort from: reader → holders key
 * → the slot of planned reads that share that key, and the planned reads not served yet per
 * serving DataNode. Split out of the table so that the lock-free path of every
 * {@code getBlockLocations} sits apart from the bounded bookkeeping ({@link LivePlans}).
 *
 * <p>Thread-safe. {@link #claimFor} and {@link #take} take no lock and change no structure:
 * they read one slot, skip parts of expired or removed plans and claim the next planned read
 * with a CAS. {@link #link} and {@link #unlink} run under the table's lock and replace only
 * one plan's slots (copy-on-write), never all live plans'.
 */
final class PlanSlots {
  /** Value of a part's claim counter once it is closed; takes past it find nothing. */
  private static final int CLOSED = Integer.MAX_VALUE / 2;

  /** reader -> holders key -> slot. Slots are immutable; writers replace them under lock. */
  private final ConcurrentHashMap<String, ConcurrentHashMap<Long, Slot>> index =
      new ConcurrentHashMap<>();
  /** Planned reads not served yet, by serving DataNode; absent means 0. */
  private final ConcurrentHashMap<String, Integer> outstanding = new ConcurrentHashMap<>();

  /** True when no plan is linked. */
  boolean isEmpty() {
    return index.isEmpty();
  }

  /** True if {@code reader} may have a live plan. */
  boolean hasReader(String reader) {
    return index.containsKey(reader);
  }

  /**
   * The planned read {@code reader}'s chunk held by the holders with {@code holdersKey} would
   * take next, taking nothing yet; null when no live plan covers it. Reads {@code clock} only
   * when a slot has the key.
   */
  ReadPlanTable.Claim claimFor(String reader, long holdersKey, LongSupplier clock) {
    Map<Long, Slot> byHolders = index.get(reader);
    if (byHolders == null) {
      return null;
    }
    Slot slot = byHolders.get(holdersKey);
    return slot == null ? null : peek(slot, clock.getAsLong());
  }

  /**
   * Counts {@code claim} as served. False if another read took that planned read first (then
   * nothing is counted); a pick among plans already served in full always succeeds.
   */
  boolean take(ReadPlanTable.Claim claim) {
    if (claim.part == null) {
      Slot.CYCLE.incrementAndGet(claim.slot);
      return true;
    }
    if (!Part.TAKEN.compareAndSet(claim.part, claim.index, claim.index + 1)) {
      return false;
    }
    claim.part.plan.served.incrementAndGet();
    outstanding.computeIfPresent(claim.server(), (dn, n) -> n == 1 ? null : n - 1);
    return true;
  }

  // Planned reads of live parts in plan order; once all are served, round-robin over them.
  private static ReadPlanTable.Claim peek(Slot slot, long now) {
    int live = 0;
    for (Part p : slot.parts) {
      if (!p.plan.liveAt(now)) {
        continue;
      }
      int i = p.taken;
      if (i < p.servers.length) {
        return new ReadPlanTable.Claim(slot, p, i, p.servers[i]);
      }
      live += p.servers.length;
    }
    if (live == 0) {
      return null;
    }
    long c = Math.floorMod(slot.cycle, (long) live);
    for (Part p : slot.parts) {
      if (p.plan.liveAt(now)) {
        if (c < p.servers.length) {
          return new ReadPlanTable.Claim(slot, null, 0, p.servers[(int) c]);
        }
        c -= p.servers.length;
      }
    }
    return null; // a plan expired between the two passes
  }

  /** Planned reads not yet served, by serving DataNode, over every linked plan. */
  Map<String, Integer> outstanding() {
    return Collections.unmodifiableMap(new HashMap<>(outstanding));
  }

  /** Makes {@code plan}'s reads findable; under the table's lock. */
  void link(StoredPlan plan) {
    for (Part part : plan.parts) {
      for (String server : part.servers) {
        outstanding.merge(server, 1, Integer::sum);
      }
      index.computeIfAbsent(part.reader, r -> new ConcurrentHashMap<>())
          .merge(part.holdersKey, new Slot(new Part[] {part}), (old, one) -> old.with(part));
    }
  }

  /** Takes {@code plan}'s reads out, after it was marked removed; under the table's lock. */
  void unlink(StoredPlan plan) {
    for (Part part : plan.parts) {
      // Close the part: claims after this find nothing; a claim made before it is served
      // and was (or will be) taken off outstanding by the claimer.
      int from = Math.min(Part.TAKEN.getAndSet(part, CLOSED), part.servers.length);
      for (int i = from; i < part.servers.length; i++) {
        outstanding.computeIfPresent(part.servers[i], (dn, n) -> n == 1 ? null : n - 1);
      }
      index.computeIfPresent(part.reader, (r, byKey) -> {
        byKey.computeIfPresent(part.holdersKey, (k, slot) -> slot.without(part));
        return byKey.isEmpty() ? null : byKey;
      });
    }
  }

  /** One plan's reads of one (reader, holders) key. */
  static final class Part {
    // field updaters rather than atomics: one object less per planned (reader, holders)
    static final AtomicIntegerFieldUpdater<Part> TAKEN =
        AtomicIntegerFieldUpdater.newUpdater(Part.class, "taken");
    final StoredPlan plan;
    final String reader;
    final long holdersKey;
    final String[] servers;
    /** Planned reads claimed so far ({@link #CLOSED} once the plan is gone). */
    volatile int taken;

    Part(StoredPlan plan, String reader, long holdersKey, String[] servers) {
      this.plan = plan;
      this.reader = reader;
      this.holdersKey = holdersKey;
      this.servers = servers;
    }
  }

  /** The parts of every plan sharing a key, in plan order. Immutable but for the cycle. */
  static final class Slot {
    static final AtomicLongFieldUpdater<Slot> CYCLE =
        AtomicLongFieldUpdater.newUpdater(Slot.class, "cycle");
    final Part[] parts;
    volatile long cycle;

    Slot(Part[] parts) {
      this.parts = parts;
    }

    Slot with(Part p) {
      Part[] more = Arrays.copyOf(parts, parts.length + 1);
      more[parts.length] = p;
      return new Slot(more);
    }

    /** This slot without {@code p}, or null if nothing is left. */
    Slot without(Part p) {
      List<Part> rest = new ArrayList<>(parts.length);
      for (Part q : parts) {
        if (q != p) {
          rest.add(q);
        }
      }
      return rest.isEmpty() ? null : new Slot(rest.toArray(new Part[0]));
    }
  }
}
