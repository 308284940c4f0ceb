package org.opass.tools.sim;

import java.util.PriorityQueue;

/**
 * Max-min fair rates of flows over shared resources: every flow's rate grows at the same pace
 * until a resource it uses is full; flows through a full resource keep the rate they have, the
 * others go on growing. This is how a DataNode's bandwidth is shared among its streams in the
 * flow-level model, and why a write pipeline moves at the pace of its slowest member: the
 * pipeline is one flow using each of its DataNodes.
 *
 * <p>Computed by water-filling over a heap of resources keyed by their fair level (capacity
 * left over unfrozen flows through it): the lowest is the next bottleneck, its flows freeze at
 * that level, and only the resources those flows also use change level. That is
 * O((flows x members + resources) log resources) per call, so 4,000 pipelines over 1,000
 * DataNodes take about a millisecond. Pure arithmetic on arrays, no Hadoop types.
 */
public final class FairShare {
  private FairShare() {
  }

  /**
   * The rate of every flow.
   *
   * @param flows for each flow, the resources it uses (each at most once)
   * @param capacity each resource's capacity (units per second), all positive
   */
  public static double[] rates(int[][] flows, double[] capacity) {
    int resources = capacity.length;
    double[] left = capacity.clone();
    int[] users = new int[resources]; // unfrozen flows through each resource
    for (int[] f : flows) {
      for (int r : f) {
        users[r]++;
      }
    }
    int[][] through = new int[resources][];
    for (int r = 0; r < resources; r++) {
      through[r] = new int[users[r]];
    }
    int[] filled = new int[resources];
    for (int f = 0; f < flows.length; f++) {
      for (int r : flows[f]) {
        through[r][filled[r]++] = f;
      }
    }
    // heap entries are {level, resource, version}; a resource's older entries are stale
    int[] version = new int[resources];
    PriorityQueue<double[]> heap = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
    for (int r = 0; r < resources; r++) {
      if (users[r] > 0) {
        heap.add(new double[] {left[r] / users[r], r, 0});
      }
    }
    double[] rate = new double[flows.length]; // a flow using nothing stays at 0, not infinity
    boolean[] frozen = new boolean[flows.length];
    while (!heap.isEmpty()) {
      double[] top = heap.poll();
      int r = (int) top[1];
      if (top[2] != version[r] || users[r] == 0) {
        continue;
      }
      double level = top[0];
      for (int f : through[r]) {
        if (frozen[f]) {
          continue;
        }
        frozen[f] = true;
        rate[f] = level;
        for (int q : flows[f]) {
          if (q != r) {
            left[q] -= level;
            users[q]--;
            version[q]++;
            if (users[q] > 0) {
              // never below this level: q's level was at least this one before
              heap.add(new double[] {Math.max(level, left[q] / users[q]), q, version[q]});
            }
          }
        }
      }
      users[r] = 0;
    }
    return rate;
  }

  /** For tests and reports: the total rate through each resource. */
  public static double[] load(int[][] flows, double[] rates, int resources) {
    double[] load = new double[resources];
    for (int f = 0; f < flows.length; f++) {
      for (int r : flows[f]) {
        load[r] += rates[f];
      }
    }
    return load;
  }
}
