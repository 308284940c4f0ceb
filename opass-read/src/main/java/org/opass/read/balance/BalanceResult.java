package org.opass.read.balance;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * The outcome of balancing one batch.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class BalanceResult {
  private final Strategy strategy;
  private final Map<String, String> assignment;
  private final Map<String, Long> loads;
  private final long maxLoad;
  private final Map<String, Integer> targets;
  private final int unmatchedByFlow;

  /**
   * @param strategy        the strategy that produced it
   * @param assignment      read id to the DataNode that serves it (always one of the read's
   *                        holders), in the order the reads were given
   * @param loads           resulting load (current load NC + reads assigned by this batch) of
   *                        every DataNode that holds a replica of some read of the batch, by
   *                        DataNode id; other DataNodes are unchanged by the batch, so left out
   * @param maxLoad         the maximum of {@code loads}; 0 for an empty batch
   * @param targets         ALGORITHM2: Algorithm 2's target counts C by DataNode id (DataNodes
   *                        holding a replica of the batch); OPTIMAL: empty
   * @param unmatchedByFlow ALGORITHM2: reads the target-capped max flow could not place, which
   *                        went to their least-loaded holder instead; OPTIMAL: 0
   */
  public BalanceResult(Strategy strategy, Map<String, String> assignment, Map<String, Long> loads,
      long maxLoad, Map<String, Integer> targets, int unmatchedByFlow) {
    Objects.requireNonNull(strategy, "strategy");
    // Copies keep the record immutable and the (meaningful) iteration order stable.
    assignment = Collections.unmodifiableMap(
        new LinkedHashMap<>(Objects.requireNonNull(assignment, "assignment")));
    loads = Collections.unmodifiableMap(
        new LinkedHashMap<>(Objects.requireNonNull(loads, "loads")));
    targets = Collections.unmodifiableMap(
        new LinkedHashMap<>(Objects.requireNonNull(targets, "targets")));
    if (unmatchedByFlow < 0) {
      throw new IllegalArgumentException("unmatchedByFlow must be >= 0, got " + unmatchedByFlow);
    }
    this.strategy = strategy;
    this.assignment = assignment;
    this.loads = loads;
    this.maxLoad = maxLoad;
    this.targets = targets;
    this.unmatchedByFlow = unmatchedByFlow;
  }

  public Strategy strategy() {
    return strategy;
  }

  public Map<String, String> assignment() {
    return assignment;
  }

  public Map<String, Long> loads() {
    return loads;
  }

  public long maxLoad() {
    return maxLoad;
  }

  public Map<String, Integer> targets() {
    return targets;
  }

  public int unmatchedByFlow() {
    return unmatchedByFlow;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof BalanceResult)) {
      return false;
    }
    BalanceResult other = (BalanceResult) o;
    return Objects.equals(strategy, other.strategy)
        && Objects.equals(assignment, other.assignment)
        && Objects.equals(loads, other.loads)
        && maxLoad == other.maxLoad
        && Objects.equals(targets, other.targets)
        && unmatchedByFlow == other.unmatchedByFlow;
  }

  @Override
  public int hashCode() {
    return Objects.hash(strategy, assignment, loads, maxLoad, targets, unmatchedByFlow);
  }

  @Override
  public String toString() {
    return "BalanceResult["
        + "strategy=" + strategy
        + ", assignment=" + assignment
        + ", loads=" + loads
        + ", maxLoad=" + maxLoad
        + ", targets=" + targets
        + ", unmatchedByFlow=" + unmatchedByFlow
        + "]";
  }

  /** Number of reads this batch assigned to {@code dataNode} (0 if it got none). */
  public int assignedTo(String dataNode) {
    int n = 0;
    for (String dn : assignment.values()) {
      if (dn.equals(dataNode)) {
        n++;
      }
    }
    return n;
  }
}
