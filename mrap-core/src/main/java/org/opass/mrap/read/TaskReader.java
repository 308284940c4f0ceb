package org.opass.mrap.read;

import java.io.Closeable;
import java.io.IOException;

/**
 * Reads one planned task record by record: {@link RegionReader} (a task's regions) or {@link
 * PieceReader} (a task's pieces of variables). Each engine adapts it to its own reader: a
 * MapReduce {@code RecordReader}, a Spark {@code PartitionReader}.
 */
public interface TaskReader extends Closeable {
  /** Reads the next record; false when the task has no more. */
  boolean next() throws IOException;

  /** The share of the task read, 0 to 1. */
  float progress();
}
