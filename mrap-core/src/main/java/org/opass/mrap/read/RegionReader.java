package org.opass.mrap.read;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.fs.LogicalReads;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.layout.TaskPlacer;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.settings.AccessSettings;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.task.RegionTask;

/**
 * Reads a {@link RegionTask}'s regions, one record each (key: logical offset; a region
 * longer than {@link AccessSettings#RECORD_BYTES} comes as several records, each keyed by
 * its own logical offset), with positioned reads of only those bytes, and of the gaps up to
 * {@link AccessSettings#COALESCE_GAP} between regions of one block, which are read once for
 * several regions. A packed task of a restructured file is read where its layout put each
 * region, regions lying end to end read together (up to 8 MiB at once, across chunk
 * boundaries: a tile is one read); a restructured file read with another pattern goes through
 * its layout. Counts its reads in {@link MrapCounter}. {@code AccessInputFormat}'s record
 * reader and the Spark source read with it.
 *
 * <p>Memory: a queue of {@value #QUEUE} upcoming records, the 8 MiB read buffer, one record, and
 * for a packed task a long per chunk of the task; never a thing per region. Before the first
 * byte it checks that the file is still the one the task was planned from.
 */
public final class RegionReader implements TaskReader {
  /** Records looked ahead to plan a joined read. */
  private static final int QUEUE = 1024;
  /** Most bytes read at once when regions are joined. */
  static final int MAX_JOINED_READ = 8 << 20;

  private FSDataInputStream in;
  private Positioned placed; // chunks placed in other objects (a store's), else null
  private java.io.Closeable store; // what reads them, closed with this reader
  private Source source;
  private LogicalReads original; // THROUGH_INDEX only
  private RestructuredLayout layout;
  private Path path;
  private long regionCount;
  private long gap;
  private boolean join; // whether records may be read together
  private long blockSize;
  private long contiguousEnd = -1; // a packed task whose regions lie end to end: its end
  private long maxRecord;
  private final ReadCounters counters;
  private long done;
  private long currentOffset; // where the current record lies in the file (PLAIN, PACKED)
  private long key;
  private final BytesWritable value = new BytesWritable();
  // the rest of a region longer than a record
  private long pendingOffset;
  private long pendingLength;
  private long pendingKey;
  // upcoming records: [head, head + size) of these arrays
  private final long[] queuedOffset = new long[QUEUE];
  private final int[] queuedLength = new int[QUEUE];
  private final long[] queuedKey = new long[QUEUE];
  private final boolean[] queuedLast = new boolean[QUEUE]; // the region's last record
  private int head;
  private int size;
  // the last joined read: bytes [windowStart, windowEnd) of the file
  private byte[] window = new byte[0];
  private long windowStart;
  private long windowEnd;

  /** Where the task's regions are in the file, in the order to read them, and their keys. */
  private abstract static class Source {
    RegionCursor cursor;
    private long nextKey;
    private long key;

    Source(RegionCursor cursor, long firstKey) {
      this.cursor = cursor;
      this.nextKey = firstKey;
    }

    /** Moves {@link #cursor} to the next region; false past the last. */
    abstract boolean advance() throws IOException;

    /** Where the current region lies in the file. */
    abstract long offset();

    /** Counts keys from {@code k} again: a part's logical start. */
    final void keysFrom(long k) {
      nextKey = k;
    }

    final boolean next() throws IOException {
      if (!advance()) {
        return false;
      }
      key = nextKey;
      nextKey += cursor.length();
      return true;
    }

    final long length() {
      return cursor.length();
    }

    final long key() {
      return key;
    }
  }

  /**
   * Opens the task's file, checking that it is still the one the task was planned from.
   *
   * @throws InvalidSettingsException naming an {@code mrap.access.*} key Hadoop cannot read
   */
  public RegionReader(Configuration conf, RegionTask split, ReadCounters counters)
      throws IOException {
    this.counters = counters;
    path = split.path();
    regionCount = split.regionCount();
    AccessSettings access = AccessSettings.of(conf);
    gap = access.coalesceGap();
    maxRecord = access.recordBytes();
    blockSize = Math.max(1, split.blockSize());
    FileSystem fs = split.path().getFileSystem(conf);
    layout = RestructuredFiles.checkSame(fs, split.path(), split.fileLength(), split.identity(),
        split.layout() == RegionTask.Layout.THROUGH_INDEX);
    switch (split.layout()) {
      case PACKED: // a task's regions lie end to end in its chunks: read them together,
        // across chunk boundaries too (a tile or a contiguous task is then one read)
        source = packed(split);
        join = true;
        gap = 0;
        blockSize = Long.MAX_VALUE;
        contiguousEnd = split.contiguousEnd();
        break;
      case THROUGH_INDEX: // each record is read through the layout
        source = inOrder(split);
        break;
      default:
        source = inOrder(split);
        join = gap > 0;
    }
    in = fs.open(split.path());
    if (layout != null) { // windows of the coalescing gap's size: 0 reads exactly the runs
      original = new LogicalReads(in, layout,
          (int) Math.min(MAX_JOINED_READ, Math.max(1, gap)));
    }
  }

  /**
   * Reads a task of a store's chunks, placed in its objects ({@link
   * org.opass.mrap.format.Variable.Chunks#placed}): each region, a chunk at its address, read
   * through {@code placed}, one read a chunk (addresses side by side are bytes of different
   * objects); {@code store} is closed with this reader.
   */
  public RegionReader(Configuration conf, RegionTask split, ReadCounters counters,
      Positioned placed, java.io.Closeable store) throws IOException {
    this.counters = counters;
    path = split.path();
    regionCount = split.regionCount();
    maxRecord = AccessSettings.of(conf).recordBytes();
    blockSize = Long.MAX_VALUE;
    source = inOrder(split);
    this.placed = placed;
    this.store = store;
  }

  /** The parts' regions at their own offsets, keys counting up from each part's start. */
  private static Source inOrder(RegionTask split) {
    return new Source(split.parts().get(0).cursor(), split.logicalStart(0)) {
      private int part;

      @Override
      boolean advance() {
        while (!cursor.next()) {
          if (part + 1 == split.parts().size()) {
            return false;
          }
          part++;
          cursor = split.parts().get(part).cursor();
          keysFrom(split.logicalStart(part));
        }
        return true;
      }

      @Override
      long offset() {
        return cursor.offset();
      }
    };
  }

  /** A packed task's regions in their own order, each where the task's first fit put it. */
  private static Source packed(RegionTask split) {
    TaskPlacer placer = split.placer();
    return new Source(split.parts().get(0).cursor(), split.logicalStart(0)) {
      private long at;

      @Override
      boolean advance() throws IOException {
        if (!cursor.next()) {
          return false;
        }
        at = placer.place(cursor.length());
        if (at < 0) {
          throw new IOException(split.path() + ": the split's regions do not fit its "
              + split.chunks() + " chunks; the split does not belong to this file's layout");
        }
        return true;
      }

      @Override
      long offset() {
        return at;
      }
    };
  }

  /** Makes at least {@code k} records queued if the split has them; false if it has not. */
  private boolean queued(int k) throws IOException {
    if (head + k > QUEUE) { // keep the queue at the front of the arrays
      System.arraycopy(queuedOffset, head, queuedOffset, 0, size);
      System.arraycopy(queuedLength, head, queuedLength, 0, size);
      System.arraycopy(queuedKey, head, queuedKey, 0, size);
      System.arraycopy(queuedLast, head, queuedLast, 0, size);
      head = 0;
    }
    while (size < k) {
      if (pendingLength == 0) {
        if (!source.next()) {
          break;
        }
        pendingOffset = source.offset();
        pendingLength = source.length();
        pendingKey = source.key();
      }
      int n = (int) Math.min(pendingLength, maxRecord);
      queuedOffset[head + size] = pendingOffset;
      queuedLength[head + size] = n;
      queuedKey[head + size] = pendingKey;
      pendingOffset += n;
      pendingKey += n;
      pendingLength -= n;
      queuedLast[head + size] = pendingLength == 0;
      size++;
    }
    return size >= k;
  }

  @Override
  public boolean next() throws IOException {
    if (!queued(1)) {
      return false;
    }
    long off = queuedOffset[head];
    int len = queuedLength[head];
    key = queuedKey[head];
    currentOffset = off;
    if (len > value.getCapacity()) {
      value.setCapacity(len); // exactly: BytesWritable's own growth overflows past 1.4 GB
    }
    value.setSize(len);
    if (off < windowStart || off + len > windowEnd) {
      plan(off, len);
    }
    if (off >= windowStart && off + len <= windowEnd) {
      System.arraycopy(window, (int) (off - windowStart), value.getBytes(), 0, len);
    } else if (original != null) {
      throughLayout(off, len);
    } else {
      readFully(off, value.getBytes(), len);
      counted(1, len);
    }
    counters.add(MrapCounter.BYTES_OF_INTEREST, len);
    if (queuedLast[head]) {
      done++;
    }
    head++;
    size--;
    return true;
  }

  /** Reads original bytes {@code [off, off + len)} of a restructured file into the value. */
  private void throughLayout(long off, int len) throws IOException {
    long reads = original.reads();
    long bytes = original.bytesRead();
    original.read(off, value.getBytes(), 0, len);
    counted(original.reads() - reads, original.bytesRead() - bytes);
  }

  /**
   * Joins the next records into one read while each starts within {@code gap} of the bytes
   * read so far (not before them), in the same block (a packed task: in the task), and the
   * read stays under the size limit; a packed task whose regions lie end to end is read on up
   * to 8 MiB at once, however many records that holds. A record that joins no other is read straight into the value instead.
   */
  private void plan(long off, int len) throws IOException {
    long blockEnd = blockSize == Long.MAX_VALUE ? blockSize : (off / blockSize + 1) * blockSize;
    long end = off + len;
    int joined = 1;
    if (contiguousEnd > end) { // the next records follow this one: read on, up to 8 MiB
      end = Math.min(contiguousEnd, Math.max(end, off + MAX_JOINED_READ));
      joined = 2; // and more: not counted
    }
    while (contiguousEnd < 0 && join && end <= blockEnd && queued(joined + 1)) {
      long o = queuedOffset[head + joined];
      long e = o + queuedLength[head + joined];
      if (o < off || o - end > gap || e > blockEnd || e - off > MAX_JOINED_READ) {
        break;
      }
      end = Math.max(end, e);
      joined++;
      if (joined == QUEUE) {
        break;
      }
    }
    if (joined == 1) {
      windowStart = windowEnd = 0;
      return;
    }
    int bytes = (int) (end - off);
    if (window.length < bytes) {
      window = new byte[bytes];
    }
    readFully(off, window, bytes);
    counted(1, bytes);
    windowStart = off;
    windowEnd = end;
  }

  /** Reads {@code len} bytes at {@code off}; a file that ends first is named. */
  private void readFully(long off, byte[] into, int len) throws IOException {
    if (placed != null) {
      placed.readFully(off, into, 0, len);
      return;
    }
    try {
      in.readFully(off, into, 0, len);
    } catch (java.io.EOFException e) {
      java.io.EOFException named = new java.io.EOFException(path + " ends before byte "
          + (off + len) + " (" + len + " bytes at " + off + "): the file is shorter than the "
          + "regions planned from it (cut short, or replaced by a shorter one)");
      named.initCause(e);
      throw named;
    }
  }

  private void counted(long reads, long bytes) {
    counters.add(MrapCounter.READ_CALLS, reads);
    counters.add(MrapCounter.BYTES_READ, bytes);
  }

  /** The file offset of the current record's first byte (of the original, read through a
   * layout). */
  public long currentOffset() {
    return currentOffset;
  }

  /** The current record's logical offset: its place in the task's regions laid end to end. */
  public long key() {
    return key;
  }

  /** The current record's bytes; the next record reuses the same buffer. */
  public BytesWritable value() {
    return value;
  }

  @Override
  public float progress() {
    return regionCount == 0 ? 1f : (float) done / regionCount;
  }

  @Override
  public void close() throws IOException {
    if (in != null) {
      in.close();
    }
    if (store != null) {
      store.close();
    }
  }
}
