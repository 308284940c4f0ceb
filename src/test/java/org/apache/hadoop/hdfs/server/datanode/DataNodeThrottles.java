package org.apache.hadoop.hdfs.server.datanode;

import org.apache.hadoop.hdfs.util.DataTransferThrottler;

/** Reaches the package-private transfer server of a DataNode, for the emulated cluster. */
public final class DataNodeThrottles {
  private DataNodeThrottles() {
  }

  /** Replaces the throttler all of {@code dn}'s block reads share. */
  public static void setReadThrottler(DataNode dn, DataTransferThrottler throttler) {
    dn.getXferServer().setReadThrottler(throttler);
  }
}
