package org.opass.mrap.write;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.mrap.array.ElementType;

/**
 * A dimension of a written grid and its coordinate variable: the distinct values its column
 * holds, ascending ({@link #keys}, what rows are placed by), the values written for them
 * ({@link #values}: the same, or a time's numbers in its units) and the variable's attributes.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class OutputDimension implements Serializable {
  private static final long serialVersionUID = 1L;
  private final String name;
  private final ElementType type;
  private final double[] keys;
  private final double[] values;
  private final LinkedHashMap<String, Object> attributes;

  private OutputDimension(String name, ElementType type, double[] keys, double[] values,
      Map<String, Object> attributes) {
    this.name = name;
    this.type = type;
    this.keys = keys;
    this.values = values;
    this.attributes = new LinkedHashMap<>(attributes);
  }

  /**
   * @param keys the column's distinct values, ascending
   * @param values what the coordinate variable holds at each key (a time encoded in its units)
   * @param attributes the coordinate variable's attributes: {@code String} or {@code Number}
   * @throws IllegalArgumentException naming the dimension if the keys are none, not ascending,
   *     not distinct or NaN, or the values are not one a key
   */
  public static OutputDimension of(String name, ElementType type, double[] keys, double[] values,
      Map<String, Object> attributes) {
    if (keys.length == 0) {
      throw new IllegalArgumentException("dimension " + name + " has no values");
    }
    if (values.length != keys.length) {
      throw new IllegalArgumentException("dimension " + name + ": " + values.length
          + " coordinate values for " + keys.length + " keys");
    }
    for (int i = 0; i < keys.length; i++) {
      if (Double.isNaN(keys[i]) || (i > 0 && !(keys[i] > keys[i - 1]))) {
        throw new IllegalArgumentException("dimension " + name + ": its values must be distinct,"
            + " ascending and not NaN, and " + keys[i] + " at " + i + " is not");
      }
    }
    return new OutputDimension(name, type, keys.clone(), values.clone(), attributes);
  }

  /**
   * A dimension whose grid points are placed by array index, as MapReduce's records place them
   * ({@code ScienceOutputFormat}): its keys the indices 0 to n - 1, its coordinate values as
   * given and in any order (a latitude running from north to south, as ERA5's does).
   *
   * @throws IllegalArgumentException naming the dimension if there are no values
   */
  public static OutputDimension indexed(String name, ElementType type, double[] values,
      Map<String, Object> attributes) {
    double[] keys = new double[values.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i;
    }
    return of(name, type, keys, values, attributes);
  }

  public String name() {
    return name;
  }

  /** The coordinate variable's element type. */
  public ElementType type() {
    return type;
  }

  public int length() {
    return keys.length;
  }

  /** The index of the grid point whose column value is {@code key}, or -1 if none is. */
  public int index(double key) {
    int i = Arrays.binarySearch(keys, key);
    return i < 0 ? -1 : i;
  }

  /** The column value at index {@code i}. */
  public double key(int i) {
    return keys[i];
  }

  /** The coordinate variable's values, as written. */
  public double[] values() {
    return values.clone();
  }

  public Map<String, Object> attributes() {
    return Collections.unmodifiableMap(attributes);
  }

  @Override
  public String toString() {
    return name + "(" + keys.length + ")";
  }
}
