package org.opass.tools.bench.opass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Charts;
import org.opass.tools.bench.Stats;
import org.opass.tools.sim.DiskModel;
import org.opass.tools.sim.ReadSimulation.Kind;
import org.opass.tools.sim.ReadSimulation.Reader;
import org.opass.tools.sim.ReadSimulation.Result;
import org.opass.tools.sim.ReadSimulation;

/**
 * Opass §5.1.1, §5.1.3 and §5.1.4's parallel reads in the flow-level simulator
 * ({@link ReadSimulation}): stock, stock with {@code dfs.namenode.read.considerLoad}, and
 * Opass (the planner, the plan service's replica balancing and the balancing topology) on a
 * real NameNode with simulated DataNodes, in simulated time. First the emulated read
 * benchmarks' configurations (16 DataNodes, 2 MiB/s a DataNode shared by its readers, 1 MiB
 * chunks), compared with {@code read-single.json}, {@code read-dynamic.json} and
 * {@code read-tenants.json} when the same output folder has them; then the paper's sizes (64
 * and 128 nodes, 10 chunks a process: Fig. 9's 640 chunks on 64 nodes; two tenants on 32 and
 * 64) and a 1,000-node projection. Ratios are ratios of means over seeds, paired by seed.
 */
public final class SimReadBench implements Bench {
  private static final String[] EMULATED = {"read-single", "read-dynamic", "read-tenants"};

  private record Config(Kind kind, int nodes, int racks, int perProcess, DiskModel disk) {
    Config(Kind kind, int nodes, int racks, int perProcess) {
      this(kind, nodes, racks, perProcess, DiskModel.FAIR_SHARE);
    }

    String name() {
      return kind.name().toLowerCase(Locale.ROOT) + "-" + nodes
          + (disk == DiskModel.FAIR_SHARE ? "" : SimRuns.SEEK);
    }
  }

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int seeds = quick ? 10 : 20;
    List<Config> configs = new ArrayList<>();
    Map<Kind, JsonNode> emulated = new LinkedHashMap<>();
    for (Kind kind : Kind.values()) {
      File json = new File(outDir, EMULATED[kind.ordinal()] + ".json");
      JsonNode doc = json.isFile() ? new ObjectMapper().readTree(json) : null;
      if (doc != null) {
        emulated.put(kind, doc.path("summary"));
      }
      // the emulated run's size when this folder has one, so the two compare
      int perProcess = doc != null ? doc.path("setup").path("tasks_per_process").asInt(10)
          : kind == Kind.TENANTS ? 16 : 10;
      configs.add(new Config(kind, 16, 2, perProcess));
    }
    for (Kind kind : Kind.values()) {
      for (int nodes : kind == Kind.TENANTS ? new int[] {32, 64} : new int[] {64, 128}) {
        configs.add(new Config(kind, nodes, nodes / 16, 10));
      }
    }
    for (Kind kind : Kind.values()) {
      configs.add(new Config(kind, 1000, 20, quick ? 4 : 10));
    }
    // everything again on disks where a switch between streams costs a seek
    for (Config c : List.copyOf(configs)) {
      configs.add(new Config(c.kind(), c.nodes(), c.racks(), c.perProcess(),
          DiskModel.SATA_7200_CFQ));
    }

    File dir = new File(outDir, "sim-read");
    Files.createDirectories(dir.toPath());
    Map<String, Object> results = new LinkedHashMap<>();
    Map<String, Map<String, Stats>> byConfig = new LinkedHashMap<>();
    System.out.printf("%nsim-read: flow-level simulation, %d seeds a configuration%n", seeds);
    System.out.printf("%-18s %-19s %14s %14s %14s %12s%n", "workload", "system",
        "chunk avg s", "makespan s", "served max/avg", "local");
    for (Config c : configs) {
      long[] seedList = SimRuns.seeds(c.nodes(), seeds);
      int n = seedList.length;
      long t0 = System.nanoTime();
      ReadSimulation.Setup setup = new ReadSimulation.Setup(c.nodes(), c.racks(), c.kind())
          .chunksPerProcess(c.perProcess()).disk(c.disk());
      Map<Reader, List<Result>> runs = ReadSimulation.run(dir, setup, seedList);
      Map<String, Object> json = new LinkedHashMap<>();
      for (Reader r : Reader.values()) {
        List<Result> l = runs.get(r);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("chunk_avg_s", Stats.of(Stats.each(l, Result::chunkAvgSec)).json());
        m.put("chunk_max_s", Stats.of(Stats.each(l, Result::chunkMaxSec)).json());
        m.put("makespan_s", Stats.of(Stats.each(l, Result::makespanSec)).json());
        m.put("served_max_over_avg", Stats.of(Stats.each(l, Result::servedMaxOverAvg)).json());
        m.put("local_fraction", Stats.of(Stats.each(l, Result::localFraction)).json());
        json.put(r.name().toLowerCase(Locale.ROOT), m);
        System.out.printf(Locale.ROOT, "%-18s %-19s %14s %14s %14s %12s%n", c.name(),
            r.name().toLowerCase(Locale.ROOT), Stats.of(Stats.each(l, Result::chunkAvgSec)),
            Stats.of(Stats.each(l, Result::makespanSec)), Stats.of(Stats.each(l, Result::servedMaxOverAvg)),
            Stats.of(Stats.each(l, Result::localFraction)));
      }
      Map<String, Stats> figures = figures(runs, setup.floorChunkSeconds());
      System.out.printf(Locale.ROOT, "%-18s Opass speedup %s (bound %s), considerLoad %s, "
              + "makespan ratio %s%n", "", figures.get("speedup"), figures.get("speedup_bound"),
          figures.get("considerload_speedup"), figures.get("makespan_ratio"));
      Map<String, Object> ratios = new LinkedHashMap<>();
      figures.forEach((k, v) -> ratios.put(k, v.json()));
      json.put("ratios", ratios);
      json.put("setup", Map.of("kind", c.kind().name(), "nodes", c.nodes(), "racks", c.racks(),
          "chunks_per_process", c.perProcess(), "processes", c.nodes() * setup.tenants(),
          "disk", c.disk().name(), "seeds", n, "wall_seconds", (System.nanoTime() - t0) / 1e9));
      results.put(c.name(), json);
      byConfig.put(c.name(), figures);
    }

    Map<String, Object> summary = new LinkedHashMap<>();
    SimValidation v = new SimValidation();
    String[] speedupKey = {"chunk_io_speedup", "dynamic_speedup", "tenants_speedup"};
    for (Kind kind : Kind.values()) {
      JsonNode emu = emulated.get(kind);
      if (emu == null) {
        System.out.println("validation: no " + EMULATED[kind.ordinal()] + ".json in " + outDir
            + " (run bin/bench " + EMULATED[kind.ordinal()] + " first) - not compared");
        continue;
      }
      String bench = EMULATED[kind.ordinal()];
      v.compare(bench, "the emulated " + bench + " run (16 DataNodes)", emu,
          byConfig.get(configs.get(kind.ordinal()).name()), new String[][] {
              {speedupKey[kind.ordinal()], "speedup"},
              {"considerload_speedup", "considerload_speedup"},
              {"makespan_ratio", "makespan_ratio"},
              {"served_max_over_avg", "served_max_over_avg"},
              {"stock_served_max_over_avg", "stock_served_max_over_avg"}});
      // not the local fractions: the emulated run reads one data set, whose local replicas
      // are one draw (its interval over rounds is 0), where the simulator draws one a seed
    }
    v.putInto(summary);
    for (String model : new String[] {"", SimRuns.SEEK}) {
      String suffix = model.isEmpty() ? "" : "_seek";
      byConfig.get("dynamic-64" + model).get("speedup")
          .putInto(summary, "sim_dynamic_speedup_64" + suffix);
      byConfig.get("single-64" + model).get("speedup")
          .putInto(summary, "sim_single_speedup_64" + suffix);
      byConfig.get("tenants-32" + model).get("speedup")
          .putInto(summary, "sim_tenants_speedup_32" + suffix);
      for (Kind kind : Kind.values()) {
        String name = kind.name().toLowerCase(Locale.ROOT);
        summary.put("sim_" + name + "_speedup_1000" + suffix,
            byConfig.get(name + "-1000" + model).get("speedup").mean);
      }
    }
    chart(new File(outDir, "sim-read.png"), byConfig);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("model", Map.of("disk_bytes_per_s", 2 << 20, "chunk_bytes", 1 << 20,
        "replication", 3, "heartbeat_s", 1, "sharing", "even among the reads a DataNode "
            + "serves", "processes", "one per DataNode host (two for two tenants)",
        "compute_s", "0-1 after each master/worker task", "disk_models",
        List.of(DiskModel.FAIR_SHARE.toString(),
            DiskModel.SATA_7200_CFQ.toString() + ": configurations named /seek")));
    doc.put("configs", results);
    return doc;
  }

  /**
   * Opass's and considerLoad's speedups (stock's mean chunk time over theirs), the bound on any
   * speedup (stock's over the floor no assignment can beat), and the figures the emulated
   * benchmarks report, as means over seeds with 95% intervals.
   */
  private static Map<String, Stats> figures(Map<Reader, List<Result>> runs, double floor) {
    List<Result> stock = runs.get(Reader.STOCK);
    List<Result> ours = runs.get(Reader.OPASS);
    double[] floors = new double[stock.size()];
    java.util.Arrays.fill(floors, floor);
    Map<String, Stats> f = new LinkedHashMap<>();
    f.put("speedup", Stats.ratio(Stats.each(stock, Result::chunkAvgSec),
        Stats.each(ours, Result::chunkAvgSec)));
    f.put("speedup_bound", Stats.ratio(Stats.each(stock, Result::chunkAvgSec), floors));
    f.put("fraction_of_bound", Stats.ratio(floors, Stats.each(ours, Result::chunkAvgSec)));
    f.put("considerload_speedup", Stats.ratio(Stats.each(stock, Result::chunkAvgSec),
        Stats.each(runs.get(Reader.STOCK_CONSIDERLOAD), Result::chunkAvgSec)));
    f.put("makespan_ratio", Stats.ratio(Stats.each(ours, Result::makespanSec),
        Stats.each(stock, Result::makespanSec)));
    f.put("served_max_over_avg", Stats.of(Stats.each(ours, Result::servedMaxOverAvg)));
    f.put("stock_served_max_over_avg", Stats.of(Stats.each(stock, Result::servedMaxOverAvg)));
    f.put("local_fraction", Stats.of(Stats.each(ours, Result::localFraction)));
    f.put("stock_local_fraction", Stats.of(Stats.each(stock, Result::localFraction)));
    return f;
  }

  /** Opass's chunk-time speedup over stock by workload and cluster size. */
  private static void chart(File png, Map<String, Map<String, Stats>> byConfig)
      throws java.io.IOException {
    List<Charts.Panel> panels = new ArrayList<>();
    for (boolean seek : new boolean[] {false, true}) {
      List<String> names = SimRuns.names(byConfig.keySet(), seek);
      Map<String, double[]> series = new LinkedHashMap<>();
      for (String figure : new String[] {"speedup", "speedup_bound", "considerload_speedup"}) {
        series.put(figure, names.stream().mapToDouble(n -> byConfig.get(n).get(figure).mean)
            .toArray());
      }
      panels.add(new Charts.Panel("Chunk I/O speedup over stock, simulated (workload-nodes), "
          + (seek ? DiskModel.SATA_7200_CFQ.name() + " disks" : "fair-share disks"), "x stock",
          names, series));
    }
    Charts.write(png, panels);
    System.out.println("chart: " + png);
  }
}
