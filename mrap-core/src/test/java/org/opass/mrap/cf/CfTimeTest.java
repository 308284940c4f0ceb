package org.opass.mrap.cf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CfCalendar, CfDate and CfTime against cftime 1.6.2 (science/calendar/cftime_cases.json,
 * written by make_cftime_cases.py there), and their refusals.
 */
class CfTimeTest {
  private static JsonNode cases;

  @BeforeAll
  static void load() throws IOException {
    try (InputStream in = CfTimeTest.class.getResourceAsStream(
        "/science/calendar/cftime_cases.json")) {
      cases = new ObjectMapper().readTree(in);
    }
  }

  static Stream<Arguments> groups() throws IOException {
    load();
    return StreamSupport.stream(cases.get("groups").spliterator(), false)
        .map(g -> Arguments.of(g.get("units").asText(), g.get("calendar").asText(), g));
  }

  private static boolean refused(JsonNode expected) {
    return expected.isTextual() && expected.asText().startsWith("refused");
  }

  @ParameterizedTest(name = "{0} ({1})")
  @MethodSource("groups")
  void decodesAndEncodesAsCftime(String units, String calendar, JsonNode group) {
    CfTime t = CfTime.of(units, calendar);
    List<String> wrong = new ArrayList<>();
    for (JsonNode c : group.get("decode")) {
      double v = c.get(0).asDouble();
      JsonNode expected = c.get(1);
      String got;
      try {
        got = t.date(v).toString();
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage().contains(units), e.getMessage());
        got = "refused";
      }
      if (refused(expected) ? !got.equals("refused") : !got.equals(expected.asText())) {
        wrong.add("date(" + v + ") = " + got + ", cftime: " + expected.asText());
      }
    }
    for (JsonNode c : group.get("encode")) {
      String text = c.get(0).asText();
      JsonNode expected = c.get(1);
      String got;
      try {
        got = Double.toString(t.value(t.parse(text)));
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage().contains(text), e.getMessage());
        got = "refused";
      }
      String want = refused(expected) ? "refused" : Double.toString(expected.asDouble());
      if (!got.equals(want)) {
        wrong.add("value(" + text + ") = " + got + ", cftime: " + expected.asText());
      }
    }
    assertTrue(wrong.isEmpty(), wrong.size() + " cases differ from cftime: "
        + wrong.subList(0, Math.min(10, wrong.size())));
  }

  @Test
  void refusesTheUnitsCftimeRefuses() {
    for (JsonNode c : cases.get("refused")) {
      String units = c.get(0).asText();
      String calendar = c.get(1).asText();
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> CfTime.of(units, calendar), units + " (" + calendar + "), cftime: " + c.get(2));
      assertTrue(e.getMessage().contains(units) || e.getMessage().contains(calendar),
          e.getMessage());
    }
  }

  @Test
  void readsDatesAsCftime() {
    List<String> wrong = new ArrayList<>();
    for (JsonNode c : cases.get("dates")) {
      String text = c.get(0).asText();
      CfCalendar calendar = CfCalendar.of(c.get(1).asText());
      String got;
      try {
        got = CfDate.parse(text, calendar).toString();
      } catch (IllegalArgumentException e) {
        assertTrue(e.getMessage().contains(text) && e.getMessage().contains(calendar.cfName()),
            e.getMessage());
        got = "refused";
      }
      String want = refused(c.get(2)) ? "refused" : c.get(2).asText();
      if (!got.equals(want)) {
        wrong.add(text + " (" + calendar.cfName() + ") = " + got + ", cftime: " + c.get(2));
      }
    }
    assertTrue(wrong.isEmpty(), wrong.toString());
  }

  @Test
  void daysOfRealCalendarsAreTheInstantsOfCftime() {
    for (JsonNode c : cases.get("instants")) {
      CfCalendar calendar = CfCalendar.of(c.get(0).asText());
      String[] ymd = c.get(1).asText().split("-");
      long epochDay = c.get(2).asLong();
      assertEquals(epochDay, calendar.days(Integer.parseInt(ymd[0]), Integer.parseInt(ymd[1]),
          Integer.parseInt(ymd[2])), c.toString());
      assertEquals(Instant.ofEpochSecond(epochDay * 86_400 + 3_723, 4_000),
          calendar == CfCalendar.STANDARD && c.get(0).asText().equals("gregorian")
              ? CfDate.parse(c.get(1).asText() + "T01:02:03.000004", calendar).toInstant()
              : CfDate.of(calendar, Integer.parseInt(ymd[0]), Integer.parseInt(ymd[1]),
                  Integer.parseInt(ymd[2])).withTime(1, 2, 3, 4).toInstant(), c.toString());
    }
  }

  @Test
  void namesEveryCalendarAsCfDoes() {
    assertEquals(CfCalendar.STANDARD, CfCalendar.of("standard"));
    assertEquals(CfCalendar.STANDARD, CfCalendar.of(" Gregorian "));
    assertEquals(CfCalendar.STANDARD, CfCalendar.of(null));
    assertEquals(CfCalendar.STANDARD, CfCalendar.of("  "));
    assertEquals(CfCalendar.PROLEPTIC_GREGORIAN, CfCalendar.of("PROLEPTIC_GREGORIAN"));
    assertEquals(CfCalendar.NOLEAP, CfCalendar.of("noleap"));
    assertEquals(CfCalendar.NOLEAP, CfCalendar.of("365_day"));
    assertEquals(CfCalendar.ALL_LEAP, CfCalendar.of("all_leap"));
    assertEquals(CfCalendar.ALL_LEAP, CfCalendar.of("366_day"));
    assertEquals(CfCalendar.DAY_360, CfCalendar.of("360_day"));
    assertEquals(CfCalendar.JULIAN, CfCalendar.of("Julian"));
    for (CfCalendar c : CfCalendar.values()) {
      assertEquals(c, CfCalendar.of(c.cfName()));
      assertEquals(c == CfCalendar.STANDARD || c == CfCalendar.PROLEPTIC_GREGORIAN
          || c == CfCalendar.JULIAN, c.instants());
    }
    for (String bad : new String[] {"none", "lunar", "utc", "tai", "gregorian_proleptic"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> CfCalendar.of(bad));
      assertTrue(e.getMessage().contains("'" + bad + "'")
          && e.getMessage().contains("proleptic_gregorian, noleap, 365_day"), e.getMessage());
    }
  }

  @Test
  void numbersEveryDayOfYears1To9999Continuously() {
    for (CfCalendar c : CfCalendar.values()) {
      long first = c.days(1, 1, 1);
      long n = first;
      for (int y = 1; y <= 9999; y++) {
        for (int m = 1; m <= 12; m++) {
          for (int d = 1; d <= 31; d++) {
            if (!c.valid(y, m, d)) {
              continue;
            }
            // messages made only on failure: this runs 22 million times
            long days = c.days(y, m, d);
            int[] back = c.date(n);
            if (days != n || back[0] != y || back[1] != m || back[2] != d) {
              assertEquals(y + "-" + m + "-" + d + " is day " + n,
                  back[0] + "-" + back[1] + "-" + back[2] + " is day " + days, c.toString());
            }
            if ((c == CfCalendar.PROLEPTIC_GREGORIAN
                || c == CfCalendar.STANDARD && (y > 1582 || y == 1582 && m > 10
                    || y == 1582 && m == 10 && d >= 15))
                && LocalDate.of(y, m, d).toEpochDay() != n) {
              assertEquals(LocalDate.of(y, m, d).toEpochDay(), n, c + " " + y + "-" + m + "-" + d);
            }
            n++;
          }
        }
      }
      assertEquals(c == CfCalendar.DAY_360 ? 9999 * 360L : c == CfCalendar.NOLEAP ? 9999 * 365L
          : c == CfCalendar.ALL_LEAP ? 9999 * 366L : c == CfCalendar.STANDARD
          ? LocalDate.of(10000, 1, 1).toEpochDay() - first : c == CfCalendar.JULIAN
          ? 9999 * 365L + 9999 / 4 : LocalDate.of(10000, 1, 1).toEpochDay() - first, n - first,
          c + ": days in years 1 to 9999");
      long past = n;
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> c.date(past));
      assertTrue(e.getMessage().contains(Long.toString(past))
          && e.getMessage().contains(c.cfName()), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> c.date(first - 1));
      assertThrows(IllegalArgumentException.class, () -> c.date(Long.MIN_VALUE));
      assertThrows(IllegalArgumentException.class, () -> c.date(Long.MAX_VALUE));
    }
    // the mixed calendar: Julian 1582-10-04, then Gregorian 1582-10-15
    CfCalendar s = CfCalendar.STANDARD;
    assertEquals(s.days(1582, 10, 4) + 1, s.days(1582, 10, 15));
    assertEquals(LocalDate.of(1582, 10, 14).toEpochDay(), s.days(1582, 10, 4));
    assertEquals(CfCalendar.JULIAN.days(1582, 10, 4), s.days(1582, 10, 4));
    assertFalse(s.valid(1582, 10, 5));
    assertFalse(s.valid(1582, 10, 14));
    assertTrue(CfCalendar.JULIAN.valid(1582, 10, 10));
    assertTrue(s.valid(1500, 2, 29));
    assertFalse(CfCalendar.PROLEPTIC_GREGORIAN.valid(1500, 2, 29));
    assertFalse(s.valid(0, 1, 1));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> s.days(1582, 10, 10));
    assertTrue(e.getMessage().contains("1582-10-10") && e.getMessage().contains("standard"),
        e.getMessage());
  }

  @Test
  void refusesDatesNamingTextAndCalendar() {
    String[][] bad = {
        {"1900-01-01 12", "standard", "an hour needs its minutes"},
        {"1900-01-01T12", "noleap", "an hour needs its minutes"},
        {"2019-02-29", "noleap", "2019-02 has 28 days"},
        {"2020-02-30", "standard", "2020-02 has 29 days"},
        {"2020-01-31", "360_day", "2020-01 has 30 days"},
        {"1582-10-10", "standard", "do not exist"},
        {"0000-01-01", "proleptic_gregorian", "year 0000"},
        {"-0001-01-01", "julian", "year -0001"},
        {"10000-01-01", "360_day", "year 10000"},
        {"1900-01-01 00:00:00 junk", "standard", "not a date of the form"},
        {"1900-01-01  00:00", "standard", "not a date of the form"},
        {"1900-01-01x00:00", "standard", "not a date of the form"},
        {"1900-01", "standard", "not a date of the form"},
        {"", "standard", "not a date of the form"},
        {"2000-01-01T00:00+25:00", "standard", "+25:00"},
        {"2000-01-01T24:00", "standard", "hours run 0-23"},
        {"0001-01-01T00:00+01:00", "julian", "outside years 1 to 9999"},
    };
    for (String[] b : bad) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> CfDate.parse(b[0], CfCalendar.of(b[1])), b[0]);
      assertTrue(e.getMessage().contains("'" + b[0] + "'") && e.getMessage().contains(b[1])
          && e.getMessage().contains(b[2]), e.getMessage());
    }
    assertEquals("2020-02-30T00:00:00", CfDate.parse("2020-02-30", CfCalendar.DAY_360)
        .toString());
    assertThrows(IllegalArgumentException.class,
        () -> CfDate.of(CfCalendar.NOLEAP, 2020, 2, 29).withTime(0, 0, 0, 0));
    assertThrows(IllegalArgumentException.class,
        () -> CfDate.of(CfCalendar.STANDARD, 2020, 1, 1).withTime(0, 0, 0, 1_000_000));
  }

  @Test
  void datesAreValues() {
    CfDate a = CfDate.parse("2000-01-02 03:04:05.000006", CfCalendar.NOLEAP);
    CfDate b = CfDate.of(CfCalendar.NOLEAP, 2000, 1, 2).withTime(3, 4, 5, 6);
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertEquals("2000-01-02T03:04:05.000006", a.toString());
    assertEquals("0012-03-04T00:00:00", CfDate.parse("12-3-4", CfCalendar.JULIAN).toString());
    assertNotEquals(a, CfDate.of(CfCalendar.ALL_LEAP, 2000, 1, 2).withTime(3, 4, 5, 6));
    assertTrue(a.compareTo(CfDate.parse("2000-01-02 03:04:05.000007", CfCalendar.NOLEAP)) < 0);
    assertTrue(CfDate.parse("1582-10-15", CfCalendar.STANDARD)
        .compareTo(CfDate.parse("1582-10-04T23:59", CfCalendar.STANDARD)) > 0);
    ClassCastException e = assertThrows(ClassCastException.class,
        () -> a.compareTo(CfDate.of(CfCalendar.DAY_360, 2000, 1, 2).withTime(3, 4, 5, 6)));
    assertTrue(e.getMessage().contains("noleap") && e.getMessage().contains("360_day"));
    IllegalStateException s = assertThrows(IllegalStateException.class, a::toInstant);
    assertTrue(s.getMessage().contains("noleap"), s.getMessage());
    // a Julian date is the instant of that Julian day: ten days behind the Gregorian in 1582
    assertEquals(Instant.parse("1582-10-14T12:00:00Z"),
        CfDate.parse("1582-10-04T12:00", CfCalendar.STANDARD).toInstant());
    assertEquals(Instant.parse("1582-10-14T12:00:00Z"),
        CfDate.parse("1582-10-04T12:00", CfCalendar.JULIAN).toInstant());
    assertEquals(Instant.parse("1969-12-31T23:00:00.5Z"),
        CfDate.parse("1970-01-01T00:00:00.5+01:00", CfCalendar.PROLEPTIC_GREGORIAN)
            .toInstant());
  }

  @Test
  void refusesUnitsNamingThem() {
    String[][] bad = {
        {"years since 1850-01-01", "noleap", "'years' is refused"},
        {"months since 1850-01-01", "noleap", "only of the 360_day calendar"},
        {"common_years since 1850-01-01", "360_day", "only of the noleap calendar"},
        {"us since 1850-01-01", "standard", "'us' is not a time unit"},
        {"usecs since 1850-01-01", "standard", "'usecs' is not a time unit"},
        {"days", "standard", "not '<unit> since <date>'"},
        {"days after 1850-01-01", "standard", "not '<unit> since <date>'"},
        {"days since 1900-01-01 12", "standard", "an hour needs its minutes"},
        {"days since 2019-02-29", "noleap", "2019-02 has 28 days"},
        {"days since 1582-10-10", "gregorian", "do not exist"},
    };
    for (String[] b : bad) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> CfTime.of(b[0], b[1]), b[0]);
      assertTrue(e.getMessage().contains("'" + b[0] + "'") && e.getMessage().contains(b[2]),
          e.getMessage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CfTime.of("days since 1850-01-01", "lunar"));
    assertTrue(e.getMessage().contains("'lunar'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CfTime.of(null, "standard"));
  }

  @Test
  void decodesAsCftimeRoundsAndRefusesWhatItCannot() {
    CfTime t = CfTime.of("Seconds Since 2000-01-01T00:00:00Z", null);
    assertEquals(CfCalendar.STANDARD, t.calendar());
    assertEquals("Seconds Since 2000-01-01T00:00:00Z", t.units());
    assertEquals("2000-01-01T00:00:00", t.reference().toString());
    // cftime's snap: a microsecond off a whole second is the second
    assertEquals("2000-01-01T00:00:01", t.date(1.0000009).toString());
    assertEquals("2000-01-01T00:00:00.000002", t.date(0.0000015).toString());
    CfTime us = CfTime.of("microseconds since 2000-01-01", "julian");
    assertEquals("2000-01-01T00:00:00.000002", us.date(2.5).toString());
    assertEquals("2000-01-01T00:00:00.000004", us.date(3.5).toString());
    for (double v : new double[] {Double.NaN, Double.POSITIVE_INFINITY, 1e30, -1e14}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> t.date(v));
      assertTrue(e.getMessage().contains("value " + v) && e.getMessage().contains(t.units()),
          e.getMessage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> t.value(CfDate.parse("2000-01-01", CfCalendar.NOLEAP)));
    assertTrue(e.getMessage().contains("noleap") && e.getMessage().contains("standard"),
        e.getMessage());
    CfTime months = CfTime.of("months since 2000-01-01", "360_day");
    assertEquals("2001-01-01T00:00:00", months.date(12).toString());
    assertEquals(1.5, months.value(months.parse("2000-02-16")));
    CfTime years = CfTime.of("common_years since 2000-01-01", "365_day");
    assertEquals("2004-01-01T00:00:00", years.date(4).toString());
  }

  @Test
  void tellsTimeUnits() {
    assertTrue(CfTime.isTime("days since 1850-01-01"));
    assertTrue(CfTime.isTime("Hours  SINCE 1900-1-1"));
    assertFalse(CfTime.isTime("K"));
    assertFalse(CfTime.isTime("days"));
    assertFalse(CfTime.isTime(null));
  }
}
