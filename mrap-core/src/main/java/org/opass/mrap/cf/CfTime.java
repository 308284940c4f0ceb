package org.opass.mrap.cf;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A CF time coordinate's decoding: its {@code units} attribute, "&lt;unit&gt; since
 * &lt;date&gt;", in the calendar its {@code calendar} attribute names. Values decode to dates
 * and dates encode to values as cftime 1.6's {@code num2date} and {@code date2num} do, to the
 * microsecond and with cftime's rounding. An immutable value.
 */
public final class CfTime {
  // cftime's unit names (its UNIT_CONVERSION_FACTORS) and their microseconds; not UDUNITS'
  // longer list: "us", "usec" and "years" are refused, as cftime refuses them
  private static final Map<String, Long> UNITS = new LinkedHashMap<>();
  private static final Pattern SINCE = Pattern.compile("\\S\\s+since\\s+\\S",
      Pattern.CASE_INSENSITIVE);
  private static final long MONTH = 30 * CfDate.DAY;
  private static final long COMMON_YEAR = 365 * CfDate.DAY;

  static {
    for (String u : new String[] {"microseconds", "microsecond", "microsec", "microsecs"}) {
      UNITS.put(u, 1L);
    }
    for (String u : new String[] {"milliseconds", "millisecond", "millisec", "millisecs",
        "msec", "msecs", "ms"}) {
      UNITS.put(u, 1_000L);
    }
    for (String u : new String[] {"seconds", "second", "sec", "secs", "s"}) {
      UNITS.put(u, 1_000_000L);
    }
    for (String u : new String[] {"minutes", "minute", "min", "mins"}) {
      UNITS.put(u, 60_000_000L);
    }
    for (String u : new String[] {"hours", "hour", "hr", "hrs", "h"}) {
      UNITS.put(u, 3_600_000_000L);
    }
    for (String u : new String[] {"days", "day", "d"}) {
      UNITS.put(u, CfDate.DAY);
    }
  }

  private final String units;
  private final CfCalendar calendar;
  private final long unit;
  private final CfDate reference;

  private CfTime(String units, CfCalendar calendar, long unit, CfDate reference) {
    this.units = units;
    this.calendar = calendar;
    this.unit = unit;
    this.reference = reference;
  }

  /**
   * The decoding of a time coordinate with these {@code units} and {@code calendar}
   * attributes. The units are "&lt;unit&gt; since &lt;date&gt;", words case-insensitive and
   * apart by blanks, the date as {@link CfDate#parse} reads it ("1900-01-01 00:00:00.0",
   * "1850-1-1", "2000-01-01T12:00:00Z"). The unit is one of cftime's: microseconds
   * (microsecond, microsec, microsecs), milliseconds (millisecond, millisec, millisecs, msec,
   * msecs, ms), seconds (second, sec, secs, s), minutes (minute, min, mins), hours (hour, hr,
   * hrs, h), days (day, d); also months of 30 days in the 360_day calendar and common_years
   * (common_year) of 365 days in noleap, which cftime reads there and nowhere else. The calendar
   * is as {@link CfCalendar#of} reads it; null or blank is standard.
   *
   * @throws IllegalArgumentException naming the units or calendar at fault: not "&lt;unit&gt;
   *     since &lt;date&gt;", a unit cftime does not read (years, and months outside 360_day,
   *     which CF discourages as UDUNITS' year is 365.242198781 days), a date not of the
   *     calendar, an unknown calendar
   */
  public static CfTime of(String units, String calendar) {
    CfCalendar c = CfCalendar.of(calendar);
    String[] words = units == null ? new String[0] : units.trim().split("\\s+", 3);
    if (words.length < 3 || !words[1].equalsIgnoreCase("since")) {
      throw new IllegalArgumentException("units '" + units + "' are not '<unit> since <date>'");
    }
    String name = words[0].toLowerCase(Locale.ROOT);
    Long micros = UNITS.get(name);
    if ((name.equals("month") || name.equals("months")) && c == CfCalendar.DAY_360) {
      micros = MONTH;
    } else if ((name.equals("common_year") || name.equals("common_years"))
        && c == CfCalendar.NOLEAP) {
      micros = COMMON_YEAR;
    }
    if (micros == null) {
      throw new IllegalArgumentException("units '" + units + "' (" + c.cfName() + " calendar): "
          + refusal(name));
    }
    CfDate reference;
    try {
      reference = CfDate.parse(words[2], c);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("units '" + units + "': " + e.getMessage(), e);
    }
    return new CfTime(units, c, micros, reference);
  }

  private static String refusal(String name) {
    if (name.equals("month") || name.equals("months")) {
      return "'" + name + "' is a unit only of the 360_day calendar (30 days)";
    }
    if (name.equals("common_year") || name.equals("common_years")) {
      return "'" + name + "' is a unit only of the noleap calendar (365 days)";
    }
    if (name.equals("year") || name.equals("years") || name.equals("yr")
        || name.equals("yrs")) {
      return "'" + name + "' is refused: CF discourages years, as UDUNITS' year is "
          + "365.242198781 days, and cftime does not read them";
    }
    return "'" + name + "' is not a time unit; the units are " + String.join(", ", UNITS.keySet())
        + ", months (360_day) and common_years (noleap)";
  }

  /** Whether units look like a time coordinate's: "&lt;unit&gt; since &lt;date&gt;". */
  public static boolean isTime(String units) {
    return units != null && SINCE.matcher(units).find();
  }

  /**
   * The date {@code value} units after the reference date, as cftime's {@code num2date}
   * decodes it (see {@link #micros} for its rounding to the microsecond).
   *
   * @throws IllegalArgumentException naming the value and the units if the value is not finite
   *     or the date falls outside years 1 to 9999
   */
  public CfDate date(double value) {
    Long micros = Double.isFinite(value) ? micros(value, unit) : null;
    if (micros != null) {
      try {
        return reference.plusMicros(micros);
      } catch (IllegalArgumentException | ArithmeticException e) {
        // out of range below
      }
    }
    throw new IllegalArgumentException("value " + value + " of '" + units + "' ("
        + calendar.cfName() + " calendar) is no date of years " + CfCalendar.MIN_YEAR + " to "
        + CfCalendar.MAX_YEAR);
  }

  /**
   * The value of {@code date} in these units, as cftime's {@code date2num} encodes it: the
   * microseconds from the reference date divided by the unit's, correctly rounded (an exact
   * whole number when the date is a whole number of units away).
   *
   * @throws IllegalArgumentException naming both calendars if the date is not of this one
   */
  public double value(CfDate date) {
    if (date.calendar() != calendar) {
      throw new IllegalArgumentException("the date " + date + " is of the "
          + date.calendar().cfName() + " calendar; '" + units + "' are of the "
          + calendar.cfName() + " calendar");
    }
    // within 10,000 years of each other, so within 2^59 microseconds: no overflow
    long micros = (date.dayNumber() - reference.dayNumber()) * CfDate.DAY
        + date.microOfDay() - reference.microOfDay();
    if (micros % unit == 0) {
      return micros / unit;
    }
    if (Math.abs(micros) < 1L << 53) {
      // both exact as doubles: one correctly rounded division, as Python's int / int
      return (double) micros / unit;
    }
    // 34 digits put the quotient nearer to it than to any midpoint of doubles (those differ
    // from micros / unit by at least 2^-53 / unit relative, unit < 2^45), so the second
    // rounding, to double, is the only one that counts
    return new BigDecimal(micros).divide(new BigDecimal(unit), MathContext.DECIMAL128)
        .doubleValue();
  }

  /**
   * A date of this calendar, read as {@link CfDate#parse} reads it.
   *
   * @throws IllegalArgumentException naming the text and the calendar
   */
  public CfDate parse(String text) {
    return CfDate.parse(text, calendar);
  }

  /** The calendar. */
  public CfCalendar calendar() {
    return calendar;
  }

  /** The units, as given. */
  public String units() {
    return units;
  }

  /** The reference date (in UTC when the units give a time zone). */
  public CfDate reference() {
    return reference;
  }

  /**
   * {@code value} units in microseconds as cftime 1.6 rounds them (num2date's {@code
   * scale_times} and {@code cast_to_int}): the product is taken in numpy's longdouble, which
   * on x86-64, where the reference cases come from, has a 64-bit significand, so the exact
   * product is first rounded to 64 bits; then to the nearest microsecond, ties to even; then,
   * for units of a second or more, a result one microsecond past or short of a whole second
   * becomes the floor or ceiling of the product (cftime issue 187), so that 1.0000009 seconds
   * is one second. Null when the product passes 2^62 microseconds (146,000 years).
   */
  static Long micros(double value, long unit) {
    if (value == 0) {
      return 0L;
    }
    long bits = Double.doubleToRawLongBits(value);
    int biased = (int) (bits >>> 52) & 0x7ff;
    long mantissa = bits & ((1L << 52) - 1);
    int exponent = -1074;
    if (biased != 0) {
      mantissa |= 1L << 52;
      exponent = biased - 1075;
    }
    // |value| * unit = p * 2^exponent exactly, then held in a 64-bit significand
    BigInteger p = BigInteger.valueOf(mantissa).multiply(BigInteger.valueOf(unit));
    int excess = p.bitLength() - 64;
    if (excess > 0) {
      p = halfEven(p, excess);
      exponent += excess;
    }
    if (p.bitLength() + exponent > 62) {
      return null;
    }
    long nearest;
    long floor;
    long ceiling;
    if (exponent >= 0) {
      nearest = p.shiftLeft(exponent).longValueExact();
      floor = nearest;
      ceiling = nearest;
    } else {
      nearest = halfEven(p, -exponent).longValueExact();
      floor = p.shiftRight(-exponent).longValueExact();
      ceiling = p.getLowestSetBit() >= -exponent ? floor : floor + 1;
    }
    if (value < 0) {
      nearest = -nearest;
      long f = floor;
      floor = -ceiling;
      ceiling = -f;
    }
    if (unit >= 1_000_000) {
      long us = Math.floorMod(nearest, 1_000_000L);
      if (us == 1) {
        nearest = floor;
      } else if (us == 999_999) {
        nearest = ceiling;
      }
    }
    return nearest;
  }

  /** p / 2^k, p >= 0 and k >= 1, to the nearest whole number, ties to even. */
  private static BigInteger halfEven(BigInteger p, int k) {
    BigInteger q = p.shiftRight(k);
    int c = p.subtract(q.shiftLeft(k)).compareTo(BigInteger.ONE.shiftLeft(k - 1));
    return c > 0 || c == 0 && q.testBit(0) ? q.add(BigInteger.ONE) : q;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof CfTime)) {
      return false;
    }
    CfTime t = (CfTime) o;
    return t.units.equals(units) && t.calendar == calendar;
  }

  @Override
  public int hashCode() {
    return Objects.hash(units, calendar);
  }

  @Override
  public String toString() {
    return units + " (" + calendar.cfName() + " calendar)";
  }
}
