package org.opass.tools.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;

/** What a {@link Workload} process body sees: its host's client, its identity, and a log. */
public final class ProcessContext {

  private final int processId;
  private final int host;
  private final FileSystem fs;
  // absolute System.nanoTime() values until the run shifts them to its origin
  private final List<WorkloadResult.Chunk> chunks = new ArrayList<>();

  ProcessContext(int processId, int host, FileSystem fs) {
    this.processId = processId;
    this.host = host;
    this.fs = fs;
  }

  /** A client on this process's host ({@link EmulatedCluster#fileSystemOnHost(int)}). */
  public FileSystem fs() {
    return fs;
  }

  /** The index of the DataNode whose host this process runs on. */
  public int host() {
    return host;
  }

  /** 0-based, in the order the processes were added to the workload. */
  public int processId() {
    return processId;
  }

  /**
   * Records one chunk of I/O this process did.
   *
   * @param startNanos {@link System#nanoTime()} when the chunk started
   * @param endNanos {@link System#nanoTime()} when it finished
   */
  public synchronized void recordChunk(long bytes, long startNanos, long endNanos) {
    if (bytes < 0 || endNanos < startNanos) {
      throw new IllegalArgumentException("chunk of " + bytes + " bytes from " + startNanos
          + " to " + endNanos);
    }
    chunks.add(new WorkloadResult.Chunk(bytes, startNanos, endNanos));
  }

  /** The recorded chunks, with times taken from {@code originNanos}. */
  synchronized List<WorkloadResult.Chunk> chunksSince(long originNanos) {
    List<WorkloadResult.Chunk> result = new ArrayList<>(chunks.size());
    for (WorkloadResult.Chunk chunk : chunks) {
      result.add(new WorkloadResult.Chunk(chunk.bytes(), chunk.startNanos() - originNanos,
          chunk.finishNanos() - originNanos));
    }
    return result;
  }
}
