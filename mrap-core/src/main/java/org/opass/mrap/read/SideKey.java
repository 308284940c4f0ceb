package org.opass.mrap.read;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The key of a {@link SequenceMatchingInputFormat} record: which input it comes from (A or B),
 * the index of its piece of that input, and the key the input's own format gave it (a line's
 * offset for text, a SequenceFile's key). A task's B records all come before its A records.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class SideKey implements Writable {
  /** The two inputs of a matching job. */
  public enum Side {
    A, B
  }

  private Side side = Side.A;
  private int piece;
  private Writable inner;

  public SideKey() {
  }

  public void set(Side side, int piece, Writable inner) {
    this.side = side;
    this.piece = piece;
    this.inner = inner;
  }

  public Side side() {
    return side;
  }

  public boolean isA() {
    return side == Side.A;
  }

  /** Index of the record's piece among its input's pieces (file order). */
  public int piece() {
    return piece;
  }

  /** The key the input's format gave the record. */
  public Writable inner() {
    return inner;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(side.ordinal());
    WritableUtils.writeVInt(out, piece);
    Text.writeString(out, inner.getClass().getName());
    inner.write(out);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    side = Side.values()[in.readByte()];
    piece = WritableUtils.readVInt(in);
    String type = Text.readString(in);
    try {
      Class<? extends Writable> cls = Class.forName(type).asSubclass(Writable.class);
      if (inner == null || inner.getClass() != cls) {
        inner = ReflectionUtils.newInstance(cls, null);
      }
    } catch (ClassNotFoundException e) {
      throw new IOException("key class " + type + " is not on the classpath", e);
    }
    inner.readFields(in);
  }

  @Override
  public String toString() {
    return side + "#" + piece + ":" + inner;
  }
}
