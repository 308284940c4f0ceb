package org.opass.tools.bench.opass;

import java.util.Collection;
import java.util.List;

/** What the simulator benchmarks share: seeds per configuration, and configurations by model. */
final class SimRuns {
  /** Suffix of a configuration's name under the seeking disk model. */
  static final String SEEK = "/seek";

  private SimRuns() {
  }

  /** Seeds 1..n: {@code seeds}, but 3 at 1,000 nodes and more (minutes each). */
  static long[] seeds(int nodes, int seeds) {
    int n = nodes >= 1000 ? Math.min(seeds, 3) : seeds;
    long[] list = new long[n];
    for (int i = 0; i < n; i++) {
      list[i] = i + 1;
    }
    return list;
  }

  /** The configuration names of one disk model, in order. */
  static List<String> names(Collection<String> all, boolean seek) {
    return all.stream().filter(n -> n.endsWith(SEEK) == seek).toList();
  }
}
