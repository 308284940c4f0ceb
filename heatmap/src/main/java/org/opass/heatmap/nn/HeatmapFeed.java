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
import org.opass.heatmap.Heatmap;

/**
 * Feeds the pure {@link Heatmap} from the NameNode's DataNode records (heartbeat transfer
 * counts and times, liveness): the thin glue between the two.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class HeatmapFeed {
  private HeatmapFeed() {
  }

  /**
   * Feeds the heatmap what the latest heartbeat of {@code dn} said and returns its heat. A
   * {@code DatanodeInfo} that is no descriptor (a located block's copy) is taken as alive.
   */
  public static int observe(Heatmap heatmap, DatanodeInfo dn) {
    Heatmap.Row row = observeRow(heatmap, dn);
    return row == null ? 0 : row.heat();
  }

  /** {@link #observe} returning the node's row ({@link Heatmap#observeRow}). */
  public static Heatmap.Row observeRow(Heatmap heatmap, DatanodeInfo dn) {
    boolean alive = !(dn instanceof DatanodeDescriptor) || ((DatanodeDescriptor) dn).isAlive();
    return heatmap.observeRow(dn.getDatanodeUuid(), dn.getXferAddr(), dn.getXceiverCount(),
        dn.getLastUpdateMonotonic(), alive);
  }

  /**
   * Observes every DataNode of the NameNode's {@code topology} and forgets every tracked node
   * that is not in it: the NameNode takes a DataNode out of its topology when it declares it
   * dead or removes it.
   *
   * @return the topology's leaves, as listed for this walk
   */
  public static List<Node> observeAll(Heatmap heatmap, NetworkTopology topology) {
    long walkStart = heatmap.clockNanos();
    List<Node> leaves = topology.getLeaves(NodeBase.ROOT);
    Set<String> live = new HashSet<>(leaves.size() * 2);
    for (Node n : leaves) {
      if (n instanceof DatanodeInfo) {
        DatanodeInfo dn = (DatanodeInfo) n;
        live.add(dn.getDatanodeUuid());
        observe(heatmap, dn);
      }
    }
    heatmap.retainOnly(live, walkStart);
    return leaves;
  }
}
