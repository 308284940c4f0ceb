package org.opass.heatmap;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.plugin.FallbackLog;

/**
 * The heat table: the heat of every DataNode as one NameNode sees it (Opass §4.6), the active
 * transfers the DataNode reported in its latest heartbeat, plus the reads and writes the
 * NameNode granted to it since that heartbeat, plus the time it was last selected (for LRU
 * tie-breaking). The heatmap plugin publishes it over JMX and metrics2
 * ({@code org.opass.heatmap.nn}).
 *
 * <p>Heartbeats are not pushed here; callers {@link #observe observe} a node whenever they
 * look at it, passing the heartbeat time they see, and a newer heartbeat resets the grants
 * counted since the previous one. That keeps the table free of NameNode hooks and makes the
 * grants fill exactly the gap that stock load-awareness has between heartbeats.
 *
 * <p>Thread-safe. Bounded: never more than {@code maxNodes} entries, even under concurrent
 * inserts (a node that does not fit is simply not tracked until a sweep frees room); nodes
 * observed dead, nodes the NameNode removed ({@link #retainOnly}), and nodes whose heartbeat
 * has not advanced for {@code forgetAfter} are forgotten. A sweep never drops an entry that a
 * heartbeat refreshed after the sweep looked at it.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public class HeatTable implements FallbackLog.Counter {

  private final ConcurrentHashMap<String, Row> nodes = new ConcurrentHashMap<>();
  /** Entries in {@link #nodes} plus inserts under way; reserved before an insert, so <= max. */
  private final AtomicInteger size = new AtomicInteger();
  private final int maxNodes;
  private final long forgetAfterNanos;
  private final LongSupplier nanoClock;
  private final AtomicLong nextSweepNanos;

  // Sums over tracked entries, kept exact by applying each entry's deltas under its lock.
  private final LongAdder sumXceivers = new LongAdder();
  private final LongAdder sumGrants = new LongAdder();

  private final LongAdder grantsTotal = new LongAdder();
  private final LongAdder choices = new LongAdder();
  private final LongAdder fallbacks = new LongAdder();

  protected HeatTable(Builder b) {
    this.maxNodes = b.maxNodes;
    this.forgetAfterNanos = b.forgetAfter.toNanos();
    this.nanoClock = b.nanoClock;
    this.nextSweepNanos = new AtomicLong(nanoClock.getAsLong() + sweepPeriodNanos());
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Records what the NameNode currently knows of a DataNode. A heartbeat time newer than the
   * one seen before replaces the transfer count and clears the grants counted since then.
   *
   * @param nodeId stable id (the DataNode UUID)
   * @param name display name (e.g. the transfer address)
   * @param xceivers active transfers reported by the latest heartbeat
   * @param heartbeatMillis monotonic time of that heartbeat
   * @param alive false forgets the node
   * @return the node's heat after this observation (as {@link #heat} would return it)
   */
  public int observe(String nodeId, String name, int xceivers, long heartbeatMillis,
      boolean alive) {
    Row row = observeRow(nodeId, name, xceivers, heartbeatMillis, alive);
    return row == null ? 0 : row.heat();
  }

  /**
   * {@link #observe} for a caller that chooses among nodes: the node's row, to read its heat
   * and last-selected time and to {@link #grant(Row) grant} it without looking it up again
   * (this runs for every replica of every located block). Null for a dead node or one that
   * is not tracked (the table is full), whose heat is 0.
   */
  public Row observeRow(String nodeId, String name, int xceivers, long heartbeatMillis,
      boolean alive) {
    Objects.requireNonNull(nodeId, "nodeId");
    if (!alive) {
      forget(nodeId);
      return null;
    }
    for (int attempt = 0; attempt < 2; attempt++) {
      Row e = entry(nodeId, name);
      if (e == null) {
        return null;
      }
      // The fast path (no new heartbeat) reads one volatile.
      if (heartbeatMillis <= e.heartbeatMillis) {
        return e;
      }
      long now = nanoClock.getAsLong();
      maybeSweep(now);
      if (e.observeHeartbeat(xceivers, heartbeatMillis, now)) {
        return e;
      }
      unlink(nodeId, e); // a sweep retired it just now: track the node afresh
    }
    return null;
  }

  /** Counts one read or write the NameNode handed to this node and marks it selected now. */
  public void grant(String nodeId) {
    Row e = nodes.get(nodeId);
    if (e == null) {
      grantsTotal.increment();
    } else {
      grant(e);
    }
  }

  /** {@link #grant(String)} for a row that {@link #observeRow} returned. */
  public void grant(Row row) {
    grantsTotal.increment();
    row.grant(nanoClock.getAsLong());
  }

  /** Active transfers at the latest heartbeat plus grants since it; 0 for an unknown node. */
  public int heat(String nodeId) {
    Row e = nodes.get(nodeId);
    return e == null ? 0 : e.heat();
  }

  /**
   * Monotonic nanos of the last time this node was granted work; {@link Long#MIN_VALUE} if it
   * never was, so that a never-selected node is the least recently selected.
   */
  public long lastSelectedNanos(String nodeId) {
    Row e = nodes.get(nodeId);
    return e == null ? Long.MIN_VALUE : e.lastSelectedNanos();
  }

  /** Mean heat over tracked nodes; 0 when none is tracked. */
  public double meanHeat() {
    int n = size.get();
    return n == 0 ? 0.0 : (double) (sumXceivers.sum() + sumGrants.sum()) / n;
  }

  public void forget(String nodeId) {
    Row e = nodes.get(nodeId);
    if (e != null && unlink(nodeId, e)) {
      e.retire();
    }
  }

  /**
   * Forgets every tracked node that is not in {@code liveIds} and was tracked by
   * {@code walkStartNanos} (a node that joined while the caller listed the live ones stays).
   * For a walk over the DataNodes the NameNode currently has: the NameNode drops a DataNode
   * from its topology when it declares it dead or removes it, and such a node must not keep
   * counting in the mean heat.
   *
   * @param walkStartNanos {@link #clockNanos()} read before the live ids were listed
   */
  public void retainOnly(Set<String> liveIds, long walkStartNanos) {
    nodes.forEach((id, e) -> {
      if (!liveIds.contains(id) && e.createdNanos - walkStartNanos <= 0 && unlink(id, e)) {
        e.retire();
      }
    });
  }

  /** This table's monotonic clock, in nanoseconds. */
  public long clockNanos() {
    return nanoClock.getAsLong();
  }

  /** Grants handed out since each tracked node's latest heartbeat, summed over nodes. */
  public long outstandingGrants() {
    return sumGrants.sum();
  }

  /** Tracked nodes (places taken, exactly; never above {@code maxNodes}). */
  public int trackedNodes() {
    return size.get();
  }

  public int maxNodes() {
    return maxNodes;
  }

  /** Count one decision made with the table (a placement or a replica choice). */
  public void countChoice() {
    choices.increment();
  }

  /** Count one decision that fell back to stock behaviour after an internal failure. */
  @Override
  public void countFallback() {
    fallbacks.increment();
  }

  public long choices() {
    return choices.sum();
  }

  public long fallbacks() {
    return fallbacks.sum();
  }

  public long grantsTotal() {
    return grantsTotal.sum();
  }

  /** A consistent-per-node copy of the table, hottest first. */
  public List<NodeHeat> snapshot() {
    long now = nanoClock.getAsLong();
    List<NodeHeat> out = new ArrayList<>(nodes.size());
    nodes.forEach((id, e) -> out.add(e.snapshot(id, now)));
    out.sort(Comparator.comparingInt(NodeHeat::heat).reversed()
        .thenComparing(NodeHeat::name));
    return out;
  }

  private Row entry(String nodeId, String name) {
    Row e = nodes.get(nodeId);
    if (e != null) {
      return e;
    }
    if (!reserve()) {
      // Full: a due sweep may free room. Not one sweep per new node: a table full of live
      // nodes would then cost O(n) for every lookup of an untracked one.
      maybeSweep(nanoClock.getAsLong());
      if (!reserve()) {
        return null; // full of live nodes: this one is simply not tracked
      }
    }
    Row created = new Row(name == null ? nodeId : name);
    Row raced = nodes.putIfAbsent(nodeId, created);
    if (raced != null) {
      size.decrementAndGet();
      return raced;
    }
    return created;
  }

  /** Takes one of the {@code maxNodes} places; false when all are taken. */
  private boolean reserve() {
    for (;;) {
      int n = size.get();
      if (n >= maxNodes) {
        return false;
      }
      if (size.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /** Removes exactly this entry (not a newer one under the same id) and frees its place. */
  private boolean unlink(String nodeId, Row e) {
    if (nodes.remove(nodeId, e)) {
      size.decrementAndGet();
      return true;
    }
    return false;
  }

  private long sweepPeriodNanos() {
    return Math.max(1, forgetAfterNanos / 4);
  }

  private void maybeSweep(long now) {
    long next = nextSweepNanos.get();
    if (now - next >= 0 && nextSweepNanos.compareAndSet(next, now + sweepPeriodNanos())) {
      sweep(now);
    }
  }

  private void sweep(long now) {
    nodes.forEach((id, e) -> {
      // checked and retired under the entry's lock: a heartbeat seen meanwhile keeps it
      if (now - e.lastObserved() > forgetAfterNanos && e.retireIfIdle(now, forgetAfterNanos)) {
        unlink(id, e);
      }
    });
  }

  /**
   * One DataNode's row. Changes happen under the row's lock, so the sums stay exact; the
   * fields are volatile so that reading a heat takes no lock. A row that was forgotten keeps
   * answering but no longer counts in the sums; observing its node again makes a new row.
   */
  public final class Row {
    private final String name;
    private volatile int xceivers;
    private volatile int grantsSinceHeartbeat;
    private volatile long heartbeatMillis = Long.MIN_VALUE;
    private volatile long lastSelectedNanos = Long.MIN_VALUE;
    // when the heartbeat last advanced: a node whose heartbeats stop is forgotten
    private volatile long lastObservedNanos;
    private final long createdNanos;
    private boolean retired;

    private Row(String name) {
      this.name = name;
      this.createdNanos = nanoClock.getAsLong();
      this.lastObservedNanos = createdNanos;
    }

    /** Takes this heartbeat if newer; false if the row was retired (no longer tracked). */
    private synchronized boolean observeHeartbeat(int newXceivers, long newHeartbeatMillis,
        long now) {
      if (retired) {
        return false;
      }
      if (newHeartbeatMillis > heartbeatMillis) {
        lastObservedNanos = now;
        heartbeatMillis = newHeartbeatMillis;
        sumXceivers.add(newXceivers - xceivers);
        sumGrants.add(-grantsSinceHeartbeat);
        xceivers = newXceivers;
        grantsSinceHeartbeat = 0;
      }
      return true;
    }

    private synchronized void grant(long now) {
      lastSelectedNanos = now;
      if (!retired) {
        grantsSinceHeartbeat++;
        sumGrants.increment();
      }
    }

    synchronized void retire() {
      if (!retired) {
        retired = true;
        sumXceivers.add(-xceivers);
        sumGrants.add(-grantsSinceHeartbeat);
      }
    }

    /** Retires the entry if its heartbeat has not advanced for {@code forgetAfter}. */
    synchronized boolean retireIfIdle(long now, long forgetAfter) {
      if (retired || now - lastObservedNanos <= forgetAfter) {
        return false;
      }
      retire();
      return true;
    }

    /** Active transfers at the latest heartbeat plus grants since it. */
    public int heat() {
      return xceivers + grantsSinceHeartbeat;
    }

    /** As {@link HeatTable#lastSelectedNanos}. */
    public long lastSelectedNanos() {
      return lastSelectedNanos;
    }

    long lastObserved() {
      return lastObservedNanos;
    }

    synchronized NodeHeat snapshot(String id, long now) {
      long ago = lastSelectedNanos == Long.MIN_VALUE ? -1 : (now - lastSelectedNanos) / 1_000_000;
      return new NodeHeat(id, name, xceivers, grantsSinceHeartbeat, ago,
          (now - lastObservedNanos) / 1_000_000);
    }
  }

  /** Configuration of a {@link HeatTable}. */
  public static final class Builder {
    private int maxNodes = 100_000;
    private Duration forgetAfter = Duration.ofMinutes(30);
    private LongSupplier nanoClock = System::nanoTime;

    private Builder() {
    }

    /** Upper bound on tracked DataNodes (memory bound). */
    public Builder maxNodes(int maxNodes) {
      if (maxNodes < 1) {
        throw new IllegalArgumentException("maxNodes must be >= 1, got " + maxNodes);
      }
      this.maxNodes = maxNodes;
      return this;
    }

    /** Nodes not observed for this long are forgotten (they were removed or died). */
    public Builder forgetAfter(Duration forgetAfter) {
      if (forgetAfter.isNegative() || forgetAfter.isZero()) {
        throw new IllegalArgumentException("forgetAfter must be positive, got " + forgetAfter);
      }
      this.forgetAfter = forgetAfter;
      return this;
    }

    /** Monotonic clock in nanoseconds; tests pass a manual one. */
    public Builder nanoClock(LongSupplier nanoClock) {
      this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
      return this;
    }

    public HeatTable build() {
      return new HeatTable(this);
    }
  }
}
