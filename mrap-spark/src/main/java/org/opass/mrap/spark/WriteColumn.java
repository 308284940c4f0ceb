package org.opass.mrap.spark;

import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.cf.CfCalendar;
import org.opass.mrap.cf.CfDate;
import org.opass.mrap.cf.CfTime;

/**
 * A dimension column of a write and how its values become the numbers a grid is ordered and
 * placed by ({@link #key}): a number as it is; a timestamp as microseconds since 1970 (UTC, or
 * as written for one without a time zone); a date as days since 1970; a time of an idealized
 * calendar, as the table layout gives it ({@code YYYY-MM-DDThh:mm:ss}), as seconds since
 * 1970-01-01 of its calendar.
 */
final class WriteColumn implements Serializable {
  private static final long serialVersionUID = 1L;

  /** How a column's values are read. */
  enum Form {
    NUMBER, TIMESTAMP, LOCAL_TIMESTAMP, DATE, CALENDAR_TEXT
  }

  final String name;
  final int index; // in the row
  final Form form;
  final ElementType type; // a number's
  final CfCalendar calendar; // a CALENDAR_TEXT's
  private transient CfTime seconds; // a CALENDAR_TEXT's keys, made where used

  private WriteColumn(String name, int index, Form form, ElementType type,
      CfCalendar calendar) {
    this.name = name;
    this.index = index;
    this.form = form;
    this.type = type;
    this.calendar = calendar;
  }

  private CfTime seconds() {
    if (seconds == null) {
      seconds = CfTime.of("seconds since 1970-01-01 00:00:00", calendar.cfName());
    }
    return seconds;
  }

  /**
   * The dimension column {@code name} of Spark type {@code t}; {@code calendar} the calendar
   * its text times are in (null: text is refused).
   *
   * @throws IllegalArgumentException naming the column if it is neither a number nor a time
   */
  static WriteColumn dimension(String name, int index, DataType t, String calendar) {
    ElementType number = numberType(t);
    if (number != null) {
      return new WriteColumn(name, index, Form.NUMBER, number, null);
    }
    if (t.equals(DataTypes.TimestampType)) {
      return new WriteColumn(name, index, Form.TIMESTAMP, ElementType.FLOAT64, null);
    }
    if (t.typeName().equals("timestamp_ntz")) {
      return new WriteColumn(name, index, Form.LOCAL_TIMESTAMP, ElementType.FLOAT64, null);
    }
    if (t.equals(DataTypes.DateType)) {
      return new WriteColumn(name, index, Form.DATE, ElementType.FLOAT64, null);
    }
    if (t.equals(DataTypes.StringType) && calendar != null) {
      return new WriteColumn(name, index, Form.CALENDAR_TEXT, ElementType.FLOAT64,
          CfCalendar.of(calendar));
    }
    throw new IllegalArgumentException("mrap: dimension column " + name + " is " + t.simpleString()
        + ": a dimension is a number or a time (a timestamp, a date, or text times of the "
        + "calendar its " + WriteOptions.ATTR + name + ".calendar names); pick the variables "
        + "with " + WriteOptions.VARIABLES);
  }

  /** The element type a number column is written as; null if it is no number. */
  static ElementType numberType(DataType t) {
    if (t.equals(DataTypes.DoubleType)) {
      return ElementType.FLOAT64;
    } else if (t.equals(DataTypes.FloatType)) {
      return ElementType.FLOAT32;
    } else if (t.equals(DataTypes.LongType)) {
      return ElementType.INT64;
    } else if (t.equals(DataTypes.IntegerType)) {
      return ElementType.INT32;
    } else if (t.equals(DataTypes.ShortType)) {
      return ElementType.INT16;
    } else if (t.equals(DataTypes.ByteType)) {
      return ElementType.INT8;
    }
    return null;
  }

  boolean isTime() {
    return form != Form.NUMBER;
  }

  /**
   * The key of {@code value}, a row's value of this column.
   *
   * @throws IllegalArgumentException naming the column for a null, a NaN or a text time its
   *     calendar has not
   */
  double key(Object value) {
    if (value == null) {
      throw new IllegalArgumentException("mrap: dimension column " + name + " holds a null: "
          + "every row needs its grid point");
    }
    switch (form) {
      case NUMBER: {
        double x = ((Number) value).doubleValue();
        if (Double.isNaN(x)) {
          throw new IllegalArgumentException("mrap: dimension column " + name + " holds NaN");
        }
        return x;
      }
      case TIMESTAMP:
        return micros(value instanceof Instant ? (Instant) value
            : ((java.sql.Timestamp) value).toInstant());
      case LOCAL_TIMESTAMP:
        return micros(((LocalDateTime) value).toInstant(ZoneOffset.UTC));
      case DATE:
        return value instanceof LocalDate ? ((LocalDate) value).toEpochDay()
            : ((java.sql.Date) value).toLocalDate().toEpochDay();
      default:
        return seconds().value(CfDate.parse(String.valueOf(value), calendar));
    }
  }

  private static double micros(Instant i) {
    return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L),
        i.getNano() / 1_000);
  }

  /** The date of key {@code key} in {@code cal} (a calendar of instants unless text). */
  CfDate date(double key, CfCalendar cal) {
    switch (form) {
      case TIMESTAMP:
      case LOCAL_TIMESTAMP: {
        long m = (long) key;
        return CfDate.ofInstant(Instant.ofEpochSecond(Math.floorDiv(m, 1_000_000L),
            Math.floorMod(m, 1_000_000L) * 1_000L), cal);
      }
      case DATE:
        return CfDate.ofInstant(Instant.ofEpochSecond((long) key * 86_400L), cal);
      default:
        return seconds().date(key);
    }
  }

  /** Microseconds from key {@code a} to key {@code b}. */
  double micros(double a, double b) {
    switch (form) {
      case DATE:
        return (b - a) * 86_400e6;
      case CALENDAR_TEXT:
        return Math.rint((b - a) * 1e6);
      default:
        return b - a;
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
