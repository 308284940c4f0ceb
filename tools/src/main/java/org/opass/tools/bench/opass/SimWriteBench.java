package org.opass.tools.bench.opass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.hdfs.server.blockmanagement.AvailableSpaceBlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.opass.placement.HmLruKeys;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Charts;
import org.opass.tools.bench.Stats;
import org.opass.tools.sim.DiskModel;
import org.opass.tools.sim.WriteSimulation;

/**
 * Opass §5.1.5's parallel writes in the flow-level simulator ({@link WriteSimulation}): the
 * real placement policies on a real NameNode with simulated DataNodes, in simulated time.
 * First the emulated {@code write} benchmark's configuration (16 DataNodes, 2 racks, 4 MiB/s
 * disks, 1 MiB blocks), compared with {@code write.json} when the same output folder has one;
 * then the paper's cluster sizes (16 and 32 nodes with 16-128 writers, 60 nodes with 2-180)
 * and a 1,000-node projection (4,000 writers). Each configuration runs with several seeds
 * (who reaches the NameNode first, heartbeat phases, the policies' own randomness); ratios
 * are ratios of the means over seeds, paired by seed, with 95% intervals ({@link Stats#ratio}).
 */
public final class SimWriteBench implements Bench {
  /** A placement rule: a policy with its settings, or the simulator's exact least-busy one. */
  private record Rule(String name, String policy, Map<String, String> conf, boolean exact) {
    WriteSimulation.Setup setup(Config c) {
      WriteSimulation.Setup s = new WriteSimulation.Setup(c.nodes(), c.racks(), policy)
          .writers(c.writers(), c.blocks()).bandwidth(4 << 20, 1 << 20).disk(c.disk());
      conf.forEach(s::set);
      return exact ? s.exactLeastBusy() : s;
    }
  }

  private static final List<Rule> RULES = List.of(
      new Rule("stock", BlockPlacementPolicyDefault.class.getName(), Map.of(), false),
      new Rule("available-space", AvailableSpaceBlockPlacementPolicy.class.getName(), Map.of(),
          false),
      // as shipped: the in-flight ranking, 8 candidates
      new Rule("hm-lru", HmLruPlacementPolicy.class.getName(), Map.of(), false),
      new Rule("hm-lru-paper", HmLruPlacementPolicy.class.getName(),
          Map.of(HmLruKeys.RANKING, "rank-sum", HmLruKeys.CANDIDATES, "3"), false),
      // every block's two remote replicas on the two least busy nodes of the other rack, by
      // the simulator's exact stream counts, ties to the lowest index: a greedy rule with
      // perfect knowledge (not a bound: the writers' bound is no imbalance at all)
      new Rule("least-busy-exact", BlockPlacementPolicyDefault.class.getName(), Map.of(),
          true));
  private static final String[] SYSTEMS = RULES.stream().map(Rule::name)
      .toArray(String[]::new);

  /** One configuration: nodes, racks, writers, blocks per writer, disk model. */
  private record Config(int nodes, int racks, int writers, int blocks, DiskModel disk) {
    Config(int nodes, int racks, int writers, int blocks) {
      this(nodes, racks, writers, blocks, DiskModel.FAIR_SHARE);
    }

    String name() {
      return nodes + "x" + writers + (disk == DiskModel.FAIR_SHARE ? "" : SimRuns.SEEK);
    }
  }

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int seeds = quick ? 10 : 20;
    int blocks = quick ? 8 : 16;
    List<Config> configs = new ArrayList<>();
    // the emulated write benchmark's setup, with as many blocks as its run in this folder wrote
    File writeJson = new File(outDir, "write.json");
    int emulatedBlocks = writeJson.isFile() ? new ObjectMapper().readTree(writeJson)
        .path("setup").path("blocks_per_writer").asInt(blocks) : blocks;
    for (int w : new int[] {16, 32, 64}) {
      configs.add(new Config(16, 2, w, emulatedBlocks));
    }
    configs.add(new Config(16, 2, 128, blocks));
    for (int w : new int[] {32, 64, 128}) {
      configs.add(new Config(32, 2, w, blocks));
    }
    for (int w : quick ? new int[] {2, 60, 180} : new int[] {2, 20, 60, 120, 180}) {
      configs.add(new Config(60, 2, w, blocks));
    }
    configs.add(new Config(1000, 20, 4000, quick ? 2 : 4));
    // the paper's sizes again on disks where a switch between streams costs a seek
    for (Config c : List.copyOf(configs.subList(3, configs.size()))) {
      configs.add(new Config(c.nodes(), c.racks(), c.writers(), c.blocks(),
          DiskModel.SATA_7200_CFQ));
    }

    File dir = new File(outDir, "sim-write");
    Files.createDirectories(dir.toPath());
    Map<String, Object> results = new LinkedHashMap<>();
    Map<String, Map<String, Stats>> byConfig = new LinkedHashMap<>();
    System.out.printf("%nsim-write: flow-level simulation, %d seeds a configuration%n", seeds);
    System.out.printf("%-14s %-16s %12s %12s %14s %12s%n", "nodes x w", "placement",
        "imbalance", "makespan s", "stored max/mean", "cut vs stock");
    for (Config c : configs) {
      long[] seedList = SimRuns.seeds(c.nodes(), seeds);
      int n = seedList.length;
      double[][] imbalance = new double[SYSTEMS.length][n];
      double[][] makespan = new double[SYSTEMS.length][n];
      double[][] stored = new double[SYSTEMS.length][n];
      long t0 = System.nanoTime();
      for (int s = 0; s < SYSTEMS.length; s++) {
        List<WriteSimulation.Result> runs = WriteSimulation.run(dir, RULES.get(s).setup(c),
            seedList);
        for (int seed = 0; seed < n; seed++) {
          WriteSimulation.Result r = runs.get(seed);
          double[] bw = r.writerBandwidth();
          imbalance[s][seed] = Arrays.stream(bw).max().getAsDouble()
              - Arrays.stream(bw).min().getAsDouble();
          makespan[s][seed] = r.makespanSec();
          stored[s][seed] = Arrays.stream(r.storedPerDataNode()).max().getAsInt()
              / Arrays.stream(r.storedPerDataNode()).average().getAsDouble();
        }
      }
      Map<String, Stats> figures = new LinkedHashMap<>();
      Map<String, Object> json = new LinkedHashMap<>();
      for (int s = 0; s < SYSTEMS.length; s++) {
        Stats cut = Stats.cut(imbalance[s], imbalance[0]);
        figures.put(SYSTEMS[s] + ".imbalance_cut", cut);
        figures.put(SYSTEMS[s] + ".makespan_ratio", Stats.ratio(makespan[s], makespan[0]));
        figures.put(SYSTEMS[s] + ".stored_max_over_mean", Stats.of(stored[s]));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("imbalance_mb_s", Stats.of(imbalance[s]).json());
        m.put("makespan_s", Stats.of(makespan[s]).json());
        m.put("stored_max_over_mean", Stats.of(stored[s]).json());
        m.put("imbalance_cut_vs_stock", cut.json());
        m.put("makespan_ratio_vs_stock", Stats.ratio(makespan[s], makespan[0]).json());
        json.put(SYSTEMS[s], m);
        System.out.printf(Locale.ROOT, "%-14s %-16s %12s %12s %14s %12s%n", c.name(), SYSTEMS[s],
            Stats.of(imbalance[s]), Stats.of(makespan[s]), Stats.of(stored[s]),
            s == 0 ? "" : cut.toString());
      }
      json.put("setup", Map.of("nodes", c.nodes, "racks", c.racks, "writers", c.writers,
          "blocks_per_writer", c.blocks, "disk", c.disk.name(), "seeds", n, "wall_seconds",
          (System.nanoTime() - t0) / 1e9));
      results.put(c.name(), json);
      byConfig.put(c.name(), figures);
    }

    Map<String, Object> summary = new LinkedHashMap<>();
    validate(writeJson, byConfig.get("16x64"), summary);
    Stats cut32 = byConfig.get("32x128").get("hm-lru.imbalance_cut");
    summary.put("sim_imbalance_cut_32x128", cut32.mean);
    summary.put("sim_imbalance_cut_32x128_ci95", cut32.ci95);
    summary.put("sim_imbalance_cut_1000", byConfig.get("1000x4000").get("hm-lru.imbalance_cut")
        .mean);
    for (String rule : new String[] {"hm-lru-paper", "least-busy-exact"}) {
      String key = rule.equals("hm-lru-paper") ? "paper" : "least_busy_exact";
      byConfig.get("32x128").get(rule + ".imbalance_cut")
          .putInto(summary, "sim_" + key + "_imbalance_cut_32x128");
      summary.put("sim_" + key + "_imbalance_cut_1000",
          byConfig.get("1000x4000").get(rule + ".imbalance_cut").mean);
    }
    byConfig.get("32x128" + SimRuns.SEEK).get("hm-lru.imbalance_cut")
        .putInto(summary, "sim_imbalance_cut_32x128_seek");
    chart(new File(outDir, "sim-write.png"), byConfig);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("model", Map.of("disk_bytes_per_s", 4 << 20, "block_bytes", 1 << 20,
        "replication", 3, "heartbeat_s", 1, "sharing", "max-min fair per DataNode, a pipeline "
            + "at its slowest member's share", "writers", "spread evenly over DataNode hosts",
        "disk_models", List.of(DiskModel.FAIR_SHARE.toString(),
            DiskModel.SATA_7200_CFQ.toString() + ": configurations named /seek")));
    doc.put("configs", results);
    return doc;
  }

  /** Writer-bandwidth imbalance relative to stock's, by cluster size and writers. */
  private static void chart(File png, Map<String, Map<String, Stats>> byConfig)
      throws java.io.IOException {
    List<Charts.Panel> panels = new ArrayList<>();
    for (boolean seek : new boolean[] {false, true}) {
      List<String> names = SimRuns.names(byConfig.keySet(), seek);
      Map<String, double[]> series = new LinkedHashMap<>();
      for (String system : SYSTEMS) {
        series.put(system, names.stream()
            .mapToDouble(n -> 1 - byConfig.get(n).get(system + ".imbalance_cut").mean).toArray());
      }
      panels.add(new Charts.Panel("Writer-bandwidth imbalance (max - min) relative to stock's, "
          + "simulated (nodes x writers), " + (seek ? DiskModel.SATA_7200_CFQ.name()
          + " disks" : "fair-share disks"), "x stock", names, series));
    }
    Charts.write(png, panels);
    System.out.println("chart: " + png);
  }

  /** Compares the simulated 16 x 64 figures with the emulated run's {@code write.json}. */
  private static void validate(File writeJson, Map<String, Stats> sim,
      Map<String, Object> summary) throws Exception {
    SimValidation v = new SimValidation();
    JsonNode emu = writeJson.isFile()
        ? new ObjectMapper().readTree(writeJson).path("summary") : null;
    if (emu == null) {
      System.out.println("validation: no " + writeJson + " (run bin/bench write first, or "
          + "both in one command) - not compared");
    } else if (emu.path("writers").asInt() != 64) {
      System.out.println("validation: " + writeJson + " is not of 64 writers - not compared");
    } else {
      v.compare("write", "the emulated write run (16 DataNodes, 64 writers)", emu, sim,
          new String[][] {
              {"imbalance_cut", "hm-lru.imbalance_cut"},
              {"available_space_imbalance_cut", "available-space.imbalance_cut"},
              {"makespan_ratio", "hm-lru.makespan_ratio"},
              {"stored_max_over_mean", "hm-lru.stored_max_over_mean"},
              {"stock_stored_max_over_mean", "stock.stored_max_over_mean"}});
    }
    v.putInto(summary);
  }
}
