package org.opass.mrap.cf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.opass.mrap.array.Slab;

/**
 * A selection by coordinate values ({@code mrap.science.select}): per dimension, by name, a
 * closed range of values or one value. An immutable value; {@link #resolve} turns it into the
 * {@link Slab} of one file, from that file's own coordinates.
 *
 * <p>The text is comma-separated items {@code dimension=lo:hi} (both ends included; either may
 * be left out: no bound on that side) or {@code dimension=value} (the element nearest to it,
 * as xarray's {@code sel(..., method="nearest")}; a tie takes the larger value). Values are
 * numbers, or for a CF time coordinate dates {@code YYYY-MM-DD[THH[:MM[:SS[.f]]]]} in the file's
 * calendar, e.g. {@code time=2020-06-01:2020-08-31T23:00, latitude=30:45, longitude=100:120}.
 *
 * <p>A range selects the elements whose coordinate lies in it whatever the axis's order
 * ({@code latitude=30:45} on an axis from 90 to -90 as on one from -90 to 90; {@code 45:30} is
 * the same range). On a longitude axis (units {@code degrees_east} or standard name {@code
 * longitude}) values are taken modulo 360: {@code lo:hi} selects from lo eastward to hi, so
 * {@code 350:10} and {@code -10:10} cross the end of a 0..360 axis, {@code 170:-170} that of a
 * -180..180 one, each a union of two runs of indices.
 *
 * <p>Ranges joined by {@code |} select their union ({@code latitude=30:30|45:45} the elements
 * at exactly 30 and 45). A date ending in {@code Z} is an instant in UTC (proleptic Gregorian,
 * as java.time and Spark count), taken in the coordinate's calendar: only calendars whose dates
 * are instants ({@link CfCalendar#instants}) take one.
 */
public final class Selection {
  // a date with an optional time; the range's ':' is the one no date or time can take
  private static final String DATE = "-?\\d{1,4}-\\d{1,2}-\\d{1,2}"
      + "(?:[T ]\\d{1,2}(?::\\d{1,2}(?::\\d{1,2}(?:\\.\\d+)?)?)?)?Z?";
  private static final String NUMBER = "[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?";
  private static final String VALUE = "(?:" + DATE + "|" + NUMBER + ")";
  private static final Pattern RANGE = Pattern.compile("(" + VALUE + ")?:(" + VALUE + ")?");
  private static final Pattern ONE = Pattern.compile(VALUE);
  private static final Pattern IS_NUMBER = Pattern.compile(NUMBER);

  private final Map<String, Constraint> byDimension;

  private Selection(Map<String, Constraint> byDimension) {
    this.byDimension = byDimension;
  }

  /**
   * Reads a selection as {@link Selection} says.
   *
   * @throws IllegalArgumentException naming the item at fault
   */
  public static Selection parse(String text) {
    if (text == null || text.trim().isEmpty()) {
      throw new IllegalArgumentException("an empty selection: give dimension=lo:hi or "
          + "dimension=value items, comma-separated");
    }
    Map<String, Constraint> m = new LinkedHashMap<>();
    for (String raw : text.split(",", -1)) {
      String item = raw.trim();
      int eq = item.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("'" + item + "' is not dimension=lo:hi or "
            + "dimension=value");
      }
      String dim = item.substring(0, eq).trim();
      String spec = item.substring(eq + 1).trim();
      Constraint c;
      if (ONE.matcher(spec).matches()) { // first: a time's HH:MM is not a range
        Bound v = Bound.parse(spec);
        c = new Constraint(dim, Collections.singletonList(new Bound[] {v, v}), true);
      } else {
        List<Bound[]> ranges = new ArrayList<>();
        for (String one : spec.split("\\|", -1)) {
          Matcher r = RANGE.matcher(one.trim());
          if (!r.matches()) {
            throw new IllegalArgumentException("'" + item + "': '" + one.trim() + "' is "
                + (spec.contains("|") ? "not a range lo:hi (ranges joined by | take no single "
                + "value: write v:v for exactly v)" : "neither a value (a number, or a date as "
                + "2020-06-01T12:00) nor a range lo:hi of them"));
          }
          ranges.add(new Bound[] {Bound.parse(r.group(1)), Bound.parse(r.group(2))});
        }
        c = new Constraint(dim, ranges, false);
      }
      if (m.put(dim, c) != null) {
        throw new IllegalArgumentException("dimension " + dim + " is selected twice");
      }
    }
    return new Selection(Collections.unmodifiableMap(m));
  }

  /**
   * A selection of dimension {@code dimension} by the union of {@code ranges}, each a closed
   * range {@code {lo, hi}} (a null end: open on that side): what an engine's filters select,
   * handed over as a value.
   *
   * @throws IllegalArgumentException naming the dimension, for no range or a range without two
   *     ends
   */
  public static Selection ranges(String dimension, List<Bound[]> ranges) {
    if (dimension == null || dimension.isEmpty() || ranges.isEmpty()) {
      throw new IllegalArgumentException("dimension '" + dimension + "': a selection of no "
          + "range");
    }
    List<Bound[]> copy = new ArrayList<>();
    for (Bound[] r : ranges) {
      if (r.length != 2) {
        throw new IllegalArgumentException("dimension " + dimension + ": a range of "
            + r.length + " ends");
      }
      copy.add(r.clone());
    }
    return new Selection(Collections.singletonMap(dimension, new Constraint(dimension, copy,
        false)));
  }

  /**
   * This selection and {@code other}'s, each over its own dimensions.
   *
   * @throws IllegalArgumentException naming a dimension both select
   */
  public Selection and(Selection other) {
    Map<String, Constraint> m = new LinkedHashMap<>(byDimension);
    for (Map.Entry<String, Constraint> e : other.byDimension.entrySet()) {
      if (m.put(e.getKey(), e.getValue()) != null) {
        throw new IllegalArgumentException("dimension " + e.getKey() + " is selected twice: "
            + byDimension.get(e.getKey()) + " and " + e.getValue());
      }
    }
    return new Selection(Collections.unmodifiableMap(m));
  }

  /** The dimensions selected, in the order given. */
  public List<String> dimensions() {
    return new ArrayList<>(byDimension.keySet());
  }

  /**
   * What this selection picks in a variable of {@code shape} whose dimension {@code d} has the
   * coordinate values {@code axes.get(d)} (the whole dimension's; dimensions not selected may
   * have none).
   *
   * @throws IllegalArgumentException naming the dimension and value at fault: a selected
   *     dimension without coordinate values, a coordinate not monotonic, a value that does not
   *     parse (a date in the coordinate's calendar)
   */
  public Resolved resolve(long[] shape, List<Coordinates.Axis> axes) {
    List<List<long[]>> ranges = new ArrayList<>();
    double[] distance = new double[shape.length];
    double[] nearest = new double[shape.length];
    java.util.Arrays.fill(distance, Double.NaN);
    boolean empty = false;
    for (int d = 0; d < shape.length; d++) {
      Coordinates.Axis a = axes.get(d);
      Constraint c = byDimension.get(a.name());
      if (c == null) {
        ranges.add(List.of(new long[] {0, shape[d] - 1}));
        continue;
      }
      if (!a.present()) {
        throw new IllegalArgumentException("dimension " + a.name() + " has no coordinate "
            + "variable, so it cannot be selected by value");
      }
      List<long[]> r = c.select(a);
      if (c.nearest) {
        long at = r.get(0)[0];
        nearest[d] = a.value(at);
        distance[d] = c.distance(a, nearest[d]);
      }
      empty |= r.isEmpty();
      ranges.add(r);
    }
    return new Resolved(empty ? null : Slab.ofRanges(shape, ranges), distance, nearest);
  }

  /**
   * Whether this selection surely picks nothing where dimension {@code extremes.name()}'s
   * coordinate values lie between the two values {@code extremes} holds (its least and
   * greatest, with its units and calendar): a range of its that does not meet them. False where
   * it cannot tell (one value, which picks the nearest; a longitude's range; a bound that does
   * not read in these units): the file's own coordinates decide then.
   */
  public boolean misses(Coordinates.Axis extremes) {
    Constraint c = byDimension.get(extremes.name());
    if (c == null || c.nearest || extremes.length() != 2 || longitude(extremes)) {
      return false;
    }
    double lo = Math.min(extremes.value(extremes.first()), extremes.value(extremes.first() + 1));
    double hi = Math.max(extremes.value(extremes.first()), extremes.value(extremes.first() + 1));
    try {
      for (Bound[] range : c.ranges) {
        double l = range[0] == null ? Double.NEGATIVE_INFINITY : c.value(extremes, range[0]);
        double h = range[1] == null ? Double.POSITIVE_INFINITY : c.value(extremes, range[1]);
        if (Math.max(l, h) >= lo && Math.min(l, h) <= hi) {
          return false;
        }
      }
    } catch (IllegalArgumentException e) {
      return false;
    }
    return true;
  }

  /**
   * What a selection picks in one file: its slab (null: nothing), and for each dimension given
   * one value, how far from it the file's nearest element lies, so that over a series of
   * files only those nearest are read ({@link #nearestOf}).
   */
  public static final class Resolved {
    private final Slab slab;
    private final double[] distance; // NaN: not a single value
    private final double[] value;

    Resolved(Slab slab, double[] distance, double[] value) {
      this.slab = slab;
      this.distance = distance;
      this.value = value;
    }

    /** Nothing picked: a file {@link Selection#misses} says the selection misses. */
    public static Resolved nothing() {
      return new Resolved(null, new double[0], new double[0]);
    }

    /** The slab picked, or null where nothing is. */
    public Slab slab() {
      return slab;
    }

    /**
     * Whether this file's nearest elements are at least as near as {@code other}'s along every
     * dimension given one value (a tie goes to the larger value, as xarray's).
     */
    boolean atLeastAsNear(Resolved other) {
      for (int d = 0; d < distance.length; d++) {
        if (Double.isNaN(distance[d])) {
          continue;
        }
        if (distance[d] > other.distance[d]
            || distance[d] == other.distance[d] && value[d] < other.value[d]) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Of each file's resolution over a series, those whose nearest elements are nearest over the
   * whole series (as xarray's {@code sel(..., method="nearest")} over the files joined): a
   * value picks one element of the series, not one per file. True at {@code i}: file i keeps
   * its slab.
   */
  public static boolean[] nearestOf(List<Resolved> files) {
    boolean[] keep = new boolean[files.size()];
    for (int i = 0; i < keep.length; i++) {
      Resolved r = files.get(i);
      keep[i] = r.slab != null;
      for (int j = 0; keep[i] && j < keep.length; j++) {
        Resolved o = files.get(j);
        keep[i] = o.slab == null || r.atLeastAsNear(o);
      }
    }
    return keep;
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Constraint c : byDimension.values()) {
      b.append(b.length() == 0 ? "" : ", ").append(c);
    }
    return b.toString();
  }

  /** One dimension's ranges (either end may be null: open), or value. */
  private static final class Constraint {
    final String dim;
    final List<Bound[]> ranges; // {lo, hi}, null: open; a value: one, {value, value}
    final boolean nearest;

    Constraint(String dim, List<Bound[]> ranges, boolean nearest) {
      this.dim = dim;
      this.ranges = ranges;
      this.nearest = nearest;
    }

    /** The index ranges of {@code a}'s values this constraint selects, ascending. */
    List<long[]> select(Coordinates.Axis a) {
      int n = a.length();
      double[] x = new double[n];
      for (int i = 0; i < n; i++) {
        x[i] = a.value(a.first() + i);
      }
      monotonic(x);
      boolean lon = longitude(a);
      if (nearest) {
        double v = value(a, ranges.get(0)[0]);
        int best = -1;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
          double dist = lon ? Math.min(mod(x[i] - v), mod(v - x[i])) : Math.abs(x[i] - v);
          if (dist < bestDistance || dist == bestDistance && x[i] > x[best]) {
            best = i;
            bestDistance = dist;
          }
        }
        long at = a.first() + best;
        return List.of(new long[] {at, at});
      }
      boolean[] in = new boolean[n];
      for (Bound[] range : ranges) {
        Bound lo = range[0];
        Bound hi = range[1];
        double l = lo == null ? Double.NEGATIVE_INFINITY : value(a, lo);
        double h = hi == null ? Double.POSITIVE_INFINITY : value(a, hi);
        boolean wraps = lon && lo != null && hi != null;
        double width = wraps ? (l <= h ? h - l : h - l + 360) : 0;
        for (int i = 0; i < n; i++) {
          in[i] |= wraps ? width >= 360 || mod(x[i] - l) <= width
              : x[i] >= Math.min(l, h) && x[i] <= Math.max(l, h);
        }
      }
      List<long[]> out = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (!in[i]) {
          continue;
        }
        long at = a.first() + i;
        long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
        if (last != null && last[1] == at - 1) {
          last[1] = at;
        } else {
          out.add(new long[] {at, at});
        }
      }
      return out;
    }

    private void monotonic(double[] x) {
      if (x.length < 2) {
        return;
      }
      boolean up = x[1] > x[0];
      for (int i = 1; i < x.length; i++) {
        if (!(up ? x[i] > x[i - 1] : x[i] < x[i - 1])) {
          throw new IllegalArgumentException("the coordinate " + dim + " is not monotonic: "
              + "element " + i + " is " + x[i] + " after " + x[i - 1] + " (a selection by "
              + "value needs strictly increasing or decreasing coordinates)");
        }
      }
    }

    /** A bound as a coordinate value: a number, or a date in the time's units. */
    private double value(Coordinates.Axis a, Bound bound) {
      if (bound.number != null) {
        return bound.number;
      }
      String text = bound.text;
      CfTime t = a.time();
      if (t == null) {
        throw new IllegalArgumentException(dim + "=" + this.text() + ": '" + text
            + "' is a date, but " + dim + " is not a CF time (its units are "
            + (a.units() == null ? "not given" : "'" + a.units() + "'") + ")");
      }
      boolean instant = bound.micros != null || text.endsWith("Z");
      String date = instant ? text.substring(0, text.length() - 1) : text;
      date = date.matches(".*[T ]\\d{1,2}") ? date + ":00" : date; // an hour alone, as pandas
      try {
        if (instant) {
          if (!t.calendar().instants()) {
            throw new IllegalArgumentException("'" + text + "' is an instant, but the "
                + t.calendar().cfName() + " calendar's dates are no instants: give a date "
                + "without Z");
          }
          return t.value(CfDate.at(t.calendar(), 0, bound.micros != null ? bound.micros
              : micros(CfDate.parse(date, CfCalendar.PROLEPTIC_GREGORIAN).toInstant())));
        }
        return t.value(t.parse(date));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(dim + "=" + this.text() + ": " + e.getMessage(), e);
      }
    }

    private static double mod(double v) {
      double m = v % 360;
      return m < 0 ? m + 360 : m;
    }

    /** How far {@code x} lies from this constraint's one value, along {@code a}. */
    double distance(Coordinates.Axis a, double x) {
      double v = value(a, ranges.get(0)[0]);
      return longitude(a) ? Math.min(mod(x - v), mod(v - x)) : Math.abs(x - v);
    }

    private String text() {
      if (nearest) {
        return ranges.get(0)[0].text;
      }
      StringBuilder b = new StringBuilder();
      for (Bound[] r : ranges) {
        b.append(b.length() == 0 ? "" : "|").append(r[0] == null ? "" : r[0].text).append(':')
            .append(r[1] == null ? "" : r[1].text);
      }
      return b.toString();
    }

    @Override
    public String toString() {
      return dim + "=" + text();
    }
  }

  private static long micros(java.time.Instant at) {
    return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L),
        at.getNano() / 1000);
  }

  /**
   * One end of a range, or a value: a number, a date in the coordinate's calendar ({@code
   * YYYY-MM-DD[THH[:MM[:SS[.f]]]]}), or an instant in UTC. An immutable value, shown as the
   * selection's text writes it.
   */
  public static final class Bound {
    private final String text;
    private final Double number; // null: a date or an instant
    private final Long micros; // an instant's microseconds since 1970 (UTC), else null

    private Bound(String text, Double number, Long micros) {
      this.text = text;
      this.number = number;
      this.micros = micros;
    }

    /** A coordinate value as a number. */
    public static Bound number(double value) {
      if (Double.isNaN(value)) {
        throw new IllegalArgumentException("a selection bound of NaN");
      }
      return new Bound(Double.toString(value), value, null);
    }

    /** A date in the coordinate's own calendar, as text ({@code 2020-06-01T12:00}). */
    public static Bound date(String date) {
      if (!ONE.matcher(date).matches() || IS_NUMBER.matcher(date).matches()) {
        throw new IllegalArgumentException("'" + date + "' is not a date as 2020-06-01T12:00");
      }
      return new Bound(date, null, null);
    }

    /** An instant, in microseconds since 1970-01-01T00:00Z, in UTC as java.time and Spark count. */
    public static Bound instant(long epochMicros) {
      java.time.LocalDateTime t = java.time.LocalDateTime.ofEpochSecond(
          Math.floorDiv(epochMicros, 1_000_000L),
          (int) Math.floorMod(epochMicros, 1_000_000L) * 1000, java.time.ZoneOffset.UTC);
      return new Bound(String.format(Locale.ROOT, "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ",
          t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(),
          t.getSecond(), t.getNano() / 1000), null, epochMicros);
    }

    /** A bound as the selection's text gives it (null: none, an open end). */
    static Bound parse(String text) {
      if (text == null) {
        return null;
      }
      return IS_NUMBER.matcher(text).matches()
          ? new Bound(text, Double.parseDouble(text), null) : new Bound(text, null, null);
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** Whether an axis is a longitude, whose values wrap at 360 degrees. */
  static boolean longitude(Coordinates.Axis a) {
    String u = a.units() == null ? "" : a.units().trim().toLowerCase(Locale.ROOT);
    return u.equals("degrees_east") || u.equals("degree_east") || u.equals("degrees_e")
        || u.equals("degree_e") || u.equals("degreese") || u.equals("degreee")
        || "longitude".equals(a.standardName());
  }
}
