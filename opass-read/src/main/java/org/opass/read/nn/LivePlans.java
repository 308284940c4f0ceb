package org.opass.read.nn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plans a {@link ReadPlanTable} keeps and what they count against its
 * {@link ReadPlanTable.Limits}: live plans in submission order (which is expiry order, one
 * ttl), live plans and planned reads per owner and in total, and the rules that keep them
 * within bounds: expiry, eviction of finished plans, and the refusals that name the key to
 * change. Split out of the table so that its bounded bookkeeping sits apart from the lock-free
 * lookups ({@link PlanSlots}), which it keeps in step ({@link #link}, {@link #unlink}).
 *
 * <p>Not thread-safe: the table calls every method under its lock.
 */
final class LivePlans {
  private final ReadPlanTable.Limits limits;
  private final PlanSlots slots;
  /** Live plans in submission order, which is expiry order (one ttl). */
  private final LinkedHashMap<String, StoredPlan> plans = new LinkedHashMap<>();
  /** Per owner: {live plans, live planned reads}. */
  private final Map<String, int[]> usage = new HashMap<>();
  private int plannedReads;

  LivePlans(ReadPlanTable.Limits limits, PlanSlots slots) {
    this.limits = limits;
    this.slots = slots;
  }

  /**
   * How many planned reads {@code owner} may still submit, counting finished plans (which
   * give way) as free: the smaller of the owner's and everyone's room.
   *
   * @throws ReadPlanTable.PlanLimitException when there is no room at all
   */
  int room(String owner) throws ReadPlanTable.PlanLimitException {
    int userPlans = 0;
    int userReads = 0;
    int allPlans = 0;
    int allReads = 0;
    for (StoredPlan p : plans.values()) {
      if (p.finished()) {
        continue;
      }
      allPlans++;
      allReads += p.reads;
      if (p.owner.equals(owner)) {
        userPlans++;
        userReads += p.reads;
      }
    }
    if (userPlans >= limits.maxPlansPerUser || userReads >= limits.maxReadsPerUser) {
      throw userFull(owner, userPlans, userReads, 1);
    }
    if (allPlans >= limits.maxPlans || allReads >= limits.maxReads) {
      throw totalFull(allPlans, allReads, 1);
    }
    return Math.min(limits.maxReadsPerUser - userReads, limits.maxReads - allReads);
  }

  /**
   * Makes room for a plan of {@code n} reads of {@code owner}'s, evicting finished plans
   * (the owner's own when its per-user limit is what is exceeded), oldest first.
   *
   * @throws ReadPlanTable.PlanLimitException if it does not fit even then
   */
  void makeRoom(String owner, int n) throws ReadPlanTable.PlanLimitException {
    if (!userFits(owner, n)) {
      evictFinished(owner, n);
      if (!userFits(owner, n)) {
        int[] u = usage.get(owner);
        throw userFull(owner, u[0], u[1], n);
      }
    }
    if (!totalFits(n)) {
      evictFinished(null, n);
      if (!totalFits(n)) {
        throw totalFull(plans.size(), plannedReads, n);
      }
    }
  }

  /** Whether a plan (live, or expired and not unlinked yet) has this id. */
  boolean contains(String id) {
    return plans.containsKey(id);
  }

  /** The plan with this id, or null. */
  StoredPlan get(String id) {
    return plans.get(id);
  }

  /** Keeps {@code plan} and makes its reads findable. */
  void link(StoredPlan plan) {
    plans.put(plan.id, plan);
    int[] u = usage.computeIfAbsent(plan.owner, o -> new int[2]);
    u[0]++;
    u[1] += plan.reads;
    plannedReads += plan.reads;
    slots.link(plan);
  }

  /** Removes a plan; false if there is none with that id. */
  boolean remove(String id) {
    StoredPlan p = plans.remove(id);
    if (p == null) {
      return false;
    }
    unlink(p);
    return true;
  }

  /**
   * Unlinks every plan expired at {@code now} (they stopped serving when they expired). Cost:
   * the expired plans' sizes.
   *
   * @return plans dropped
   */
  int expire(long now) {
    int dropped = 0;
    for (Iterator<StoredPlan> it = plans.values().iterator(); it.hasNext(); ) {
      StoredPlan p = it.next();
      if (p.liveAt(now)) {
        break; // expiry order
      }
      it.remove();
      unlink(p);
      dropped++;
    }
    return dropped;
  }

  /** Plans kept, oldest first: all of them ({@code owner} null) or one owner's. */
  List<ReadPlanTable.PlanInfo> infos(String owner) {
    List<ReadPlanTable.PlanInfo> out = new ArrayList<>();
    for (StoredPlan p : plans.values()) {
      if (owner == null || p.owner.equals(owner)) {
        out.add(p.info());
      }
    }
    return out;
  }

  /** Planned reads kept over all linked plans. */
  int plannedReads() {
    return plannedReads;
  }

  private boolean userFits(String owner, int n) {
    int[] u = usage.get(owner);
    return u == null || (u[0] < limits.maxPlansPerUser && u[1] + n <= limits.maxReadsPerUser);
  }

  private boolean totalFits(int n) {
    return plans.size() < limits.maxPlans && plannedReads + n <= limits.maxReads;
  }

  /** Evicts finished plans (of {@code owner}, or anyone's), oldest first, until n fit. */
  private void evictFinished(String owner, int n) {
    for (Iterator<StoredPlan> it = plans.values().iterator(); it.hasNext(); ) {
      if (owner == null ? totalFits(n) : userFits(owner, n)) {
        return;
      }
      StoredPlan p = it.next();
      if (p.finished() && (owner == null || p.owner.equals(owner))) {
        it.remove();
        unlink(p);
      }
    }
  }

  private ReadPlanTable.PlanLimitException userFull(String owner, int livePlans, int liveReads,
      int more) {
    return new ReadPlanTable.PlanLimitException(true, "user " + owner + " has " + livePlans
        + " live plans with " + liveReads + " planned reads, and " + more + " more exceed "
        + ReadBalanceKeys.PLAN_MAX_PLANS_PER_USER + "=" + limits.maxPlansPerUser + " or "
        + ReadBalanceKeys.PLAN_MAX_READS_PER_USER + "=" + limits.maxReadsPerUser
        + "; delete finished plans, wait for them to expire (" + ReadBalanceKeys.PLAN_TTL
        + "), or submit a smaller batch");
  }

  private ReadPlanTable.PlanLimitException totalFull(int livePlans, int liveReads, int more) {
    return new ReadPlanTable.PlanLimitException(false, livePlans + " plans with " + liveReads
        + " planned reads are live, and " + more + " more exceed "
        + ReadBalanceKeys.PLAN_MAX_PLANS + "=" + limits.maxPlans + " or "
        + ReadBalanceKeys.PLAN_MAX_READS + "=" + limits.maxReads
        + "; try again when plans expire");
  }

  /** Caller has taken the plan out of {@link #plans}. */
  private void unlink(StoredPlan plan) {
    plan.removed = true; // stops serving now
    int[] u = usage.get(plan.owner);
    if (--u[0] == 0) {
      usage.remove(plan.owner);
    } else {
      u[1] -= plan.reads;
    }
    plannedReads -= plan.reads;
    slots.unlink(plan);
  }
}
