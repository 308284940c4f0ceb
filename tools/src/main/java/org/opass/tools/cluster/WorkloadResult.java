package org.opass.tools.cluster;

import java.util.List;

/**
 * What a {@link Workload} run measured. Times are in nanoseconds from the moment all processes
 * were released; bandwidths are in bytes per second.
 *
 * @param processes one entry per process, in process id order
 * @param makespanNanos time until the last process finished
 */
public record WorkloadResult(List<ProcessResult> processes, long makespanNanos) {

  public WorkloadResult {
    processes = List.copyOf(processes);
  }

  public ProcessResult process(int processId) {
    return processes.get(processId);
  }

  /** Bytes recorded by all processes. */
  public long totalBytes() {
    return processes.stream().mapToLong(ProcessResult::bytes).sum();
  }

  /** All bytes over the makespan. */
  public double aggregateBandwidth() {
    return bandwidth(totalBytes(), makespanNanos);
  }

  /**
   * One process: the chunks it recorded and when it ran.
   *
   * @param startNanos when its body began
   * @param finishNanos when its body returned
   * @param chunks in the order recorded
   */
  public record ProcessResult(int processId, int host, long startNanos, long finishNanos,
      List<Chunk> chunks) {

    public ProcessResult {
      chunks = List.copyOf(chunks);
    }

    /** Bytes over all recorded chunks. */
    public long bytes() {
      return chunks.stream().mapToLong(Chunk::bytes).sum();
    }

    public long elapsedNanos() {
      return finishNanos - startNanos;
    }

    /** Recorded bytes over the time the body ran. */
    public double bandwidth() {
      return WorkloadResult.bandwidth(bytes(), elapsedNanos());
    }
  }

  /** One recorded piece of I/O, e.g. one block written. */
  public record Chunk(long bytes, long startNanos, long finishNanos) {

    public long durationNanos() {
      return finishNanos - startNanos;
    }
  }

  private static double bandwidth(long bytes, long nanos) {
    return nanos > 0 ? bytes * 1e9 / nanos : 0;
  }
}
