package org.opass.read.balance;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/** How {@link ReplicaBalancer} chooses the replica that serves each read of a batch. */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public enum Strategy {
  /**
   * The paper's method (Opass, §4.5): Algorithm 2's greedy target counts C per DataNode, then
   * a max-flow matching that realizes C as far as it can (Fig. 7); reads the flow leaves
   * unmatched go to their least-loaded holder.
   */
  ALGORITHM2,
  /**
   * The exact minimum over all assignments of the maximum resulting DataNode load (max-flow
   * feasibility of a load bound, raised level by level, bisection past a work budget); among
   * optimal assignments, one with the fewest DataNodes at that maximum, and, within the work
   * budget, the lexicographically balanced one.
   */
  OPTIMAL
}
