package org.opass.mrap.mapreduce;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.opass.mrap.layout.RestructuredLayout;

/**
 * Reads a restructured file's original bytes through the layout it carries. Consecutive
 * original bytes come from a few places of the file at once (a task's packed chunks, and the
 * other bytes after them), so runs shorter than a window are served from a few windows over
 * the file, each filled by one positioned read, instead of a read a run: a file of 4-byte
 * regions read in order costs a read a window, not two a record. Memory: the windows. Not
 * thread-safe.
 */
public final class LogicalReads {
  private static final int WINDOWS = 4;

  private final FSDataInputStream in;
  private final RestructuredLayout layout;
  private final int window;
  private final byte[][] buf = new byte[WINDOWS][];
  private final long[] start = new long[WINDOWS];
  private final int[] filled = new int[WINDOWS];
  private final long[] used = new long[WINDOWS]; // when each was last used, for eviction
  private long clock;
  private RestructuredLayout.LogicalCursor view;
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
    while (view.next()) {
      int at = off + (int) (view.logical() - from);
      int n = (int) view.length();
      long p = view.physical();
      if (n >= window) {
        in.readFully(p, dst, at, n);
        reads++;
        bytesRead += n;
        continue;
      }
      int w = windowHolding(p, n);
      System.arraycopy(buf[w], (int) (p - start[w]), dst, at, n);
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
