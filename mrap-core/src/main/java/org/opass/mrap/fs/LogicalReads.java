package org.opass.mrap.fs;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.hadoop.fs.FSDataInputStream;
import org.opass.mrap.layout.RestructuredLayout;

/**
 * Reads a restructured file's original bytes through the layout it carries. Consecutive
 * original bytes come from a few places of the file at once (a task's packed chunks, and the
 * other bytes after them), so runs shorter than a window are served from a few windows over
 * the file, each filled by one positioned read, instead of a read a run: a file of 4-byte
 * regions read in order costs a read a window, not two a record. A request of many runs (a
 * tile-major file read in original order: a row piece from each tile) is read in the file's
 * order instead, near runs joined. Memory: the windows, and a request's runs up to
 * {@value #BATCH} at a time. Not thread-safe.
 */
public final class LogicalReads {
  private static final int WINDOWS = 4;
  /** Runs of one request sorted and joined at once. */
  private static final int BATCH = 1 << 16;
  /** Longest gap read through to join two runs (the coalescing gap's default). */
  private static final int MAX_GAP = 64 * 1024;
  /** Most bytes one joined read brings. */
  private static final int MAX_JOINED = 8 << 20;

  private final FSDataInputStream in;
  private final RestructuredLayout layout;
  private final int window;
  private final byte[][] buf = new byte[WINDOWS][];
  private final long[] start = new long[WINDOWS];
  private final int[] filled = new int[WINDOWS];
  private final long[] used = new long[WINDOWS]; // when each was last used, for eviction
  private long clock;
  private RestructuredLayout.LogicalCursor view;
  // the runs of the request being read: where each goes in dst, where it lies, its length
  private int[] runAt = new int[16];
  private long[] runPhysical = new long[16];
  private int[] runLength = new int[16];
  private byte[] joined = new byte[0];
  private long reads;
  private long bytesRead;

  /**
   * @param window bytes a window reads at once; a run at least this long is read on its own
   */
  public LogicalReads(FSDataInputStream in, RestructuredLayout layout, int window) {
    this.in = in;
    this.layout = layout;
    this.window = Math.max(1, window);
  }

  /** Reads original bytes {@code [from, from + len)} into {@code dst} at {@code off}. */
  public void read(long from, byte[] dst, int off, int len) throws IOException {
    if (view == null) {
      view = layout.logical(from, from + len);
    } else {
      view.seek(from, from + len);
    }
    boolean more = view.next();
    while (more) {
      int runs = 0;
      do { // a batch of the request's runs
        if (runs == runAt.length) {
          runAt = Arrays.copyOf(runAt, 2 * runs);
          runPhysical = Arrays.copyOf(runPhysical, 2 * runs);
          runLength = Arrays.copyOf(runLength, 2 * runs);
        }
        runAt[runs] = off + (int) (view.logical() - from);
        runPhysical[runs] = view.physical();
        runLength[runs] = (int) view.length();
        runs++;
        more = view.next();
      } while (more && runs < BATCH);
      if (runs == 1) {
        readRun(runPhysical[0], dst, runAt[0], runLength[0]);
      } else {
        readRuns(runs, dst);
      }
    }
  }

  /** One run: through a window when shorter than one (the next runs may be in it too). */
  private void readRun(long p, byte[] dst, int at, int n) throws IOException {
    if (n >= window) {
      in.readFully(p, dst, at, n);
      reads++;
      bytesRead += n;
      return;
    }
    int w = windowHolding(p, n);
    System.arraycopy(buf[w], (int) (p - start[w]), dst, at, n);
  }

  /**
   * A request's runs in the order they lie in the file (a tile-major file holds the rows of a
   * time step in every tile), runs at most a window (and 64 KiB) apart joined into one read
   * ({@link JoinedRead}): reading in original order would refill a window for each tile.
   */
  private void readRuns(int runs, byte[] dst) throws IOException {
    Integer[] order = new Integer[runs];
    for (int i = 0; i < runs; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingLong(i -> runPhysical[i]));
    JoinedRead read = new JoinedRead(Math.min(window, MAX_GAP), MAX_JOINED);
    int i = 0;
    while (i < runs) {
      int first = order[i];
      read.begin(runPhysical[first], runLength[first]);
      int j = i + 1;
      while (j < runs && read.join(runPhysical[order[j]], runLength[order[j]])) {
        j++;
      }
      long begin = read.start();
      if (j == i + 1) {
        readRun(begin, dst, runAt[first], runLength[first]);
      } else {
        int n = (int) (read.end() - begin);
        if (joined.length < n) {
          joined = new byte[n];
        }
        in.readFully(begin, joined, 0, n);
        reads++;
        bytesRead += n;
        for (int q = i; q < j; q++) {
          int k = order[q];
          System.arraycopy(joined, (int) (runPhysical[k] - begin), dst, runAt[k],
              runLength[k]);
        }
      }
      i = j;
    }
  }

  /** Positioned reads issued so far. */
  public long reads() {
    return reads;
  }

  /** Bytes those reads read. */
  public long bytesRead() {
    return bytesRead;
  }

  private int windowHolding(long p, int n) throws IOException {
    int oldest = 0;
    for (int w = 0; w < WINDOWS; w++) {
      if (buf[w] != null && p >= start[w] && p + n <= start[w] + filled[w]) {
        used[w] = ++clock;
        return w;
      }
      if (used[w] < used[oldest]) {
        oldest = w;
      }
    }
    int fill = (int) Math.min(window, layout.physicalLength() - p);
    if (buf[oldest] == null || buf[oldest].length < fill) {
      buf[oldest] = new byte[Math.max(fill, n)];
    }
    in.readFully(p, buf[oldest], 0, Math.max(fill, n));
    reads++;
    bytesRead += Math.max(fill, n);
    start[oldest] = p;
    filled[oldest] = Math.max(fill, n);
    used[oldest] = ++clock;
    return oldest;
  }
}
