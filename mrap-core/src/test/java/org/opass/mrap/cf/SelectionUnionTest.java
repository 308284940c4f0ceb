package org.opass.mrap.cf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opass.mrap.array.Slab;

/**
 * What Spark's pushed filters give {@link Selection}: unions of ranges ({@code a:b|c:d}) and
 * instants in UTC ({@code ...Z}), taken in the coordinate's calendar (a Julian date before
 * 1582 in the standard calendar), and their refusals.
 */
class SelectionUnionTest {
  private static final long[] SHAPE = {10};

  private static List<Coordinates.Axis> axis(double[] values, String units, String calendar) {
    return List.of(new Coordinates.Axis("x", 0, values, units, calendar, null));
  }

  private static String indices(Slab s) {
    StringBuilder b = new StringBuilder();
    for (long i = 0; i < SHAPE[0]; i++) {
      b.append(selects(s, i) ? '#' : '.');
    }
    return b.toString();
  }

  private static boolean selects(Slab s, long i) {
    int[] pick = new int[1];
    for (int k = 0; k < s.parts(0); k++) {
      pick[0] = k;
      Slab p = s.part(pick);
      if (i >= p.start(0) && i <= p.lastIndex(0)) {
        return true;
      }
    }
    return false;
  }

  @Test
  void unionsOfRangesSelectEachRangeOnEitherAxisOrder() {
    double[] up = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    double[] down = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    Selection s = Selection.parse("x=1:2|5:5|8.5:");
    assertEquals(".##..#...#", indices(s.resolve(SHAPE, axis(up, null, null)).slab()));
    assertEquals("#...#..##.", indices(s.resolve(SHAPE, axis(down, null, null)).slab()));
    // overlapping ranges join; a range past the axis selects nothing of it
    assertEquals("..#####...", indices(Selection.parse("x=2:4|3:6|20:30")
        .resolve(SHAPE, axis(up, null, null)).slab()));
    assertNull(Selection.parse("x=20:30|-5:-1").resolve(SHAPE, axis(up, null, null)).slab());
    assertEquals("x=1:2|5:5|8.5:", s.toString());
  }

  @Test
  void anInstantIsTakenInTheCoordinatesCalendar() {
    double[] days = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    // 1500-01-03 of the standard (here Julian) calendar, as an instant in proleptic Gregorian
    CfDate julian = CfDate.parse("1500-01-03", CfCalendar.STANDARD);
    LocalDateTime utc = LocalDateTime.ofInstant(julian.toInstant(), ZoneOffset.UTC);
    assertTrue(utc.getDayOfMonth() != 3, "the calendars differ in 1500: " + utc);
    String z = utc + ":00Z";
    Slab s = Selection.parse("x=" + z + ":" + z).resolve(SHAPE,
        axis(days, "days since 1500-01-01", "standard")).slab();
    assertEquals("..#.......", indices(s));
    // in proleptic_gregorian the same text is that calendar's own date
    Slab p = Selection.parse("x=1500-01-03T00:00:00Z:1500-01-04T00:00:00.000000Z").resolve(
        SHAPE, axis(days, "days since 1500-01-01", "proleptic_gregorian")).slab();
    assertEquals("..##......", indices(p));
  }

  @Test
  void refusesInstantsInIdealizedCalendarsAndValuesInUnions() {
    double[] days = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    IllegalArgumentException noInstant = assertThrows(IllegalArgumentException.class, () ->
        Selection.parse("x=2000-01-02T00:00:00Z:").resolve(SHAPE,
            axis(days, "days since 2000-01-01", "360_day")));
    assertTrue(noInstant.getMessage().contains("360_day"), noInstant.getMessage());
    IllegalArgumentException value = assertThrows(IllegalArgumentException.class, () ->
        Selection.parse("x=1:2|5"));
    assertTrue(value.getMessage().contains("v:v"), value.getMessage());
  }
}
