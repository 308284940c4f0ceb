package org.opass.mrap.spark;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.spark.sql.connector.expressions.Cast;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;
import org.opass.mrap.cf.Selection;

/**
 * Spark's predicates on a table's dimension columns as a selection by value ({@code
 * mrap.science.select}): comparisons, {@code IN}, and their {@code AND}s (and {@code OR}s on
 * one column) give, per dimension, a union of closed ranges that holds every row the predicate
 * keeps. The selection is that superset: Spark still checks every predicate on the rows read,
 * so a strict bound, a text compared as text, or a time rounded to microseconds is never
 * answered wrong. A predicate on a value column, or of another shape, is not pushed.
 */
final class GridFilters {
  // a date text ordered as its dates are: zero-padded, from the year to any finer part
  private static final Pattern DATE_TEXT = Pattern.compile(
      "\\d{4}-\\d{2}-\\d{2}(T\\d{2}(:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?)?)?");
  private final TableColumns columns;
  private final Map<String, List<Range>> byDimension = new LinkedHashMap<>();
  private final List<Predicate> pushed = new ArrayList<>();
  private boolean none; // the predicates keep no row

  GridFilters(TableColumns columns) {
    this.columns = columns;
  }

  /**
   * Takes what it can of each predicate.
   *
   * @return all of them: Spark checks each on the rows read
   */
  Predicate[] push(Predicate[] predicates) {
    for (Predicate p : predicates) {
      Map<String, List<Range>> one = translate(p);
      if (one == null) {
        continue;
      }
      pushed.add(p);
      for (Map.Entry<String, List<Range>> e : one.entrySet()) {
        List<Range> before = byDimension.get(e.getKey());
        List<Range> now = before == null ? e.getValue() : intersect(before, e.getValue());
        byDimension.put(e.getKey(), now);
        none |= now.isEmpty();
      }
    }
    return predicates;
  }

  /** The predicates taken, as Spark's plan shows them. */
  Predicate[] pushed() {
    return pushed.toArray(new Predicate[0]);
  }

  /** Whether the predicates taken keep no row at all. */
  boolean none() {
    return none;
  }

  /** The dimensions constrained. */
  List<String> dimensions() {
    return new ArrayList<>(byDimension.keySet());
  }

  /**
   * The selection the pushed predicates make (per dimension a union of closed ranges), as a
   * value for the planner; null where nothing is pushed.
   */
  Selection selection() {
    if (byDimension.isEmpty() || none) {
      return null;
    }
    Selection out = null;
    for (Map.Entry<String, List<Range>> e : byDimension.entrySet()) {
      List<Selection.Bound[]> ranges = new ArrayList<>();
      for (Range r : e.getValue()) {
        ranges.add(new Selection.Bound[] {bound(r.lo), bound(r.hi)});
      }
      Selection one = Selection.ranges(e.getKey(), ranges);
      out = out == null ? one : out.and(one);
    }
    return out;
  }

  /** A range's end as the selection takes it; null: open. */
  private static Selection.Bound bound(Object b) {
    if (b == null) {
      return null;
    }
    if (b instanceof Double) {
      return Selection.Bound.number((Double) b);
    }
    if (b instanceof Long) { // microseconds of an instant, in UTC
      return Selection.Bound.instant((Long) b);
    }
    return Selection.Bound.date(b.toString());
  }

  /** A superset of the rows {@code p} keeps, per dimension; null where none is known. */
  private Map<String, List<Range>> translate(Predicate p) {
    String op = p.name();
    Expression[] c = p.children();
    if (op.equals("AND")) {
      Map<String, List<Range>> l = translate((Predicate) c[0]);
      Map<String, List<Range>> r = translate((Predicate) c[1]);
      if (l == null || r == null) {
        return l == null ? r : l;
      }
      for (Map.Entry<String, List<Range>> e : r.entrySet()) {
        l.merge(e.getKey(), e.getValue(), GridFilters::intersect);
      }
      return l;
    }
    if (op.equals("OR")) {
      Map<String, List<Range>> l = translate((Predicate) c[0]);
      Map<String, List<Range>> r = translate((Predicate) c[1]);
      if (l == null || r == null || l.size() != 1 || !l.keySet().equals(r.keySet())) {
        return null;
      }
      String dim = l.keySet().iterator().next();
      List<Range> all = new ArrayList<>(l.get(dim));
      all.addAll(r.get(dim));
      l.put(dim, union(all));
      return l;
    }
    if (op.equals("IN") && c.length >= 2) {
      Column col = column(c[0]);
      if (col == null) {
        return null;
      }
      List<Range> points = new ArrayList<>();
      for (int i = 1; i < c.length; i++) {
        Object v = bound(col, c[i], false);
        Object w = bound(col, c[i], true);
        if (v == null || w == null) {
          return null;
        }
        points.add(new Range(v, w));
      }
      return one(col.name, union(points));
    }
    if (c.length != 2) {
      return null;
    }
    Column col = column(c[0]);
    Expression value = c[1];
    if (col == null) { // a literal first: 30 < latitude is latitude > 30
      col = column(c[1]);
      value = c[0];
      op = flip(op);
    }
    if (col == null || op == null) {
      return null;
    }
    Object lo = bound(col, value, false);
    Object hi = bound(col, value, true);
    if (lo == null || hi == null) {
      return null;
    }
    switch (op) {
      case "=":
      case "<=>":
        return one(col.name, List.of(new Range(lo, hi)));
      case ">":
      case ">=":
        return one(col.name, List.of(new Range(lo, null)));
      case "<":
      case "<=":
        return one(col.name, List.of(new Range(null, hi)));
      default:
        return null;
    }
  }

  private static String flip(String op) {
    switch (op) {
      case "<":
        return ">";
      case "<=":
        return ">=";
      case ">":
        return "<";
      case ">=":
        return "<=";
      case "=":
      case "<=>":
        return op;
      default:
        return null;
    }
  }

  private static Map<String, List<Range>> one(String dim, List<Range> ranges) {
    Map<String, List<Range>> m = new LinkedHashMap<>();
    m.put(dim, ranges);
    return m;
  }

  /** A dimension column and how its values compare. */
  private static final class Column {
    final String name;
    final TableColumns.Kind kind;

    Column(String name, TableColumns.Kind kind) {
      this.name = name;
      this.kind = kind;
    }
  }

  /** The dimension column {@code e} is (or a widening cast of), with a coordinate; else null. */
  private Column column(Expression e) {
    Expression ref = e instanceof Cast ? ((Cast) e).expression() : e;
    if (!(ref instanceof NamedReference) || ((NamedReference) ref).fieldNames().length != 1) {
      return null;
    }
    String name = ((NamedReference) ref).fieldNames()[0];
    int d = columns.dimensionIndex(name);
    if (d < 0 || columns.kind(d) == TableColumns.Kind.INDEX) {
      return null; // a value column, or an index (no coordinate to select by)
    }
    if (e instanceof Cast && !(columns.kind(d) == TableColumns.Kind.NUMBER
        && exact((Cast) e, ElementColumns.of(columns.numberType(d))))) {
      return null; // a narrowing cast (to an int, a date) keeps values the column does not
    }
    return new Column(name, columns.kind(d));
  }

  /**
   * Whether {@code cast} of a column of {@code from} keeps every value as it is, so that a
   * comparison of the cast compares the coordinate itself: Spark's coercion of a float or an
   * integer column to double (beside a double or decimal literal), of a small integer to float.
   */
  private static boolean exact(Cast cast, DataType from) {
    DataType to = cast.dataType();
    boolean small = from.equals(DataTypes.ByteType) || from.equals(DataTypes.ShortType);
    if (to.equals(DataTypes.DoubleType)) {
      return small || from.equals(DataTypes.IntegerType) || from.equals(DataTypes.FloatType)
          || from.equals(DataTypes.DoubleType);
    }
    return to.equals(DataTypes.FloatType) && (small || from.equals(DataTypes.FloatType));
  }

  /**
   * A literal as a bound of {@code col}'s selection ({@code upper}: as an upper bound), or
   * null where it cannot be one: a number as a Double, an instant as its microseconds widened
   * by one (times are rounded to microseconds), a date text as it is.
   */
  private static Object bound(Column col, Expression e, boolean upper) {
    if (!(e instanceof Literal)) {
      return null;
    }
    Object v = ((Literal<?>) e).value();
    if (v == null) {
      return null;
    }
    switch (col.kind) {
      case INSTANT: {
        if (!(v instanceof Long)) {
          return null;
        }
        long micros = (Long) v + (upper ? 1 : -1);
        // CF dates run over years 1 to 9999
        return micros < -62_135_596_800_000_000L || micros >= 253_402_300_800_000_000L ? null
            : (Object) micros;
      }
      case DATE_TEXT: {
        String s = v instanceof UTF8String ? v.toString() : null;
        return s != null && DATE_TEXT.matcher(s).matches() ? s : null;
      }
      default: {
        double x;
        if (v instanceof Decimal) {
          x = ((Decimal) v).toDouble();
          BigDecimal exact = ((Decimal) v).toJavaBigDecimal();
          if (new BigDecimal(x).compareTo(exact) != 0) { // rounded: widen by an ulp
            x = upper ? Math.nextUp(x) : Math.nextDown(x);
          }
        } else if (v instanceof Number) {
          x = ((Number) v).doubleValue();
          if (v instanceof Long && (long) x != (Long) v) {
            x = upper ? Math.nextUp(x) : Math.nextDown(x);
          }
        } else {
          return null;
        }
        return Double.isFinite(x) ? (Object) x : null;
      }
    }
  }

  /** A closed range of one column's bounds; null: open on that side. */
  private static final class Range {
    final Object lo;
    final Object hi;

    Range(Object lo, Object hi) {
      this.lo = lo;
      this.hi = hi;
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
  }

  private static final Comparator<Range> BY_LO = (a, b) -> a.lo == null
      ? (b.lo == null ? 0 : -1) : b.lo == null ? 1 : compare(a.lo, b.lo);

  private static Object max(Object a, Object b) { // of lower bounds, null lowest
    return a == null ? b : b == null ? a : compare(a, b) >= 0 ? a : b;
  }

  private static Object min(Object a, Object b) { // of upper bounds, null highest
    return a == null ? b : b == null ? a : compare(a, b) <= 0 ? a : b;
  }

  static List<Range> intersect(List<Range> a, List<Range> b) {
    List<Range> out = new ArrayList<>();
    for (Range x : a) {
      for (Range y : b) {
        Object lo = max(x.lo, y.lo);
        Object hi = min(x.hi, y.hi);
        if (lo == null || hi == null || compare(lo, hi) <= 0) {
          out.add(new Range(lo, hi));
        }
      }
    }
    return union(out);
  }

  private static List<Range> union(List<Range> all) {
    List<Range> sorted = new ArrayList<>(all);
    sorted.sort(BY_LO);
    List<Range> out = new ArrayList<>();
    for (Range r : sorted) {
      Range last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && (last.hi == null || r.lo == null || compare(r.lo, last.hi) <= 0)) {
        Object hi = last.hi == null || r.hi == null ? null
            : compare(r.hi, last.hi) > 0 ? r.hi : last.hi;
        out.set(out.size() - 1, new Range(last.lo, hi));
      } else {
        out.add(r);
      }
    }
    return out;
  }
}
