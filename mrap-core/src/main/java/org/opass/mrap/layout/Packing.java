package org.opass.mrap.layout;

import static org.opass.mrap.layout.RestructuredLayout.HEADER_BYTES;

import java.util.Arrays;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.TaskPartition;

/**
 * How a pattern's regions are packed into a restructured file's chunks: per task its first
 * region and its first chunk, per chunk its bytes used (the header in chunk 0 included), and
 * whether the regions lie end to end. An immutable value, made by first fit or end to end here
 * and kept in a layout's trailer ({@link PackedTrailer}).
 */
final class Packing {
  final boolean contiguous;
  final long[] taskFrom; // first region of each task
  final long[] taskBin; // first chunk of each task
  final long[] binUsed; // bytes used in each chunk

  Packing(boolean contiguous, long[] taskFrom, long[] taskBin, long[] binUsed) {
    this.contiguous = contiguous;
    this.taskFrom = taskFrom;
    this.taskBin = taskBin;
    this.binUsed = binUsed;
  }

  /**
   * First fit (Algorithm 4.3.1): each task's regions placed into its own chunks of {@code
   * chunk} bytes after the header, at most {@code chunksPerTask} of them (a task whose first
   * region needs more gets what it needs).
   */
  static Packing firstFit(AccessPattern pattern, long chunk, long chunksPerTask) {
    LongList from = new LongList();
    LongList bins = new LongList();
    LongList used = new LongList();
    from.add(0);
    bins.add(0);
    TaskPlacer placer = new TaskPlacer(chunk, HEADER_BYTES, 0, chunksPerTask);
    RegionCursor c = pattern.cursor();
    for (long index = 0; c.next(); index++) {
      if (placer.place(c.length()) < 0) { // the task is full: the next one starts here
        close(placer, used);
        from.add(index);
        bins.add(bins.last() + placer.bins());
        placer = new TaskPlacer(chunk, HEADER_BYTES, bins.last(), chunksPerTask);
        placer.place(c.length());
      }
    }
    close(placer, used);
    return new Packing(false, from.toArray(), bins.toArray(), used.toArray());
  }

  /**
   * The regions end to end after the header, cut into tasks of {@code chunksPerTask} chunks'
   * worth of bytes: no room left in any chunk, so no zeros, and each task reads one contiguous
   * run (a chunk or two more than first fit's, where a region straddles a chunk's end). What
   * first fit gives way to when the room its chunks leave outgrows the original's other bytes
   * (regions of a little over half a chunk leave nearly half of each).
   */
  static Packing contiguous(AccessPattern pattern, long chunk, long chunksPerTask) {
    TaskPartition tasks = TaskPartition.byBytes(pattern, Math.multiplyExact(chunksPerTask,
        chunk));
    long[] from = new long[tasks.tasks()];
    long[] bins = new long[from.length];
    for (int t = 0; t < from.length; t++) {
      from[t] = tasks.regionFrom(t);
      bins[t] = (HEADER_BYTES + pattern.bytesBefore(from[t])) / chunk;
    }
    long packed = HEADER_BYTES + pattern.totalBytes();
    long count = (packed - 1) / chunk + 1;
    if (count > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("more than 2^31 chunks: use larger chunks");
    }
    long[] used = new long[(int) count];
    Arrays.fill(used, chunk);
    used[used.length - 1] = packed - (count - 1) * chunk;
    return new Packing(true, from, bins, used);
  }

  private static void close(TaskPlacer placer, LongList used) {
    for (int j = 0; j < placer.bins(); j++) {
      used.add(placer.used(j));
    }
  }

  /** Chunks task {@code t} uses. */
  long chunks(int t) {
    return (t + 1 < taskBin.length ? taskBin[t + 1] : binUsed.length) - taskBin[t];
  }

  /** Checks these tables against first fit replayed over every region of {@code pattern}. */
  void check(AccessPattern pattern, long chunk) {
    if (contiguous) {
      for (int t = 0; t < taskFrom.length; t++) {
        if (taskBin[t] != (HEADER_BYTES + pattern.bytesBefore(taskFrom[t])) / chunk) {
          throw new IllegalStateException("task " + t + " starts in chunk "
              + (HEADER_BYTES + pattern.bytesBefore(taskFrom[t])) / chunk + ", not "
              + taskBin[t]);
        }
      }
      for (int b = 0; b + 1 < binUsed.length; b++) {
        if (binUsed[b] != chunk) {
          throw new IllegalStateException("chunk " + b + " of a contiguous layout has room");
        }
      }
      return;
    }
    for (int t = 0; t < taskFrom.length; t++) {
      TaskPlacer p = new TaskPlacer(chunk, HEADER_BYTES, taskBin[t], chunks(t));
      long to = t + 1 < taskFrom.length ? taskFrom[t + 1] : pattern.regionCount();
      RegionCursor c = pattern.cursor(taskFrom[t], to);
      while (c.next()) {
        if (p.place(c.length()) < 0) {
          throw new IllegalStateException("task " + t + " does not fit its chunks");
        }
      }
      if (p.bins() != chunks(t)) {
        throw new IllegalStateException("task " + t + " fills " + p.bins() + " chunks, not "
            + chunks(t));
      }
      for (int j = 0; j < p.bins(); j++) {
        if (p.used(j) != binUsed[(int) (taskBin[t] + j)]) {
          throw new IllegalStateException("task " + t + "'s chunk " + j + " uses "
              + p.used(j) + " bytes, not " + binUsed[(int) (taskBin[t] + j)]);
        }
      }
    }
  }

  /** A growing array of longs. */
  private static final class LongList {
    private long[] a = new long[16];
    private int n;

    void add(long v) {
      if (n == a.length) {
        if (n >= Integer.MAX_VALUE - 8) {
          throw new IllegalArgumentException("more than " + n + " chunks: use larger chunks");
        }
        a = Arrays.copyOf(a, (int) Math.min(Integer.MAX_VALUE - 8, 2L * n));
      }
      a[n++] = v;
    }

    long last() {
      return a[n - 1];
    }

    long[] toArray() {
      return Arrays.copyOf(a, n);
    }
  }
}
