package org.opass.read.plan;

import java.util.HashMap;
import java.util.Map;
import org.jgrapht.Graph;
import org.jgrapht.alg.flow.mincost.CapacityScalingMinimumCostFlow;
import org.jgrapht.alg.flow.mincost.MinimumCostFlowProblem;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * The largest total co-located bytes of any assignment with the given quotas, by a min-cost
 * flow (JGraphT): the optimum the tests hold Algorithm 1 ({@link MultiInputAssignment}) against.
 * In the test sources, so that no jar we ship needs JGraphT.
 */
final class MinCostOptimum {
  private MinCostOptimum() {
  }

  /** The optimum for a plan's tasks, processes and quotas. */
  static long of(MultiInputPlan plan) {
    return of(plan.colocation(), plan.quotas());
  }

  /** The optimum for a table of matching values ({@code values[process][task]}). */
  static long of(long[][] values, int[] quotas) {
    return of(Colocation.of(values), quotas);
  }

  /**
   * Min-cost flow: process i supplies quota_i units, each task demands one. A unit reaches task
   * j either over arc i&rarr;j (only where m_i^j &gt; 0) or through a shared "anywhere" node z;
   * costs are max &minus; m_i^j and max, so all costs are &ge; 0 and the cost of a full flow is
   * n &middot; max &minus; (co-located bytes).
   */
  static long of(Colocation v, int[] quota) {
    int m = v.processes;
    int n = v.tasks;
    if (n == 0) {
      return 0;
    }
    long max = 0;
    for (long[] vals : v.taskValue) {
      for (long x : vals) {
        max = Math.max(max, x);
      }
    }
    if (max == 0) {
      return 0;
    }
    if ((double) max * n > (double) (1L << 52)) {
      throw new IllegalArgumentException("values too large for an exact min-cost flow: "
          + n + " tasks with values up to " + max + " bytes");
    }
    Graph<Integer, DefaultWeightedEdge> g = new SimpleDirectedWeightedGraph<>(
        DefaultWeightedEdge.class);
    int z = m + n;
    for (int i = 0; i <= z; i++) {
      g.addVertex(i);
    }
    Map<DefaultWeightedEdge, Integer> capacity = new HashMap<>();
    for (int i = 0; i < m; i++) {
      DefaultWeightedEdge e = g.addEdge(i, z);
      g.setEdgeWeight(e, max);
      capacity.put(e, quota[i]);
    }
    for (int t = 0; t < n; t++) {
      DefaultWeightedEdge e = g.addEdge(z, m + t);
      g.setEdgeWeight(e, 0);
      capacity.put(e, 1);
      for (int k = 0; k < v.taskProc[t].length; k++) {
        DefaultWeightedEdge a = g.addEdge(v.taskProc[t][k], m + t);
        g.setEdgeWeight(a, max - v.taskValue[t][k]);
        capacity.put(a, 1);
      }
    }
    MinimumCostFlowProblem<Integer, DefaultWeightedEdge> problem =
        new MinimumCostFlowProblem.MinimumCostFlowProblemImpl<>(g,
            node -> node < m ? quota[node] : node < z ? -1 : 0, capacity::get);
    double cost = new CapacityScalingMinimumCostFlow<Integer, DefaultWeightedEdge>()
        .getMinimumCostFlow(problem).getCost();
    return n * max - Math.round(cost);
  }
}
