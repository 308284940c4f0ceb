package org.opass.maxflow;

import java.util.Arrays;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * Dinic's maximum flow on plain int arrays: the one max-flow of the planner
 * ({@code plan.EqualAssignment}) and of the NameNode's replica balancer
 * ({@code balance.ReplicaBalancer}).
 *
 * <p>Written for bipartite read networks (tens of thousands of nodes, a few hundred thousand
 * arcs, small capacities), where a generic object-graph max-flow spends most of its time
 * allocating and hashing. On unit-capacity bipartite networks Dinic behaves like Hopcroft-Karp:
 * O(E &radic;V). The searches are iterative: augmenting paths in a bipartite residual graph can
 * be tens of thousands of arcs long, and this code runs inside the NameNode.
 *
 * <p>Edges are added first; the first {@link #maxFlow} lays them out by tail (each node's edges
 * in the order they were added, so callers choose what a search tries first). After that,
 * capacities may only be raised ({@link #raiseCapacity}), which keeps the current flow
 * feasible, and {@link #maxFlow} goes on from the current flow: a caller can solve for growing
 * bounds without starting from zero. {@link #snapshot}/{@link #restore} go back to an earlier
 * state. Not thread-safe.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class IntMaxFlow {
  private final int nodes;
  // arc 2e is edge e, arc 2e+1 its residual twin
  private int[] tail;
  private int[] head;
  private int[] cap;
  private int[] capacity; // of edge e, at index e
  private int arcs;
  private long value;
  private long work;
  private int source = -1;
  private int sink = -1;
  private boolean reachabilityKnown;

  // laid out at the first maxFlow: arcs of node u are adj[start[u] .. start[u + 1])
  private int[] start;
  private int[] adj;
  private int[] level;
  private int[] queue;
  private int[] it;
  private int[] path;

  /** A network with nodes {@code 0 .. nodes-1} and no edges yet. */
  public IntMaxFlow(int nodes) {
    this(nodes, 16);
  }

  /** Same, with room for {@code edgeHint} edges before the arrays grow. */
  public IntMaxFlow(int nodes, int edgeHint) {
    if (nodes < 2) {
      throw new IllegalArgumentException("nodes must be >= 2, got " + nodes);
    }
    this.nodes = nodes;
    int size = 2 * Math.max(1, edgeHint);
    tail = new int[size];
    head = new int[size];
    cap = new int[size];
    capacity = new int[size / 2];
  }

  public int nodes() {
    return nodes;
  }

  /** Number of edges added. */
  public int edges() {
    return arcs / 2;
  }

  /**
   * Adds an edge {@code from -> to} with the given capacity, before the first
   * {@link #maxFlow}.
   *
   * @return the edge's id: 0, 1, 2, ... in the order edges are added
   */
  public int addEdge(int from, int to, int capacity) {
    if (start != null) {
      throw new IllegalStateException("edges are fixed once maxFlow has run; build a new "
          + "network");
    }
    checkNode("from", from);
    checkNode("to", to);
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
    }
    if (arcs + 2 > head.length) {
      if (head.length > Integer.MAX_VALUE / 2 - 8) {
        throw new IllegalArgumentException("too many edges: " + edges());
      }
      int n = head.length * 2;
      tail = Arrays.copyOf(tail, n);
      head = Arrays.copyOf(head, n);
      cap = Arrays.copyOf(cap, n);
      this.capacity = Arrays.copyOf(this.capacity, n / 2);
    }
    int e = arcs;
    tail[e] = from;
    head[e] = to;
    cap[e] = capacity;
    tail[e + 1] = to;
    head[e + 1] = from;
    this.capacity[e / 2] = capacity;
    arcs += 2;
    return e / 2;
  }

  /** Raises edge {@code edge}'s capacity to {@code newCapacity}; lowering it is refused. */
  public void raiseCapacity(int edge, int newCapacity) {
    checkEdge(edge);
    int delta = newCapacity - capacity[edge];
    if (delta < 0) {
      throw new IllegalArgumentException("capacity of edge " + edge + " would drop from "
          + capacity[edge] + " to " + newCapacity);
    }
    if (delta > 0) {
      capacity[edge] = newCapacity;
      cap[2 * edge] += delta;
      reachabilityKnown = false;
    }
  }

  public int capacity(int edge) {
    checkEdge(edge);
    return capacity[edge];
  }

  /** Flow on edge {@code edge}. */
  public int flow(int edge) {
    checkEdge(edge);
    return capacity[edge] - cap[2 * edge];
  }

  /** Capacity left on edge {@code edge}. */
  public int residual(int edge) {
    checkEdge(edge);
    return cap[2 * edge];
  }

  /**
   * Sends one more unit along the path {@code first, second, third} from the source to the
   * sink, which the caller knows (a cheap augmentation that needs no search), if each of the
   * three edges has capacity left.
   *
   * @return whether the unit was sent; nothing changes if not
   */
  public boolean augment(int first, int second, int third) {
    if (residual(first) <= 0 || residual(second) <= 0 || residual(third) <= 0) {
      return false;
    }
    push(first);
    push(second);
    push(third);
    value++;
    reachabilityKnown = false;
    return true;
  }

  private void push(int edge) {
    cap[2 * edge]--;
    cap[2 * edge + 1]++;
  }

  /** Value of the current flow. */
  public long value() {
    return value;
  }

  /** Arcs scanned by searches so far: a deterministic measure of the work done. */
  public long work() {
    return work;
  }

  /** Residual arcs (twice the edges): one full breadth-first search scans this many. */
  public int arcs() {
    return arcs;
  }

  /**
   * Augments the current flow to a maximum flow from {@code source} to {@code sink} (the same
   * pair on every call) and returns its value.
   */
  public long maxFlow(int source, int sink) {
    checkNode("source", source);
    checkNode("sink", sink);
    if (source == sink) {
      throw new IllegalArgumentException("source and sink must differ, both are " + source);
    }
    if (this.source >= 0 && (this.source != source || this.sink != sink)) {
      throw new IllegalArgumentException("this network's flow runs from " + this.source
          + " to " + this.sink + "; build a new network for " + source + " to " + sink);
    }
    this.source = source;
    this.sink = sink;
    if (start == null) {
      layOut();
    }
    while (bfs()) {
      System.arraycopy(start, 0, it, 0, nodes);
      value += blockingFlow();
    }
    reachabilityKnown = true;
    return value;
  }

  /**
   * Whether {@code node} is reachable from the source in the residual graph. Known right
   * after {@link #maxFlow} (its last search failed to reach the sink, so it explored
   * everything reachable) until the next change.
   *
   * @throws IllegalStateException if it is not known
   */
  public boolean reachable(int node) {
    checkNode("node", node);
    if (!reachabilityKnown) {
      throw new IllegalStateException("reachability is known right after maxFlow only");
    }
    return level[node] >= 0;
  }

  public boolean reachabilityKnown() {
    return reachabilityKnown;
  }

  /** The residual state, to go back to with {@link #restore}. */
  public Snapshot snapshot() {
    return new Snapshot(Arrays.copyOf(cap, arcs), Arrays.copyOf(capacity, arcs / 2), value);
  }

  /** Goes back to the state of {@code s}, a snapshot of this network. */
  public void restore(Snapshot s) {
    if (s.cap.length != arcs) {
      throw new IllegalArgumentException("a snapshot of another network");
    }
    System.arraycopy(s.cap, 0, cap, 0, arcs);
    System.arraycopy(s.capacity, 0, capacity, 0, arcs / 2);
    value = s.value;
    reachabilityKnown = false;
  }

  /** A residual state of one network. */
  public static final class Snapshot {
    private final int[] cap;
    private final int[] capacity;
    private final long value;

    private Snapshot(int[] cap, int[] capacity, long value) {
      this.cap = cap;
      this.capacity = capacity;
      this.value = value;
    }

    public long value() {
      return value;
    }
  }

  /** Arcs grouped by tail by a stable counting sort: each node's arcs in insertion order. */
  private void layOut() {
    start = new int[nodes + 1];
    for (int x = 0; x < arcs; x++) {
      start[tail[x] + 1]++;
    }
    for (int u = 0; u < nodes; u++) {
      start[u + 1] += start[u];
    }
    adj = new int[arcs];
    int[] fill = Arrays.copyOf(start, nodes);
    for (int x = 0; x < arcs; x++) {
      adj[fill[tail[x]]++] = x;
    }
    tail = null; // not needed any more
    level = new int[nodes];
    queue = new int[nodes];
    it = new int[nodes];
    path = new int[nodes];
  }

  private boolean bfs() {
    Arrays.fill(level, -1);
    level[source] = 0;
    int qh = 0;
    int qt = 0;
    queue[qt++] = source;
    while (qh < qt) {
      int u = queue[qh++];
      int lv = level[u] + 1;
      work += start[u + 1] - start[u];
      for (int x = start[u]; x < start[u + 1]; x++) {
        int e = adj[x];
        int v = head[e];
        if (cap[e] > 0 && level[v] < 0) {
          level[v] = lv;
          if (v == sink) {
            return true; // nodes further than the sink are on no shortest path
          }
          queue[qt++] = v;
        }
      }
    }
    return false;
  }

  /** Augments along shortest paths until none is left in the level graph. */
  private long blockingFlow() {
    long total = 0;
    int depth = 0;
    int u = source;
    while (true) {
      if (u == sink) {
        int f = Integer.MAX_VALUE;
        for (int i = 0; i < depth; i++) {
          f = Math.min(f, cap[path[i]]);
        }
        int restart = depth;
        for (int i = depth - 1; i >= 0; i--) {
          int e = path[i];
          cap[e] -= f;
          cap[e ^ 1] += f;
          if (cap[e] == 0) {
            restart = i;
          }
        }
        total += f;
        // resume from the tail of the first saturated arc; the prefix is still usable
        depth = restart;
        u = depth == 0 ? source : head[path[depth - 1]];
        continue;
      }
      int x = it[u];
      int end = start[u + 1];
      int want = level[u] + 1;
      while (x < end && (cap[adj[x]] == 0 || level[head[adj[x]]] != want)) {
        x++;
      }
      work += x - it[u] + 1;
      it[u] = x;
      if (x < end) {
        path[depth++] = adj[x];
        u = head[adj[x]];
      } else {
        if (depth == 0) {
          return total;
        }
        // dead end: no shortest path goes through u any more
        level[u] = -1;
        depth--;
        u = depth == 0 ? source : head[path[depth - 1]];
      }
    }
  }

  private void checkEdge(int edge) {
    if (edge < 0 || 2 * edge >= arcs) {
      throw new IllegalArgumentException("edge must be in [0, " + edges() + "), got " + edge);
    }
  }

  private void checkNode(String what, int v) {
    if (v < 0 || v >= nodes) {
      throw new IllegalArgumentException(what + " must be in [0, " + nodes + "), got " + v);
    }
  }
}
