package org.opass.tools.bench.opass;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import org.opass.tools.bench.Charts;

/** One round's figures for one system of {@link ReadBench}: MiB, seconds, MiB/s. */
record ReadRun(double[] servedMib, long[] blocksServed, double localFraction, double[] chunkSec,
    double[] processMibPerSec, double makespanSec, double localOptimum, double plannedLocal,
    int plannedReads, int nameNodePlannedLocal, List<List<Long>> nameNodeMaxLoads) {
  double chunkAvg() {
    return Arrays.stream(chunkSec).average().orElse(0);
  }

  double chunkMax() {
    return Arrays.stream(chunkSec).max().orElse(0);
  }

  double servedAvg() {
    return Arrays.stream(servedMib).average().orElse(0);
  }

  double servedMax() {
    return Arrays.stream(servedMib).max().orElse(0);
  }

  double servedMin() {
    return Arrays.stream(servedMib).min().orElse(0);
  }

  double servedMaxOverAvg() {
    return servedMax() / servedAvg();
  }

  double bwMin() {
    return Arrays.stream(processMibPerSec).min().orElse(0);
  }

  double bwAvg() {
    return Arrays.stream(processMibPerSec).average().orElse(0);
  }

  double bwMax() {
    return Arrays.stream(processMibPerSec).max().orElse(0);
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("served_mib_per_datanode", Map.of("max", servedMax(), "min", servedMin(),
        "avg", servedAvg()));
    m.put("served_max_over_avg", servedMaxOverAvg());
    m.put("local_fraction", localFraction);
    m.put("chunk_io_s", Map.of("avg", chunkAvg(), "max", chunkMax()));
    m.put("process_bw_mib_s", Map.of("min", bwMin(), "avg", bwAvg(), "max", bwMax()));
    m.put("makespan_s", makespanSec);
    if (!Double.isNaN(localOptimum)) {
      m.put("local_fraction_optimum", localOptimum);
      m.put("local_fraction_planned", plannedLocal);
    }
    if (plannedReads > 0) {
      m.put("planned_reads", plannedReads);
      m.put("namenode_planned_local", nameNodePlannedLocal);
      // per plan (tenant): [chosen, Algorithm 2, optimum] max planned reads per DataNode
      m.put("namenode_max_load_chosen_alg2_optimal", nameNodeMaxLoads);
    }
    m.put("served_mib_each", servedMib);
    m.put("blocks_served_each", blocksServed);
    m.put("process_bw_mib_s_each", processMibPerSec);
    return m;
  }

  static double mean(List<ReadRun> runs, ToDoubleFunction<ReadRun> f) {
    return runs.stream().mapToDouble(f).average().orElse(Double.NaN);
  }


  /** The runs' means, a line per system. */
  static void printTable(String name, Map<String, List<ReadRun>> runs) {
    System.out.println();
    System.out.printf("%-13s %-19s %7s %7s %7s %6s %8s %8s %7s %7s %7s %8s%n", name,
        "system", "served", "served", "served", "local", "chunk", "chunk", "bw", "bw", "bw",
        "makespan");
    System.out.printf("%-13s %-19s %7s %7s %7s %6s %8s %8s %7s %7s %7s %8s%n", "", "",
        "max MiB", "min MiB", "avg MiB", "frac", "avg s", "max s", "min", "avg", "max", "s");
    runs.forEach((sys, l) -> System.out.printf(
        "%-13s %-19s %7.1f %7.1f %7.1f %6.2f %8.3f %8.3f %7.2f %7.2f %7.2f %8.1f%n", "", sys,
        mean(l, ReadRun::servedMax), mean(l, ReadRun::servedMin), mean(l, ReadRun::servedAvg),
        mean(l, ReadRun::localFraction), mean(l, ReadRun::chunkAvg), mean(l, ReadRun::chunkMax),
        mean(l, ReadRun::bwMin), mean(l, ReadRun::bwAvg), mean(l, ReadRun::bwMax),
        mean(l, ReadRun::makespanSec)));
    System.out.println();
  }

  /** The first round's figures: MiB served per DataNode, chunk times by decile. */
  static List<Charts.Panel> charts(String name, Map<String, List<ReadRun>> runs) {
    Map<String, double[]> served = new LinkedHashMap<>();
    Map<String, double[]> chunks = new LinkedHashMap<>();
    runs.forEach((sys, l) -> {
      served.put(sys, l.get(0).servedMib());
      double[] sorted = Arrays.stream(l.get(0).chunkSec()).sorted().toArray();
      // deciles and the maximum: a bar per chunk would be unreadable at hundreds of chunks
      chunks.put(sys, IntStream.rangeClosed(1, 10)
          .mapToDouble(d -> sorted[Math.max(0, (int) Math.ceil(d / 10.0 * sorted.length) - 1)])
          .toArray());
    });
    return List.of(
        new Charts.Panel(name + ": MiB served per DataNode", "MiB",
            IntStream.range(0, ReadBench.DATANODES).mapToObj(i -> "dn" + i).toList(), served),
        new Charts.Panel(name + ": chunk I/O time by decile", "s",
            IntStream.rangeClosed(1, 10).mapToObj(d -> d == 10 ? "max" : "p" + d * 10).toList(),
            chunks));
  }

  /** The summary's ratios with their intervals, and the bound. */
  static void printRatios(Map<String, Object> summary) {
    for (Map.Entry<String, Object> e : summary.entrySet()) {
      Object ci = summary.get(e.getKey() + "_ci95");
      if (ci != null) {
        System.out.printf(Locale.ROOT, "%-32s %.3f ± %.3f%n", e.getKey(),
            (Double) e.getValue(), (Double) ci);
      }
    }
    System.out.printf(Locale.ROOT, "bound: no read is faster than a lone reader's "
            + "%.3f s a chunk, so no assignment's chunk time is below %.3f s here%n%n",
        (Double) summary.get("lone_chunk_s"), (Double) summary.get("floor_chunk_s"));
  }
}
