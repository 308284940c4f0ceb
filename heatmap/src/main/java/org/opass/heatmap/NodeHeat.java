package org.opass.heatmap;

import java.util.List;
import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/** One DataNode's row of the heat table. */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class NodeHeat {
  private final String nodeId;
  private final String name;
  private final int xceivers;
  private final int grantsSinceHeartbeat;
  private final long lastSelectedMillisAgo;
  private final long heartbeatAgeMillis;

  /**
   * @param nodeId DataNode UUID
   * @param name display name (transfer address)
   * @param xceivers active transfers at the latest heartbeat
   * @param grantsSinceHeartbeat reads and writes the NameNode granted since that heartbeat
   * @param lastSelectedMillisAgo milliseconds since the node was last granted work, -1 if never
   * @param heartbeatAgeMillis how old the row is: milliseconds since the heatmap last took a
   *     new heartbeat of the node (it takes them when placement or reads look at the node, so an
   *     idle cluster's rows age while its DataNodes keep reporting)
   */
  public NodeHeat(String nodeId, String name, int xceivers, int grantsSinceHeartbeat,
      long lastSelectedMillisAgo, long heartbeatAgeMillis) {
    this.nodeId = nodeId;
    this.name = name;
    this.xceivers = xceivers;
    this.grantsSinceHeartbeat = grantsSinceHeartbeat;
    this.lastSelectedMillisAgo = lastSelectedMillisAgo;
    this.heartbeatAgeMillis = heartbeatAgeMillis;
  }

  public String nodeId() {
    return nodeId;
  }

  public String name() {
    return name;
  }

  public int xceivers() {
    return xceivers;
  }

  public int grantsSinceHeartbeat() {
    return grantsSinceHeartbeat;
  }

  public long lastSelectedMillisAgo() {
    return lastSelectedMillisAgo;
  }

  public long heartbeatAgeMillis() {
    return heartbeatAgeMillis;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof NodeHeat)) {
      return false;
    }
    NodeHeat other = (NodeHeat) o;
    return Objects.equals(nodeId, other.nodeId)
        && Objects.equals(name, other.name)
        && xceivers == other.xceivers
        && grantsSinceHeartbeat == other.grantsSinceHeartbeat
        && lastSelectedMillisAgo == other.lastSelectedMillisAgo
        && heartbeatAgeMillis == other.heartbeatAgeMillis;
  }

  @Override
  public int hashCode() {
    return Objects.hash(nodeId, name, xceivers, grantsSinceHeartbeat, lastSelectedMillisAgo,
        heartbeatAgeMillis);
  }

  @Override
  public String toString() {
    return "NodeHeat["
        + "nodeId=" + nodeId
        + ", name=" + name
        + ", xceivers=" + xceivers
        + ", grantsSinceHeartbeat=" + grantsSinceHeartbeat
        + ", lastSelectedMillisAgo=" + lastSelectedMillisAgo
        + ", heartbeatAgeMillis=" + heartbeatAgeMillis
        + "]";
  }

  public int heat() {
    return xceivers + grantsSinceHeartbeat;
  }

  /**
   * Rows as the JSON array JMX publishes ({@code HeatmapMXBean#getNodes}) and the heat-table
   * command reads: snake_case keys, one object per row.
   */
  public static String toJson(List<NodeHeat> rows) {
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
