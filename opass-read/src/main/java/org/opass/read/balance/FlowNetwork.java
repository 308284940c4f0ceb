package org.opass.read.balance;

import org.opass.maxflow.IntMaxFlow;

/**
 * The Fig. 7 network of a batch: source -> read (cap 1), read -> holder (cap 1), DataNode ->
 * sink (cap set by the caller, only ever raised), solved by {@link IntMaxFlow}.
 *
 * <p>Capacities into the sink may only grow, which keeps the current flow feasible; that lets
 * the water-filling and the bisection go on from the max flow of a smaller bound instead of
 * starting from zero.
 *
 * <p>Node numbering: 0 source, 1..m reads (batch read index + 1), m+1..m+n DataNodes (rank +
 * m + 1), m+n+1 sink. Not thread-safe; one instance per balancing call.
 */
final class FlowNetwork {
  private final int m;
  private final int n;
  private final int source;
  private final int sink;
  private final IntMaxFlow flow;
  /** Edge DataNode d -> sink. */
  private final int[] sinkEdge;
  /** Edge source -> read r. */
  private final int[] sourceEdge;
  /** First edge read r -> holder; read r's edges are contiguous. */
  private final int[] readEdge;
  private final int[] readDegree;
  private final int[][] holders;
  /** Per DataNode, the reads it holds in read order, and their edges to it. */
  private final int[][] incoming;
  private final int[][] incomingEdge;
  /** Per DataNode, position in {@link #incoming} before which no read is unassigned. */
  private final int[] scan;

  FlowNetwork(CanonicalBatch b) {
    m = b.m;
    n = b.n;
    int nodes = m + n + 2;
    source = 0;
    sink = nodes - 1;
    long edges = (long) n + m + b.edgeCount();
    if (edges * 2 > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("reads: batch has too many replica edges: " + edges);
    }
    flow = new IntMaxFlow(nodes, (int) edges);
    // Sink edges first, so that a DataNode's search tries the sink before going back to reads.
    sinkEdge = new int[n];
    for (int d = 0; d < n; d++) {
      sinkEdge[d] = flow.addEdge(dnNode(d), sink, 0);
    }
    sourceEdge = new int[m];
    for (int r = 0; r < m; r++) {
      sourceEdge[r] = flow.addEdge(source, r + 1, 1);
    }
    holders = b.holders;
    readEdge = new int[m];
    readDegree = new int[m];
    int[] into = new int[n];
    for (int r = 0; r < m; r++) {
      readEdge[r] = flow.edges();
      readDegree[r] = b.holders[r].length;
      for (int d : b.holders[r]) {
        flow.addEdge(r + 1, dnNode(d), 1);
        into[d]++;
      }
    }
    incoming = new int[n][];
    incomingEdge = new int[n][];
    for (int d = 0; d < n; d++) {
      incoming[d] = new int[into[d]];
      incomingEdge[d] = new int[into[d]];
      into[d] = 0;
    }
    for (int r = 0; r < m; r++) {
      for (int k = 0; k < readDegree[r]; k++) {
        int d = b.holders[r][k];
        incoming[d][into[d]] = r;
        incomingEdge[d][into[d]++] = readEdge[r] + k;
      }
    }
    scan = new int[n];
  }

  private int dnNode(int d) {
    return m + 1 + d;
  }

  int flow() {
    return (int) flow.value();
  }

  long work() {
    return flow.work();
  }

  /** Size of the residual graph's adjacency: one full search scans this many entries. */
  int adjacencySize() {
    return flow.arcs();
  }

  /** Raise DataNode d's sink capacity to {@code newLimit}; must not lower it. */
  void raiseLimit(int d, int newLimit) {
    flow.raiseCapacity(sinkEdge[d], newLimit);
  }

  int limit(int d) {
    return flow.capacity(sinkEdge[d]);
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
      int[] in = incoming[d];
      while (flow.residual(se) > 0 && scan[d] < in.length) {
        flow.augment(sourceEdge[in[scan[d]]], incomingEdge[d][scan[d]], se);
        scan[d]++;
      }
      if (flow.residual(se) > 0) {
        open++;
      }
    }
    return open;
  }

  boolean reachabilityKnown() {
    return flow.reachabilityKnown();
  }

  /**
   * Whether DataNode d is reachable from the source in the residual graph. Valid while
   * {@link #reachabilityKnown()}, i.e. right after {@link #maxFlow()}.
   */
  boolean reachable(int d) {
    return flow.reachable(dnNode(d));
  }

  /** Augment the current flow to a maximum flow; returns its value. */
  int maxFlow() {
    return (int) flow.maxFlow(source, sink);
  }

  /** Per read index, the rank of the DataNode its unit of flow goes to, or -1 if unmatched. */
  int[] matching() {
    int[] match = new int[m];
    for (int r = 0; r < m; r++) {
      match[r] = -1;
      for (int k = 0; k < readDegree[r]; k++) {
        int e = readEdge[r] + k;
        if (flow.flow(e) > 0) {
          match[r] = holders[r][k];
          break;
        }
      }
    }
    return match;
  }

  /** Residual state, to restart later probes from it. */
  IntMaxFlow.Snapshot snapshot() {
    return flow.snapshot();
  }

  void restore(IntMaxFlow.Snapshot s) {
    flow.restore(s);
    java.util.Arrays.fill(scan, 0); // the restored flow may have unassigned reads behind a scan
  }
}
