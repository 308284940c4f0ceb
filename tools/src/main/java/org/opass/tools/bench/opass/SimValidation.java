package org.opass.tools.bench.opass;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.opass.tools.bench.Stats;

/**
 * A simulator's figures against the emulated run of the same configuration: a figure agrees
 * when it is within 10% of the emulated one, or inside the emulated run's own 95% interval
 * (its {@code _ci95}). Collects over several comparisons; prints each.
 */
final class SimValidation {
  private static final double TOLERANCE = 0.10;

  private final Map<String, Object> compared = new LinkedHashMap<>();
  private double worst;
  private int agreeing;

  /**
   * Compares {@code pairs} of {emulated summary key, simulated figure key} with the emulated
   * benchmark {@code bench}'s summary; keys it lacks are skipped.
   */
  void compare(String bench, String title, JsonNode emulated, Map<String, Stats> simulated,
      String[][] pairs) {
    Map<String, Object> group = new LinkedHashMap<>();
    compared.put(bench, group);
    System.out.printf("%nvalidation against %s%n", title);
    System.out.printf("%-30s %16s %16s %10s %8s%n", "figure", "emulated", "simulated",
        "rel. diff", "agrees");
    for (String[] p : pairs) {
      if (!emulated.has(p[0]) || !simulated.containsKey(p[1])) {
        continue;
      }
      double e = emulated.path(p[0]).asDouble();
      double spread = emulated.path(p[0] + "_ci95").asDouble(0);
      Stats s = simulated.get(p[1]);
      double diff = Math.abs(s.mean - e) / Math.max(Math.abs(e), 1e-9);
      boolean agrees = diff <= TOLERANCE || Math.abs(s.mean - e) <= spread;
      agreeing += agrees ? 1 : 0;
      worst = Math.max(worst, diff);
      group.put(p[0], Map.of("emulated", e, "emulated_ci95", spread, "simulated", s.json(),
          "relative_difference", diff, "agrees", agrees));
      System.out.printf(Locale.ROOT, "%-30s %16s %16s %10.2f %8s%n", p[0],
          String.format(Locale.ROOT, "%.3g ± %.2g", e, spread), s, diff, agrees ? "yes" : "no");
    }
  }

  /**
   * The summary keys: {@code sim_validation_max_error} (null if nothing was compared), how many
   * figures agree of how many, and each comparison by emulated benchmark.
   */
  void putInto(Map<String, Object> summary) {
    int figures = compared.values().stream().mapToInt(g -> ((Map<?, ?>) g).size()).sum();
    summary.put("sim_validation_max_error", figures == 0 ? null : worst);
    summary.put("sim_validation_agreeing", agreeing);
    summary.put("sim_validation_compared", figures);
    summary.put("sim_validation", compared);
  }
}
