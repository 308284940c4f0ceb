package org.opass.read.balance;

import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * Algorithm 2 and the optimum on the same batch, same current loads and same seed.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class StrategyComparison {
  private final BalanceResult algorithm2;
  private final BalanceResult optimal;

  /**
   * @param algorithm2 the {@link Strategy#ALGORITHM2} result
   * @param optimal    the {@link Strategy#OPTIMAL} result
   */
  public StrategyComparison(BalanceResult algorithm2, BalanceResult optimal) {
    Objects.requireNonNull(algorithm2, "algorithm2");
    Objects.requireNonNull(optimal, "optimal");
    this.algorithm2 = algorithm2;
    this.optimal = optimal;
  }

  public BalanceResult algorithm2() {
    return algorithm2;
  }

  public BalanceResult optimal() {
    return optimal;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof StrategyComparison)) {
      return false;
    }
    StrategyComparison other = (StrategyComparison) o;
    return Objects.equals(algorithm2, other.algorithm2)
        && Objects.equals(optimal, other.optimal);
  }

  @Override
  public int hashCode() {
    return Objects.hash(algorithm2, optimal);
  }

  @Override
  public String toString() {
    return "StrategyComparison["
        + "algorithm2=" + algorithm2
        + ", optimal=" + optimal
        + "]";
  }

  /** How much higher Algorithm 2's maximum DataNode load is than the optimum (never negative). */
  public long maxLoadGap() {
    return algorithm2.maxLoad() - optimal.maxLoad();
  }
}
