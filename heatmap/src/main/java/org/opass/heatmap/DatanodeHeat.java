package org.opass.heatmap;

import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;

/** The thin glue between NameNode DataNode descriptors and the pure {@link Heatmap}. */
public final class DatanodeHeat {
  private DatanodeHeat() {
  }

  /** Feeds the heatmap what the latest heartbeat of {@code dn} said; returns its heat. */
  public static int observe(Heatmap heatmap, DatanodeDescriptor dn) {
    return heatmap.observe(dn.getDatanodeUuid(), dn.getXferAddr(), dn.getXceiverCount(),
        dn.getLastUpdateMonotonic(), dn.isAlive());
  }
}
