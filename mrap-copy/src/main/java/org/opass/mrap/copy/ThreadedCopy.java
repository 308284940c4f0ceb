package org.opass.mrap.copy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A copy from this process in several streams side by side: threads take the destination's
 * chunks in order, each writing a chunk as a part file of its own through a write pipeline of
 * its own, and the parts are joined by {@code concat} ({@link Parts}) as a copy job's are. One
 * client's pipeline runs at the speed of its three DataNodes, one after another; several
 * pipelines on other DataNodes overlap, as the writers of a copy job do, for a source the
 * cluster's tasks cannot read (a local file). Each thread reads the source through a reader and
 * windows of its own.
 */
final class ThreadedCopy {
  private static final Logger LOG = LoggerFactory.getLogger(ThreadedCopy.class);

  private ThreadedCopy() {
  }

  /**
   * Writes the copy's chunks into {@code parts}, joins them into {@code temp}, checks and
   * publishes it as {@code dst}.
   */
  static void run(Configuration conf, CopyWork w, RestructuringCopy.Progress progress)
      throws IOException {
    long t0 = System.nanoTime();
    FileSystem fs = w.dst.getFileSystem(conf);
    long chunk = w.settings.blockSize;
    int chunks = CopyPlan.chunks(chunk, w.physicalLength);
    int threads = Math.min(w.settings.threads, chunks);
    fs.mkdirs(w.parts);
    int[] chunkCrc = new int[chunks];
    Crc32c.Accumulator original = new Crc32c.Accumulator(w.source.length());
    AtomicInteger next = new AtomicInteger();
    AtomicLong done = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "mrap-copy-writer");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        writers.add(pool.submit(() -> {
          try (SourceFile.Reader in = w.source.open()) {
            PhysicalWriter writer = new PhysicalWriter(in, w.layout, w.source.length());
            for (int c = next.getAndIncrement(); c < chunks; c = next.getAndIncrement()) {
              long lo = c * chunk;
              PhysicalWriter.Sums sums;
              try (FSDataOutputStream out = fs.createNonRecursive(Parts.part(w.parts, c),
                  w.settings.permission, false, 1 << 20, w.settings.replication, chunk, null)) {
                sums = writer.write(lo, Math.min(w.physicalLength, lo + chunk), out, n -> {
                  long sent = done.addAndGet(n);
                  if (progress != null) {
                    synchronized (progress) { // one caller at a time, as from one stream
                      progress.copied(sent, w.physicalLength);
                    }
                  }
                });
              }
              synchronized (original) {
                chunkCrc[c] = sums.written;
                original.addValue(sums.original);
              }
            }
          } catch (IOException | RuntimeException | Error e) {
            next.set(chunks); // the other writers take no more chunks
            throw e;
          }
          return null;
        }));
      }
      for (Future<?> writer : writers) {
        await(writer, w.source);
      }
    } finally {
      // a failed or interrupted copy stops its other writers before its w.parts are removed
      pool.shutdownNow();
      try {
        pool.awaitTermination(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    long t1 = System.nanoTime();
    int written = Parts.join(fs, w.parts, w.temp, chunk, w.physicalLength, chunkCrc);
    if (w.options.verify()) {
      Publisher.verifyWritten(conf, fs, w.temp, w.physicalLength, written, w.dst);
      Publisher.verifySource(conf, w.source, original.value());
    }
    Publisher.publish(conf, fs, w.temp, w.dst, w.options.overwrite());
    LOG.info("{}: {} chunks in {} streams written in {} ms; joined, checked and published in "
        + "{} ms", w.source, chunks, threads, (t1 - t0) / 1_000_000,
        (System.nanoTime() - t1) / 1_000_000);
  }

  private static void await(Future<?> writer, SourceFile source) throws IOException {
    try {
      writer.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("the copy of " + source + " was interrupted");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new IOException(cause);
    }
  }
}
