package org.opass.mrap.science;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableUtils;

/**
 * The key of a {@link VariableInputFormat} record: the file, and the array index (one per
 * dimension, from 0) of the record's first element. Ordered by file, then index.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class ArrayIndex implements WritableComparable<ArrayIndex> {
  private String file = "";
  private long[] origin = new long[0];

  public ArrayIndex() {
  }

  public ArrayIndex(String file, long[] origin) {
    set(file, origin);
  }

  public void set(String file, long[] origin) {
    this.file = file;
    this.origin = origin.clone();
  }

  /** The file's path, as the job named it. */
  public String file() {
    return file;
  }

  /** Array index of the first element, per dimension. */
  public long[] origin() {
    return origin.clone();
  }

  /** Index of the first element along dimension {@code d}. */
  public long origin(int d) {
    return origin[d];
  }

  public int rank() {
    return origin.length;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, file);
    WritableUtils.writeVInt(out, origin.length);
    for (long o : origin) {
      WritableUtils.writeVLong(out, o);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    file = Text.readString(in);
    origin = new long[WritableUtils.readVInt(in)];
    for (int d = 0; d < origin.length; d++) {
      origin[d] = WritableUtils.readVLong(in);
    }
  }

  @Override
  public int compareTo(ArrayIndex o) {
    int c = file.compareTo(o.file);
    return c != 0 ? c : Arrays.compare(origin, o.origin);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ArrayIndex && compareTo((ArrayIndex) o) == 0;
  }

  @Override
  public int hashCode() {
    return file.hashCode() * 31 + Arrays.hashCode(origin);
  }

  @Override
  public String toString() {
    return file + Arrays.toString(origin);
  }
}
