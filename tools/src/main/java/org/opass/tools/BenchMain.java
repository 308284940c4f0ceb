package org.opass.tools;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Json;
import org.opass.tools.bench.mrap.CopyBench;
import org.opass.tools.bench.mrap.MrapMemoryBench;
import org.opass.tools.bench.mrap.MrapPackBench;
import org.opass.tools.bench.mrap.MrapPairsBench;
import org.opass.tools.bench.mrap.MrapScienceBench;
import org.opass.tools.bench.mrap.MrapSplitsBench;
import org.opass.tools.bench.mrap.MrapStridedBench;
import org.opass.tools.bench.mrap.MrapTilesBench;
import org.opass.tools.bench.opass.PlannerScaleBench;
import org.opass.tools.bench.opass.RandomAccessAnalysis;
import org.opass.tools.bench.opass.ReadBench;
import org.opass.tools.bench.opass.ReadNameNodeCostBench;
import org.opass.tools.bench.opass.ReadPlanLimitsBench;
import org.opass.tools.bench.opass.SimReadBench;
import org.opass.tools.bench.opass.SimWriteBench;
import org.opass.tools.bench.opass.SoakBench;
import org.opass.tools.bench.opass.WriteBench;
import org.opass.tools.bench.spark.ScienceWriteBench;
import org.opass.tools.bench.spark.SparkScienceBench;
import org.opass.tools.bench.spark.SparkStridedBench;
import org.opass.tools.sim.DiskModel;

/**
 * Entry point of {@code bin/bench <name>... [--quick] [--out DIR]}: runs the benchmarks and
 * writes {@code DIR/<name>.json} for each (default DIR: target/bench) with a top-level "summary".
 */
public final class BenchMain {
  /** A runnable benchmark. */
  static final Map<String, Bench> BENCHES = new TreeMap<>(Map.ofEntries(
      Map.entry("mrap-strided", new MrapStridedBench()),
      Map.entry("mrap-splits", new MrapSplitsBench()),
      Map.entry("mrap-pairs", new MrapPairsBench()),
      Map.entry("mrap-memory", new MrapMemoryBench()),
      Map.entry("mrap-science", new MrapScienceBench()),
      Map.entry("mrap-tiles", new MrapTilesBench()),
      Map.entry("mrap-pack", new MrapPackBench()),
      Map.entry("zarr", new org.opass.tools.bench.mrap.ZarrBench()),
      Map.entry("spark-strided", new SparkStridedBench()),
      Map.entry("spark-science", new SparkScienceBench()),
      Map.entry("science-write", new ScienceWriteBench()),
      Map.entry("science-index", new org.opass.tools.bench.spark.ScienceIndexBench()),
      Map.entry("sim-write", new SimWriteBench()),
      Map.entry("sim-read", new SimReadBench()),
      Map.entry("copy", new CopyBench()),
      Map.entry("write", new WriteBench(DiskModel.FAIR_SHARE)),
      Map.entry("write-seek", new WriteBench(DiskModel.SATA_7200_CFQ)),
      Map.entry("planner-scale", new PlannerScaleBench()),
      Map.entry("read-nn-cost", new ReadNameNodeCostBench()),
      Map.entry("read-plan-limits", new ReadPlanLimitsBench()),
      Map.entry("soak", new SoakBench()),
      Map.entry("read-single", new ReadBench(ReadBench.Kind.SINGLE, DiskModel.FAIR_SHARE)),
      Map.entry("read-multi", new ReadBench(ReadBench.Kind.MULTI, DiskModel.FAIR_SHARE)),
      Map.entry("read-dynamic", new ReadBench(ReadBench.Kind.DYNAMIC, DiskModel.FAIR_SHARE)),
      Map.entry("read-tenants", new ReadBench(ReadBench.Kind.TENANTS, DiskModel.FAIR_SHARE)),
      // the same on disks where a switch between concurrent streams costs a seek
      Map.entry("read-single-seek", new ReadBench(ReadBench.Kind.SINGLE,
          DiskModel.SATA_7200_CFQ)),
      Map.entry("read-dynamic-seek", new ReadBench(ReadBench.Kind.DYNAMIC,
          DiskModel.SATA_7200_CFQ)),
      Map.entry("read-tenants-seek", new ReadBench(ReadBench.Kind.TENANTS,
          DiskModel.SATA_7200_CFQ)),
      Map.entry("read-analysis", (outDir, quick) -> {
        Map<String, Object> doc = RandomAccessAnalysis.run(quick);
        System.out.println(RandomAccessAnalysis.table(doc));
        return doc;
      })));

  /**
   * {@code bin/bench all}: every experiment in a row (what bin/demo ran before it became a
   * tour), with each one's typical --quick duration on the machine of BENCHMARKS.md, in seconds,
   * for the estimate of the time left (a full run takes about four times as long).
   */
  static final Map<String, Integer> ALL = orderedMap(
      "write", 480, "sim-write", 90, "planner-scale", 60, "read-analysis", 10,
      "read-single", 150, "read-multi", 150, "read-dynamic", 150, "read-tenants", 150,
      "sim-read", 90, "read-plan-limits", 20, "mrap-strided", 120, "mrap-splits", 60,
      "mrap-pairs", 90, "mrap-tiles", 130, "copy", 1800, "soak", 530);

  private BenchMain() {
  }

  private static Map<String, Integer> orderedMap(Object... pairs) {
    Map<String, Integer> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      m.put((String) pairs[i], (Integer) pairs[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(m);
  }

  public static void main(String[] args) {
    System.exit(run(args));
  }

  static int run(String[] args) {
    List<String> names = new ArrayList<>();
    boolean quick = false;
    File out = new File("target/bench");
    List<String> rest = new ArrayList<>(List.of(args));
    for (int i = 0; i < rest.size(); i++) {
      String a = rest.get(i);
      switch (a) {
        case "-h", "--help" -> {
          System.out.println(usage());
          return 0;
        }
        case "--quick" -> quick = true;
        case "--out" -> {
          if (i + 1 >= rest.size()) {
            System.err.println("bench: --out needs a directory\n" + usage());
            return 2;
          }
          out = new File(rest.get(++i));
        }
        default -> {
          if (a.startsWith("-")) {
            System.err.println("bench: unknown option '" + a + "'\n" + usage());
            return 2;
          }
          if (a.equals("all")) {
            names.addAll(ALL.keySet());
            continue;
          }
          if (!BENCHES.containsKey(a)) {
            System.err.println("bench: unknown benchmark '" + a + "'\n" + usage());
            return 2;
          }
          names.add(a);
        }
      }
    }
    if (names.isEmpty()) {
      System.err.println("bench: name a benchmark\n" + usage());
      return 2;
    }
    List<File> written = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    long startAll = System.nanoTime();
    for (int k = 0; k < names.size(); k++) {
      String name = names.get(k);
      String step = "[" + (k + 1) + "/" + names.size() + "] " + name;
      System.out.println();
      System.out.println(step + (quick ? " (quick)" : "") + ": running"
          + (names.size() > 1 ? "; " + elapsed(startAll) + " so far, about "
              + minutes(left(names.subList(k, names.size()), out, quick)) + " left" : ""));
      long start = System.nanoTime();
      long startMillis = System.currentTimeMillis() / 1000 * 1000; // file times may be seconds
      try {
        Map<String, Object> doc = new java.util.LinkedHashMap<>(BENCHES.get(name).run(out, quick));
        doc.put("run", Map.of("quick", quick, "seconds",
            Math.round((System.nanoTime() - start) / 1e9)));
        File json = new File(out, name + ".json");
        Json.writeAtomically(json, doc);
        written.add(json);
        File chart = new File(out, name + ".png");
        if (chart.lastModified() >= startMillis) {
          written.add(chart);
        }
        System.out.println(step + ": done in " + elapsed(start) + ", wrote " + json);
        System.out.println("summary: " + Json.toString(doc.get("summary")));
      } catch (Exception e) { // said, and the others run on
        System.err.println(step + " failed after " + elapsed(start) + ": " + e);
        e.printStackTrace();
        String log = System.getProperty("opass.bench.log");
        if (log != null) {
          System.err.println("Hadoop's log of the run: " + log);
        }
        failed.add(name + " (" + e.getMessage() + ")");
      }
    }
    System.out.println();
    System.out.println("bench: " + names.size() + " benchmark(s) in " + elapsed(startAll)
        + (written.isEmpty() ? "" : "; results and charts:"));
    for (File f : written) {
      System.out.println("  " + f.getPath());
    }
    if (!failed.isEmpty()) {
      System.err.println("bench: " + failed.size() + " of " + names.size() + " failed: "
          + String.join("; ", failed));
      return 1;
    }
    return 0;
  }

  /**
   * An estimate of how long {@code names} take: each one's last run of the same kind (its JSON's
   * "run"), or its typical duration.
   */
  static long left(List<String> names, File out, boolean quick) {
    long s = 0;
    for (String name : names) {
      long last = -1;
      File json = new File(out, name + ".json");
      if (json.isFile()) {
        try {
          com.fasterxml.jackson.databind.JsonNode run =
              new com.fasterxml.jackson.databind.ObjectMapper().readTree(json).path("run");
          if (run.path("quick").asBoolean() == quick && run.has("seconds")) {
            last = run.get("seconds").asLong();
          }
        } catch (IOException e) {
          // unreadable: the typical figure
        }
      }
      s += last >= 0 ? last : ALL.getOrDefault(name, 120) * (quick ? 1 : 4);
    }
    return s;
  }

  private static String minutes(long seconds) {
    return seconds < 90 ? seconds + " s" : Math.round(seconds / 60.0) + " min";
  }

  /** "42 s" or "3 min 05 s" since {@code startNanos}. */
  private static String elapsed(long startNanos) {
    long s = Math.round((System.nanoTime() - startNanos) / 1e9);
    return s < 60 ? s + " s" : String.format(java.util.Locale.ROOT, "%d min %02d s", s / 60,
        s % 60);
  }

  static String usage() {
    StringBuilder b = new StringBuilder("usage: bin/bench <name>... [--quick] [--out DIR]"
        + "\n  --quick   a smaller run comparing the same systems (minutes)"
        + "\n  --out     output directory (default target/bench)\nbenchmarks:");
    for (String line : listed()) {
      b.append("\n  ").append(line);
    }
    return b.toString();
  }

  /**
   * The lines of {@code benchmarks.txt} (a name, then what it measures): the list bin/bench
   * shows and checks names against without building.
   */
  static List<String> listed() {
    try (InputStream in = BenchMain.class.getResourceAsStream("/benchmarks.txt")) {
      if (in == null) {
        throw new IllegalStateException("benchmarks.txt is not on the classpath");
      }
      List<String> lines = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          lines.add(line);
        }
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
