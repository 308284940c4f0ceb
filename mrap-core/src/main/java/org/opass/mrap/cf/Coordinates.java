package org.opass.mrap.cf;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The coordinates of a variable's dimensions in one file, over the indices a read selects:
 * per dimension its name and, where it has a 1-D coordinate variable, that variable's values
 * from the first index selected to the last (a CF time as its units and calendar say). What a
 * task gives each {@link ArrayPiece} ({@link ArrayPiece#coordinate}); an immutable value.
 */
public final class Coordinates {
  private final List<Axis> axes;

  public Coordinates(List<Axis> axes) {
    this.axes = Collections.unmodifiableList(new ArrayList<>(axes));
  }

  public List<Axis> axes() {
    return axes;
  }

  public Axis axis(int d) {
    return axes.get(d);
  }

  /**
   * These coordinates over indices {@code bounds[0][d]} to {@code bounds[1][d]} only (within
   * those held), so that a task carries those of its own part of the array.
   */
  public Coordinates window(long[][] bounds) {
    List<Axis> w = new ArrayList<>(axes.size());
    for (int d = 0; d < axes.size(); d++) {
      w.add(axes.get(d).window(bounds[0][d], bounds[1][d]));
    }
    return new Coordinates(w);
  }

  public void write(DataOutput out) throws IOException {
    out.writeInt(axes.size());
    for (Axis a : axes) {
      a.write(out);
    }
  }

  public static Coordinates read(DataInput in) throws IOException {
    int n = in.readInt();
    List<Axis> axes = new ArrayList<>(n);
    for (int d = 0; d < n; d++) {
      axes.add(Axis.read(in));
    }
    return new Coordinates(axes);
  }

  @Override
  public String toString() {
    return axes.toString();
  }

  /**
   * One dimension's coordinate values over indices {@code [first, first + values.length)}, or
   * none ({@link #values} null) where the dimension has no coordinate variable.
   */
  public static final class Axis {
    private final String name;
    private final long first;
    private final double[] values;
    private final String units; // null: none
    private final String calendar; // null: none
    private final String standardName; // null: none
    private final CfTime time; // null: not a CF time

    /**
     * @throws IllegalArgumentException naming the dimension, for a CF time whose units or
     *     calendar are not read
     */
    public Axis(String name, long first, double[] values, String units, String calendar,
        String standardName) {
      this.name = name;
      this.standardName = standardName;
      this.first = first;
      this.values = values == null ? null : values.clone();
      this.units = units;
      this.calendar = calendar;
      if (values != null && units != null && CfTime.isTime(units)) {
        try {
          this.time = CfTime.of(units, calendar);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("the coordinate " + name + ": " + e.getMessage(),
              e);
        }
      } else {
        this.time = null;
      }
    }

    /** A dimension without a coordinate variable. */
    public static Axis none(String name) {
      return new Axis(name, 0, null, null, null, null);
    }

    public String name() {
      return name;
    }

    /** The index of the first value held. */
    public long first() {
      return first;
    }

    /** Whether the dimension has coordinate values. */
    public boolean present() {
      return values != null;
    }

    /** Values held. */
    public int length() {
      return values == null ? 0 : values.length;
    }

    /** The value at array index {@code index}, as stored. */
    public double value(long index) {
      return values[(int) (index - first)];
    }

    /** The CF time decoding of this coordinate, or null where it is not a time. */
    public CfTime time() {
      return time;
    }

    public String units() {
      return units;
    }

    /** The coordinate's calendar attribute, or null. */
    public String calendar() {
      return calendar;
    }

    /** The coordinate's CF standard name, or null. */
    public String standardName() {
      return standardName;
    }

    /** This axis over indices {@code [from, to]} only. */
    public Axis window(long from, long to) {
      if (values == null) {
        return this;
      }
      return new Axis(name, from, java.util.Arrays.copyOfRange(values, (int) (from - first),
          (int) (to - first + 1)), units, calendar, standardName);
    }

    /**
     * The coordinate at {@code index}: an instant or a {@link CfDate} for a CF time, else a
     * Double; the index as a Long where there is no coordinate variable.
     */
    public Object at(long index) {
      if (values == null) {
        return index;
      }
      return decode(value(index));
    }

    public Object decode(double v) {
      if (time == null) {
        return v;
      }
      CfDate date = time.date(v);
      return time.calendar().instants() ? date.toInstant() : date;
    }

    void write(DataOutput out) throws IOException {
      write(out, first, values);
    }

    /** Writes this axis as if it held {@code values} from index {@code from}. */
    public void write(DataOutput out, long from, double[] values) throws IOException {
      out.writeUTF(name);
      out.writeLong(from);
      out.writeInt(values == null ? -1 : values.length);
      if (values != null) {
        for (double v : values) {
          out.writeDouble(v);
        }
      }
      writeNullable(out, units);
      writeNullable(out, calendar);
      writeNullable(out, standardName);
    }

    public static Axis read(DataInput in) throws IOException {
      String name = in.readUTF();
      long first = in.readLong();
      int n = in.readInt();
      double[] values = n < 0 ? null : new double[n];
      for (int i = 0; i < n; i++) {
        values[i] = in.readDouble();
      }
      return new Axis(name, first, values, readNullable(in), readNullable(in),
          readNullable(in));
    }

    @Override
    public String toString() {
      return name + (values == null ? "" : "[" + first + ", " + (first + values.length) + ")"
          + (units == null ? "" : " " + units) + (calendar == null ? "" : " " + calendar));
    }
  }

  static void writeNullable(DataOutput out, String s) throws IOException {
    out.writeBoolean(s != null);
    if (s != null) {
      out.writeUTF(s);
    }
  }

  static String readNullable(DataInput in) throws IOException {
    return in.readBoolean() ? in.readUTF() : null;
  }
}
