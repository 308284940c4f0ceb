package org.opass.mrap.read;

/**
 * One positioned read that serves several runs lying in file order, as the readers of
 * restructured files and the copy's writer join them: a run joins while the gap before it is
 * at most {@code maxGap}, the gaps read through stay within the runs' own bytes and a
 * request's cost ({@value #REQUEST} bytes), and the read within {@code maxBytes}. A read then
 * brings at most about twice what is needed, and a run of tiny pieces still goes in a few
 * reads. Not thread-safe; {@link #begin} starts the next read.
 */
public final class JoinedRead {
  /** What a positioned read costs beyond its bytes, in bytes. */
  public static final int REQUEST = 4 * 1024;

  private final long maxGap;
  private final long maxBytes;
  private long start;
  private long end;
  private long needed;
  private long gaps;

  public JoinedRead(long maxGap, long maxBytes) {
    this.maxGap = maxGap;
    this.maxBytes = maxBytes;
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
    if (gap > maxGap || gaps + gap > needed + length + REQUEST
        || offset + length - start > maxBytes) {
      return false;
    }
    gaps += gap;
    needed += length;
    end = offset + length;
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
