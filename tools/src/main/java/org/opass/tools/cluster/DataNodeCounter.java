package org.opass.tools.cluster;

import java.lang.reflect.Field;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.metrics.DataNodeMetrics;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;

/**
 * Cumulative counters a DataNode keeps about its own traffic ({@link DataNodeMetrics}), counted
 * since the DataNode started.
 *
 * <p>{@code DataNodeMetrics} keeps these counters package-private and publishes them only through
 * the metrics system, whose source names are made unique per JVM (a restarted cluster can reuse
 * a name) and whose snapshots reset interval statistics; so they are read from the fields.
 *
 * <p>When the counts move: a DataNode counts a written packet after writing it to disk and a
 * finished replica ({@link #BLOCKS_WRITTEN}) before acknowledging the block's last packet, so
 * write counters of a file are complete once its {@code close()} returns. A read is counted when
 * the reader acknowledges the end of the block, a moment after the client's read returned, so
 * poll before comparing read counters.
 */
public enum DataNodeCounter {
  /**
   * Data bytes (without checksums) received and written to disk: client writes, pipeline
   * mirrors, re-replication.
   */
  BYTES_WRITTEN("bytesWritten"),
  /**
   * Bytes sent to readers (block reads and block copies): the data and its checksums (4 bytes
   * per 512 with the default CRC32C).
   */
  BYTES_READ("bytesRead"),
  /** Replicas finalized. */
  BLOCKS_WRITTEN("blocksWritten"),
  /** Block reads served. */
  BLOCKS_READ("blocksRead"),
  /** Write operations whose sender had this DataNode's own address (the local writer). */
  WRITES_FROM_LOCAL_CLIENT("writesFromLocalClient"),
  /** Read operations whose reader had this DataNode's own address (the local reader). */
  READS_FROM_LOCAL_CLIENT("readsFromLocalClient");

  private final Field field;

  DataNodeCounter(String fieldName) {
    try {
      field = DataNodeMetrics.class.getDeclaredField(fieldName);
      field.setAccessible(true);
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException("DataNodeMetrics of this Hadoop version has no counter "
          + fieldName, e);
    }
  }

  /** The current value on {@code dataNode}. */
  public long valueOn(DataNode dataNode) {
    try {
      return ((MutableCounterLong) field.get(dataNode.getMetrics())).value();
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }
}
