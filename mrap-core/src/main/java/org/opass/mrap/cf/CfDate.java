package org.opass.mrap.cf;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * A date and time of day in a {@link CfCalendar}, to the microsecond, as cftime's {@code
 * datetime} holds one: no time zone (UTC, as CF has it), no leap seconds, years 1 to 9999. An
 * immutable value; dates of one calendar are ordered in time, dates of two are not comparable.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class CfDate implements Comparable<CfDate> {
  /** Microseconds in a day, the same in every calendar. */
  static final long DAY = 86_400_000_000L;

  // cftime's ISO 8601 reading, made strict: cftime stops at the first text it cannot read and
  // ignores the rest ("1900-01-01 12" is midnight to it), where this refuses the whole text
  private static final Pattern FORM = Pattern.compile("([+-]?[0-9]+)-([0-9]{1,2})-([0-9]{1,2})"
      + "(?:[T ]([0-9]{1,2}):([0-9]{1,2})(?::([0-9]{1,2})(?:\\.([0-9]+))?)?)?"
      + "(?: ?(Z|UTC|[+-][0-9]{2}(?::?[0-9]{2})?))?");
  private static final Pattern HOUR_ONLY = Pattern.compile("[+-]?[0-9]+-[0-9]{1,2}-[0-9]{1,2}"
      + "[T ][0-9]{1,2}");

  private final CfCalendar calendar;
  private final int year;
  private final int month;
  private final int day;
  private final long microOfDay;

  private CfDate(CfCalendar calendar, int year, int month, int day, long microOfDay) {
    this.calendar = calendar;
    this.year = year;
    this.month = month;
    this.day = day;
    this.microOfDay = microOfDay;
  }

  /**
   * The midnight that begins a day of {@code calendar}.
   *
   * @throws IllegalArgumentException naming the date and calendar if the day is not one of the
   *     calendar's ({@link CfCalendar#valid})
   */
  public static CfDate of(CfCalendar calendar, int year, int month, int day) {
    Objects.requireNonNull(calendar, "calendar");
    String why = invalidDay(calendar, year, month, day);
    if (why != null) {
      throw new IllegalArgumentException(String.format("%04d-%02d-%02d is not a date of the %s "
          + "calendar: %s", year, month, day, calendar.cfName(), why));
    }
    return new CfDate(calendar, year, month, day, 0);
  }

  /**
   * This day at a time of it.
   *
   * @throws IllegalArgumentException naming the date if a time field is out of its range (hours
   *     0-23, minutes and seconds 0-59, microseconds 0-999999)
   */
  public CfDate withTime(int hour, int minute, int second, int microsecond) {
    String why = invalidTime(hour, minute, second, microsecond);
    if (why != null) {
      throw new IllegalArgumentException(String.format("%04d-%02d-%02dT%02d:%02d:%02d.%06d is "
          + "not a date of the %s calendar: %s", year, month, day, hour, minute, second,
          microsecond, calendar.cfName(), why));
    }
    return new CfDate(calendar, year, month, day, micros(hour, minute, second, microsecond));
  }

  private static long micros(int hour, int minute, int second, int microsecond) {
    return ((hour * 60L + minute) * 60 + second) * 1_000_000 + microsecond;
  }

  /**
   * Reads a date as a CF time unit's reference date is written: {@code YYYY-MM-DD} (month and
   * day of one or two digits, the year of up to four), optionally followed by {@code T} or one
   * space and {@code hh:mm}, {@code hh:mm:ss} or {@code hh:mm:ss.f} (hours, minutes and
   * seconds of one or two digits; the fraction's digits past the microsecond are dropped),
   * optionally followed, after at most one space, by a time zone: {@code Z}, {@code UTC},
   * {@code ±hh}, {@code ±hhmm} or {@code ±hh:mm}. A zone's offset is applied: the date returned
   * is the same moment in UTC, as cftime shifts a unit's reference date.
   *
   * @throws IllegalArgumentException naming the text and the calendar, if the text has another
   *     form (an hour without minutes among them: cftime reads "1900-01-01 12" as midnight,
   *     UDUNITS as noon) or is no date of the calendar (2019-02-29 in noleap, 2020-02-30 in
   *     standard, 1582-10-10 in standard), or the date falls outside years 1 to 9999
   */
  public static CfDate parse(String text, CfCalendar calendar) {
    Objects.requireNonNull(calendar, "calendar");
    String t = text == null ? "" : text.trim();
    Matcher m = FORM.matcher(t);
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' (" + calendar.cfName() + " calendar) is "
          + "not a date of the form YYYY-MM-DD[(T| )hh:mm[:ss[.f]]][Z|UTC|+hh:mm|-hh:mm]"
          + (HOUR_ONLY.matcher(t).matches() ? ": an hour needs its minutes (cftime would "
          + "ignore the hour and read midnight, UDUNITS would read the hour)" : ""));
    }
    String y = m.group(1);
    // a year of more than 9 digits is out of range either way; parseInt would overflow
    int year = y.replaceFirst("^[+-]", "").length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(y);
    if (year < CfCalendar.MIN_YEAR || year > CfCalendar.MAX_YEAR) {
      throw new IllegalArgumentException("'" + text + "' (" + calendar.cfName() + " calendar): "
          + "year " + y + " is outside " + CfCalendar.MIN_YEAR + " to " + CfCalendar.MAX_YEAR);
    }
    int month = Integer.parseInt(m.group(2));
    int day = Integer.parseInt(m.group(3));
    int hour = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
    int minute = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
    int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
    // cftime's own arithmetic, int(float("0." + digits) * 1e6): it truncates, and the binary
    // fraction puts some six-digit fractions a microsecond low (".000249" is 248 microseconds)
    int micro = m.group(7) == null ? 0 : (int) (Double.parseDouble("0." + m.group(7)) * 1e6);
    String why = invalidDay(calendar, year, month, day);
    why = why != null ? why : invalidTime(hour, minute, second, micro);
    if (why != null) {
      throw new IllegalArgumentException("'" + text + "' is not a date of the "
          + calendar.cfName() + " calendar: " + why);
    }
    CfDate date = new CfDate(calendar, year, month, day, micros(hour, minute, second, micro));
    String zone = m.group(8);
    if (zone == null || zone.equals("Z") || zone.equals("UTC")) {
      return date;
    }
    int zoneHours = Integer.parseInt(zone.substring(1, 3));
    String mm = zone.substring(3).replace(":", "");
    int zoneMinutes = mm.isEmpty() ? 0 : Integer.parseInt(mm);
    // cftime takes any two digits; offsets past a day are typing slips, not zones
    if (zoneHours > 23 || zoneMinutes > 59) {
      throw new IllegalArgumentException("'" + text + "' (" + calendar.cfName() + " calendar): "
          + "the time zone " + zone + " is not an offset of at most 23:59");
    }
    long offset = (zoneHours * 60L + zoneMinutes) * 60_000_000L;
    try {
      return date.plusMicros(zone.startsWith("-") ? offset : -offset);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "' (" + calendar.cfName() + " calendar) "
          + "in UTC falls outside years " + CfCalendar.MIN_YEAR + " to " + CfCalendar.MAX_YEAR);
    }
  }

  /** Why the fields are no day of the calendar, or null if they are one. */
  private static String invalidDay(CfCalendar c, int year, int month, int day) {
    if (year < CfCalendar.MIN_YEAR || year > CfCalendar.MAX_YEAR) {
      return "year " + year + " is outside " + CfCalendar.MIN_YEAR + " to " + CfCalendar.MAX_YEAR;
    }
    if (month < 1 || month > 12) {
      return "there is no month " + month;
    }
    if (!c.valid(year, month, day)) {
      if (c == CfCalendar.STANDARD && year == 1582 && month == 10 && day > 4 && day < 15) {
        return "1582-10-05 to 1582-10-14 do not exist: Julian 1582-10-04 is followed by "
            + "Gregorian 1582-10-15";
      }
      return String.format("%04d-%02d has %d days", year, month, c.monthLength(year, month));
    }
    return null;
  }

  /** Why the fields are no time of a day, or null if they are one. */
  private static String invalidTime(int hour, int minute, int second, int micro) {
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
      return "hours run 0-23, minutes and seconds 0-59 (no leap seconds)";
    }
    if (micro < 0 || micro > 999_999) {
      return "microseconds run 0-999999";
    }
    return null;
  }

  /**
   * The date of {@code instant} (UTC) in {@code calendar}, one of instants: the inverse of
   * {@link #toInstant}.
   *
   * @throws IllegalArgumentException naming the calendar if its dates are no instants, or if
   *     the date falls outside years 1 to 9999
   */
  public static CfDate ofInstant(Instant instant, CfCalendar calendar) {
    if (!calendar.instants()) {
      throw new IllegalArgumentException("the " + calendar.cfName() + " calendar is an "
          + "idealized one: an instant has no date in it");
    }
    long micros = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L),
        instant.getNano() / 1_000);
    return at(calendar, 0, micros);
  }

  /**
   * The date at a calendar's day number ({@link CfCalendar#days}) and microseconds after its
   * midnight; the microseconds may be any number, of days before or after.
   *
   * @throws IllegalArgumentException if the date falls outside years 1 to 9999
   */
  static CfDate at(CfCalendar calendar, long days, long micros) {
    long d = Math.addExact(days, Math.floorDiv(micros, DAY));
    long t = Math.floorMod(micros, DAY);
    int[] ymd = calendar.date(d);
    return new CfDate(calendar, ymd[0], ymd[1], ymd[2], t);
  }

  /**
   * This date {@code micros} microseconds later (earlier if negative), in its calendar.
   *
   * @throws IllegalArgumentException if that falls outside years 1 to 9999
   */
  CfDate plusMicros(long micros) {
    return at(calendar, dayNumber(), Math.addExact(microOfDay(), micros));
  }

  /** The calendar's number of this date's day ({@link CfCalendar#days}). */
  long dayNumber() {
    return calendar.days(year, month, day);
  }

  /** Microseconds since this date's midnight. */
  long microOfDay() {
    return microOfDay;
  }

  /** The calendar the date is in. */
  public CfCalendar calendar() {
    return calendar;
  }

  /** The year, 1 to 9999. */
  public int year() {
    return year;
  }

  /** The month, 1 to 12. */
  public int month() {
    return month;
  }

  /** The day of the month, from 1. */
  public int day() {
    return day;
  }

  /** The hour, 0 to 23. */
  public int hour() {
    return (int) (microOfDay / 3_600_000_000L);
  }

  /** The minute, 0 to 59. */
  public int minute() {
    return (int) (microOfDay / 60_000_000L % 60);
  }

  /** The second, 0 to 59. */
  public int second() {
    return (int) (microOfDay / 1_000_000 % 60);
  }

  /** The microsecond, 0 to 999999. */
  public int microsecond() {
    return (int) (microOfDay % 1_000_000);
  }

  /**
   * The instant this date is, in UTC, for a calendar with {@link CfCalendar#instants}: a Julian
   * date (or a standard one before 1582-10-15) is the instant of that Julian day.
   *
   * @throws IllegalStateException naming the calendar for 360_day, noleap and all_leap, whose
   *     dates are no instants
   */
  public Instant toInstant() {
    if (!calendar.instants()) {
      throw new IllegalStateException(this + " is a date of the " + calendar.cfName()
          + " calendar, an idealized one: it is no instant");
    }
    return Instant.ofEpochSecond(dayNumber() * 86_400 + microOfDay / 1_000_000,
        microsecond() * 1_000L);
  }

  /**
   * Orders dates of one calendar in time.
   *
   * @throws ClassCastException naming both calendars if they differ: a 360_day date and a
   *     standard one have no order (compare the {@link #toInstant} instants of two calendars
   *     that have them)
   */
  @Override
  public int compareTo(CfDate o) {
    if (o.calendar != calendar) {
      throw new ClassCastException("a date of the " + calendar.cfName() + " calendar and one of "
          + "the " + o.calendar.cfName() + " calendar are not comparable (" + this + ", " + o
          + ")");
    }
    int[] a = {year, month, day};
    int[] b = {o.year, o.month, o.day};
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i]) {
        return Integer.compare(a[i], b[i]);
      }
    }
    return Long.compare(microOfDay, o.microOfDay);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof CfDate)) {
      return false;
    }
    CfDate d = (CfDate) o;
    return d.calendar == calendar && d.year == year && d.month == month && d.day == day
        && d.microOfDay == microOfDay;
  }

  @Override
  public int hashCode() {
    return Objects.hash(calendar, year, month, day, microOfDay);
  }

  /**
   * ISO 8601's form, {@code YYYY-MM-DDThh:mm:ss}, with {@code .ffffff} when the microseconds are
   * not zero; the calendar is not part of it.
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder(26);
    pad(b, year, 4).append('-');
    pad(b, month, 2).append('-');
    pad(b, day, 2).append('T');
    pad(b, hour(), 2).append(':');
    pad(b, minute(), 2).append(':');
    pad(b, second(), 2);
    if (microsecond() != 0) {
      pad(b.append('.'), microsecond(), 6);
    }
    return b.toString();
  }

  private static StringBuilder pad(StringBuilder b, int v, int width) {
    String s = Integer.toString(v);
    for (int i = s.length(); i < width; i++) {
      b.append('0');
    }
    return b.append(s);
  }
}
