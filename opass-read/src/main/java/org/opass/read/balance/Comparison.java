package org.opass.read.balance;

import java.util.Objects;

/**
 * Algorithm 2 and the optimum on the same batch, same current loads and same seed.
 *
 * @param algorithm2 the {@link Strategy#ALGORITHM2} result
 * @param optimal    the {@link Strategy#OPTIMAL} result
 */
public record Comparison(BalanceResult algorithm2, BalanceResult optimal) {

  public Comparison {
    Objects.requireNonNull(algorithm2, "algorithm2");
    Objects.requireNonNull(optimal, "optimal");
  }

  /** How much higher Algorithm 2's maximum DataNode load is than the optimum (never < 0). */
  public long maxLoadGap() {
    return algorithm2.maxLoad() - optimal.maxLoad();
  }
}
