package org.opass.tools.bench;

import java.util.Arrays;

/**
 * Times stock and ours in alternating rounds in one JVM (who goes first alternates, so
 * neither always runs on a warmer cache and machine drift hits both alike).
 */
public final class Interleaved {
  /** One timed round of one system; returns operations per second. */
  public interface Round {
    double run(int round) throws Exception;
  }

  /** Medians over {@code rounds}: {stock, ours}. */
  public static double[][] rounds(int rounds, Round stock, Round ours) throws Exception {
    double[] s = new double[rounds];
    double[] o = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      if (r % 2 == 0) {
        s[r] = stock.run(r);
        o[r] = ours.run(r);
      } else {
        o[r] = ours.run(r);
        s[r] = stock.run(r);
      }
    }
    return new double[][] {s, o};
  }

  public static double median(double[] v) {
    double[] c = v.clone();
    Arrays.sort(c);
    return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
  }

  private Interleaved() {
  }
}
