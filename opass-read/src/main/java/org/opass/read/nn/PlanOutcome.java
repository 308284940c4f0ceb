package org.opass.read.nn;

import java.util.List;
import org.opass.read.balance.BalanceResult;
import org.opass.read.balance.StrategyComparison;

/**
 * What planning one request produced, which its answer reports ({@link PlanDocuments#planned}):
 * the plan kept, the chunk reads with the DataNode chosen for each, and the balance figures.
 * Made by {@link ReadPlanService} once the plan is added, read after its plan lock is
 * released; immutable (the arrays and lists it is given are not changed after).
 */
final class PlanOutcome {
  /** The plan as kept; null when nothing was kept (every chunk read was skipped). */
  final ReadPlanTable.PlanInfo info;
  /** The request's chunk reads and how many were left to online balancing. */
  final PlanRequestResolver.Resolved resolved;
  /** The DataNode (id) serving each chunk read, in the order of {@code resolved.chunks}. */
  final String[] servers;
  /** Both strategies on the batch of remote reads. */
  final StrategyComparison both;
  /** The strategy's result the plan follows (one of {@code both}). */
  final BalanceResult chosen;
  /** The highest load, before the remote reads, of any DataNode: other plans and local reads. */
  final long pinned;

  PlanOutcome(ReadPlanTable.PlanInfo info, PlanRequestResolver.Resolved resolved,
      String[] servers, StrategyComparison both, BalanceResult chosen, long pinned) {
    this.info = info;
    this.resolved = resolved;
    this.servers = servers;
    this.both = both;
    this.chosen = chosen;
    this.pinned = pinned;
  }

  List<BlockRead> chunks() {
    return resolved.chunks;
  }
}
