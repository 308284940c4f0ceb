package org.opass.mrap.cf;

import java.time.LocalDate;
import java.util.Locale;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * The calendars of the CF conventions' {@code calendar} attribute, as cftime (the reference
 * implementation) counts them. Each numbers its days continuously ({@link #days}); in the
 * calendars whose dates are real instants ({@link #instants}) that number is the proleptic
 * Gregorian epoch day of {@link LocalDate#toEpochDay} for the same day, so that a Julian date
 * and the Gregorian date of the same day get the same number. Years 1 to 9999 only: before
 * year 1 cftime's year-zero conventions differ by calendar, and CF leaves them open.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public enum CfCalendar {
  /**
   * The mixed Julian/Gregorian calendar (CF's default; "gregorian" is its older name): Julian
   * up to 1582-10-04, Gregorian from the next day, 1582-10-15. The ten days between do not
   * exist.
   */
  STANDARD("standard"),
  /** The Gregorian calendar's rules for every year, as java.time and ISO 8601 have it. */
  PROLEPTIC_GREGORIAN("proleptic_gregorian"),
  /** Every year 365 days ("365_day"). */
  NOLEAP("noleap"),
  /** Every year 366 days ("366_day"). */
  ALL_LEAP("all_leap"),
  /** Twelve months of 30 days. */
  DAY_360("360_day"),
  /** The Julian calendar's rules for every year: a leap year every fourth year. */
  JULIAN("julian");

  /** The first year this class reads: cftime's year zero (or none) is not needed. */
  public static final int MIN_YEAR = 1;
  /** The last year this class reads, ISO 8601's four digits. */
  public static final int MAX_YEAR = 9999;

  private static final String NAMES = "standard, gregorian, proleptic_gregorian, noleap, "
      + "365_day, all_leap, 366_day, 360_day, julian";
  private static final int[] CUMULATIVE = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304,
      334, 365};
  private static final int[] CUMULATIVE_LEAP = {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305,
      335, 366};
  // 1582-10-15, the first Gregorian day of STANDARD; the day before it is Julian 1582-10-04
  private static final long GREGORIAN_START = LocalDate.of(1582, 10, 15).toEpochDay();
  // the Julian day number of 1970-01-01, where LocalDate's epoch days start
  private static final long JDN_EPOCH = 2440588;

  private final String cfName;

  CfCalendar(String cfName) {
    this.cfName = cfName;
  }

  /**
   * The calendar a CF {@code calendar} attribute names, case-insensitive, surrounding blanks
   * ignored (cftime does not ignore them): standard or gregorian, proleptic_gregorian, noleap
   * or 365_day, all_leap or 366_day, 360_day, julian. Null or blank is STANDARD, the CF
   * default when the attribute is missing.
   *
   * @throws IllegalArgumentException naming the calendar and the supported names, for one such
   *     as CF's "none", "utc" or "tai", which cftime does not support either
   */
  public static CfCalendar of(String name) {
    if (name == null || name.trim().isEmpty()) {
      return STANDARD;
    }
    switch (name.trim().toLowerCase(Locale.ROOT)) {
      case "standard":
      case "gregorian":
        return STANDARD;
      case "proleptic_gregorian":
        return PROLEPTIC_GREGORIAN;
      case "noleap":
      case "365_day":
        return NOLEAP;
      case "all_leap":
      case "366_day":
        return ALL_LEAP;
      case "360_day":
        return DAY_360;
      case "julian":
        return JULIAN;
      default:
        throw new IllegalArgumentException("calendar '" + name + "' is not supported; the "
            + "supported calendars are " + NAMES);
    }
  }

  /** The CF name: standard, proleptic_gregorian, noleap, all_leap, 360_day or julian. */
  public String cfName() {
    return cfName;
  }

  /**
   * True for STANDARD, PROLEPTIC_GREGORIAN and JULIAN, whose dates are real days, so that
   * {@link CfDate#toInstant} applies; the idealized calendars' dates are not.
   */
  public boolean instants() {
    return this == STANDARD || this == PROLEPTIC_GREGORIAN || this == JULIAN;
  }

  /** Whether y-m-d is a date of this calendar, in years 1 to 9999. */
  public boolean valid(int y, int m, int d) {
    if (y < MIN_YEAR || y > MAX_YEAR || m < 1 || m > 12 || d < 1) {
      return false;
    }
    if (this == STANDARD && y == 1582 && m == 10 && d > 4 && d < 15) {
      return false;
    }
    return d <= monthLength(y, m);
  }

  /**
   * The day number of y-m-d: continuous (the next day's is one more), and for the {@link
   * #instants} calendars the proleptic Gregorian epoch day of the same day, as {@link
   * LocalDate#toEpochDay} gives it; for the idealized ones the days from 1970-01-01 of the
   * same calendar.
   *
   * @throws IllegalArgumentException naming the date and the calendar if it is not {@link
   *     #valid}
   */
  public long days(int y, int m, int d) {
    if (!valid(y, m, d)) {
      throw new IllegalArgumentException(String.format("%04d-%02d-%02d is not a date of the %s "
          + "calendar (years %d to %d)", y, m, d, cfName, MIN_YEAR, MAX_YEAR));
    }
    switch (this) {
      case PROLEPTIC_GREGORIAN:
        return LocalDate.of(y, m, d).toEpochDay();
      case JULIAN:
        return julianDays(y, m, d);
      case STANDARD:
        return y < 1582 || y == 1582 && (m < 10 || m == 10 && d < 5) ? julianDays(y, m, d)
            : LocalDate.of(y, m, d).toEpochDay();
      case DAY_360:
        return (y - 1970L) * 360 + (m - 1) * 30 + d - 1;
      case NOLEAP:
        return (y - 1970L) * 365 + CUMULATIVE[m - 1] + d - 1;
      default:
        return (y - 1970L) * 366 + CUMULATIVE_LEAP[m - 1] + d - 1;
    }
  }

  /**
   * The date {y, m, d} of a {@link #days} number.
   *
   * @throws IllegalArgumentException naming the number and the calendar if the date falls
   *     outside years 1 to 9999
   */
  public int[] date(long days) {
    // years 1 to 9999 lie within 3,000,000 days of 1970 in every calendar; the bound keeps the
    // arithmetic below from overflowing
    int[] ymd = days < -4_000_000 || days > 4_000_000 ? null : dateNear(days);
    if (ymd == null || ymd[0] < MIN_YEAR || ymd[0] > MAX_YEAR) {
      throw new IllegalArgumentException("day " + days + " of the " + cfName + " calendar falls "
          + "outside years " + MIN_YEAR + " to " + MAX_YEAR);
    }
    return ymd;
  }

  private int[] dateNear(long days) {
    switch (this) {
      case PROLEPTIC_GREGORIAN:
        return gregorianDate(days);
      case JULIAN:
        return julianDate(days);
      case STANDARD:
        return days < GREGORIAN_START ? julianDate(days) : gregorianDate(days);
      case DAY_360:
        int day360 = (int) Math.floorMod(days, 360L);
        return new int[] {(int) (1970 + Math.floorDiv(days, 360L)), day360 / 30 + 1,
            day360 % 30 + 1};
      default:
        int length = this == NOLEAP ? 365 : 366;
        int[] cumulative = this == NOLEAP ? CUMULATIVE : CUMULATIVE_LEAP;
        int day = (int) Math.floorMod(days, (long) length);
        int m = 1;
        while (cumulative[m] <= day) {
          m++;
        }
        return new int[] {(int) (1970 + Math.floorDiv(days, (long) length)), m,
            day - cumulative[m - 1] + 1};
    }
  }

  /** Days in month m of year y (30 in every month of 360_day). */
  int monthLength(int y, int m) {
    if (this == DAY_360) {
      return 30;
    }
    int[] cumulative = leap(y) ? CUMULATIVE_LEAP : CUMULATIVE;
    return cumulative[m] - cumulative[m - 1];
  }

  private boolean leap(int y) {
    switch (this) {
      case ALL_LEAP:
        return true;
      case NOLEAP:
      case DAY_360:
        return false;
      case JULIAN:
        return y % 4 == 0;
      case STANDARD:
        // cftime: Julian rules before 1582, Gregorian from it (1582 is no leap year in either)
        return y < 1582 ? y % 4 == 0 : gregorianLeap(y);
      default:
        return gregorianLeap(y);
    }
  }

  private static boolean gregorianLeap(int y) {
    return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
  }

  // Julian-calendar dates to Julian day numbers and back as Claus Tondering's Calendar FAQ
  // (2.16.1) has them: every term stays positive for years after -4800, so integer division
  // needs no floor.
  private static long julianDays(int y, int m, int d) {
    long a = (14 - m) / 12;
    long yy = y + 4800 - a;
    long mm = m + 12 * a - 3;
    return d + (153 * mm + 2) / 5 + 365 * yy + yy / 4 - 32083 - JDN_EPOCH;
  }

  private static int[] julianDate(long days) {
    long c = days + JDN_EPOCH + 32082;
    long dd = (4 * c + 3) / 1461;
    long e = c - 1461 * dd / 4;
    long mm = (5 * e + 2) / 153;
    return new int[] {(int) (dd - 4800 + mm / 10), (int) (mm + 3 - 12 * (mm / 10)),
        (int) (e - (153 * mm + 2) / 5 + 1)};
  }

  private static int[] gregorianDate(long days) {
    LocalDate d = LocalDate.ofEpochDay(days);
    return new int[] {d.getYear(), d.getMonthValue(), d.getDayOfMonth()};
  }
}
