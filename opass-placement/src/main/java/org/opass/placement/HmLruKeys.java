package org.opass.placement;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/** Configuration keys of {@link HmLruPlacementPolicy} (NameNode hdfs-site.xml). */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class HmLruKeys {
  private HmLruKeys() {
  }

  /**
   * How many random candidates HM-LRU draws wherever the default policy draws one node. 1 is
   * the default policy's behaviour; the paper uses 3. 8 by default: with the in-flight ranking,
   * 3 candidates cut the simulated imbalance at 32 nodes x 128 writers by 0.73, 8 by 0.88.
   */
  public static final String CANDIDATES = "opass.placement.hmlru.candidates";
  public static final int CANDIDATES_DEFAULT = 8;

  /**
   * The writer's own DataNode keeps the first replica (as in the default policy) unless its
   * heat exceeds this ratio times the cluster mean heat (taken as at least 1); then the first
   * replica goes to the coolest HM-LRU candidate of the writer's rack.
   */
  public static final String LOCAL_MAX_HEAT_RATIO = "opass.placement.hmlru.local.max-heat-ratio";
  public static final double LOCAL_MAX_HEAT_RATIO_DEFAULT = 2.0;

  /**
   * How candidates are compared: {@code rank-sum} is Algorithm 3 (least rank(heat) +
   * rank(last selected)); {@code heat-first} keeps the coolest and uses recency for ties;
   * {@code in-flight} keeps the one with the fewest writes in flight (the blocks the NameNode
   * has scheduled on it and not yet seen reported, exact between heartbeats), then the coolest,
   * then the least recently selected. Algorithm 3 as the paper has it is {@code rank-sum} with
   * 3 candidates.
   */
  public static final String RANKING = "opass.placement.hmlru.ranking";
  public static final String RANKING_DEFAULT = "in-flight";
}
