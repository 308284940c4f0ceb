package org.opass.mrap.science;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.opass.mrap.cf.Coordinates;

/**
 * The coordinates of one piece's elements, per dimension those of its indices only, so that a
 * piece carries them through a shuffle on its own.
 */
final class PieceAxes {
  static final PieceAxes NONE = new PieceAxes(new Coordinates.Axis[0], new long[0],
      new double[0][]);

  private final Coordinates.Axis[] axes; // each an axis over the piece's own indices
  private final long[] origin;
  private final double[][] values;

  private PieceAxes(Coordinates.Axis[] axes, long[] origin, double[][] values) {
    this.axes = axes;
    this.origin = origin;
    this.values = values;
  }

  PieceAxes(Coordinates c, long[] origin, int[] shape, long[] step) {
    int n = shape.length;
    this.axes = new Coordinates.Axis[n];
    this.origin = origin.clone();
    this.values = new double[n][];
    for (int d = 0; d < n; d++) {
      Coordinates.Axis a = c.axis(d);
      axes[d] = a;
      if (a.present()) {
        values[d] = new double[shape[d]];
        for (int j = 0; j < shape[d]; j++) {
          values[d][j] = a.value(origin[d] + j * step[d]);
        }
      }
    }
  }

  String name(int d) {
    return axes.length == 0 ? "" : axes[d].name();
  }

  long origin(int d) {
    return axes.length == 0 ? 0 : origin[d];
  }

  /** The coordinate of the piece's {@code j}th index along {@code d}, at array index index. */
  Object coordinate(int d, int j, long index) {
    if (axes.length == 0) {
      throw new IllegalStateException("this piece carries no coordinates");
    }
    if (values[d] == null) {
      return index;
    }
    return axes[d].decode(values[d][j]);
  }

  double value(int d, int j, long index) {
    return axes.length == 0 || values[d] == null ? index : values[d][j];
  }

  void write(DataOutput out) throws IOException {
    out.writeInt(axes.length);
    for (int d = 0; d < axes.length; d++) {
      axes[d].write(out, origin[d], values[d]); // the piece's own values, j from origin[d]
    }
  }

  static PieceAxes read(DataInput in) throws IOException {
    int n = in.readInt();
    if (n == 0) {
      return NONE;
    }
    Coordinates.Axis[] axes = new Coordinates.Axis[n];
    long[] origin = new long[n];
    double[][] values = new double[n][];
    for (int d = 0; d < n; d++) {
      axes[d] = Coordinates.Axis.read(in);
      origin[d] = axes[d].first();
      if (axes[d].present()) {
        values[d] = new double[axes[d].length()];
        for (int j = 0; j < values[d].length; j++) {
          values[d][j] = axes[d].value(axes[d].first() + j);
        }
      }
    }
    return new PieceAxes(axes, origin, values);
  }
}
