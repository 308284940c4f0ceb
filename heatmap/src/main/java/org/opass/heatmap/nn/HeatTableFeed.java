package org.opass.heatmap.nn;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.opass.heatmap.HeatTable;

/**
 * Feeds the pure {@link HeatTable} from the NameNode's DataNode records (heartbeat transfer
 * counts and times, liveness): the thin glue between the two.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class HeatTableFeed {
  private HeatTableFeed() {
  }

  /**
   * Feeds the table what the latest heartbeat of {@code dn} said and returns its heat. A
   * {@code DatanodeInfo} that is no descriptor (a located block's copy) is taken as alive.
   */
  public static int observe(HeatTable table, DatanodeInfo dn) {
    HeatTable.Row row = observeRow(table, dn);
    return row == null ? 0 : row.heat();
  }

  /** {@link #observe} returning the node's row ({@link HeatTable#observeRow}). */
  public static HeatTable.Row observeRow(HeatTable table, DatanodeInfo dn) {
    boolean alive = !(dn instanceof DatanodeDescriptor) || ((DatanodeDescriptor) dn).isAlive();
    return table.observeRow(dn.getDatanodeUuid(), dn.getXferAddr(), dn.getXceiverCount(),
        dn.getLastUpdateMonotonic(), alive);
  }

  /**
   * Observes every DataNode of the NameNode's {@code topology} and forgets every tracked node
   * that is not in it: the NameNode takes a DataNode out of its topology when it declares it
   * dead or removes it.
   *
   * @return the topology's leaves, as listed for this walk
   */
  public static List<Node> observeAll(HeatTable table, NetworkTopology topology) {
    long walkStart = table.clockNanos();
    List<Node> leaves = topology.getLeaves(NodeBase.ROOT);
    Set<String> live = new HashSet<>(leaves.size() * 2);
    for (Node n : leaves) {
      if (n instanceof DatanodeInfo) {
        DatanodeInfo dn = (DatanodeInfo) n;
        live.add(dn.getDatanodeUuid());
        observe(table, dn);
      }
    }
    table.retainOnly(live, walkStart);
    return leaves;
  }
}
