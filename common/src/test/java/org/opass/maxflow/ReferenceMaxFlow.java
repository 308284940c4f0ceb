package org.opass.maxflow;

import org.jgrapht.Graph;
import org.jgrapht.alg.flow.PushRelabelMFImpl;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * A max flow that shares no code with {@link IntMaxFlow}, for tests to check ours against:
 * JGraphT's push-relabel on a network given arc by arc. A vertex exists once an arc names it;
 * an arc given twice adds up.
 */
public final class ReferenceMaxFlow<V> {
  private final Graph<V, DefaultWeightedEdge> g =
      new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);

  public ReferenceMaxFlow<V> arc(V from, V to, double capacity) {
    g.addVertex(from);
    g.addVertex(to);
    DefaultWeightedEdge e = g.getEdge(from, to);
    if (e == null) {
      g.setEdgeWeight(g.addEdge(from, to), capacity);
    } else {
      g.setEdgeWeight(e, g.getEdgeWeight(e) + capacity);
    }
    return this;
  }

  /** Whether an arc named {@code vertex} yet. */
  public boolean has(V vertex) {
    return g.containsVertex(vertex);
  }

  /** The value of a maximum flow from {@code source} to {@code sink} (0 if either is bare). */
  public long value(V source, V sink) {
    g.addVertex(source);
    g.addVertex(sink);
    return Math.round(new PushRelabelMFImpl<>(g).getMaximumFlowValue(source, sink));
  }
}
