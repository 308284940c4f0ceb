package org.opass.mrap.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;

/**
 * A record value of {@link ScienceOutputFormat} for jobs that compute points rather than boxes:
 * the values of all the written dataset's variables at one grid point, in the dataset's order of
 * variables, NaN where a value is missing (written as the variable's fill). The point is the
 * record key's {@link org.opass.mrap.science.ArrayIndex#origin() origin}.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class GridValues implements Writable {
  private double[] values = new double[0];

  public GridValues() {
  }

  public GridValues(double... values) {
    set(values);
  }

  /** Sets the values, one a variable of the dataset (copied). */
  public void set(double... values) {
    this.values = values.clone();
  }

  /** How many values it holds: the dataset's variables. */
  public int size() {
    return values.length;
  }

  /** The value of variable {@code v}; NaN: missing. */
  public double get(int v) {
    return values[v];
  }

  public double[] values() {
    return values.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeVInt(out, values.length);
    for (double v : values) {
      out.writeDouble(v);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    int n = WritableUtils.readVInt(in);
    if (values.length != n) {
      values = new double[n];
    }
    for (int i = 0; i < n; i++) {
      values[i] = in.readDouble();
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GridValues && Arrays.equals(values, ((GridValues) o).values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return Arrays.toString(values);
  }
}
