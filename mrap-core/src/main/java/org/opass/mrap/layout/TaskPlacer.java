package org.opass.mrap.layout;

import java.util.Arrays;

/**
 * Algorithm 4.3.1 (first fit) for one task of a restructured file, region by region: where
 * each of the task's regions goes, in the chunks ("bins") the task opens one after another from
 * its first bin. A region of at most a chunk goes to the first open bin with room; otherwise,
 * and for a region larger than a chunk, the next bin is opened and the region starts at its
 * first free byte (only bin 0 has a used start: the file's header), continuing into as many
 * bins as it needs. Regions in a bin are laid end to end in the order they arrive.
 *
 * <p>The same object plans a layout (with a budget of bins per task: a region that would open
 * more is refused and starts the next task) and replays it for readers and writers (with the
 * task's own bin count), so the two cannot disagree. Memory: a long per bin the task opens.
 * Not thread-safe.
 *
 * <p>A contiguous layout's placer ({@link #contiguous}) lays the regions end to end from where
 * the task starts, across chunk boundaries.
 */
public final class TaskPlacer {
  private final long chunk;
  private final long headerBytes;
  private final long firstBin;
  private final long budget;
  private long[] used = new long[1]; // bytes used in each bin opened, by opening order
  private int opened;
  private int firstWithRoom; // bins before it are full
  private long next = -1; // a contiguous placer's next offset

  /**
   * @param chunk       bytes per chunk (bin)
   * @param headerBytes bytes bin 0 starts with (the file's header)
   * @param firstBin    the task's first bin
   * @param budget      most bins the task may open (its first region is placed whatever it
   *                    needs)
   */
  public TaskPlacer(long chunk, long headerBytes, long firstBin, long budget) {
    if (chunk < 1 || headerBytes < 0 || headerBytes >= chunk || firstBin < 0 || budget < 1) {
      throw new IllegalArgumentException("chunk " + chunk + ", header " + headerBytes
          + ", first bin " + firstBin + ", budget " + budget);
    }
    this.chunk = chunk;
    this.headerBytes = headerBytes;
    this.firstBin = firstBin;
    this.budget = budget;
  }

  /** Regions end to end from {@code start}: a contiguous layout's task. */
  public static TaskPlacer contiguous(long start) {
    TaskPlacer p = new TaskPlacer(2, 0, 0, 1);
    p.next = start;
    return p;
  }

  /**
   * Places a region of {@code length} bytes.
   *
   * @return its physical offset, or -1 if it needs a bin beyond the budget (nothing changes)
   */
  public long place(long length) {
    if (next >= 0) {
      long at = next;
      next += length;
      return at;
    }
    if (length <= chunk) {
      for (int j = firstWithRoom; j < opened; j++) {
        if (chunk - used[j] >= length) {
          long at = (firstBin + j) * chunk + used[j];
          used[j] += length;
          while (firstWithRoom < opened && used[firstWithRoom] == chunk) {
            firstWithRoom++;
          }
          return at;
        }
      }
    }
    long bin = firstBin + opened;
    long start = bin == 0 ? headerBytes : 0;
    long bins = (start + length - 1) / chunk + 1;
    if (opened > 0 && opened + bins > budget) {
      return -1;
    }
    if (opened + bins > used.length) {
      used = Arrays.copyOf(used, (int) Math.max(opened + bins, 2L * used.length));
    }
    long left = start + length;
    for (long k = 0; k < bins; k++) {
      used[opened++] = Math.min(chunk, left);
      left -= chunk;
    }
    while (firstWithRoom < opened && used[firstWithRoom] == chunk) {
      firstWithRoom++;
    }
    return bin * chunk + start;
  }

  /** Bins opened so far. */
  public int bins() {
    return opened;
  }

  /** Bytes used in the task's {@code j}-th bin (its header included for bin 0). */
  public long used(int j) {
    if (j < 0 || j >= opened) {
      throw new IndexOutOfBoundsException("bin " + j + " of " + opened);
    }
    return used[j];
  }
}
