package org.opass.mrap.fs;

/**
 * One positioned read that serves several runs lying in file order, as the readers of
 * restructured files and the copy's writer join them: a run joins while the gap before it is
 * at most {@code maxGap}, the gaps read through stay within the runs' own bytes and a
 * request's cost ({@value #REQUEST} bytes), and the read within {@code maxBytes}. A read then
 * brings at most about twice what is needed, and a run of tiny pieces still goes in a few
 * reads. A run that starts before the read does not join. Not thread-safe; {@link #begin}
 * starts the next read.
 */
public final class JoinedRead {
  /** What a positioned read costs beyond its bytes, in bytes. */
  public static final int REQUEST = 4 * 1024;

  private final long maxGap;
  private final long maxBytes;
  private final boolean cut; // a window: the run reaching past maxBytes joins up to there
  private long start;
  private long end;
  private long needed;
  private long gaps;

  /** A read of whole runs: a run that would take it past {@code maxBytes} does not join. */
  public JoinedRead(long maxGap, long maxBytes) {
    this(maxGap, maxBytes, false);
  }

  private JoinedRead(long maxGap, long maxBytes, boolean cut) {
    this.maxGap = maxGap;
    this.maxBytes = maxBytes;
    this.cut = cut;
  }

  /**
   * A read that fills a window of {@code maxBytes}: runs join until it is full, the last one
   * cut at the window's end (the rest of it is read with the next window).
   */
  public static JoinedRead window(long maxGap, long maxBytes) {
    return new JoinedRead(maxGap, maxBytes, true);
  }

  /** Starts a read with the run at {@code offset}. */
  public void begin(long offset, long length) {
    start = offset;
    end = offset + length;
    needed = length;
    gaps = 0;
  }

  /** Whether the next run (at or after {@link #end}) joins the read; if so, it is taken. */
  public boolean join(long offset, long length) {
    long gap = offset - end;
    long to = offset + length;
    if ((cut && end - start >= maxBytes) || offset < start || gap > maxGap
        || gaps + gap > needed + length + REQUEST || (!cut && to - start > maxBytes)) {
      return false;
    }
    to = Math.min(to, start + maxBytes);
    // a run that overlaps what the read holds adds only its bytes past the read's end
    gaps += Math.max(0, gap);
    needed += Math.max(0, to - Math.max(end, offset));
    end = Math.max(end, to);
    return true;
  }

  /** Where the read starts. */
  public long start() {
    return start;
  }

  /** Where it ends: it reads {@code [start, end)}. */
  public long end() {
    return end;
  }
}
