package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.SlabPlan;
import org.opass.mrap.science.Variable;

/**
 * Reads a {@link VariableSplit}: each part's regions through an {@link AccessRecordReader}
 * (positioned reads of those bytes only, gaps joined as it joins them, the file checked
 * unchanged since submission), and each region read into {@link ArrayPiece}s: a run of a
 * strided variable as it is, a chunk decoded and cut to the slab; then each part's chunks never
 * written, as pieces of the fill value ({@link MrapCounter#FILL_ELEMENTS} counts them).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public class VariableRecordReader extends RecordReader<ArrayIndex, ArrayPiece> {
  private VariableSplit split;
  private TaskAttemptContext context;
  private int part = -1;
  private AccessRecordReader regions;
  private Counter slabBytes;
  private Counter fillElements;
  private boolean filled; // the current part's fill values are queued
  private final Deque<Pending> pending = new ArrayDeque<>();
  private final ArrayIndex key = new ArrayIndex();
  private final ArrayPiece value = new ArrayPiece();

  @Override
  public void initialize(InputSplit genericSplit, TaskAttemptContext ctx) {
    split = (VariableSplit) genericSplit;
    context = ctx;
    slabBytes = counter(ctx, MrapCounter.SLAB_BYTES);
    fillElements = counter(ctx, MrapCounter.FILL_ELEMENTS);
  }

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    while (pending.isEmpty()) {
      if (regions != null && regions.nextKeyValue()) {
        VariableSplit.Part p = split.parts().get(part);
        BytesWritable b = regions.getCurrentValue();
        long at = originalOffset(p);
        VariableSplit.Member m = p.memberAt(at);
        long fill = SlabPlan.pieces(m.variable, m.slab, m.variable.chunks(), at - m.start,
            // a strided run's piece is the region reader's buffer itself: it stays as it is
            // until the queue is empty, as the next region is read only then
            b.getBytes(), b.getLength(), (origin, shape, step, bytes, off, len) ->
                pending.add(new Pending(m, origin, shape, step, bytes, off, len)));
        fillElements.increment(fill);
        continue;
      }
      if (part >= 0 && !filled) { // the part's regions are read: its chunks never written
        filled = true;
        if (regions != null) {
          regions.close();
          regions = null;
        }
        for (VariableSplit.Member m : split.parts().get(part).members) {
          if (m.unwritten.isEmpty()) {
            continue;
          }
          m.unwritten.forEach(m.variable.chunkShape(), origin ->
              fillElements.increment(SlabPlan.fillPieces(m.variable, m.slab, origin,
                  (o, shape, step, bytes, off, len) ->
                      pending.add(new Pending(m, o, shape, step, bytes, off, len)))));
        }
        continue;
      }
      if (++part == split.parts().size()) {
        return false;
      }
      VariableSplit.Part p = split.parts().get(part);
      FileStatus now = p.path().getFileSystem(context.getConfiguration()).getFileStatus(p.path());
      if (now.getModificationTime() != p.modificationTime) {
        throw new IOException(p.path() + " changed since the job was submitted (modified at "
            + now.getModificationTime() + ", planned from the file of " + p.modificationTime
            + "): its header may no longer say where " + p.variable().name() + " lies; run the "
            + "job again");
      }
      filled = false;
      if (p.regions != null) {
        regions = new AccessRecordReader();
        regions.initialize(p.regions, context);
      }
    }
    Pending next = pending.poll();
    Variable v = next.member.variable;
    key.set(next.member.file, next.origin);
    value.set(v.type(), v.order(), next.shape, next.step, next.bytes, next.offset, next.length);
    slabBytes.increment(next.length);
    return true;
  }

  /** A piece made from the last region read, not yet handed out. */
  private static final class Pending {
    final VariableSplit.Member member;
    final long[] origin;
    final int[] shape;
    final long[] step;
    final byte[] bytes;
    final int offset;
    final int length;

    Pending(VariableSplit.Member member, long[] origin, int[] shape, long[] step, byte[] bytes,
        int offset, int length) {
      this.member = member;
      this.origin = origin;
      this.shape = shape;
      this.step = step;
      this.bytes = bytes;
      this.offset = offset;
      this.length = length;
    }
  }

  /** The task's counter, or one of our own where the context has none (a test's). */
  private static Counter counter(TaskAttemptContext ctx, MrapCounter c) {
    Counter k = ctx.getCounter(c);
    return k != null ? k : new org.apache.hadoop.mapreduce.counters.GenericCounter(c.name(),
        c.name());
  }

  /** Where the current record's bytes lay in the original file (a container's: its members). */
  private long originalOffset(VariableSplit.Part p) {
    if (p.layout() != AccessSplit.Layout.PACKED) {
      return regions.currentOffset(); // in place, or read through the layout at its offset
    }
    // packed by a restructuring copy: the record's logical offset finds its region
    AccessPattern task = p.regions();
    long at = regions.getCurrentKey().get() - p.regions.logicalStart(0);
    long k = task.regionOfByte(at);
    return task.offsetOf(k) + (at - task.bytesBefore(k));
  }

  @Override
  public ArrayIndex getCurrentKey() {
    return key;
  }

  @Override
  public ArrayPiece getCurrentValue() {
    return value;
  }

  @Override
  public float getProgress() {
    int n = split == null ? 0 : split.parts().size();
    if (n == 0) {
      return 1f;
    }
    float inPart = regions == null ? 0f : regions.getProgress();
    return Math.min(1f, (Math.max(0, part) + inPart) / n);
  }

  @Override
  public void close() throws IOException {
    if (regions != null) {
      regions.close();
    }
  }
}
