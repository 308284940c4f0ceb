package org.opass.heatmap.nn;

import java.lang.ref.WeakReference;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsTag;
import org.apache.hadoop.metrics2.lib.Interns;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.NodeHeat;

/**
 * The heatmap as a Hadoop metrics2 source ({@value #NAME}), so that it shows where operators
 * look: the NameNode's {@code /jmx} ({@code Hadoop:service=NameNode,name=OpassHeat}) and, with
 * {@code hadoop.prometheus.endpoint.enabled=true}, {@code /prom}. One record of totals, and one
 * record per tracked DataNode tagged with its transfer address and UUID (at most
 * {@code opass.heatmap.max-nodes} of them). The JSON table of {@link HeatmapMXBean}, which
 * {@code opass-client heat} prints, stays: it is one consistent snapshot, which a flat list of gauges
 * is not.
 */
final class HeatmapMetrics implements MetricsSource {
  /** Source and totals record name; Prometheus names start {@code opass_heat_}. */
  static final String NAME = "OpassHeat";
  /** Per-DataNode record name; Prometheus names start {@code opass_heat_node_}. */
  static final String NODE_RECORD = "OpassHeatNode";

  private static final MetricsInfo TRACKED = Interns.info("TrackedNodes", "DataNodes tracked");
  private static final MetricsInfo MEAN = Interns.info("MeanHeat",
      "Mean heat (transfers at the latest heartbeat + grants since) over tracked DataNodes");
  private static final MetricsInfo GRANTS = Interns.info("Grants",
      "Reads and writes granted by Opass code since start");
  private static final MetricsInfo CHOICES = Interns.info("Choices",
      "Decisions made with the heatmap since start");
  private static final MetricsInfo FALLBACKS = Interns.info("Fallbacks",
      "Decisions that fell back to stock behaviour after an internal failure");
  private static final MetricsInfo NODE = Interns.info("Node", "DataNode transfer address");
  private static final MetricsInfo NODE_ID = Interns.info("NodeId", "DataNode UUID");
  private static final MetricsInfo XCEIVERS = Interns.info("Xceivers",
      "Active transfers at the latest heartbeat the heatmap took");
  private static final MetricsInfo GRANTED = Interns.info("GrantsSinceHeartbeat",
      "Reads and writes granted since that heartbeat");
  private static final MetricsInfo HEAT = Interns.info("Heat", "Xceivers + grants since");
  private static final MetricsInfo AGE = Interns.info("HeartbeatAgeMillis",
      "Milliseconds since the heatmap last took a new heartbeat of the DataNode");
  private static final MetricsInfo LAST_SELECTED = Interns.info("LastSelectedMillisAgo",
      "Milliseconds since the DataNode was last granted work, -1 if never");

  private final WeakReference<HeatTable> heatmap;

  HeatmapMetrics(WeakReference<HeatTable> heatmap) {
    this.heatmap = heatmap;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    HeatTable h = heatmap.get();
    if (h == null) {
      return; // its NameNode is gone
    }
    collector.addRecord(NAME).setContext("dfs")
        .addGauge(TRACKED, h.trackedNodes())
        .addGauge(MEAN, h.meanHeat())
        .addCounter(GRANTS, h.grantsTotal())
        .addCounter(CHOICES, h.choices())
        .addCounter(FALLBACKS, h.fallbacks());
    for (NodeHeat row : h.snapshot()) {
      // tags built here, not interned: Hadoop's intern cache holds 1,000 values per tag
      MetricsRecordBuilder rb = collector.addRecord(NODE_RECORD).setContext("dfs")
          .add(new MetricsTag(NODE, row.name()))
          .add(new MetricsTag(NODE_ID, row.nodeId()));
      rb.addGauge(XCEIVERS, row.xceivers())
          .addGauge(GRANTED, row.grantsSinceHeartbeat())
          .addGauge(HEAT, row.heat())
          .addGauge(AGE, row.heartbeatAgeMillis())
          .addGauge(LAST_SELECTED, row.lastSelectedMillisAgo());
    }
  }
}
