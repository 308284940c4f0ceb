package org.opass.mrap.cf;

import java.nio.ByteOrder;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.Variable;

/**
 * How a variable's stored values become physical ones, as the CF conventions (section 8.1) say
 * and netCDF4-python's automatic mask and scale does, from the variable's own attributes (files
 * of one series may differ): an immutable value, made once per variable and file.
 *
 * <ol>
 *   <li>{@code _Unsigned = "true"} reads a signed integer type as the unsigned type of its size
 *       (NetCDF-3's unsigned bytes and shorts);
 *   <li>an element is missing where it equals {@code _FillValue} or one of {@code
 *       missing_value}'s values, or lies outside {@code valid_range} (else below {@code
 *       valid_min} or above {@code valid_max}), all compared in the stored type before
 *       unpacking; an attribute whose value does not survive the cast to the stored type is not
 *       used, as netCDF4-python does. Read as NetCDF, a variable without {@code _FillValue} also
 *       masks the netCDF default fill value of its type (not for 1-byte types);
 *   <li>{@code scale_factor} and {@code add_offset} unpack to {@code stored * scale_factor +
 *       add_offset}, in float where both attributes are float and the stored type is of one or
 *       two bytes (CF's packing of bytes and shorts), else in double; a missing element
 *       unpacks to NaN.
 * </ol>
 *
 * <p>Without any of these attributes a variable decodes to itself ({@link #identity}).
 */
public final class CfDecoding {
  private final ElementType stored;
  private final ElementType decoded;
  private final boolean unsigned; // _Unsigned applied to a signed integer type
  private final ElementType readAs; // the integers' type as compared: unsigned where _Unsigned
  private final long[] missingBits; // integers: values (sign- or zero-extended) that are missing
  private final double[] missingFloats; // floating point: values that are missing
  private final boolean nanMissing;
  private final boolean hasMin;
  private final boolean hasMax;
  private final double min; // compared in the stored type (exact for integers up to 2^53)
  private final double max;
  private final boolean scales;
  private final double scale;
  private final double offset;

  /** {@code scale} and {@code offset} null: not packed. */
  private CfDecoding(ElementType stored, ElementType decoded, boolean unsigned, Mask mask,
      Double scale, Double offset) {
    this.stored = stored;
    this.decoded = decoded;
    this.unsigned = unsigned;
    this.readAs = unsigned ? ElementType.integer(stored.size(), false) : stored;
    this.missingBits = mask.bits;
    this.missingFloats = mask.floats;
    this.nanMissing = mask.nan;
    this.hasMin = mask.min != null;
    this.min = hasMin ? mask.min : 0;
    this.hasMax = mask.max != null;
    this.max = hasMax ? mask.max : 0;
    this.scales = scale != null;
    this.scale = scales ? scale : 1;
    this.offset = scales ? offset : 0;
  }

  /** Which stored values are missing: these values, NaN, and those outside a valid range. */
  private static final class Mask {
    final long[] bits; // integers: values (sign- or zero-extended) that are missing
    final double[] floats; // floating point: values that are missing
    final boolean nan;
    final Double min; // null: no least valid value
    final Double max;

    Mask(long[] bits, double[] floats, boolean nan, Double min, Double max) {
      this.bits = bits;
      this.floats = floats;
      this.nan = nan;
      this.min = min;
      this.max = max;
    }
  }

  /**
   * The decoding of {@code v} by its attributes; {@code netcdf}: read as a NetCDF variable, so
   * that netCDF's default fill value of its type masks where it has no {@code _FillValue}.
   */
  public static CfDecoding of(Variable v, boolean netcdf) {
    Attributes a = v.attributes();
    ElementType type = v.type();
    boolean unsigned = !type.floating() && type.signed() && "true".equalsIgnoreCase(
        a.text("_Unsigned"));
    ElementType values = unsigned ? ElementType.integer(type.size(), false) : type;
    java.util.List<Double> missing = new java.util.ArrayList<>();
    boolean nan = false;
    Attributes.Attribute fill = numbers(a, "_FillValue");
    Attributes.Attribute mv = numbers(a, "missing_value");
    for (Attributes.Attribute m : new Attributes.Attribute[] {fill, mv}) {
      if (m == null || !safe(m, type)) {
        continue;
      }
      for (int i = 0; i < m.count(); i++) {
        double x = m.getDouble(i);
        if (Double.isNaN(x)) {
          nan = true;
        } else {
          missing.add(x);
        }
      }
    }
    if (fill == null && netcdf && !unsigned) { // as netCDF4-python, 1-byte types too
      missing.add(defaultFill(type));
    }
    Attributes.Attribute range = numbers(a, "valid_range");
    Attributes.Attribute lo = numbers(a, "valid_min");
    Attributes.Attribute hi = numbers(a, "valid_max");
    Double min = null;
    Double max = null;
    if (range != null && range.count() == 2) {
      if (safe(range, type)) {
        min = inStored(range.getDouble(0), type, unsigned);
        max = inStored(range.getDouble(1), type, unsigned);
      }
    } else {
      if (lo != null && lo.count() >= 1 && safe(lo, type)) {
        min = inStored(lo.getDouble(0), type, unsigned);
      }
      if (hi != null && hi.count() >= 1 && safe(hi, type)) {
        max = inStored(hi.getDouble(0), type, unsigned);
      }
    }
    Attributes.Attribute sf = numbers(a, "scale_factor");
    Attributes.Attribute ao = numbers(a, "add_offset");
    boolean scales = sf != null && sf.count() >= 1 || ao != null && ao.count() >= 1;
    double scale = sf != null && sf.count() >= 1 ? sf.getDouble(0) : 1;
    double offset = ao != null && ao.count() >= 1 ? ao.getDouble(0) : 0;
    ElementType decoded = values;
    if (scales) { // the type netCDF4-python (numpy) gives: that of the first attribute applied
      Attributes.Attribute first = sf != null ? sf : ao;
      boolean single = first.type() == ElementType.FLOAT32
          && (type.size() <= 2 || type == ElementType.FLOAT32);
      decoded = single ? ElementType.FLOAT32 : ElementType.FLOAT64;
    }
    long[] bits = new long[type.floating() ? 0 : missing.size()];
    double[] floats = new double[type.floating() ? missing.size() : 0];
    for (int i = 0; i < missing.size(); i++) {
      if (type.floating()) {
        floats[i] = type == ElementType.FLOAT32 ? (float) (double) missing.get(i) : missing.get(i);
      } else {
        bits[i] = (long) inStored(missing.get(i), type, unsigned);
      }
    }
    return new CfDecoding(type, decoded, unsigned, new Mask(bits, floats, nan, min, max),
        scales ? scale : null, scales ? offset : null);
  }

  /** The attribute {@code name} where it holds numbers, else null. */
  private static Attributes.Attribute numbers(Attributes a, String name) {
    Attributes.Attribute x = a.get(name);
    return x == null || x.isText() || x.count() == 0 ? null : x;
  }

  /** Whether every value of {@code a} survives the cast to {@code type} (netCDF4-python's test). */
  private static boolean safe(Attributes.Attribute a, ElementType type) {
    for (int i = 0; i < a.count(); i++) {
      double x = a.getDouble(i);
      if (Double.isNaN(x)) {
        if (!type.floating()) {
          return false;
        }
        continue;
      }
      double cast;
      if (type == ElementType.FLOAT32) {
        cast = (float) x;
      } else if (type.floating()) {
        cast = x;
      } else {
        if (x != Math.rint(x)) {
          return false;
        }
        long bits = 8L * type.size();
        double lo = type.signed() ? -Math.pow(2, bits - 1) : 0;
        double hi = type.signed() ? Math.pow(2, bits - 1) - 1 : Math.pow(2, bits) - 1;
        cast = x < lo || x > hi ? Double.NaN : x;
      }
      if (cast != x) {
        return false;
      }
    }
    return true;
  }

  /**
   * A value of the stored type as the decoded elements compare it: for {@code _Unsigned}, the
   * same bits read unsigned.
   */
  private static double inStored(double x, ElementType type, boolean unsigned) {
    if (!unsigned) {
      return type == ElementType.FLOAT32 ? (float) x : x;
    }
    long bits = 8L * type.size();
    long v = (long) x;
    return bits == 64 ? (v >= 0 ? v : v + 0x1p64) : v & ((1L << bits) - 1);
  }

  /** netCDF's default fill value of {@code type} (netcdf.h's NC_FILL_*). */
  static double defaultFill(ElementType type) {
    switch (type) {
      case INT8:
        return -127;
      case UINT8:
        return 255;
      case CHAR:
        return 0;
      case INT16:
        return -32767;
      case UINT16:
        return 65535;
      case INT32:
        return -2147483647;
      case UINT32:
        return 4294967295.0;
      case INT64:
        return -9223372036854775806.0;
      case UINT64:
        return 18446744073709551614.0;
      case FLOAT32:
        return 9.9692099683868690e+36f;
      default:
        return 9.9692099683868690e+36;
    }
  }

  /** Nothing to do: the decoded elements are the stored ones, none missing. */
  public boolean identity() {
    return !unsigned && !scales && missingBits.length == 0 && missingFloats.length == 0
        && !nanMissing && !hasMin && !hasMax;
  }

  /** The type stored. */
  public ElementType stored() {
    return stored;
  }

  /** The type of the decoded elements: float or double where unpacked. */
  public ElementType decoded() {
    return decoded;
  }

  /**
   * Decodes {@code n} elements stored at {@code in[from]} in {@code order} into {@code out}
   * (elements of {@link #decoded}, the same byte order), setting bit {@code i} of {@code
   * missing} (a bit set of at least {@code n} bits, cleared by the caller) for each missing one.
   *
   * @return the elements missing
   */
  public int decode(byte[] in, int from, int n, ByteOrder order, byte[] out, long[] missing) {
    int es = stored.size();
    int ds = decoded.size();
    int count = 0;
    for (int i = 0; i < n; i++) {
      int at = from + i * es;
      boolean miss;
      double value;
      if (stored.floating()) {
        value = Elements.asDouble(in, at, stored, order);
        miss = nanMissing && Double.isNaN(value);
        for (int k = 0; !miss && k < missingFloats.length; k++) {
          miss = value == missingFloats[k];
        }
      } else {
        long bits = Elements.asLong(in, at, readAs, order);
        miss = false;
        for (int k = 0; !miss && k < missingBits.length; k++) {
          miss = bits == missingBits[k];
        }
        value = unsigned && es == 8 && bits < 0 ? bits + 0x1p64 : bits;
      }
      if (!miss && (hasMin && value < min || hasMax && value > max)) {
        miss = true;
      }
      if (miss) {
        missing[i >>> 6] |= 1L << i;
        count++;
      }
      int to = i * ds;
      if (!scales) {
        System.arraycopy(in, at, out, to, es); // the same bits, read as decoded() says
      } else if (decoded == ElementType.FLOAT32) {
        float f = miss ? Float.NaN : (float) value * (float) scale + (float) offset;
        putBits(out, to, Float.floatToRawIntBits(f), 4, order);
      } else {
        double d = miss ? Double.NaN : value * scale + offset;
        putBits(out, to, Double.doubleToRawLongBits(d), 8, order);
      }
    }
    return count;
  }

  private static void putBits(byte[] b, int at, long bits, int size, ByteOrder order) {
    for (int k = 0; k < size; k++) {
      int shift = order == ByteOrder.BIG_ENDIAN ? 8 * (size - 1 - k) : 8 * k;
      b[at + k] = (byte) (bits >>> shift);
    }
  }

  @Override
  public String toString() {
    return identity() ? "stored values" : stored + " decoded to " + decoded
        + (unsigned ? ", unsigned" : "") + (scales ? ", * " + scale + " + " + offset : "")
        + (hasMin ? ", valid from " + min : "") + (hasMax ? ", valid to " + max : "");
  }
}
