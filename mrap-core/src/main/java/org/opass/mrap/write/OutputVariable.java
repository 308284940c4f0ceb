package org.opass.mrap.write;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.mrap.array.ElementType;

/**
 * A written data variable on the grid's dimensions: the type it is stored as, its fill value
 * (what a grid point no row names holds, and a null or NaN value), an optional CF packing
 * ({@code scale_factor}, {@code add_offset}) and its attributes.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class OutputVariable implements Serializable {
  private static final long serialVersionUID = 1L;
  /** netCDF-C's default fill values ({@code NC_FILL_*}), what xarray writes for integers. */
  private static final double FILL_BYTE = -127;
  private static final double FILL_SHORT = -32767;
  private static final double FILL_INT = -2147483647;
  private static final double FILL_INT64 = -9223372036854775806.0;
  /** A packed int16 keeps -32767 for the fill: values map to -32766..32767. */
  private static final double PACKED_STEPS = 65533;
  private static final double PACKED_MIN = -32766;

  private final String name;
  private final ElementType type;
  private final double fill;
  private final double scale;
  private final double offset;
  private final LinkedHashMap<String, Object> attributes;
  private final boolean declaresFill;

  private OutputVariable(String name, ElementType type, double fill, double scale, double offset,
      Map<String, Object> attributes, boolean declaresFill) {
    this.name = name;
    this.type = type;
    this.fill = fill;
    this.scale = scale;
    this.offset = offset;
    this.attributes = new LinkedHashMap<>(attributes);
    this.declaresFill = declaresFill;
  }

  private OutputVariable(String name, ElementType type, double fill, double scale, double offset,
      Map<String, Object> attributes) {
    this(name, type, fill, scale, offset, attributes, true);
  }

  /**
   * This variable without a declared fill value where it is an unpacked integer that holds a
   * value at every point: as xarray writes integers, so that xarray reads them as integers (it
   * turns an integer variable with a {@code _FillValue} into floats, to hold NaN).
   */
  public OutputVariable withoutDeclaredFill() {
    if (type.floating() || isPacked()) {
      return this;
    }
    return new OutputVariable(name, type, fill, scale, offset, attributes, false);
  }

  /** Whether its fill value is declared ({@code _FillValue}, Zarr's {@code fill_value}). */
  public boolean declaresFill() {
    return declaresFill;
  }

  /** A variable stored as {@code type}, its fill {@code fill} (NaN: the type's default). */
  public static OutputVariable of(String name, ElementType type, double fill,
      Map<String, Object> attributes) {
    return new OutputVariable(name, type, Double.isNaN(fill) ? defaultFill(type) : fill,
        Double.NaN, 0, attributes);
  }

  /**
   * A variable packed into int16 as {@code (value - add_offset) / scale_factor}, rounded;
   * {@code scale} NaN: chosen to span {@code min..max} in -32766..32767 (-32767 is the fill).
   *
   * @throws IllegalArgumentException naming the variable if {@code min} or {@code max} is not
   *     finite (a variable with no value is packed with scale 1)
   */
  public static OutputVariable packed(String name, double min, double max, double scale,
      double offset, Map<String, Object> attributes) {
    double s = scale;
    double o = offset;
    if (Double.isNaN(s)) {
      if (Double.isInfinite(min) || Double.isInfinite(max)) {
        throw new IllegalArgumentException("variable " + name + " holds an infinite value: it"
            + " cannot be packed into int16");
      }
      if (Double.isNaN(min) || max == min) {
        s = 1;
        o = Double.isNaN(min) ? 0 : min;
      } else {
        s = (max - min) / PACKED_STEPS;
        o = min - PACKED_MIN * s;
      }
    }
    if (!(s != 0) || Double.isInfinite(s) || Double.isNaN(o) || Double.isInfinite(o)) {
      throw new IllegalArgumentException("variable " + name + ": scale_factor " + s
          + " and add_offset " + o + " cannot pack it");
    }
    return new OutputVariable(name, ElementType.INT16, FILL_SHORT, s, o, attributes);
  }

  /** netCDF-C's default fill of {@code type}; NaN for floats, as xarray writes them. */
  public static double defaultFill(ElementType type) {
    switch (type) {
      case INT8:
        return FILL_BYTE;
      case INT16:
        return FILL_SHORT;
      case INT32:
        return FILL_INT;
      case INT64:
        return FILL_INT64;
      case UINT8:
        return 255;
      case UINT16:
        return 65535;
      case UINT32:
        return 4294967295.0;
      case FLOAT32:
      case FLOAT64:
        return Double.NaN;
      default:
        throw new IllegalArgumentException("no variable is written as " + type);
    }
  }

  public String name() {
    return name;
  }

  /** The stored element type (int16 when packed). */
  public ElementType type() {
    return type;
  }

  public double fill() {
    return fill;
  }

  public boolean isPacked() {
    return !Double.isNaN(scale);
  }

  public double scale() {
    return scale;
  }

  public double offset() {
    return offset;
  }

  public Map<String, Object> attributes() {
    return Collections.unmodifiableMap(attributes);
  }

  /**
   * The stored number for {@code value}: packed and rounded where packed; NaN (a null or a
   * missing value) is the fill.
   *
   * @throws IllegalArgumentException naming the variable if the value does not fit its type
   */
  public double encode(double value) {
    if (Double.isNaN(value)) {
      return fill;
    }
    if (isPacked()) {
      double p = Math.rint((value - offset) / scale);
      if (p < PACKED_MIN || p > Short.MAX_VALUE) {
        throw new IllegalArgumentException("variable " + name + ": " + value
            + " lies outside what scale_factor " + scale + " and add_offset " + offset
            + " pack into int16");
      }
      return p;
    }
    if (!fits(type, value)) { // else the cast to the type would wrap it silently
      throw new IllegalArgumentException("variable " + name + ": " + value + " does not fit "
          + type);
    }
    return value;
  }

  /** Whether {@code value} lies in {@code type}'s range; 64-bit types as a long holds them. */
  private static boolean fits(ElementType type, double value) {
    switch (type) {
      case INT8:
        return value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE;
      case UINT8:
        return value >= 0 && value <= 255;
      case INT16:
        return value >= Short.MIN_VALUE && value <= Short.MAX_VALUE;
      case UINT16:
        return value >= 0 && value <= 65535;
      case INT32:
        return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
      case UINT32:
        return value >= 0 && value <= 4294967295.0;
      case INT64:
        return value >= -0x1p63 && value < 0x1p63;
      case UINT64:
        return value >= 0 && value < 0x1p63;
      default:
        return true;
    }
  }

  @Override
  public String toString() {
    return name + ":" + type;
  }
}
