package org.opass.tools.bench.opass;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Charts;
import org.opass.tools.bench.Stats;
import org.opass.tools.soak.Soak;
import org.opass.tools.soak.SoakReport;

/**
 * {@code bin/bench soak}: the NameNode plugins under traffic, faults and hostile input
 * ({@link Soak}), then the same traffic under the stock NameNode and ours in alternating
 * rounds for {@code getBlockLocations} p99 latency and heap. Quick: 24 faults (four of each
 * kind) and 6 pairs of 12 s rounds; full: faults for 30 minutes and 10 pairs of 40 s rounds.
 */
public final class SoakBench implements Bench {

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    Soak.Settings s = quick ? Soak.Settings.quick() : Soak.Settings.full();
    s.baseDir = new File(outDir, "soak-cluster");
    s.progress = System.out;
    int pairs = quick ? 6 : 10;
    Duration roundTime = Duration.ofSeconds(quick ? 12 : 40);
    SoakReport report;
    List<Soak.Round> rounds;
    try (Soak soak = Soak.start(s)) {
      report = soak.runFaults();
      rounds = soak.compare(pairs, roundTime);
    }
    List<Soak.Round> ours = new ArrayList<>();
    List<Soak.Round> stock = new ArrayList<>();
    List<Map<String, Object>> roundsJson = new ArrayList<>();
    for (Soak.Round r : rounds) {
      (r.ours ? ours : stock).add(r);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("namenode", r.ours ? "ours" : "stock");
      m.put("gbl_p99_us", r.gblP99Micros);
      m.put("gbl_p50_us", r.gblP50Micros);
      m.put("gbl_calls", r.gblCalls);
      m.put("heap_after_gc_mb", r.heapBytes / (1024.0 * 1024));
      roundsJson.add(m);
    }
    // pair i: the i-th round of each (the rounds alternate which goes first)
    double[] oursP99 = Stats.each(ours, r -> r.gblP99Micros);
    double[] stockP99 = Stats.each(stock, r -> r.gblP99Micros);
    Stats p99 = Stats.ratio(oursP99, stockP99);
    Stats heap = Stats.ratio(Stats.each(ours, r -> r.heapBytes),
        Stats.each(stock, r -> r.heapBytes));

    boolean passed = report.filesLost() == 0 && report.invariantViolations() == 0
        && report.fuzz5xx() == 0 && p99.mean <= 1.2;
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("passed", passed);
    summary.put("files_lost", report.filesLost());
    summary.put("invariant_violations", report.invariantViolations());
    summary.put("fuzz_5xx", report.fuzz5xx());
    summary.put("fuzz_cases", report.fuzzCases());
    summary.put("faults_injected", report.faultsInjected());
    summary.put("failovers_injected", report.failoversInjected());
    p99.putInto(summary, "gbl_p99_ratio");
    heap.putInto(summary, "nn_heap_ratio");
    Map<String, Object> soakJson = report.json();
    summary.put("operations", soakJson.get("operations"));
    summary.put("fuzz_hangs", soakJson.get("fuzz_hangs"));
    summary.put("soak_seconds", soakJson.get("seconds"));

    System.out.printf(Locale.ROOT, "%nsoak%s: %d faults %s, %d operations (%d failed while "
            + "faults ran), %d fuzz cases %s%n", quick ? " (quick)" : "",
        report.faultsInjected(), report.faultsByKind(), soakJson.get("operations"),
        soakJson.get("failed_operations"), report.fuzzCases(), soakJson.get("fuzz_statuses"));
    System.out.printf(Locale.ROOT, "  files lost %d, invariant violations %d, fuzz 5xx %d, "
            + "fuzz hangs %s%n", report.filesLost(), report.invariantViolations(),
        report.fuzz5xx(), soakJson.get("fuzz_hangs"));
    System.out.printf(Locale.ROOT, "  getBlockLocations p99 ours/stock %s (%d pairs of %d s "
            + "rounds), heap after GC ours/stock %s%n", p99, pairs, roundTime.getSeconds(),
        heap);
    System.out.println(passed ? "  PASSED: every invariant held" : "  FAILED: "
        + report.violations());

    chart(new File(outDir, "soak.png"), stockP99, oursP99, soakJson);

    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("soak", soakJson);
    doc.put("compare_rounds", roundsJson);
    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put("datanodes", s.dataNodes);
    setup.put("racks", s.racks);
    setup.put("block_size", s.blockSize);
    setup.put("seed", s.seed);
    setup.put("compare_pairs", pairs);
    setup.put("compare_round_seconds", roundTime.getSeconds());
    doc.put("setup", setup);
    return doc;
  }

  /** getBlockLocations p99 of each pair of rounds; what the clients did, by kind of call. */
  @SuppressWarnings("unchecked")
  private static void chart(File png, double[] stockP99, double[] oursP99,
      Map<String, Object> soak) throws java.io.IOException {
    List<String> pairs = new ArrayList<>();
    for (int i = 1; i <= stockP99.length; i++) {
      pairs.add("pair " + i);
    }
    Map<String, double[]> p99 = new LinkedHashMap<>();
    p99.put("stock", stockP99);
    p99.put("ours", oursP99);
    Map<String, Long> ops = (Map<String, Long>) soak.get("operations_by_role");
    List<String> calls = new ArrayList<>(ops.keySet());
    Map<String, double[]> done = new LinkedHashMap<>();
    done.put("operations", calls.stream().mapToDouble(ops::get).toArray());
    Charts.write(png, List.of(
        new Charts.Panel("soak: getBlockLocations p99, the same traffic under the stock "
            + "NameNode and ours", "µs", pairs, p99),
        new Charts.Panel("soak: what the clients did during " + soak.get("faults_injected")
            + " faults", "operations", calls, done)));
  }
}
