package org.opass.tools.soak;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The faults of a soak, in order, from a seed: rounds in which every kind of fault occurs
 * once, in a seeded order, on seeded targets, each held for a seeded time and preceded by a
 * seeded spell of plain traffic. The same seed gives the same schedule.
 */
final class FaultSchedule {
  /** The kinds of fault. */
  enum Kind {
    /** A DataNode stopped, then started on the same host, port and storage. */
    DATANODE_RESTART,
    /** A DataNode's heartbeats stall: the NameNode marks it stale (and, held long, dead). */
    STALE_HEARTBEATS,
    /** A DataNode decommissioned through the exclude file, then recommissioned. */
    DECOMMISSION,
    /** Every DataNode of one rack stopped at once, then started. */
    RACK_LOSS,
    /** Both NameNodes restarted over the same namespace and replicas. */
    NAMENODE_RESTART,
    /** The active NameNode steps down and the standby takes over (haadmin -failover). */
    FAILOVER_GRACEFUL,
    /** The active NameNode's process dies, the standby takes over; it comes back a standby. */
    FAILOVER_KILLED,
    /** The heatmap's clock jumps forward (past its forget-after time) or back. */
    CLOCK_JUMP
  }

  /** One fault to inject. */
  static final class Fault {
    final int number;
    final Kind kind;
    /** The DataNode (or, for {@link Kind#RACK_LOSS}, the rack) it hits. */
    final int target;
    final long holdMillis;
    /** For {@link Kind#CLOCK_JUMP}: how far, negative for back. */
    final long jumpMillis;
    /** Plain traffic before the fault. */
    final long gapMillis;

    Fault(int number, Kind kind, int target, long holdMillis, long jumpMillis,
        long gapMillis) {
      this.number = number;
      this.kind = kind;
      this.target = target;
      this.holdMillis = holdMillis;
      this.jumpMillis = jumpMillis;
      this.gapMillis = gapMillis;
    }

    boolean isFailover() {
      return kind == Kind.FAILOVER_GRACEFUL || kind == Kind.FAILOVER_KILLED;
    }

    /** The kind as the report names it, e.g. {@code failover-killed}. */
    String kindName() {
      return kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    @Override
    public String toString() {
      String what = kind == Kind.RACK_LOSS ? "rack " + target
          : kind == Kind.NAMENODE_RESTART || isFailover() ? "NameNode"
          : kind == Kind.CLOCK_JUMP ? (jumpMillis >= 0 ? "+" : "") + jumpMillis + " ms"
          : "DataNode " + target;
      return "#" + number + " " + kindName() + " (" + what
          + (holdMillis > 0 ? ", held " + holdMillis + " ms" : "") + ")";
    }
  }

  /** How long faults are held. */
  static final class Timing {
    /** Plain traffic between two faults, at least and at most. */
    long minGapMillis = 2_000;
    long maxGapMillis = 6_000;
    /** A stopped DataNode or rack, a stalled heartbeat: at least, at most. */
    long minHoldMillis = 2_000;
    long maxHoldMillis = 8_000;
    /**
     * A hold this long makes the NameNode declare the nodes dead (and re-replicate their
     * blocks); one fault in three of the node kinds gets it. 0: never.
     */
    long deadHoldMillis = 14_000;
  }

  /** Longer than the soak's stale interval. */
  static final long STALE_HOLD_MILLIS = Soak.STALE_MILLIS + 1_000;

  private final Random rnd;
  private final int dataNodes;
  private final int racks;
  private final Timing timing;
  private final List<Kind> round = new ArrayList<>();
  private int number;

  FaultSchedule(long seed, int dataNodes, int racks, Timing timing) {
    this.rnd = new Random(seed);
    this.dataNodes = dataNodes;
    this.racks = racks;
    this.timing = timing;
  }

  /** The next fault; every {@code Kind.values().length} faults hold one of each kind. */
  Fault next() {
    if (round.isEmpty()) {
      round.addAll(Arrays.asList(Kind.values()));
      Collections.shuffle(round, rnd);
    }
    Kind kind = round.remove(0);
    long gap = between(timing.minGapMillis, timing.maxGapMillis);
    long hold = 0;
    long jump = 0;
    int target = rnd.nextInt(dataNodes);
    switch (kind) {
      case RACK_LOSS:
        target = rnd.nextInt(racks);
        hold = holdMaybeDead();
        break;
      case DATANODE_RESTART:
        hold = holdMaybeDead();
        break;
      case STALE_HEARTBEATS:
        // long enough for the NameNode to mark it stale (3 s in the soak's settings)
        hold = Math.max(STALE_HOLD_MILLIS, holdMaybeDead());
        break;
      case FAILOVER_KILLED:
        hold = between(timing.minHoldMillis, timing.maxHoldMillis); // until it is back
        break;
      case CLOCK_JUMP:
        // forward past any forget-after time, or back by up to an hour
        jump = (rnd.nextBoolean() ? 1 : -1) * between(1_000, 3_600_000);
        hold = timing.minHoldMillis;
        break;
      default:
        break;
    }
    return new Fault(++number, kind, target, hold, jump, gap);
  }

  private long holdMaybeDead() {
    if (timing.deadHoldMillis > 0 && rnd.nextInt(3) == 0) {
      return timing.deadHoldMillis;
    }
    return between(timing.minHoldMillis, timing.maxHoldMillis);
  }

  private long between(long min, long max) {
    return min + (max > min ? (long) (rnd.nextDouble() * (max - min)) : 0);
  }
}
