package org.opass.heatmap;

import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;

/** The thin glue between the NameNode's DataNode records and the pure {@link Heatmap}. */
public final class DatanodeHeat {
  private DatanodeHeat() {
  }

  /**
   * Feeds the heatmap what the latest heartbeat of {@code dn} said and returns its heat. A
   * {@code DatanodeInfo} that is no descriptor (a located block's copy) is taken as alive.
   */
  public static int observe(Heatmap heatmap, DatanodeInfo dn) {
    boolean alive = !(dn instanceof DatanodeDescriptor d) || d.isAlive();
    return heatmap.observe(dn.getDatanodeUuid(), dn.getXferAddr(), dn.getXceiverCount(),
        dn.getLastUpdateMonotonic(), alive);
  }
}
