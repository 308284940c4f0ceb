package org.opass.placement;

import java.util.Random;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.heatmap.HeatRules;

/**
 * The HM-LRU choice of Opass Algorithm 3: among a few candidate DataNodes keep the one with
 * the least {@code rank(heat) + rank(lastSelected)}, where a rank is the candidate's position
 * in the ascending order of that value within the candidates. Equal values share a rank (the
 * number of candidates strictly below), so all-equal heat leaves the choice to recency alone;
 * equal weights are broken uniformly at random.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class HmLru {
  private HmLru() {
  }

  /**
   * @param heat heat of each candidate (active transfers + grants since heartbeat)
   * @param lastSelected when each candidate was last selected, any monotonic scale; smaller is
   *     longer ago
   * @param n number of candidates (a prefix of both arrays), at least 1
   * @return index of the chosen candidate
   */
  public static int choose(int[] heat, long[] lastSelected, int n, Random random) {
    if (n < 1 || n > heat.length || n > lastSelected.length) {
      throw new IllegalArgumentException("need 1.." + Math.min(heat.length, lastSelected.length)
          + " candidates, got " + n);
    }
    int best = -1;
    int bestWeight = Integer.MAX_VALUE;
    int ties = 0;
    for (int i = 0; i < n; i++) {
      int weight = 0;
      for (int j = 0; j < n; j++) {
        if (heat[j] < heat[i]) {
          weight++;
        }
        if (lastSelected[j] < lastSelected[i]) {
          weight++;
        }
      }
      if (weight < bestWeight) {
        best = i;
        bestWeight = weight;
        ties = 1;
      } else if (weight == bestWeight && random.nextInt(++ties) == 0) {
        best = i; // reservoir sampling keeps each tied candidate with probability 1/ties
      }
    }
    return best;
  }

  /**
   * Variant that ranks by the writes in flight to each candidate first (the blocks the
   * NameNode has scheduled there and not yet seen reported), then as {@link #chooseHeatFirst}:
   * heat, recency, then uniformly at random. The count of writes in flight is exact at every
   * moment, where heat is partly a heartbeat old; heat still tells apart nodes that are busy
   * with reads or with other writers' transfers.
   *
   * @param inFlight writes in flight to each candidate
   */
  public static int chooseInFlightFirst(int[] inFlight, int[] heat, long[] lastSelected, int n,
      Random random) {
    if (n > inFlight.length) {
      throw new IllegalArgumentException("need 1.." + inFlight.length + " candidates, got " + n);
    }
    return lowest(inFlight, heat, lastSelected, n, random);
  }

  /**
   * Variant that ranks by heat alone and uses recency only to break ties in heat (then
   * random): {@link HeatRules#compare}, as read balancing ranks replicas. Heat here already
   * counts the grants since the last heartbeat, which is what recency approximates in the
   * paper, so summing both ranks can prefer a hotter node.
   */
  public static int chooseHeatFirst(int[] heat, long[] lastSelected, int n,
      Random random) {
    return lowest(null, heat, lastSelected, n, random);
  }

  /** The least by (first, if given; heat; last selected), ties uniformly at random. */
  private static int lowest(int[] first, int[] heat, long[] lastSelected, int n,
      Random random) {
    if (n < 1 || n > heat.length || n > lastSelected.length) {
      throw new IllegalArgumentException("need 1.." + Math.min(heat.length, lastSelected.length)
          + " candidates, got " + n);
    }
    int best = 0;
    int ties = 1;
    for (int i = 1; i < n; i++) {
      int c = first != null && first[i] != first[best] ? Integer.compare(first[i], first[best])
          : HeatRules.compare(heat[i], lastSelected[i], heat[best], lastSelected[best]);
      if (c < 0) {
        best = i;
        ties = 1;
      } else if (c == 0 && random.nextInt(++ties) == 0) {
        best = i; // reservoir sampling keeps each tied candidate with probability 1/ties
      }
    }
    return best;
  }
}
