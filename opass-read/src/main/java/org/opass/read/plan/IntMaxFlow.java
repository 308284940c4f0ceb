package org.opass.read.plan;

import java.util.Arrays;

/**
 * Dinic's maximum flow on plain int arrays.
 *
 * <p>Written for the planner's bipartite networks (tens of thousands of nodes, a few hundred
 * thousand arcs, unit capacities into the sink), where a generic object-graph max-flow spends
 * most of its time allocating and hashing. On unit-capacity bipartite networks Dinic behaves
 * like Hopcroft-Karp: O(E &radic;V). The blocking-flow search is iterative because augmenting
 * paths in a bipartite residual graph can be tens of thousands of arcs long.
 *
 * <p>Not thread-safe; build, call {@link #maxFlow} once, then read {@link #flow}.
 */
public final class IntMaxFlow {
  private final int nodes;
  private int[] head;
  // arc e and its reverse e ^ 1 are stored next to each other
  private int[] next;
  private int[] to;
  private int[] cap;
  private int[] original;
  private int arcs;
  private boolean solved;

  /** A network with nodes {@code 0 .. nodes-1} and no arcs yet. */
  public IntMaxFlow(int nodes) {
    this(nodes, 16);
  }

  /** Same, with room for {@code edgeHint} edges before the arrays grow. */
  public IntMaxFlow(int nodes, int edgeHint) {
    if (nodes < 2) {
      throw new IllegalArgumentException("nodes must be >= 2, got " + nodes);
    }
    this.nodes = nodes;
    head = new int[nodes];
    Arrays.fill(head, -1);
    int size = Math.max(2, 2 * Math.max(1, edgeHint));
    next = new int[size];
    to = new int[size];
    cap = new int[size];
    original = new int[size];
  }

  public int nodes() {
    return nodes;
  }

  /** Number of edges added so far. */
  public int edges() {
    return arcs / 2;
  }

  /**
   * Adds an edge {@code from -> to} with the given capacity.
   *
   * @return the edge's id, for {@link #flow}
   */
  public int addEdge(int from, int to, int capacity) {
    if (solved) {
      throw new IllegalStateException("maxFlow was already computed; build a new network");
    }
    checkNode("from", from);
    checkNode("to", to);
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
    }
    if (arcs + 2 > next.length) {
      int n = next.length * 2;
      next = Arrays.copyOf(next, n);
      this.to = Arrays.copyOf(this.to, n);
      cap = Arrays.copyOf(cap, n);
      original = Arrays.copyOf(original, n);
    }
    int e = arcs;
    link(e, from, to, capacity);
    link(e + 1, to, from, 0);
    arcs += 2;
    return e / 2;
  }

  private void link(int e, int from, int target, int capacity) {
    to[e] = target;
    cap[e] = capacity;
    original[e] = capacity;
    next[e] = head[from];
    head[from] = e;
  }

  /** Flow on edge {@code edge} after {@link #maxFlow}. */
  public int flow(int edge) {
    if (edge < 0 || 2 * edge >= arcs) {
      throw new IllegalArgumentException("edge must be in [0, " + edges() + "), got " + edge);
    }
    return original[2 * edge] - cap[2 * edge];
  }

  /** Computes a maximum flow from {@code source} to {@code sink} and returns its value. */
  public long maxFlow(int source, int sink) {
    checkNode("source", source);
    checkNode("sink", sink);
    if (source == sink) {
      throw new IllegalArgumentException("source and sink must differ, both are " + source);
    }
    if (solved) {
      throw new IllegalStateException("maxFlow was already computed; build a new network");
    }
    solved = true;
    int[] level = new int[nodes];
    int[] queue = new int[nodes];
    int[] it = new int[nodes];
    int[] path = new int[nodes];
    long total = 0;
    while (bfs(source, sink, level, queue)) {
      System.arraycopy(head, 0, it, 0, nodes);
      total += blockingFlow(source, sink, level, it, path);
    }
    return total;
  }

  private boolean bfs(int s, int t, int[] level, int[] queue) {
    Arrays.fill(level, -1);
    level[s] = 0;
    int qh = 0;
    int qt = 0;
    queue[qt++] = s;
    while (qh < qt) {
      int v = queue[qh++];
      int lv = level[v] + 1;
      for (int e = head[v]; e != -1; e = next[e]) {
        int w = to[e];
        if (cap[e] > 0 && level[w] < 0) {
          level[w] = lv;
          if (w == t) {
            // nodes further than t cannot be on a shortest path; stop here
            return true;
          }
          queue[qt++] = w;
        }
      }
    }
    return false;
  }

  /** Augments along shortest paths until none is left in the level graph. */
  private long blockingFlow(int s, int t, int[] level, int[] it, int[] path) {
    long total = 0;
    int depth = 0;
    int v = s;
    while (true) {
      if (v == t) {
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
        v = depth == 0 ? s : to[path[depth - 1]];
        continue;
      }
      int e = it[v];
      int want = level[v] + 1;
      while (e != -1 && (cap[e] == 0 || level[to[e]] != want)) {
        e = next[e];
      }
      it[v] = e;
      if (e != -1) {
        path[depth++] = e;
        v = to[e];
      } else {
        if (depth == 0) {
          return total;
        }
        // dead end: no shortest path goes through v any more
        level[v] = -1;
        v = depth == 1 ? s : to[path[depth - 2]];
        depth--;
      }
    }
  }

  private void checkNode(String what, int v) {
    if (v < 0 || v >= nodes) {
      throw new IllegalArgumentException(what + " must be in [0, " + nodes + "), got " + v);
    }
  }
}
