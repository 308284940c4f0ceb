package org.opass.e2e.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** Mean and 95% confidence interval (Student's t) of repeated measurements. */
final class Stats {
  // two-sided 95% t quantiles for 1..30 degrees of freedom; 1.96 beyond
  private static final double[] T95 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
      2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
      2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

  final double mean;
  /** Half-width of the 95% interval; 0 for a single value. */
  final double ci95;
  final int n;

  private Stats(double mean, double ci95, int n) {
    this.mean = mean;
    this.ci95 = ci95;
    this.n = n;
  }

  static Stats of(double[] v) {
    int n = v.length;
    double sum = 0;
    for (double x : v) {
      sum += x;
    }
    double mean = sum / n;
    if (n < 2) {
      return new Stats(mean, 0, n);
    }
    double ss = 0;
    for (double x : v) {
      ss += (x - mean) * (x - mean);
    }
    double t = n - 1 <= T95.length ? T95[n - 2] : 1.96;
    return new Stats(mean, t * Math.sqrt(ss / (n - 1) / n), n);
  }

  /** {@code {"mean": m, "ci95": h, "n": n}} for a JSON report. */
  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mean", mean);
    m.put("ci95", ci95);
    m.put("n", n);
    return m;
  }

  @Override
  public String toString() {
    return String.format(java.util.Locale.ROOT, "%.3g ± %.2g", mean, ci95);
  }
}
