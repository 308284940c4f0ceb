package org.opass.heatmap;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * The heat decisions that write placement ({@code HmLruPlacementPolicy}) and read balancing
 * ({@code BalancingNetworkTopology}) share, in one place. Pure.
 *
 * <p><b>Too hot for local.</b> A writer's own DataNode keeps the first replica, and a reader's
 * own DataNode serves its read, unless its heat is above {@code ratio × max(1, mean heat)}.
 * The two callers pass different means, for a reason each: placement passes the NameNode's
 * own transfer average over in-service DataNodes plus our grants spread evenly, the mean
 * stock {@code considerLoad} uses in the same policy; the topology is given no cluster
 * statistics by the NameNode and every live node serves reads, decommissioning ones too, so it
 * passes {@link HeatTable#meanHeat}, the mean over the nodes it tracks.
 *
 * <p><b>Cooler.</b> Of two candidates the one with less heat, and of equal heat the one
 * selected longer ago (least recently used).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class HeatRules {
  private HeatRules() {
  }

  /**
   * Whether a heat can be too hot at all: max(1, mean) is at least 1, so a heat at or below
   * {@code ratio} never is, and the caller need not compute the mean (a sum over all nodes).
   */
  public static boolean mayBeTooHot(int heat, double ratio) {
    return heat > ratio;
  }

  /** Whether a local node of this heat should give way to another one. */
  public static boolean tooHot(int heat, double ratio, double meanHeat) {
    return heat > ratio * Math.max(1.0, meanHeat);
  }

  /**
   * Negative if a is cooler than b, positive if b is, 0 when both heat and last selection
   * are equal.
   *
   * @param lastSelectedA when a was last selected, any monotonic scale (smaller is longer ago)
   */
  public static int compare(int heatA, long lastSelectedA, int heatB, long lastSelectedB) {
    return heatA != heatB ? Integer.compare(heatA, heatB)
        : Long.compare(lastSelectedA, lastSelectedB);
  }

  /**
   * {@link #compare} &lt; 0 for two rows of the heat table (null: an untracked node, never
   * selected), reading a row's last-selected time only on a tie of heat: read balancing asks
   * this for every replica of every located block.
   */
  public static boolean cooler(int heatA, HeatTable.Row a, int heatB, HeatTable.Row b) {
    return heatA != heatB ? heatA < heatB : lastSelected(a) < lastSelected(b);
  }

  private static long lastSelected(HeatTable.Row row) {
    return row == null ? Long.MIN_VALUE : row.lastSelectedNanos();
  }
}
