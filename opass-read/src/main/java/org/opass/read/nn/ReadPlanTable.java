package org.opass.read.nn;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

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
 * The holder set is keyed by a 64-bit order-independent hash: a collision could only steer a
 * read to a replica holder of its own block (the caller checks that), never elsewhere.
 *
 * <h2>Bounds</h2>
 * {@link Limits}: planned reads and live plans, in total and per user (so no tenant can lock
 * the others out), and a lifetime. A submission that does not fit first evicts finished plans
 * (every read served; the submitter's own when its per-user limit is what is exceeded), oldest
 * first, then is refused. A live planned read costs about 180 bytes of heap when every read
 * has its own (reader, holders) key, the usual case, and 4 bytes when reads share one
 * (measured over a million reads), so the default bound of 262,144 reads is under 50 MB.
 *
 * <h2>Cost on the NameNode's RPC threads</h2>
 * {@link #serverFor} takes no lock and changes no structure: it reads one slot, skips parts of
 * expired or removed plans and claims the next planned read with a CAS. Adding or removing a
 * plan touches only that plan's slots (copy-on-write, one per (reader, holders) of the plan),
 * never all live plans. Expired plans stop serving at once and are unlinked by
 * {@link #expire}, which the plugin runs on a thread of its own and every change runs first.
 *
 * <h2>Where the work is</h2>
 * This class is the table's face: the types its callers pass and get, the plan ids, and the
 * lock every change takes. The lock-free lookups and claims are {@link PlanSlots}'s; the
 * plans kept, their counts against the limits, expiry and eviction are {@link LivePlans}'s;
 * one plan is a {@link StoredPlan}.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class ReadPlanTable {

  /** Bounds of a {@link ReadPlanTable}; immutable, built with {@link #builder()}. */
  public static final class Limits {
    final int maxReads;
    final int maxReadsPerUser;
    final int maxPlans;
    final int maxPlansPerUser;
    final long ttlMillis;

    private Limits(Builder b) {
      this.maxReads = b.maxReads;
      this.maxReadsPerUser = b.maxReadsPerUser > 0 ? b.maxReadsPerUser
          : Math.max(1, b.maxReads / 4);
      this.maxPlans = b.maxPlans;
      this.maxPlansPerUser = b.maxPlansPerUser;
      this.ttlMillis = b.ttlMillis;
    }

    public static Builder builder() {
      return new Builder();
    }

    public int maxReads() {
      return maxReads;
    }

    public int maxReadsPerUser() {
      return maxReadsPerUser;
    }

    public int maxPlans() {
      return maxPlans;
    }

    public int maxPlansPerUser() {
      return maxPlansPerUser;
    }

    public long ttlMillis() {
      return ttlMillis;
    }

    /** Builder; every bound must be >= 1. */
    public static final class Builder {
      private int maxReads = ReadBalanceKeys.PLAN_MAX_READS_DEFAULT;
      private int maxReadsPerUser; // 0: a quarter of maxReads
      private int maxPlans = ReadBalanceKeys.PLAN_MAX_PLANS_DEFAULT;
      private int maxPlansPerUser = ReadBalanceKeys.PLAN_MAX_PLANS_PER_USER_DEFAULT;
      private long ttlMillis = ReadBalanceKeys.PLAN_TTL_DEFAULT_MILLIS;

      private Builder() {
      }

      public Builder maxReads(int v) {
        maxReads = positive(v, "maxReads");
        return this;
      }

      public Builder maxReadsPerUser(int v) {
        maxReadsPerUser = positive(v, "maxReadsPerUser");
        return this;
      }

      public Builder maxPlans(int v) {
        maxPlans = positive(v, "maxPlans");
        return this;
      }

      public Builder maxPlansPerUser(int v) {
        maxPlansPerUser = positive(v, "maxPlansPerUser");
        return this;
      }

      public Builder ttlMillis(long v) {
        if (v < 1) {
          throw new IllegalArgumentException("ttlMillis must be >= 1, got " + v);
        }
        ttlMillis = v;
        return this;
      }

      public Limits build() {
        return new Limits(this);
      }

      private static int positive(int v, String name) {
        if (v < 1) {
          throw new IllegalArgumentException(name + " must be >= 1, got " + v);
        }
        return v;
      }
    }
  }

  /** One planned chunk read: {@code reader} (its address as the NameNode sees it) reads a
   * chunk held by {@code holders} (DataNode ids) from {@code server}, one of them. */
  public static final class PlannedRead {
    final String reader;
    final long holdersKey;
    final String server;

    public PlannedRead(String reader, Collection<String> holders, String server) {
      if (reader == null || holders == null || server == null) {
        throw new IllegalArgumentException("planned read with a null field");
      }
      if (!holders.contains(server)) {
        throw new IllegalArgumentException("planned server " + server + " holds no replica: "
            + holders);
      }
      this.reader = reader;
      this.holdersKey = holdersKey(holders);
      this.server = server;
    }
  }

  /** What a plan is now: id, owner, times (clock millis), planned and served reads. */
  public static final class PlanInfo {
    private final String id;
    private final String owner;
    private final long createdMillis;
    private final long expiresMillis;
    private final int reads;
    private final int served;

    PlanInfo(String id, String owner, long createdMillis, long expiresMillis, int reads,
        int served) {
      this.id = id;
      this.owner = owner;
      this.createdMillis = createdMillis;
      this.expiresMillis = expiresMillis;
      this.reads = reads;
      this.served = served;
    }

    public String id() {
      return id;
    }

    public String owner() {
      return owner;
    }

    public long createdMillis() {
      return createdMillis;
    }

    public long expiresMillis() {
      return expiresMillis;
    }

    public int reads() {
      return reads;
    }

    public int served() {
      return served;
    }
  }

  /** A copy's id ({@code POST ?id=}) that a live plan already has. */
  public static final class IdInUseException extends Exception {
    private static final long serialVersionUID = 1L;

    IdInUseException(String id) {
      super("read plan id " + id + " is in use");
    }
  }

  /** A submission does not fit: the user's own limits ({@link #userLimit()}) or the total. */
  public static final class PlanLimitException extends Exception {
    private static final long serialVersionUID = 1L;
    private final boolean userLimit;

    PlanLimitException(boolean userLimit, String message) {
      super(message);
      this.userLimit = userLimit;
    }

    public boolean userLimit() {
      return userLimit;
    }
  }

  private final Limits limits;
  private final LongSupplier clock;
  /** Plan numbers are drawn from 1 to this (12 digits). */
  private static final long MAX_PLAN_NUMBER = 999_999_999_999L;
  /**
   * In every id, so that a plan id names one plan across NameNode restarts and failovers: a
   * client asking the new active about a lost plan must not find another plan by its id.
   */
  private final String instance = Long.toString(
      new SecureRandom().nextLong() >>> 24, Character.MAX_RADIX);
  /**
   * Draws each plan's number: not guessable, so that nobody can take another user's next id on
   * an observer ({@code POST ?id=}) before that user's copy arrives.
   */
  private final SecureRandom ids = new SecureRandom();

  private final Object lock = new Object();
  /** The lock-free lookups of the NameNode's sort; changed under lock. */
  private final PlanSlots slots = new PlanSlots();
  /** The plans kept and their counts against the limits; guarded by lock. */
  private final LivePlans live;

  /**
   * @param limits bounds
   * @param clock  monotonic milliseconds
   */
  public ReadPlanTable(Limits limits, LongSupplier clock) {
    if (limits == null || clock == null) {
      throw new IllegalArgumentException("limits and clock must be set");
    }
    this.limits = limits;
    this.clock = clock;
    this.live = new LivePlans(limits, slots);
  }

  public Limits limits() {
    return limits;
  }

  /** {@link #holdersKey(Collection)} of the given ids. */
  public static long holdersKey(String... holderIds) {
    return holdersKey(Arrays.asList(holderIds));
  }

  /** Order-independent 64-bit key of a holder set (ids of distinct DataNodes). */
  public static long holdersKey(Collection<String> holderIds) {
    long key = 0;
    for (String id : holderIds) {
      key += holderHash(id);
    }
    return key;
  }

  /** One holder's share of {@link #holdersKey}: sum these over a block's holders. */
  public static long holderHash(String id) {
    long h = 0xcbf29ce484222325L; // FNV-1a, then a 64-bit finalizer to spread the bits
    for (int i = 0; i < id.length(); i++) {
      h ^= id.charAt(i);
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    return h ^ (h >>> 33);
  }

  /** True when no plan is linked: the fast path of every {@code getBlockLocations}. */
  public boolean isEmpty() {
    return slots.isEmpty();
  }

  /** True if {@code reader} may have a live plan (cheap; lets callers skip building a key). */
  public boolean hasReader(String reader) {
    return slots.hasReader(reader);
  }

  /**
   * The DataNode planned to serve {@code reader}'s chunk held by the holders with
   * {@code holdersKey}, taken as served; null when no live plan covers it. Lock-free.
   */
  public String serverFor(String reader, long holdersKey) {
    while (true) {
      Claim c = claimFor(reader, holdersKey);
      if (c == null || take(c)) {
        return c == null ? null : c.server;
      }
    }
  }

  /**
   * The planned read {@code reader}'s chunk held by the holders with {@code holdersKey} would
   * take next, taking nothing yet ({@link #take}); null when no live plan covers it.
   * Lock-free.
   */
  public Claim claimFor(String reader, long holdersKey) {
    return slots.claimFor(reader, holdersKey, clock);
  }

  /**
   * Counts {@code claim} as served. False if another read took that planned read first (then
   * nothing is counted); a pick among plans already served in full always succeeds.
   */
  public boolean take(Claim claim) {
    return slots.take(claim);
  }

  /** A planned read found by {@link #claimFor}, counted as served by {@link #take}. */
  public static final class Claim {
    final PlanSlots.Slot slot;
    /** Null for a pick among plans already served in full (round-robin). */
    final PlanSlots.Part part;
    final int index;
    private final String server;

    Claim(PlanSlots.Slot slot, PlanSlots.Part part, int index, String server) {
      this.slot = slot;
      this.part = part;
      this.index = index;
      this.server = server;
    }

    /** The DataNode (UUID) planned to serve the read. */
    public String server() {
      return server;
    }
  }

  /**
   * How many planned reads {@code owner} may still submit, counting finished plans (which
   * give way) as free: the smaller of the owner's and everyone's room.
   *
   * @throws PlanLimitException when there is no room at all
   */
  public int room(String owner) throws PlanLimitException {
    synchronized (lock) {
      live.expire(clock.getAsLong());
      return live.room(owner);
    }
  }

  /**
   * Adds a plan of {@code owner}'s under a new id.
   *
   * @throws PlanLimitException if it does not fit, even after evicting finished plans
   * @throws IllegalArgumentException if {@code reads} is empty
   */
  public PlanInfo add(String owner, List<PlannedRead> reads) throws PlanLimitException {
    try {
      return add(owner, reads, null);
    } catch (IdInUseException e) {
      throw new AssertionError("a new id is never in use", e);
    }
  }

  /**
   * Adds a plan of {@code owner}'s under {@code id} (a copy of another NameNode's plan), or a
   * new id when null.
   *
   * @throws PlanLimitException if it does not fit, even after evicting finished plans
   * @throws IllegalArgumentException if {@code reads} is empty
   * @throws IdInUseException if a live plan has that id
   */
  public PlanInfo add(String owner, List<PlannedRead> reads, String id)
      throws PlanLimitException, IdInUseException {
    if (reads.isEmpty()) {
      throw new IllegalArgumentException("a plan needs at least one read");
    }
    int n = reads.size();
    if (n > limits.maxReadsPerUser || n > limits.maxReads) {
      throw new PlanLimitException(n > limits.maxReadsPerUser, "a plan of " + n
          + " reads exceeds " + (n > limits.maxReadsPerUser
              ? ReadBalanceKeys.PLAN_MAX_READS_PER_USER + "=" + limits.maxReadsPerUser
              : ReadBalanceKeys.PLAN_MAX_READS + "=" + limits.maxReads) + "; split it");
    }
    synchronized (lock) {
      long now = clock.getAsLong();
      live.expire(now);
      if (id != null && live.contains(id)) {
        throw new IdInUseException(id);
      }
      live.makeRoom(owner, n);
      String planId = id;
      while (planId == null || live.contains(planId)) {
        planId = "plan-" + instance + "-" + (1 + (ids.nextLong() >>> 1) % MAX_PLAN_NUMBER);
      }
      StoredPlan plan = new StoredPlan(planId, owner, now, now + limits.ttlMillis, reads);
      live.link(plan);
      return plan.info();
    }
  }

  /** Removes a plan; false if there is none with that id (or it expired). */
  public boolean remove(String id) {
    synchronized (lock) {
      live.expire(clock.getAsLong());
      return live.remove(id);
    }
  }

  /**
   * Unlinks every expired plan (they stopped serving when they expired). Cost: the expired
   * plans' sizes. The plugin runs it every second off the RPC threads; every change runs it.
   *
   * @return plans dropped
   */
  public int expire() {
    synchronized (lock) {
      return live.expire(clock.getAsLong());
    }
  }

  /** The owner of a live plan, or null. */
  public String owner(String id) {
    synchronized (lock) {
      StoredPlan p = live.get(id);
      return p == null || !p.liveAt(clock.getAsLong()) ? null : p.owner;
    }
  }

  /** Live plans, oldest first: all of them ({@code owner} null) or one owner's. */
  public List<PlanInfo> plans(String owner) {
    synchronized (lock) {
      live.expire(clock.getAsLong());
      return live.infos(owner);
    }
  }

  /** Every live plan, oldest first. */
  public List<PlanInfo> plans() {
    return plans(null);
  }

  /** Planned reads kept over all linked plans (expired ones until {@link #expire} runs). */
  public int plannedReads() {
    synchronized (lock) {
      return live.plannedReads();
    }
  }

  /** Planned reads not yet served, by serving DataNode, over every live plan. */
  public Map<String, Integer> outstanding() {
    return slots.outstanding();
  }
}
