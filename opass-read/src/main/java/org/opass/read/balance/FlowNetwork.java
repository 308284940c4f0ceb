package org.opass.read.balance;

import java.util.Arrays;
import java.util.Objects;

/**
 * The Fig. 7 network as int arrays: source -> read (cap 1), read -> holder (cap 1),
 * DataNode -> sink (cap set by the caller, only ever raised). Max flow is Dinic's algorithm
 * with an iterative DFS (no recursion, so no stack risk inside the NameNode).
 *
 * <p>Capacities into the sink may only grow, which keeps the current flow feasible; that lets
 * the water-filling and the bisection go on from the max flow of a smaller bound instead of
 * starting from zero.
 * Every augmenting path carries exactly one unit because it starts with a source -> read edge.
 *
 * <p>Node numbering: 0 source, 1..m reads (batch read index + 1), m+1..m+n DataNodes (rank +
 * m + 1), m+n+1 sink. Not thread-safe; one instance per balancing call.
 */
final class FlowNetwork {
  private final int m;
  private final int n;
  private final int source;
  private final int sink;
  /** Edge e's head; e and e^1 are a forward edge and its residual twin. */
  private final int[] to;
  /** Residual capacity per edge. */
  private int[] cap;
  /** CSR adjacency: edge ids of node u are adj[start[u] .. start[u+1]). */
  private final int[] start;
  private final int[] adj;
  /** Forward edge id DataNode d -> sink. */
  private final int[] sinkEdge;
  /** First forward edge id read r -> holder; read r's edges are contiguous. */
  private final int[] readEdge;
  private final int[] readDegree;
  /** Forward edge id source -> read r. */
  private final int[] sourceEdge;
  /** Current DataNode -> sink capacity. */
  private int[] limit;
  private int flow;
  /** Adjacency entries scanned by max-flow searches so far: a deterministic measure of work. */
  private long work;
  /** Per DataNode, position in its adjacency before which no read is unassigned. */
  private final int[] scan;
  /** Whether level[] holds the residual reachability of the current flow. */
  private boolean reachabilityKnown;

  // Dinic scratch, allocated once.
  private final int[] level;
  private final int[] queue;
  private final int[] it;
  private final int[] pathEdge;
  private final int[] pathNode;

  FlowNetwork(Batch b) {
    m = b.m;
    n = b.n;
    int nodes = m + n + 2;
    source = 0;
    sink = nodes - 1;
    long edgesLong = (long) n + m + b.edgeCount();
    if (edgesLong * 2 > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("reads: batch has too many replica edges: " + edgesLong);
    }
    int edges = (int) edgesLong;
    to = new int[2 * edges];
    cap = new int[2 * edges];
    int[] from = new int[2 * edges];
    sinkEdge = new int[n];
    readEdge = new int[m];
    readDegree = new int[m];
    limit = new int[n];

    // Sink edges first so a DataNode's DFS tries the sink before bouncing back to reads.
    int e = 0;
    for (int d = 0; d < n; d++) {
      sinkEdge[d] = e;
      e = add(from, e, dnNode(d), sink, 0);
    }
    sourceEdge = new int[m];
    for (int r = 0; r < m; r++) {
      sourceEdge[r] = e;
      e = add(from, e, source, r + 1, 1);
    }
    for (int r = 0; r < m; r++) {
      readEdge[r] = e;
      readDegree[r] = b.holders[r].length;
      for (int d : b.holders[r]) {
        e = add(from, e, r + 1, dnNode(d), 1);
      }
    }

    // CSR by counting sort on the tail; a stable fill keeps insertion order per node.
    start = new int[nodes + 1];
    for (int x = 0; x < 2 * edges; x++) {
      start[from[x] + 1]++;
    }
    for (int u = 0; u < nodes; u++) {
      start[u + 1] += start[u];
    }
    adj = new int[2 * edges];
    int[] fill = new int[nodes];
    System.arraycopy(start, 0, fill, 0, nodes);
    for (int x = 0; x < 2 * edges; x++) {
      adj[fill[from[x]]++] = x;
    }

    scan = new int[n];
    for (int d = 0; d < n; d++) {
      scan[d] = start[dnNode(d)];
    }
    level = new int[nodes];
    queue = new int[nodes];
    it = new int[nodes];
    pathEdge = new int[nodes];
    pathNode = new int[nodes];
  }

  private int add(int[] from, int e, int u, int v, int c) {
    from[e] = u;
    to[e] = v;
    cap[e] = c;
    from[e + 1] = v;
    to[e + 1] = u;
    cap[e + 1] = 0;
    return e + 2;
  }

  private int dnNode(int d) {
    return m + 1 + d;
  }

  int flow() {
    return flow;
  }

  long work() {
    return work;
  }

  /** Size of the residual graph's adjacency: one full BFS scans this many entries. */
  int adjacencySize() {
    return adj.length;
  }

  /** Raise DataNode d's sink capacity to {@code newLimit}; must not lower it. */
  void raiseLimit(int d, int newLimit) {
    int delta = newLimit - limit[d];
    if (delta < 0) {
      throw new IllegalStateException("sink capacity of DataNode rank " + d
          + " would drop from " + limit[d] + " to " + newLimit);
    }
    cap[sinkEdge[d]] += delta;
    limit[d] = newLimit;
    if (delta > 0) {
      reachabilityKnown = false;
    }
  }

  /**
   * Augment along the shortest paths only (source -> unassigned read -> DataNode with spare
   * capacity -> sink), DataNodes in rank order, each taking its reads in read order. Cheap:
   * a read once assigned stays assigned (augmenting paths never return to the source), so
   * each DataNode's scan position only moves forward, O(E) over all calls.
   *
   * @return the number of DataNodes still with spare capacity; 0 means the flow is maximum
   *         (the sink edges form a saturated cut)
   */
  int augmentDirect() {
    int open = 0;
    for (int d = 0; d < n; d++) {
      int se = sinkEdge[d];
      int end = start[dnNode(d) + 1];
      while (cap[se] > 0 && scan[d] < end) {
        int back = adj[scan[d]]; // twin of read -> d, or d's sink edge
        int r = to[back] - 1;
        if (back != se && r >= 0 && r < m && cap[sourceEdge[r]] > 0) {
          int fwd = back ^ 1;
          cap[sourceEdge[r]]--;
          cap[sourceEdge[r] ^ 1]++;
          cap[fwd]--;
          cap[back]++;
          cap[se]--;
          cap[se ^ 1]++;
          flow++;
        }
        scan[d]++;
      }
      if (cap[se] > 0) {
        open++;
      }
    }
    if (open > 0) {
      reachabilityKnown = false;
    }
    return open;
  }

  boolean reachabilityKnown() {
    return reachabilityKnown;
  }

  int limit(int d) {
    return limit[d];
  }

  /**
   * Whether DataNode d is reachable from the source in the residual graph. Valid while
   * {@link #reachabilityKnown()}, i.e. right after {@link #maxFlow()}: its last BFS failed to
   * reach the sink, so it explored everything reachable.
   */
  boolean reachable(int d) {
    return level[dnNode(d)] >= 0;
  }

  /** Augment the current flow to a maximum flow; returns its value. */
  int maxFlow() {
    while (bfs()) {
      System.arraycopy(start, 0, it, 0, it.length);
      flow += blockingFlow();
    }
    reachabilityKnown = true;
    return flow;
  }

  /** Per read index, the rank of the DataNode its unit of flow goes to, or -1 if unmatched. */
  int[] matching() {
    int[] match = new int[m];
    for (int r = 0; r < m; r++) {
      match[r] = -1;
      for (int k = 0; k < readDegree[r]; k++) {
        int e = readEdge[r] + 2 * k;
        if (cap[e] == 0) { // forward capacity 1, so 0 residual means it carries the flow
          match[r] = to[e] - m - 1;
          break;
        }
      }
    }
    return match;
  }

  /** Residual state, to restart later probes from it. */
  Snapshot snapshot() {
    return new Snapshot(cap.clone(), limit.clone(), flow);
  }

  void restore(Snapshot s) {
    cap = s.cap.clone();
    limit = s.limit.clone();
    flow = s.flow;
    reachabilityKnown = false;
    for (int d = 0; d < n; d++) {
      scan[d] = start[dnNode(d)]; // restored flow may have unassigned reads behind the scan
    }
  }

  static final class Snapshot {
    private final int[] cap;
    private final int[] limit;
    private final int flow;

    public Snapshot(int[] cap, int[] limit, int flow) {
      this.cap = cap;
      this.limit = limit;
      this.flow = flow;
    }

    public int[] cap() {
      return cap;
    }

    public int[] limit() {
      return limit;
    }

    public int flow() {
      return flow;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Snapshot)) {
        return false;
      }
      Snapshot other = (Snapshot) o;
      return Arrays.equals(cap, other.cap)
          && Arrays.equals(limit, other.limit)
          && flow == other.flow;
    }

    @Override
    public int hashCode() {
      return Objects.hash(Arrays.hashCode(cap), Arrays.hashCode(limit), flow);
    }

    @Override
    public String toString() {
      return "Snapshot["
          + "cap=" + Arrays.toString(cap)
          + ", limit=" + Arrays.toString(limit)
          + ", flow=" + flow
          + "]";
    }
  }

  private boolean bfs() {
    java.util.Arrays.fill(level, -1);
    int head = 0;
    int tail = 0;
    level[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
      int u = queue[head++];
      if (level[sink] >= 0 && level[u] >= level[sink]) {
        break; // nodes at or past the sink's level are on no shortest augmenting path
      }
      work += start[u + 1] - start[u];
      for (int x = start[u]; x < start[u + 1]; x++) {
        int e = adj[x];
        int v = to[e];
        if (cap[e] > 0 && level[v] < 0) {
          level[v] = level[u] + 1;
          queue[tail++] = v;
        }
      }
    }
    return level[sink] >= 0;
  }

  /** Unit augmenting paths along the level graph; dead ends are pruned by level = -1. */
  private int blockingFlow() {
    int pushed = 0;
    int depth = 0;
    int u = source;
    while (true) {
      if (u == sink) {
        for (int k = 0; k < depth; k++) {
          cap[pathEdge[k]]--;
          cap[pathEdge[k] ^ 1]++;
        }
        pushed++;
        depth = 0;
        u = source;
        continue;
      }
      boolean advanced = false;
      for (int end = start[u + 1]; it[u] < end; it[u]++) {
        work++;
        int e = adj[it[u]];
        int v = to[e];
        if (cap[e] > 0 && level[v] == level[u] + 1) {
          pathEdge[depth] = e;
          pathNode[depth] = u;
          depth++;
          u = v;
          advanced = true;
          break;
        }
      }
      if (!advanced) {
        if (depth == 0) {
          return pushed;
        }
        level[u] = -1;
        depth--;
        u = pathNode[depth];
        it[u]++;
      }
    }
  }
}
