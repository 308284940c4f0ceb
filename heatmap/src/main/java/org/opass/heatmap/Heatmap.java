package org.opass.heatmap;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Heat of every DataNode as one NameNode sees it (Opass §4.6): the active transfers the
 * DataNode reported in its latest heartbeat, plus the reads and writes the NameNode granted
 * to it since that heartbeat, plus the time it was last selected (for LRU tie-breaking).
 *
 * <p>Heartbeats are not pushed here; callers {@link #observe observe} a node whenever they
 * look at it, passing the heartbeat time they see, and a newer heartbeat resets the grants
 * counted since the previous one. That keeps the table free of NameNode hooks and makes the
 * grants fill exactly the gap that stock load-awareness has between heartbeats.
 *
 * <p>Thread-safe. Bounded: at most {@code maxNodes} entries; nodes observed dead, and nodes whose
 * heartbeat has not advanced for {@code forgetAfter}, are forgotten.
 */
public class Heatmap {

  private final ConcurrentHashMap<String, Entry> nodes = new ConcurrentHashMap<>();
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

  protected Heatmap(Builder b) {
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
    Objects.requireNonNull(nodeId, "nodeId");
    if (!alive) {
      forget(nodeId);
      return 0;
    }
    Entry e = entry(nodeId, name);
    if (e == null) {
      return 0;
    }
    // The fast path (no new heartbeat) reads two volatiles: this runs for every replica of
    // every located block.
    if (heartbeatMillis <= e.heartbeatMillis) {
      return e.heat();
    }
    long now = nanoClock.getAsLong();
    maybeSweep(now);
    return e.observeHeartbeat(xceivers, heartbeatMillis, now);
  }

  /** Counts one read or write the NameNode handed to this node and marks it selected now. */
  public void grant(String nodeId) {
    grantsTotal.increment();
    Entry e = nodes.get(nodeId);
    if (e != null) {
      e.grant(nanoClock.getAsLong());
    }
  }

  /** Active transfers at the latest heartbeat plus grants since it; 0 for an unknown node. */
  public int heat(String nodeId) {
    Entry e = nodes.get(nodeId);
    return e == null ? 0 : e.heat();
  }

  /**
   * Monotonic nanos of the last time this node was granted work; {@link Long#MIN_VALUE} if it
   * never was, so that a never-selected node is the least recently selected.
   */
  public long lastSelectedNanos(String nodeId) {
    Entry e = nodes.get(nodeId);
    return e == null ? Long.MIN_VALUE : e.lastSelected();
  }

  /** Mean heat over tracked nodes; 0 when none is tracked. */
  public double meanHeat() {
    int n = nodes.size();
    return n == 0 ? 0.0 : (double) (sumXceivers.sum() + sumGrants.sum()) / n;
  }

  public void forget(String nodeId) {
    Entry e = nodes.remove(nodeId);
    if (e != null) {
      e.retire();
    }
  }

  /** Grants handed out since each tracked node's latest heartbeat, summed over nodes. */
  public long outstandingGrants() {
    return sumGrants.sum();
  }

  public int trackedNodes() {
    return nodes.size();
  }

  public int maxNodes() {
    return maxNodes;
  }

  /** Count one decision made with the heatmap (a placement or a replica choice). */
  public void countChoice() {
    choices.increment();
  }

  /** Count one decision that fell back to stock behaviour after an internal failure. */
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

  private Entry entry(String nodeId, String name) {
    Entry e = nodes.get(nodeId);
    if (e != null) {
      return e;
    }
    if (nodes.size() >= maxNodes) {
      sweep(nanoClock.getAsLong());
      if (nodes.size() >= maxNodes) {
        return null; // full of live nodes: this one is simply not tracked
      }
    }
    return nodes.computeIfAbsent(nodeId, k -> new Entry(name == null ? k : name));
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
      if (now - e.lastObserved() > forgetAfterNanos) {
        forget(id);
      }
    });
  }

  /**
   * One DataNode's row. Changes happen under the entry's lock, so the sums stay exact; the
   * fields are volatile so that reading a heat takes no lock.
   */
  private final class Entry {
    private final String name;
    private volatile int xceivers;
    private volatile int grantsSinceHeartbeat;
    private volatile long heartbeatMillis = Long.MIN_VALUE;
    private volatile long lastSelectedNanos = Long.MIN_VALUE;
    // when the heartbeat last advanced: a node whose heartbeats stop is forgotten
    private volatile long lastObservedNanos;
    private boolean retired;

    Entry(String name) {
      this.name = name;
      this.lastObservedNanos = nanoClock.getAsLong();
    }

    synchronized int observeHeartbeat(int newXceivers, long newHeartbeatMillis, long now) {
      if (!retired && newHeartbeatMillis > heartbeatMillis) {
        lastObservedNanos = now;
        heartbeatMillis = newHeartbeatMillis;
        sumXceivers.add(newXceivers - xceivers);
        sumGrants.add(-grantsSinceHeartbeat);
        xceivers = newXceivers;
        grantsSinceHeartbeat = 0;
      }
      return xceivers + grantsSinceHeartbeat;
    }

    synchronized void grant(long now) {
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

    int heat() {
      return xceivers + grantsSinceHeartbeat;
    }

    long lastSelected() {
      return lastSelectedNanos;
    }

    long lastObserved() {
      return lastObservedNanos;
    }

    synchronized NodeHeat snapshot(String id, long now) {
      long ago = lastSelectedNanos == Long.MIN_VALUE ? -1 : (now - lastSelectedNanos) / 1_000_000;
      return new NodeHeat(id, name, xceivers, grantsSinceHeartbeat, ago);
    }
  }

  /** Configuration of a {@link Heatmap}. */
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

    public Heatmap build() {
      return new Heatmap(this);
    }
  }
}
