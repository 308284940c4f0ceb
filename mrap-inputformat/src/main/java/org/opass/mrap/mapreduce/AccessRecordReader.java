package org.opass.mrap.mapreduce;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.RegionCursor;

/**
 * Reads an {@link AccessSplit}'s regions, one record each (key: logical offset), with
 * positioned reads of only those bytes, and of the gaps up to
 * {@link AccessInputFormat#COALESCE_GAP} between regions of one block, which are read once for
 * several regions. A packed task of a restructured file is read in physical order, chunk by
 * chunk; a restructured file read with another pattern goes through its index. Counts its reads
 * in {@link MrapCounter}.
 */
public class AccessRecordReader extends RecordReader<LongWritable, BytesWritable> {
  /** Regions looked ahead to plan a joined read. */
  private static final int QUEUE = 1024;

  private FSDataInputStream in;
  private Source source;
  private RestructuredFiles.LogicalView view; // THROUGH_INDEX only
  private long regionCount;
  private long gap;
  private long blockSize;
  // null where the framework gives no counters (Spark's task contexts)
  private Counter readCalls;
  private Counter bytesRead;
  private Counter bytesOfInterest;
  private long done;
  private final LongWritable key = new LongWritable();
  private final BytesWritable value = new BytesWritable();
  // upcoming regions: [head, head + size) of these arrays
  private final long[] queuedOffset = new long[QUEUE];
  private final long[] queuedLength = new long[QUEUE];
  private final long[] queuedKey = new long[QUEUE];
  private int head;
  private int size;
  // the last joined read: bytes [windowStart, windowEnd) of the file
  private byte[] window = new byte[0];
  private long windowStart;
  private long windowEnd;

  /** Where the split's regions are in the file, in the order to read them. */
  private interface Source {
    boolean next();

    long offset();

    long length();

    long key();
  }

  @Override
  public void initialize(InputSplit genericSplit, TaskAttemptContext ctx) throws IOException {
    AccessSplit split = (AccessSplit) genericSplit;
    Configuration conf = ctx.getConfiguration();
    readCalls = ctx.getCounter(MrapCounter.READ_CALLS);
    bytesRead = ctx.getCounter(MrapCounter.BYTES_READ);
    bytesOfInterest = ctx.getCounter(MrapCounter.BYTES_OF_INTEREST);
    regionCount = split.regionCount();
    gap = MrapConf.bytes(conf, AccessInputFormat.COALESCE_GAP,
        AccessInputFormat.COALESCE_GAP_DEFAULT);
    blockSize = Math.max(1, split.blockSize());
    FileSystem fs = split.path().getFileSystem(conf);
    switch (split.layout()) {
      case PACKED:
        source = packed(split);
        break;
      case THROUGH_INDEX: {
        RestructuredLayout layout = RestructuredFiles.layoutOf(fs, split.path());
        if (layout == null) {
          throw new IOException(split.path() + " lost its layout ("
              + RestructuredFiles.layoutPath(split.path()) + ") since the job was submitted");
        }
        view = new RestructuredFiles.LogicalView(layout);
        gap = 0; // regions are joined in logical order, which is not the file's
        source = inOrder(split);
        break;
      }
      default:
        source = inOrder(split);
    }
    in = fs.open(split.path());
  }

  /** The parts' regions at their own offsets, keys counting up from each part's start. */
  private static Source inOrder(AccessSplit split) {
    return new Source() {
      private int part;
      private RegionCursor cursor = split.parts().get(0).cursor();
      private long nextKey = split.logicalStart(0);
      private long key;

      @Override
      public boolean next() {
        while (!cursor.next()) {
          if (part + 1 == split.parts().size()) {
            return false;
          }
          part++;
          cursor = split.parts().get(part).cursor();
          nextKey = split.logicalStart(part);
        }
        key = nextKey;
        nextKey += cursor.length();
        return true;
      }

      @Override
      public long offset() {
        return cursor.offset();
      }

      @Override
      public long length() {
        return cursor.length();
      }

      @Override
      public long key() {
        return key;
      }
    };
  }

  /** A packed task's regions where the layout put them, in physical order. */
  private static Source packed(AccessSplit split) {
    AccessPattern task = split.parts().get(0);
    long[] physical = RestructuredLayout.place(task, split.chunkSize(), split.taskStart());
    int n = physical.length;
    long[] lengths = new long[n];
    long[] keys = new long[n];
    RegionCursor c = task.cursor();
    long k = split.logicalStart(0);
    for (int i = 0; c.next(); i++) {
      lengths[i] = c.length();
      keys[i] = k;
      k += c.length();
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> Long.compare(physical[a], physical[b]));
    return new Source() {
      private int i = -1;

      @Override
      public boolean next() {
        return ++i < n;
      }

      @Override
      public long offset() {
        return physical[order[i]];
      }

      @Override
      public long length() {
        return lengths[order[i]];
      }

      @Override
      public long key() {
        return keys[order[i]];
      }
    };
  }

  /** Makes at least {@code k} regions queued if the split has them; false if it has not. */
  private boolean queued(int k) {
    if (head + k > QUEUE) { // keep the queue at the front of the arrays
      System.arraycopy(queuedOffset, head, queuedOffset, 0, size);
      System.arraycopy(queuedLength, head, queuedLength, 0, size);
      System.arraycopy(queuedKey, head, queuedKey, 0, size);
      head = 0;
    }
    while (size < k && source.next()) {
      queuedOffset[head + size] = source.offset();
      queuedLength[head + size] = source.length();
      queuedKey[head + size] = source.key();
      size++;
    }
    return size >= k;
  }

  @Override
  public boolean nextKeyValue() throws IOException {
    if (!queued(1)) {
      return false;
    }
    long off = queuedOffset[head];
    int len = (int) queuedLength[head];
    key.set(queuedKey[head]);
    value.setSize(len); // grows the array when needed, never shrinks it
    if (off < windowStart || off + len > windowEnd) {
      plan(off, len);
    }
    if (off >= windowStart && off + len <= windowEnd) {
      System.arraycopy(window, (int) (off - windowStart), value.getBytes(), 0, len);
    } else if (view != null) {
      int reads = view.read(in, off, value.getBytes(), 0, len);
      counted(reads, len);
    } else {
      in.readFully(off, value.getBytes(), 0, len);
      counted(1, len);
    }
    if (bytesOfInterest != null) {
      bytesOfInterest.increment(len);
    }
    head++;
    size--;
    done++;
    return true;
  }

  /**
   * Joins the next regions into one read while each starts within {@code gap} of the bytes
   * read so far, in the same block, and the read stays under the size limit. A region that
   * joins no other is read straight into the record instead.
   */
  private void plan(long off, int len) throws IOException {
    long blockEnd = (off / blockSize + 1) * blockSize;
    long end = off + len;
    int joined = 1;
    while (gap > 0 && end <= blockEnd && queued(joined + 1)) {
      long o = queuedOffset[head + joined];
      long e = o + queuedLength[head + joined];
      if (o - end > gap || e > blockEnd || e - off > AccessInputFormat.MAX_JOINED_READ) {
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
    in.readFully(off, window, 0, bytes);
    counted(1, bytes);
    windowStart = off;
    windowEnd = end;
  }

  private void counted(int reads, long bytes) {
    if (readCalls != null) {
      readCalls.increment(reads);
      bytesRead.increment(bytes);
    }
  }

  @Override
  public LongWritable getCurrentKey() {
    return key;
  }

  @Override
  public BytesWritable getCurrentValue() {
    return value;
  }

  @Override
  public float getProgress() {
    return regionCount == 0 ? 1f : (float) done / regionCount;
  }

  @Override
  public void close() throws IOException {
    if (in != null) {
      in.close();
    }
  }
}
