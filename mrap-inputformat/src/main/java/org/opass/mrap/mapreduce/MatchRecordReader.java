package org.opass.mrap.mapreduce;

import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.opass.mrap.read.SideKey;

/**
 * Reads a {@link PairSplit}: its B pieces, then its A pieces, each with its input's own record
 * reader, keys wrapped in a {@link SideKey}.
 */
class MatchRecordReader extends RecordReader<SideKey, Writable> {
  private PairSplit split;
  private TaskAttemptContext context;
  @SuppressWarnings("rawtypes")
  private FileInputFormat aFormat;
  @SuppressWarnings("rawtypes")
  private FileInputFormat bFormat;
  private int next; // pieces started: B pieces first, then A
  private RecordReader<?, ?> current;
  private SideKey.Side side;
  private int piece;
  private final SideKey key = new SideKey();
  private Writable value;
  private long bytesBefore; // bytes of the pieces finished
  private long total;

  @Override
  public void initialize(InputSplit genericSplit, TaskAttemptContext ctx) throws IOException {
    split = (PairSplit) genericSplit;
    split.loadB(ctx.getConfiguration());
    context = ctx;
    aFormat = SequenceMatchingInputFormat.format(ctx.getConfiguration(),
        SequenceMatchingInputFormat.A_FORMAT);
    bFormat = SequenceMatchingInputFormat.format(ctx.getConfiguration(),
        SequenceMatchingInputFormat.B_FORMAT);
    total = Math.max(1, split.getLength());
  }

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    while (true) {
      if (current != null && current.nextKeyValue()) {
        key.set(side, piece, (Writable) current.getCurrentKey());
        value = (Writable) current.getCurrentValue();
        return true;
      }
      if (!open()) {
        return false;
      }
    }
  }

  /** Opens the next piece's reader; false when every piece was read. */
  private boolean open() throws IOException, InterruptedException {
    if (current != null) {
      current.close();
      current = null;
    }
    int nb = split.b().size();
    if (next >= nb + split.a().size()) {
      return false;
    }
    FileSplit s;
    @SuppressWarnings("rawtypes")
    FileInputFormat format;
    if (next < nb) {
      s = split.b().get(next);
      side = SideKey.Side.B;
      piece = split.bIndex(next);
      format = bFormat;
    } else {
      s = split.a().get(next - nb);
      side = SideKey.Side.A;
      piece = split.aIndex(next - nb);
      format = aFormat;
    }
    if (next > 0) {
      bytesBefore += next - 1 < nb ? split.b().get(next - 1).getLength()
          : split.a().get(next - 1 - nb).getLength();
    }
    next++;
    current = format.createRecordReader(s, context);
    current.initialize(s, context);
    return true;
  }

  @Override
  public SideKey getCurrentKey() {
    return key;
  }

  @Override
  public Writable getCurrentValue() {
    return value;
  }

  @Override
  public float getProgress() throws IOException, InterruptedException {
    if (current == null) {
      return next == 0 ? 0f : 1f;
    }
    int nb = split.b().size();
    long len = next - 1 < nb ? split.b().get(next - 1).getLength()
        : split.a().get(next - 1 - nb).getLength();
    return Math.min(1f, (bytesBefore + current.getProgress() * len) / total);
  }

  @Override
  public void close() throws IOException {
    if (current != null) {
      current.close();
    }
  }
}
