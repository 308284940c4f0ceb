package org.opass.read.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.opass.maxflow.ReferenceMaxFlow;

/** Random instances and independent reference solutions shared by the planner tests. */
final class PlanTestSupport {
  private PlanTestSupport() {
  }

  static List<Proc> processes(Random rnd, int m, int hosts) {
    List<Proc> procs = new ArrayList<>();
    for (int i = 0; i < m; i++) {
      procs.add(new Proc(100 + i, "h" + rnd.nextInt(hosts)));
    }
    return procs;
  }

  /** Chunks with 1..maxReplicas distinct replicas on hosts h0..h(hosts+extra-1). */
  static List<Chunk> chunks(Random rnd, int n, int hosts, int maxReplicas) {
    List<Chunk> chunks = new ArrayList<>();
    for (int c = 0; c < n; c++) {
      int r = Math.min(hosts, 1 + rnd.nextInt(maxReplicas));
      List<String> hs = new ArrayList<>();
      while (hs.size() < r) {
        String h = "h" + rnd.nextInt(hosts);
        if (!hs.contains(h)) {
          hs.add(h);
        }
      }
      chunks.add(new Chunk(10 * c, "/f" + c, 0, 1 + rnd.nextInt(1000), hs));
    }
    return chunks;
  }

  /**
   * Max local chunks under balanced shares, with JGraphT on the direct network (one arc per
   * co-located (process, chunk) pair, no host nodes): independent of IntMaxFlow and of the
   * host-node construction.
   */
  static int jgraphtLocalOptimum(List<Chunk> chunks, List<Proc> procs) {
    int n = chunks.size();
    int m = procs.size();
    ReferenceMaxFlow<String> g = new ReferenceMaxFlow<>();
    g.arc("s", "x", n % m);
    for (int p = 0; p < m; p++) {
      g.arc("s", "p" + p, n / m);
      g.arc("x", "p" + p, 1);
    }
    for (int c = 0; c < n; c++) {
      g.arc("c" + c, "t", 1);
      for (int p = 0; p < m; p++) {
        if (chunks.get(c).isOn(procs.get(p).host())) {
          g.arc("p" + p, "c" + c, 1);
        }
      }
    }
    return (int) g.value("s", "t");
  }

  /** Max local chunks over every assignment where each process gets floor or ceil of n/m. */
  static int bruteForceLocalOptimum(List<Chunk> chunks, List<Proc> procs) {
    int n = chunks.size();
    int m = procs.size();
    int[] owner = new int[n];
    int best = -1;
    long total = (long) Math.pow(m, n);
    for (long code = 0; code < total; code++) {
      long x = code;
      int[] count = new int[m];
      for (int c = 0; c < n; c++) {
        owner[c] = (int) (x % m);
        x /= m;
        count[owner[c]]++;
      }
      if (!balanced(count, n)) {
        continue;
      }
      int local = 0;
      for (int c = 0; c < n; c++) {
        if (chunks.get(c).isOn(procs.get(owner[c]).host())) {
          local++;
        }
      }
      best = Math.max(best, local);
    }
    return best;
  }

  static boolean balanced(int[] count, int n) {
    int m = count.length;
    int ceil = 0;
    for (int c : count) {
      if (c == n / m + 1) {
        ceil++;
      } else if (c != n / m) {
        return false;
      }
    }
    return ceil == n % m;
  }
}
