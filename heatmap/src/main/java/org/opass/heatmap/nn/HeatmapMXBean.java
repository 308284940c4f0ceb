package org.opass.heatmap.nn;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/** What the NameNode's {@code /jmx} shows of the Opass heatmap. */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public interface HeatmapMXBean {
  /** DataNodes currently tracked. */
  int getTrackedNodes();

  /** Mean heat (transfers + grants since heartbeat) over tracked DataNodes. */
  double getMeanHeat();

  /** Reads and writes granted by our code since start. */
  long getGrantsTotal();

  /** Decisions made with the heatmap since start. */
  long getChoices();

  /** Decisions that fell back to stock behaviour after an internal failure. */
  long getFallbacks();

  /**
   * The table as JSON, hottest first: an array of objects with {@code node_id, name, xceivers,
   * grants_since_heartbeat, heat, last_selected_ms_ago, heartbeat_age_ms} (as NameNodeInfo
   * publishes LiveNodes; keys snake_case, as in everything we serve). {@code heartbeat_age_ms}
   * says how current a row is.
   */
  String getNodes();
}
