package org.opass.e2e.sim;

/**
 * Max-min fair rates of flows over shared resources, by progressive filling: every flow's rate
 * grows at the same pace until a resource it uses is full; flows through a full resource keep
 * the rate they have, the others go on growing. This is how a DataNode's bandwidth is shared
 * among its streams in the flow-level model, and why a write pipeline moves at the pace of its
 * slowest member: the pipeline is one flow using each of its DataNodes.
 *
 * <p>Pure arithmetic on arrays, no Hadoop types.
 */
public final class FairShare {
  private static final double FULL = 1e-9; // relative: a resource this close to full is full

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
    double[] rate = new double[flows.length];
    boolean[] frozen = new boolean[flows.length];
    int unfrozen = flows.length;
    for (int f = 0; f < flows.length; f++) {
      if (flows[f].length == 0) { // uses nothing: unbounded, report 0 rather than infinity
        frozen[f] = true;
        unfrozen--;
      }
    }
    while (unfrozen > 0) {
      double step = Double.POSITIVE_INFINITY;
      for (int r = 0; r < resources; r++) {
        if (users[r] > 0) {
          step = Math.min(step, left[r] / users[r]);
        }
      }
      for (int f = 0; f < flows.length; f++) {
        if (!frozen[f]) {
          rate[f] += step;
        }
      }
      boolean[] full = new boolean[resources];
      for (int r = 0; r < resources; r++) {
        if (users[r] > 0) {
          left[r] -= step * users[r];
          full[r] = left[r] <= FULL * capacity[r];
        }
      }
      for (int f = 0; f < flows.length; f++) {
        if (frozen[f]) {
          continue;
        }
        for (int r : flows[f]) {
          if (full[r]) {
            frozen[f] = true;
            unfrozen--;
            for (int q : flows[f]) {
              users[q]--;
            }
            break;
          }
        }
      }
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
