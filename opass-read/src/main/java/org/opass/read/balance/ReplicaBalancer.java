package org.opass.read.balance;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.maxflow.IntMaxFlow;

/**
 * NameNode-side batch replica chooser (Opass §4.5): for a batch of chunk reads, from any
 * tenants, pick for each read the one replica holder that serves it, so that the DataNodes'
 * loads (reads they already serve, NC, plus the batch's) end up balanced.
 *
 * <h2>Strategies</h2>
 * <ul>
 *   <li>{@link Strategy#ALGORITHM2}: the paper's Algorithm 2 over the batch (m = reads in the
 *   batch, the n DataNodes = those holding a replica of some read, L_i = reads of the batch
 *   DataNode i holds) gives target counts C; the Fig. 7 max flow (source -> read cap 1,
 *   read -> holder cap 1, DataNode i -> sink cap c_i) realizes C as far as it can; reads left
 *   unmatched go to their least-loaded holder and are counted.</li>
 *   <li>{@link Strategy#OPTIMAL} (default): the exact minimum B* over all assignments of
 *   max_i (NC_i + assigned_i), over the DataNodes holding a replica of the batch. A bound B is
 *   feasible iff the same network with DataNode i -> sink capacity max(0, B - NC_i) carries a
 *   flow of m (an integral max flow is an assignment with every load {@code <= B}), and feasibility
 *   is monotone in B. The bound is raised level by level from the bottom, keeping the flow
 *   maximum at each level (water-filling); the first level reaching m is B*. Since flow into
 *   the sink never decreases while augmenting, the result is maximum for every level at
 *   once: it minimizes the max load, then the number of DataNodes at it, and is
 *   lexicographically balanced (its sorted loads are the lexicographically smallest; it
 *   minimizes the sum over DataNodes of any convex function of the load, e.g. squares), so a
 *   read forced onto a hot DataNode does not let the others fill up to its load. If
 *   that exceeds a work budget ({@link #WORK_BUDGET_SCANS}), the rest is a bisection over B
 *   (warm-started, between a lower bound and a greedy assignment's load) and a max flow at
 *   B* - 1 augmented to B*: still exactly B*, with the fewest DataNodes at B*.</li>
 * </ul>
 *
 * <h2>Determinism</h2>
 * Reads and DataNodes are put in a canonical order (by id) and shuffled with the seed before
 * anything else, and every tie (round-robin order of Algorithm 2, DFS order of the flow,
 * least-loaded ties) follows that order. The result therefore depends only on the batch's content, the loads of its
 * DataNodes and the seed: not on list order, holder order or map iteration order. Vary the
 * seed between batches to spread ties; keep it to reproduce a decision.
 *
 * <h2>Cost</h2>
 * Memory is linear in the batch (reads + replica edges + DataNodes). ALGORITHM2 is one Dinic
 * max flow, O(E sqrt(V)), on the unit-capacity bipartite network. OPTIMAL is at most
 * {@link #WORK_BUDGET_SCANS} network scans of water-filling (most levels are filled by direct
 * paths in O(n) each) plus, past the budget, O(log m) warm-started max flows. Batches over
 * {@code maxReads} are rejected rather than risk a long stall inside the NameNode.
 *
 * <p>Immutable and thread-safe; DataNodes that hold no replica of the batch are ignored (the
 * batch cannot change their load). No Hadoop types.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class ReplicaBalancer {
  /**
   * Work allowed to OPTIMAL's water-filling, in full scans of the flow network, before it
   * switches to bisection. Measured: under 40 with replicas spread uniformly, about 80 when a
   * few DataNodes hold most replicas; a bisection costs roughly 15-30. The bound keeps the
   * worst case (thousands of levels, or many levels each needing long augmenting paths) at
   * O(E) times a constant before the O(log m) max flows of the bisection.
   */
  static final int WORK_BUDGET_SCANS = 96;

  /** Default bound on reads per batch. */
  public static final int DEFAULT_MAX_READS = 1 << 16;

  private final Strategy strategy;
  private final long seed;
  private final int maxReads;
  private final int levelBudget;

  /** {@link Strategy#OPTIMAL}, seed 0, {@link #DEFAULT_MAX_READS}. */
  public ReplicaBalancer() {
    this(Strategy.OPTIMAL, 0L, DEFAULT_MAX_READS);
  }

  public ReplicaBalancer(Strategy strategy, long seed) {
    this(strategy, seed, DEFAULT_MAX_READS);
  }

  /**
   * @param strategy how to choose replicas; not null
   * @param seed     tie-breaking seed
   * @param maxReads largest batch accepted, >= 1
   */
  public ReplicaBalancer(Strategy strategy, long seed, int maxReads) {
    this(strategy, seed, maxReads, Integer.MAX_VALUE);
  }

  /** Tests cap the water-filling levels to exercise OPTIMAL's bisection phase on tiny batches. */
  ReplicaBalancer(Strategy strategy, long seed, int maxReads, int levelBudget) {
    Objects.requireNonNull(strategy, "strategy");
    if (maxReads < 1) {
      throw new IllegalArgumentException("maxReads must be >= 1, got " + maxReads);
    }
    if (levelBudget < 0) {
      throw new IllegalArgumentException("levelBudget must be >= 0, got " + levelBudget);
    }
    this.strategy = strategy;
    this.seed = seed;
    this.maxReads = maxReads;
    this.levelBudget = levelBudget;
  }

  public Strategy strategy() {
    return strategy;
  }

  public long seed() {
    return seed;
  }

  public int maxReads() {
    return maxReads;
  }

  /** The same balancer with another tie-breaking seed. */
  public ReplicaBalancer withSeed(long newSeed) {
    return new ReplicaBalancer(strategy, newSeed, maxReads, levelBudget);
  }

  /**
   * Assign every read of the batch to one of its replica holders with this balancer's strategy.
   *
   * @param reads       the batch; ids unique; may be empty
   * @param currentLoad NC: chunk reads each DataNode already serves; absent DataNodes have 0;
   *                    entries must be >= 0 for the batch's DataNodes
   * @throws IllegalArgumentException naming the bad argument, read or DataNode
   */
  public BalanceResult assign(List<ChunkRead> reads, Map<String, Integer> currentLoad) {
    CanonicalBatch b = new CanonicalBatch(reads, currentLoad, seed, maxReads);
    return strategy == Strategy.ALGORITHM2 ? algorithm2(b) : optimal(b, levelBudget);
  }

  /** Both strategies on the same batch, loads and seed (this balancer's strategy is ignored). */
  public StrategyComparison compare(List<ChunkRead> reads, Map<String, Integer> currentLoad) {
    CanonicalBatch b = new CanonicalBatch(reads, currentLoad, seed, maxReads);
    return new StrategyComparison(algorithm2(b), optimal(b, levelBudget));
  }

  /**
   * Algorithm 2's target counts C for the batch, by DataNode id (sorted by id), for every
   * DataNode holding a replica of some read. Their sum can exceed the batch size: the paper's
   * first loop fills each DataNode up to the busiest one without checking m.
   */
  public Map<String, Integer> algorithm2Targets(List<ChunkRead> reads,
      Map<String, Integer> currentLoad) {
    CanonicalBatch b = new CanonicalBatch(reads, currentLoad, seed, maxReads);
    return byDataNodeId(b, toBoxed(targets(b)));
  }

  // ---------------------------------------------------------------- Algorithm 2 + Fig. 7

  /**
   * Algorithm 2, read literally over the batch, DataNodes visited in rank (seeded) order.
   * The while loop's full round-robin passes are applied in bulk: a pass in which m is at least
   * the number of DataNodes with c_i < l_i gives each of them +1, and that set only changes
   * when some c_i reaches l_i, so k such passes at once give the same C in O(n) per batch of
   * passes instead of O(n) per chunk.
   */
  static int[] targets(CanonicalBatch b) {
    int[] c = new int[b.n];
    long m = b.m;
    long ncj = b.maxNc;
    for (int i = 0; i < b.n; i++) {
      if (b.nc[i] < ncj) {
        long gap = ncj - b.nc[i];
        c[i] = gap > b.degree[i] ? b.degree[i] : (int) gap;
        m -= c[i];
      }
    }
    while (m > 0) {
      int eligible = 0;
      int minRoom = Integer.MAX_VALUE;
      for (int i = 0; i < b.n; i++) {
        if (c[i] < b.degree[i]) {
          eligible++;
          minRoom = Math.min(minRoom, b.degree[i] - c[i]);
        }
      }
      if (eligible == 0) {
        // Cannot happen: m - sum(c) > 0 and sum(L) >= m imply some c_i < l_i.
        throw new IllegalStateException("Algorithm 2: " + m + " chunks left but no DataNode room");
      }
      long passes = Math.min(m / eligible, minRoom);
      if (passes > 0) {
        for (int i = 0; i < b.n; i++) {
          if (c[i] < b.degree[i]) {
            c[i] += (int) passes;
          }
        }
        m -= passes * eligible;
      } else {
        for (int i = 0; i < b.n && m > 0; i++) {
          if (c[i] < b.degree[i]) {
            c[i]++;
            m--;
          }
        }
      }
    }
    return c;
  }

  private static BalanceResult algorithm2(CanonicalBatch b) {
    int[] c = targets(b);
    FlowNetwork net = new FlowNetwork(b);
    for (int d = 0; d < b.n; d++) {
      net.raiseLimit(d, c[d]);
    }
    net.maxFlow();
    int[] match = net.matching();
    long[] load = b.nc.clone();
    for (int r = 0; r < b.m; r++) {
      if (match[r] >= 0) {
        load[match[r]]++;
      }
    }
    // Greedy C need not be realizable (Hall's condition); the paper leaves these reads
    // unserved, but every read must be served, so they go to their least-loaded holder.
    int unmatched = 0;
    for (int r = 0; r < b.m; r++) {
      if (match[r] < 0) {
        match[r] = leastLoaded(b.holders[r], load);
        load[match[r]]++;
        unmatched++;
      }
    }
    return result(Strategy.ALGORITHM2, b, match, load, byDataNodeId(b, toBoxed(c)),
        unmatched);
  }

  // ---------------------------------------------------------------- exact min-max

  private static BalanceResult optimal(CanonicalBatch b, int levelBudget) {
    if (b.m == 0) {
      return result(Strategy.OPTIMAL, b, new int[0], new long[0], Map.of(), 0);
    }
    FlowNetwork net = new FlowNetwork(b);

    // Phase 1, water-filling: raise the bound one useful level at a time from the bottom and
    // keep the flow maximum at every level. Sink flows never decrease while augmenting, so the
    // final flow is maximum for every level's capacities at once: it minimizes the max load
    // (the first level reaching m is B*), then the number of DataNodes at it, and in general
    // the sum of any convex function of the loads (lexicographically balanced). That matters
    // when a forced read on a hot DataNode sets B*: min-max alone would then let every other
    // DataNode fill up to B*.
    long next = Long.MAX_VALUE;
    for (long v : b.nc) {
      next = Math.min(next, v + 1); // below this every capacity is 0
    }
    long level = next - 1;
    long budget = (long) WORK_BUDGET_SCANS * net.adjacencySize();
    long levelWork = 0; // the O(n) passes per level, so many cheap levels count too
    for (int levels = 0; levels < levelBudget && net.work() + levelWork < budget; levels++) {
      levelWork += 3L * b.n;
      level = next;
      setBound(net, b, level);
      // Most of a level's flow goes along direct paths; only if that leaves spare capacity
      // does a full max flow (BFS phases) have to look for longer ones or prove there are none.
      if (net.augmentDirect() > 0 && net.flow() < b.m) {
        net.maxFlow();
      }
      if (net.flow() == b.m) {
        return optimalResult(b, net);
      }
      next = nextUsefulBound(net, b, level);
    }

    // Phase 2, only for batches whose water-filling exceeds the work budget:
    // bisection for B* above the levels done, warm-started from the max flow of the largest
    // infeasible bound held (capacities only grow), then a max flow at B* - 1 augmented to B*.
    // Still exact min-max; balance below B* is kept up to `level` and for the peak count.
    long[] greedyLoad = b.nc.clone();
    for (int r = 0; r < b.m; r++) {
      greedyLoad[leastLoaded(b.holders[r], greedyLoad)]++;
    }
    long feasible = max(greedyLoad); // any assignment's max load is feasible
    long infeasible = Math.max(level, lowerBound(b) - 1); // every bound <= this is infeasible
    IntMaxFlow.Snapshot base = net.snapshot();
    long baseBound = level;
    boolean atBase = true;
    boolean atFinal = false; // net holds: max flow at feasible - 1, augmented to feasible
    boolean first = true;
    while (feasible - infeasible > 1) {
      // First probe just above what is known infeasible: the lower bound is usually tight.
      long mid = first ? infeasible + 1 : infeasible + (feasible - infeasible) / 2;
      first = false;
      if (!atBase) {
        net.restore(base);
      }
      setBound(net, b, mid);
      if (net.maxFlow() == b.m) {
        feasible = mid;
        atBase = false;
        atFinal = baseBound == mid - 1;
      } else {
        infeasible = mid;
        base = net.snapshot();
        baseBound = mid;
        atBase = true;
        atFinal = false;
      }
    }
    long best = feasible;
    if (!atFinal) {
      if (!atBase) {
        net.restore(base);
      }
      setBound(net, b, best - 1);
      net.maxFlow();
      setBound(net, b, best);
      net.maxFlow();
    }
    if (net.flow() != b.m) {
      throw new IllegalStateException("bound " + best + " proved feasible but flow is "
          + net.flow() + " of " + b.m);
    }
    return optimalResult(b, net);
  }

  private static BalanceResult optimalResult(CanonicalBatch b, FlowNetwork net) {
    int[] match = net.matching();
    long[] load = b.nc.clone();
    for (int r = 0; r < b.m; r++) {
      load[match[r]]++;
    }
    return result(Strategy.OPTIMAL, b, match, load, Map.of(), 0);
  }

  /**
   * After a max flow at {@code level} that leaves reads unassigned: the next bound at which
   * the flow can grow. An augmenting path must end at a DataNode reachable from the source
   * in the residual graph; such a DataNode is saturated (else the flow was not maximum), so
   * its capacity grows first at bound NC + limit + 1, if it still has reads to take. Levels
   * in between add no useful capacity and are skipped. When reachability is not known (every
   * DataNode was saturated directly, no BFS ran) all DataNodes count: a smaller step, never
   * a wrong one.
   */
  private static long nextUsefulBound(FlowNetwork net, CanonicalBatch b, long level) {
    long next = Long.MAX_VALUE;
    boolean known = net.reachabilityKnown(); // else (all saturated): consider every DataNode
    for (int d = 0; d < b.n; d++) {
      int limit = net.limit(d);
      if (limit < b.degree[d] && (!known || net.reachable(d))) {
        next = Math.min(next, b.nc[d] + limit + 1);
      }
    }
    if (next <= level || next == Long.MAX_VALUE) {
      // Cannot happen: an unassigned read is reachable, and a holder with all its reads
      // would be serving that read too.
      throw new IllegalStateException("no useful bound above " + level);
    }
    return next;
  }

  /**
   * Smallest B with B >= max NC (a holder's load never drops below its NC) and
   * sum_i min(L_i, max(0, B - NC_i)) >= m (room for every read if any read could go to any of
   * its DataNodes' spare capacity, ignoring which reads share holders). Every feasible bound
   * satisfies both, so B* >= this.
   */
  static long lowerBound(CanonicalBatch b) {
    long lo = b.maxNc;
    long hi = b.maxNc + b.m; // every DataNode then has room for all reads it holds
    while (lo < hi) {
      long mid = lo + (hi - lo) / 2;
      long room = 0;
      for (int d = 0; d < b.n && room < b.m; d++) {
        room += Math.min(b.degree[d], Math.max(0, mid - b.nc[d]));
      }
      if (room >= b.m) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private static void setBound(FlowNetwork net, CanonicalBatch b, long bound) {
    for (int d = 0; d < b.n; d++) {
      // Capping at L_d keeps the int small for huge NC gaps and changes no feasibility.
      long room = Math.min(b.degree[d], Math.max(0, bound - b.nc[d]));
      net.raiseLimit(d, (int) room);
    }
  }

  // ---------------------------------------------------------------- helpers

  /** Holder with the least load; ties to the lowest (seeded) rank, as holders are ascending. */
  private static int leastLoaded(int[] holders, long[] load) {
    int best = holders[0];
    for (int k = 1; k < holders.length; k++) {
      if (load[holders[k]] < load[best]) {
        best = holders[k];
      }
    }
    return best;
  }

  private static long max(long[] a) {
    long mx = 0;
    for (long v : a) {
      mx = Math.max(mx, v);
    }
    return mx;
  }

  private static Integer[] toBoxed(int[] a) {
    Integer[] boxed = new Integer[a.length];
    for (int i = 0; i < a.length; i++) {
      boxed[i] = a[i];
    }
    return boxed;
  }

  private static <V> Map<String, V> byDataNodeId(CanonicalBatch b, V[] byRank) {
    Integer[] order = new Integer[b.n];
    for (int d = 0; d < b.n; d++) {
      order[d] = d;
    }
    Arrays.sort(order, (x, y) -> b.dnIds[x].compareTo(b.dnIds[y]));
    Map<String, V> out = new LinkedHashMap<>(b.n * 2);
    for (int d : order) {
      out.put(b.dnIds[d], byRank[d]);
    }
    return Collections.unmodifiableMap(out);
  }

  private static BalanceResult result(Strategy s, CanonicalBatch b, int[] match,
      long[] load, Map<String, Integer> targets, int unmatched) {
    Map<String, String> assignment = new LinkedHashMap<>(b.m * 2);
    for (int i = 0; i < b.m; i++) {
      int r = b.readOfInput[i];
      assignment.put(b.readIds[r], b.dnIds[match[r]]);
    }
    Long[] boxed = new Long[b.n];
    for (int d = 0; d < b.n; d++) {
      boxed[d] = load[d];
    }
    return new BalanceResult(s, assignment, byDataNodeId(b, boxed), max(load), targets,
        unmatched);
  }
}
