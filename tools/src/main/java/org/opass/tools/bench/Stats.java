package org.opass.tools.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Mean and 95% confidence interval (Student's t) of repeated measurements. */
public final class Stats {
  // two-sided 95% t quantiles for 1..30 degrees of freedom; 1.96 beyond
  private static final double[] T95 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
      2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
      2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};

  public final double mean;
  /** Half-width of the 95% interval; 0 for a single value. */
  public final double ci95;
  final int n;

  private Stats(double mean, double ci95, int n) {
    this.mean = mean;
    this.ci95 = ci95;
    this.n = n;
  }

  public static Stats of(double[] v) {
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

  /** One figure of each repetition, in order. */
  public static <T> double[] each(List<T> repetitions, ToDoubleFunction<T> figure) {
    return repetitions.stream().mapToDouble(figure).toArray();
  }

  /**
   * The ratio of the means, sum(ours) / sum(stock), over paired repetitions, with the 95%
   * interval of the ratio estimator (linearized: the residuals ours_i - R * stock_i, scaled by
   * stock's mean, with Student's t). Preferred to the mean of per-repetition ratios, which
   * is biased upwards when stock's figure varies a lot between repetitions (the write
   * imbalance's does, by a factor of 4), and has the wider interval.
   */
  public static Stats ratio(double[] ours, double[] stock) {
    int n = ours.length;
    double sumOurs = 0;
    double sumStock = 0;
    for (int i = 0; i < n; i++) {
      sumOurs += ours[i];
      sumStock += stock[i];
    }
    if (sumStock == 0 && sumOurs == 0) {
      return new Stats(1, 0, n); // both nothing (no imbalance with two writers): the same
    }
    double r = sumOurs / sumStock;
    if (n < 2) {
      return new Stats(r, 0, n);
    }
    double[] residual = new double[n];
    for (int i = 0; i < n; i++) {
      residual[i] = ours[i] - r * stock[i];
    }
    return new Stats(r, of(residual).ci95 / (sumStock / n), n);
  }

  /** The cut of a cost, 1 - {@link #ratio}, with the same interval. */
  public static Stats cut(double[] ours, double[] stock) {
    Stats r = ratio(ours, stock);
    return new Stats(1 - r.mean, r.ci95, r.n);
  }

  /** The interval's lower end. */
  public double low() {
    return mean - ci95;
  }

  /** Puts {@code key} (the mean), {@code key_ci95} (the half-width) into a summary. */
  public void putInto(Map<String, Object> summary, String key) {
    summary.put(key, mean);
    summary.put(key + "_ci95", ci95);
  }

  /** {@code {"mean": m, "ci95": h, "n": n}} for a JSON report. */
  public Map<String, Object> json() {
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
