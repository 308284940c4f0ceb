package org.opass.heatmap;

import java.lang.ref.WeakReference;
import java.util.List;

/** JMX view of one heatmap; holds it weakly so a stopped NameNode's table can be collected. */
final class HeatmapMBeanImpl implements HeatmapMXBean {
  private final WeakReference<Heatmap> ref;

  HeatmapMBeanImpl(WeakReference<Heatmap> ref) {
    this.ref = ref;
  }

  private Heatmap heatmap() {
    Heatmap h = ref.get();
    return h != null ? h : Heatmap.builder().maxNodes(1).build();
  }

  @Override
  public int getTrackedNodes() {
    return heatmap().trackedNodes();
  }

  @Override
  public double getMeanHeat() {
    return heatmap().meanHeat();
  }

  @Override
  public long getGrantsTotal() {
    return heatmap().grantsTotal();
  }

  @Override
  public long getChoices() {
    return heatmap().choices();
  }

  @Override
  public long getFallbacks() {
    return heatmap().fallbacks();
  }

  @Override
  public String getNodes() {
    return toJson(heatmap().snapshot());
  }

  static String toJson(List<NodeHeat> rows) {
    StringBuilder sb = new StringBuilder("[");
    for (NodeHeat r : rows) {
      if (sb.length() > 1) {
        sb.append(',');
      }
      sb.append("{\"node_id\":").append(quote(r.nodeId()))
          .append(",\"name\":").append(quote(r.name()))
          .append(",\"xceivers\":").append(r.xceivers())
          .append(",\"grants_since_heartbeat\":").append(r.grantsSinceHeartbeat())
          .append(",\"heat\":").append(r.heat())
          .append(",\"last_selected_ms_ago\":").append(r.lastSelectedMillisAgo())
          .append(",\"heartbeat_age_ms\":").append(r.heartbeatAgeMillis())
          .append('}');
    }
    return sb.append(']').toString();
  }

  private static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
