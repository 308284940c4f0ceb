package org.opass.heatmap.nn;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/** Configuration keys of the heatmap (set in the NameNode's hdfs-site.xml). */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class HeatmapKeys {
  private HeatmapKeys() {
  }

  /** Upper bound on DataNodes tracked by one NameNode's heatmap. */
  public static final String MAX_NODES = "opass.heatmap.max-nodes";
  public static final int MAX_NODES_DEFAULT = 100_000;

  /** A DataNode not looked at for this long is forgotten (removed or dead). */
  public static final String FORGET_AFTER_MS = "opass.heatmap.forget-after-ms";
  public static final long FORGET_AFTER_MS_DEFAULT = 30 * 60 * 1000L;
}
