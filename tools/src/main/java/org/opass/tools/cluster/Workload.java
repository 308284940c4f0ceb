package org.opass.tools.cluster;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;

/**
 * Processes pinned to hosts of an {@link EmulatedCluster}, run concurrently: each gets its own
 * thread and its host's client, all are released at the same instant, and each records the
 * chunks of I/O it did. The first process to fail fails the run.
 *
 * <pre>{@code
 * WorkloadResult result = new Workload(cluster)
 *     .process(0, Workload.writeFiles(dir, 4))
 *     .process(5, Workload.writeFiles(dir, 4))
 *     .run();
 * }</pre>
 */
public final class Workload {

  /** What one process does. */
  @FunctionalInterface
  public interface ProcessBody {
    void run(ProcessContext context) throws Exception;
  }

  /** A process of the workload threw; the run stopped the other processes. */
  public static final class ProcessFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int processId;

    ProcessFailedException(int processId, String where, Throwable cause) {
      super("process " + processId + " on " + where + " failed: " + cause, cause);
      this.processId = processId;
    }

    public int processId() {
      return processId;
    }
  }

  // A block of the files writeFiles writes is made of this many bytes at a time.
  private static final int WRITE_BUFFER_BYTES = 64 * 1024;
  // Stopped processes get this long to notice the interrupt before the run returns.
  private static final Duration STOP_GRACE = Duration.ofSeconds(30);

  private final EmulatedCluster cluster;
  private final List<Integer> hosts = new ArrayList<>();
  private final List<ProcessBody> bodies = new ArrayList<>();
  private Duration timeout = Duration.ofMinutes(10);

  public Workload(EmulatedCluster cluster) {
    this.cluster = cluster;
  }

  /** Adds a process on DataNode {@code host}'s host; its id is the number added before it. */
  public Workload process(int host, ProcessBody body) {
    cluster.hostAddress(host); // rejects an unknown host now rather than in run()
    hosts.add(host);
    bodies.add(body);
    return this;
  }

  /** How long the run may take before it fails; default 10 minutes. */
  public Workload timeout(Duration limit) {
    this.timeout = limit;
    return this;
  }

  /**
   * Runs all processes and waits for them.
   *
   * @throws ProcessFailedException for the first process that threw
   * @throws TimeoutException if the processes did not all finish within the timeout
   */
  public WorkloadResult run() throws IOException, InterruptedException, TimeoutException {
    int count = bodies.size();
    if (count == 0) {
      throw new IllegalStateException("no processes");
    }
    List<ProcessContext> contexts = new ArrayList<>(count);
    for (int id = 0; id < count; id++) {
      contexts.add(new ProcessContext(id, hosts.get(id), cluster.fileSystemOnHost(hosts.get(id))));
    }
    CountDownLatch ready = new CountDownLatch(count);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger threadNumber = new AtomicInteger();
    ExecutorService threads = Executors.newFixedThreadPool(count, task -> {
      Thread thread = new Thread(task, "workload-process-" + threadNumber.getAndIncrement());
      thread.setDaemon(true);
      return thread;
    });
    CompletionService<Span> finished = new ExecutorCompletionService<>(threads);
    try {
      for (ProcessContext context : contexts) {
        ProcessBody body = bodies.get(context.processId());
        String where = "host " + context.host() + " (" + cluster.hostAddress(context.host()) + ")";
        finished.submit(() -> {
          ready.countDown();
          release.await();
          long start = System.nanoTime();
          try {
            body.run(context);
          } catch (Throwable t) {
            throw new ProcessFailedException(context.processId(), where, t);
          }
          return new Span(context.processId(), start, System.nanoTime());
        });
      }
      ready.await();
      long origin = System.nanoTime();
      release.countDown();
      long deadline = origin + timeout.toNanos();
      Span[] spans = new Span[count];
      for (int done = 0; done < count; done++) {
        Future<Span> next = finished.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (next == null) {
          throw new TimeoutException((count - done) + " of " + count
              + " processes still running after " + timeout);
        }
        Span span = getOrRethrow(next);
        spans[span.processId()] = span;
      }
      return result(contexts, spans, origin);
    } finally {
      threads.shutdownNow();
      threads.awaitTermination(STOP_GRACE.toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  private static Span getOrRethrow(Future<Span> future) throws InterruptedException {
    try {
      return future.get();
    } catch (ExecutionException e) {
      // the task wraps every throwable of a body
      throw (ProcessFailedException) e.getCause();
    }
  }

  private static WorkloadResult result(List<ProcessContext> contexts, Span[] spans,
      long origin) {
    List<WorkloadResult.ProcessResult> processes = new ArrayList<>(contexts.size());
    long makespan = 0;
    for (ProcessContext context : contexts) {
      Span span = spans[context.processId()];
      processes.add(new WorkloadResult.ProcessResult(context.processId(), context.host(),
          span.startNanos() - origin, span.finishNanos() - origin,
          context.chunksSince(origin)));
      makespan = Math.max(makespan, span.finishNanos() - origin);
    }
    return new WorkloadResult(processes, makespan);
  }

  private record Span(int processId, long startNanos, long finishNanos) {
  }

  /** The file {@link #writeFiles} writes for process {@code processId}. */
  public static Path fileOf(Path dir, int processId) {
    return new Path(dir, "process-" + processId);
  }

  /** {@link #writeFiles(Path, int, short)} with replication 3. */
  public static ProcessBody writeFiles(Path dir, int blocksPerProcess) {
    return writeFiles(dir, blocksPerProcess, (short) 3);
  }

  /**
   * A body that writes {@code blocksPerProcess} full blocks of the cluster's block size to the
   * process's own file {@link #fileOf}, recording each block as a chunk: from its first byte
   * until its pipeline acknowledged it (hflush), and for the last block until close() returned.
   * The bytes are pseudo-random, seeded with the process id.
   */
  public static ProcessBody writeFiles(Path dir, int blocksPerProcess, short replication) {
    return writeFiles(dir, blocksPerProcess, replication, null);
  }

  /**
   * {@link #writeFiles(Path, int, short)} with favored nodes for each process's file, which
   * the NameNode's default policy takes as the pipeline when it can (null: none).
   */
  public static ProcessBody writeFiles(Path dir, int blocksPerProcess, short replication,
      IntFunction<InetSocketAddress[]> favoredNodes) {
    if (blocksPerProcess < 1) {
      throw new IllegalArgumentException("blocks per process must be positive: "
          + blocksPerProcess);
    }
    return context -> {
      FileSystem fs = context.fs();
      Path file = fileOf(dir, context.processId());
      long blockSize = fs.getDefaultBlockSize(file);
      byte[] data = new byte[(int) Math.min(WRITE_BUFFER_BYTES, blockSize)];
      new Random(context.processId()).nextBytes(data);
      FSDataOutputStream out = favoredNodes == null
          ? fs.create(file, true, data.length, replication, blockSize)
          : ((DistributedFileSystem) fs).create(file, FsPermission.getFileDefault(), true,
              data.length, replication, blockSize, null,
              favoredNodes.apply(context.processId()));
      boolean closed = false;
      try {
        for (int block = 0; block < blocksPerProcess; block++) {
          long start = System.nanoTime();
          for (long left = blockSize; left > 0; left -= data.length) {
            out.write(data, 0, (int) Math.min(left, data.length));
          }
          // Without waiting for acknowledgement, a block's time would be the time to queue it.
          if (block < blocksPerProcess - 1) {
            out.hflush();
          } else {
            out.close();
            closed = true;
          }
          context.recordChunk(blockSize, start, System.nanoTime());
        }
      } finally {
        if (!closed) {
          IOUtils.closeStream(out);
        }
      }
    };
  }
}
