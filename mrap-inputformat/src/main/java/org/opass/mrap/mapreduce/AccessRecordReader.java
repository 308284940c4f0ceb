package org.opass.mrap.mapreduce;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.opass.mrap.pattern.RegionCursor;

/**
 * Reads an {@link AccessSplit}'s regions, one record each, with positioned reads of only those
 * bytes, and of the gaps up to {@link AccessInputFormat#COALESCE_GAP} between regions of one
 * block, which are read once for several regions. Counts its reads in {@link MrapCounter}.
 */
public class AccessRecordReader extends RecordReader<LongWritable, BytesWritable> {
  /** Regions looked ahead to plan a joined read. */
  private static final int QUEUE = 1024;

  private FSDataInputStream in;
  private AccessSplit split;
  private int part; // the part the cursor walks
  private RegionCursor cursor;
  private long cursorLogical; // logical offset of the cursor's next region
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
  private final long[] queuedLogical = new long[QUEUE];
  private int head;
  private int size;
  // the last joined read: bytes [windowStart, windowEnd) of the file
  private byte[] window = new byte[0];
  private long windowStart;
  private long windowEnd;

  @Override
  public void initialize(InputSplit genericSplit, TaskAttemptContext ctx) throws IOException {
    split = (AccessSplit) genericSplit;
    Configuration conf = ctx.getConfiguration();
    readCalls = ctx.getCounter(MrapCounter.READ_CALLS);
    bytesRead = ctx.getCounter(MrapCounter.BYTES_READ);
    bytesOfInterest = ctx.getCounter(MrapCounter.BYTES_OF_INTEREST);
    cursor = split.parts().get(0).cursor();
    cursorLogical = split.logicalStart(0);
    regionCount = split.regionCount();
    gap = MrapConf.bytes(conf, AccessInputFormat.COALESCE_GAP,
        AccessInputFormat.COALESCE_GAP_DEFAULT);
    blockSize = Math.max(1, split.blockSize());
    in = split.path().getFileSystem(conf).open(split.path());
  }

  /** Makes at least {@code k} regions queued if the split has them; false if it has not. */
  private boolean queued(int k) {
    if (head + k > QUEUE) { // keep the queue at the front of the arrays
      System.arraycopy(queuedOffset, head, queuedOffset, 0, size);
      System.arraycopy(queuedLength, head, queuedLength, 0, size);
      System.arraycopy(queuedLogical, head, queuedLogical, 0, size);
      head = 0;
    }
    while (size < k) {
      if (!cursor.next()) {
        if (part + 1 == split.parts().size()) {
          break;
        }
        part++;
        cursor = split.parts().get(part).cursor();
        cursorLogical = split.logicalStart(part);
        continue;
      }
      queuedOffset[head + size] = cursor.offset();
      queuedLength[head + size] = cursor.length();
      queuedLogical[head + size] = cursorLogical;
      cursorLogical += cursor.length();
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
    key.set(queuedLogical[head]);
    value.setSize(len); // grows the array when needed, never shrinks it
    if (off < windowStart || off + len > windowEnd) {
      plan(off, len);
    }
    if (off >= windowStart && off + len <= windowEnd) {
      System.arraycopy(window, (int) (off - windowStart), value.getBytes(), 0, len);
    } else {
      in.readFully(off, value.getBytes(), 0, len);
      counted(len);
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
    counted(bytes);
    windowStart = off;
    windowEnd = end;
  }

  private void counted(long bytes) {
    if (readCalls != null) {
      readCalls.increment(1);
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
