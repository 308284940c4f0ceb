package org.opass.mrap.copy.mapred;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * One writer task of a copy job: the chunks it writes, and the host it should run on. Chunk
 * numbers only: the destination's layout goes to the tasks once, as a file ({@link WorkFiles}).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class ChunkSplit extends InputSplit implements Writable {
  private String host = "";
  private int[] chunks = new int[0];
  private long chunk;
  private long physicalLength;

  /** For MapReduce, which reads the split with {@link #readFields}. */
  public ChunkSplit() {
  }

  ChunkSplit(String host, int[] chunks, long chunk, long physicalLength) {
    this.host = host;
    this.chunks = chunks;
    this.chunk = chunk;
    this.physicalLength = physicalLength;
  }

  /** The chunks this writer writes, in ascending order. */
  int[] chunks() {
    return chunks;
  }

  /** Bytes this writer writes. */
  @Override
  public long getLength() {
    long n = 0;
    for (int c : chunks) {
      n += Math.min(chunk, physicalLength - (long) c * chunk);
    }
    return n;
  }

  @Override
  public String[] getLocations() {
    return host.isEmpty() ? new String[0] : new String[] {host};
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, host);
    out.writeLong(chunk);
    out.writeLong(physicalLength);
    WritableUtils.writeVInt(out, chunks.length);
    for (int c : chunks) {
      WritableUtils.writeVInt(out, c);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    host = Text.readString(in);
    chunk = in.readLong();
    physicalLength = in.readLong();
    chunks = new int[WritableUtils.readVInt(in)];
    for (int i = 0; i < chunks.length; i++) {
      chunks[i] = WritableUtils.readVInt(in);
    }
  }
}
