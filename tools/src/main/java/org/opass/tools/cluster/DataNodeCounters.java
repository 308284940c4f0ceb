package org.opass.tools.cluster;

import org.apache.hadoop.hdfs.server.datanode.DataNode;

/** What the DataNodes of an {@link EmulatedCluster} counted ({@link EmulatedCluster#counters()}). */
public final class DataNodeCounters {
  private final DataNode[] dataNodes;

  DataNodeCounters(DataNode[] dataNodes) {
    this.dataNodes = dataNodes;
  }

  /** {@code counter} on every DataNode since it started, indexed by DataNode. */
  public long[] perDataNode(DataNodeCounter counter) {
    long[] values = new long[dataNodes.length];
    for (int k = 0; k < dataNodes.length; k++) {
      values[k] = counter.valueOn(dataNodes[k]);
    }
    return values;
  }

  /** {@code counter} on every DataNode minus {@code before}, an earlier reading of it. */
  public long[] since(DataNodeCounter counter, long[] before) {
    long[] now = perDataNode(counter);
    for (int k = 0; k < now.length; k++) {
      now[k] -= before[k];
    }
    return now;
  }
}
