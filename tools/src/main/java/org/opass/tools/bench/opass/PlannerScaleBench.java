package org.opass.tools.bench.opass;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opass.tools.bench.Bench;

/**
 * How the equal-assignment planner (max-flow, Opass §4.2) and Algorithm 1 scale: processes x
 * chunks x 3 replicas placed at random, one process per host, planned on the calling thread.
 * The bar is 4096 processes x 32768 chunks in at most 2 s on one core.
 */
public final class PlannerScaleBench implements Bench {
  private static final int[][] SIZES = {{256, 2048}, {512, 4096}, {1024, 8192}, {2048, 16384},
      {4096, 32768}};

  @Override
  public Map<String, Object> run(File outDir, boolean quick) {
    int repeats = quick ? 3 : 9;
    List<Map<String, Object>> curve = new ArrayList<>();
    PlannerScale.Result largest = null;
    System.out.printf("%n%-10s %-8s %10s %10s %12s %12s%n", "processes", "chunks",
        "first ms", "median ms", "local chunks", "alg1 ms");
    for (int[] size : SIZES) {
      largest = PlannerScale.measure(size[0], size[1], 3, 42, repeats);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("processes", largest.processes());
      m.put("chunks", largest.chunks());
      m.put("replicas", largest.replicas());
      m.put("first_run_ms", largest.firstMillis());
      m.put("best_ms", largest.bestMillis());
      m.put("median_ms", largest.medianMillis());
      m.put("local_chunks", largest.localChunks());
      m.put("rack_local_chunks", largest.rackLocalChunks());
      m.put("remote_chunks", largest.remoteChunks());
      m.put("algorithm1_median_ms", largest.algorithm1Millis());
      m.put("algorithm1_colocated_fraction",
          (double) largest.algorithm1ColocatedBytes() / largest.algorithm1TotalBytes());
      curve.add(m);
      System.out.printf("%-10d %-8d %10.1f %10.1f %12d %12.1f%n", size[0], size[1],
          largest.firstMillis(), largest.medianMillis(), largest.localChunks(),
          largest.algorithm1Millis());
    }
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("planner_scale_seconds", largest.medianMillis() / 1000);
    summary.put("planner_scale_first_run_seconds", largest.firstMillis() / 1000);
    summary.put("local_fraction", (double) largest.localChunks() / largest.chunks());
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("setup", Map.of("replicas", 3, "placement", "uniform random, distinct hosts",
        "repeats", repeats, "threads", "one (the planner is single-threaded)"));
    doc.put("curve", curve);
    return doc;
  }
}
