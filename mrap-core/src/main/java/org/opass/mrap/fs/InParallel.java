package org.opass.mrap.fs;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Work over many files a few at a time, results in order: the fronts of a read's input files
 * at submission, a store's objects copied.
 */
public final class InParallel {
  /** One file's work. */
  public interface Work<T, R> {
    R apply(T item) throws IOException;
  }

  private InParallel() {
  }

  /**
   * {@code work} over {@code items} on at most {@code threads} threads, the results in the
   * items' order; the first failure (in that order) is thrown as it was, once no item runs.
   */
  public static <T, R> List<R> map(List<T> items, int threads, String what, Work<T, R> work)
      throws IOException {
    List<R> out = new ArrayList<>(items.size());
    if (items.size() <= 1) {
      for (T item : items) {
        out.add(work.apply(item));
      }
      return out;
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads, items.size()), r -> {
      Thread t = new Thread(r, "mrap-" + what.replace(' ', '-'));
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<R>> pending = new ArrayList<>(items.size());
      for (T item : items) {
        pending.add(pool.submit(() -> work.apply(item)));
      }
      for (Future<R> f : pending) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading the input files' " + what);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException) {
        throw (IOException) e.getCause();
      }
      if (e.getCause() instanceof RuntimeException) {
        throw (RuntimeException) e.getCause();
      }
      throw new IOException(e.getCause());
    } finally {
      // no work outlives the call: after a failure, the items running finish (or stop at the
      // interrupt) before it returns, or a failed copy's threads would go on writing while the
      // next one clears what it left
      pool.shutdownNow();
      try {
        pool.awaitTermination(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
