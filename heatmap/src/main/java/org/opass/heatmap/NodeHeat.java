package org.opass.heatmap;

/**
 * One DataNode's row of the heat table.
 *
 * @param nodeId DataNode UUID
 * @param name display name (transfer address)
 * @param xceivers active transfers at the latest heartbeat
 * @param grantsSinceHeartbeat reads and writes the NameNode granted since that heartbeat
 * @param lastSelectedMillisAgo milliseconds since the node was last granted work, -1 if never
 */
public record NodeHeat(String nodeId, String name, int xceivers, int grantsSinceHeartbeat,
    long lastSelectedMillisAgo) {

  public int heat() {
    return xceivers + grantsSinceHeartbeat;
  }
}
