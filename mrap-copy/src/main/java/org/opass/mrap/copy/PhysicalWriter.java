package org.opass.mrap.copy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.mrap.fs.JoinedRead;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.layout.Segment;
import org.opass.mrap.layout.SegmentCursor;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.Region;
import org.opass.mrap.pattern.RegionCursor;

/**
 * Writes byte ranges of a destination file from its source: the runs of the destination's
 * layout in physical order (or, for a plain copy, the source's bytes as they are), reading the
 * source with joined positioned reads. The regions and the other bytes each come in ascending
 * source order, so each has a window of its own: the runs of one kind that start within
 * {@value #GAP} bytes of each other are read together, up to {@value #WINDOW} bytes at once.
 *
 * <p>A tile-major layout's runs come from a band of tiles at a time (each tile's rows are
 * spread over the original, its neighbours' between them): the band, up to 64 MiB, is read
 * once as a block of the array and the tiles are written from it.
 *
 * <p>Memory: two windows, a band, and a look-ahead of {@value #QUEUE} runs, whatever the region
 * count.
 * It computes the CRC32C of what it writes and its runs' part of the CRC32C of the original
 * ({@link Crc32c.Accumulator}), so that a copy is checked against both files' checksums
 * without a byte read back.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class PhysicalWriter {
  private static final int QUEUE = 4096;
  static final int WINDOW = 8 << 20;
  static final int GAP = 64 * 1024;

  private final SourceFile.Reader source;
  private final RestructuredLayout layout; // null for a plain copy
  private final long logicalLength;
  private final byte[] header;
  private final byte[] trailer;
  private final CRC32C written = new CRC32C();
  private final CRC32C piece = new CRC32C();
  private Crc32c.Accumulator original;
  private final Window regions = new Window();
  private final Window rest = new Window();
  private final JoinedRead nextRead = JoinedRead.window(GAP, WINDOW);
  private final Gather tiles = new Gather();
  private final byte[] zeros = new byte[64 * 1024];
  // upcoming runs: [head, head + size) of these arrays, a ring
  private final Segment.Kind[] kind = new Segment.Kind[QUEUE];
  private final long[] logical = new long[QUEUE];
  private final long[] physical = new long[QUEUE];
  private final long[] length = new long[QUEUE];
  private int head;
  private int size;
  private SegmentCursor ahead;
  private LongConsumer progress;

  public PhysicalWriter(SourceFile.Reader source, RestructuredLayout layout, long logicalLength) {
    this.source = source;
    this.layout = layout;
    this.logicalLength = logicalLength;
    this.header = layout != null ? layout.header() : null;
    this.trailer = layout != null ? layout.trailer() : null;
  }

  /** What a range's writing added up to. */
  public static final class Sums {
    /** CRC32C of the bytes written, in order. */
    public final int written;
    /** Their runs' part of the CRC32C of the original ({@link Crc32c.Accumulator#addValue}). */
    public final int original;

    Sums(int written, int original) {
      this.written = written;
      this.original = original;
    }
  }

  /**
   * Writes bytes {@code [from, to)} of the destination to {@code out}.
   *
   * @throws InterruptedIOException if the thread is interrupted
   */
  public Sums write(long from, long to, OutputStream out, LongConsumer progress)
      throws IOException {
    this.progress = progress;
    ahead = layout != null ? layout.physical(from, to) : identity(from, to);
    head = 0;
    size = 0;
    written.reset();
    original = new Crc32c.Accumulator(logicalLength);
    while (queued(1)) {
      int at = head;
      long n = length[at];
      switch (kind[at]) {
        case HEADER:
          emit(out, header, (int) physical[at], (int) n);
          break;
        case TRAILER:
          emit(out, trailer, (int) (physical[at] - layout.dataLength()), (int) n);
          break;
        case ZEROS:
          for (long left = n; left > 0; left -= zeros.length) {
            emit(out, zeros, 0, (int) Math.min(zeros.length, left));
          }
          break;
        default:
          if (kind[at] != Segment.Kind.REGION || !tiles.serve(out, logical[at], n)) {
            copy(out, kind[at] == Segment.Kind.REGION ? regions : rest, logical[at], n);
          }
      }
      head = (head + 1) % QUEUE;
      size--;
    }
    return new Sums((int) written.getValue(), original.value());
  }

  /** The original bytes {@code [from, to)} at the same offsets: a plain copy. */
  private static SegmentCursor identity(long from, long to) {
    return new SegmentCursor() {
      private long pos = from;
      private long n;

      @Override
      public boolean next() {
        pos += n;
        n = Math.min(to - pos, 1L << 40);
        return n > 0;
      }

      @Override
      public Segment.Kind kind() {
        return Segment.Kind.REST;
      }

      @Override
      public long logical() {
        return pos;
      }

      @Override
      public long physical() {
        return pos;
      }

      @Override
      public long length() {
        return n;
      }
    };
  }

  private boolean queued(int k) {
    while (size < k && ahead.next()) {
      int at = (head + size) % QUEUE;
      kind[at] = ahead.kind();
      logical[at] = ahead.logical();
      physical[at] = ahead.physical();
      length[at] = ahead.length();
      size++;
    }
    return size >= k;
  }

  /** Copies original bytes {@code [from, from + n)}, through the window of their kind. */
  private void copy(OutputStream out, Window w, long from, long n) throws IOException {
    piece.reset();
    for (long done = 0; done < n; ) {
      if (Thread.interrupted()) {
        throw new InterruptedIOException("interrupted while copying");
      }
      long at = from + done;
      if (!w.holds(at)) {
        w.fill(at, reach(w == regions ? Segment.Kind.REGION : Segment.Kind.REST, at,
            from + n));
      }
      // a megabyte at a time: progress is told, and an interrupt seen, that often
      int len = (int) Math.min(Math.min(n - done, w.end - at), 1 << 20);
      int off = (int) (at - w.start);
      piece.update(w.buf, off, len);
      emit(out, w.buf, off, len);
      done += len;
    }
    original.add((int) piece.getValue(), from + n);
  }

  /**
   * How far one read from {@code at} should reach: the end of the current run, and of the
   * queued runs of the same kind that join it ({@link JoinedRead#window}: within {@value #GAP}
   * bytes of each other, up to {@value #WINDOW} bytes, as long as the gaps read through stay
   * within the runs' own bytes and a request): a read brings at most about twice what is
   * needed (the source is read once more for the other kind's runs), and a run of tiny regions
   * still goes in a few reads. A run behind {@code at} (another chunk of a task) ends it.
   */
  private long reach(Segment.Kind k, long at, long runEnd) {
    nextRead.begin(at, Math.min(runEnd, at + WINDOW) - at);
    for (int i = 1; i < QUEUE && queued(i + 1); i++) {
      int q = (head + i) % QUEUE;
      if (kind[q] == k && !nextRead.join(logical[q], length[q])) {
        break;
      }
    }
    return nextRead.end();
  }

  /** Writes original bytes {@code [from, from + n)} from {@code buf} at {@code off}. */
  private void copyOut(OutputStream out, byte[] buf, int off, long from, int n)
      throws IOException {
    piece.reset();
    for (int done = 0; done < n; ) {
      if (Thread.interrupted()) {
        throw new InterruptedIOException("interrupted while copying");
      }
      int len = Math.min(n - done, 1 << 20);
      piece.update(buf, off + done, len);
      emit(out, buf, off + done, len);
      done += len;
    }
    original.add((int) piece.getValue(), from + n);
  }

  private void emit(OutputStream out, byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    written.update(b, off, len);
    if (progress != null) {
      progress.accept(len);
    }
  }

  /**
   * The block of the original that a tile-major layout says to read with its runs
   * ({@link RestructuredLayout#readTogether}): its regions end to end in {@code buf}, read
   * with joined reads ({@link JoinedRead}, as {@link #reach} joins runs).
   */
  private final class Gather {
    private AccessPattern block;
    private byte[] buf = new byte[0];
    private byte[] scratch = new byte[0];

    /** Writes the run from the block, read first if need be; false if the layout has none. */
    boolean serve(OutputStream out, long from, long n) throws IOException {
      if (layout == null) {
        return false;
      }
      if (!holds(from, n)) {
        AccessPattern next = layout.readTogether(from);
        if (next == null) {
          return false;
        }
        fill(next);
        if (!holds(from, n)) {
          throw new IllegalStateException("a band " + next + " without the run at " + from);
        }
      }
      copyOut(out, buf, (int) block.bytesBelow(from), from, (int) n);
      return true;
    }

    private boolean holds(long from, long n) {
      if (block == null) {
        return false;
      }
      long k = block.firstAtOrAfter(from + 1) - 1; // the last region starting at or before it
      return k >= 0 && from + n <= block.offsetOf(k) + block.bytesBefore(k + 1)
          - block.bytesBefore(k);
    }

    private void fill(AccessPattern next) throws IOException {
      block = null;
      if (buf.length < next.totalBytes()) {
        buf = new byte[Math.toIntExact(next.totalBytes())];
      }
      RegionCursor c = next.cursor();
      JoinedRead read = new JoinedRead(GAP, WINDOW);
      List<Region> joined = new ArrayList<>();
      boolean more = c.next();
      int at = 0;
      while (more) {
        read.begin(c.offset(), c.length());
        joined.clear();
        joined.add(Region.of(c.offset(), c.length()));
        while ((more = c.next()) && read.join(c.offset(), c.length())) {
          joined.add(Region.of(c.offset(), c.length()));
        }
        long start = read.start();
        long end = read.end();
        if (joined.size() == 1) {
          source.read(start, buf, at, (int) (end - start));
          at += (int) (end - start);
          continue;
        }
        if (scratch.length < end - start) {
          scratch = new byte[(int) (end - start)];
        }
        source.read(start, scratch, 0, (int) (end - start));
        for (Region r : joined) {
          System.arraycopy(scratch, (int) (r.offset() - start), buf, at, (int) r.length());
          at += (int) r.length();
        }
      }
      block = next;
    }
  }

  /** A run of the original's bytes read at once: {@code [start, end)}. */
  private final class Window {
    private byte[] buf = new byte[0];
    private long start;
    private long end;

    boolean holds(long at) {
      return at >= start && at < end;
    }

    void fill(long at, long to) throws IOException {
      int n = (int) Math.min(to - at, logicalLength - at);
      if (buf.length < n) {
        buf = Arrays.copyOf(buf, Math.max(n, Math.min(WINDOW, 2 * buf.length)));
      }
      source.read(at, buf, 0, n);
      start = at;
      end = at + n;
    }
  }
}
