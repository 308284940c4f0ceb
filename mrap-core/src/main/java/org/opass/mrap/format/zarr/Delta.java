package org.opass.mrap.format.zarr;

import org.opass.mrap.format.ScienceFormatException;

/**
 * numcodecs' {@code Delta(dtype, astype)} filter undone: the chunk holds the first value and
 * then each value's difference from the one before, as {@code astype}; decoding is numpy's
 * {@code np.cumsum(enc, out=dec)}: a running sum in the type numpy promotes {@code dtype} and
 * {@code astype} to (an integer wide enough for both, wrapping; or float32 or float64, float64
 * where either is float64, an integer of 4 or 8 bytes meets a float, or uint64 meets a signed
 * integer), cast to {@code dtype}: floats to integers truncated toward zero, and out of the
 * integer's range as numpy's C casts do on x86-64. Types are numpy's strings: a byte order
 * ({@code <} little-endian, {@code >} big-endian, {@code |} or none for one byte), a kind
 * ({@code i}, {@code u}, {@code f}) and a size ({@code 1 2 4 8}, floats {@code 4 8}), such as
 * {@code <i4}, {@code >u2}, {@code <f8}.
 */
public final class Delta {
  private Delta() {
  }

  /**
   * The chunk's values as {@code dtype}: as many as the chunk holds {@code astype} values.
   *
   * @throws ScienceFormatException where a type is not one read here, or the chunk is not
   *     whole {@code astype} values
   */
  public static byte[] decode(byte[] src, String dtype, String astype) {
    Type d = Type.parse(dtype);
    Type a = Type.parse(astype);
    if (src.length % a.size != 0) {
      throw new ScienceFormatException("delta: a chunk of " + src.length + " bytes is not "
          + "whole values of " + astype);
    }
    int n = src.length / a.size;
    if ((long) n * d.size > Blosc.MAX_ARRAY) {
      throw new ScienceFormatException("delta: " + n + " values of " + dtype + " are past "
          + "the largest chunk");
    }
    byte[] out = new byte[n * d.size];
    boolean u8AndSigned = d.kind == 'u' && d.size == 8 && a.kind == 'i'
        || a.kind == 'u' && a.size == 8 && d.kind == 'i';
    if (d.kind != 'f' && a.kind != 'f' && !u8AndSigned) {
      // integers: modulo 2^64, then dtype's low bytes, as any wider sum would give
      long sum = 0;
      for (int i = 0; i < n; i++) {
        sum += a.read(src, i);
        d.write(out, i, sum);
      }
    } else if (d.wide() || a.wide()) { // numpy: uint64 and a signed integer make float64
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += a.toDouble(src, i);
        d.writeDouble(out, i, sum);
      }
    } else {
      float sum = 0;
      for (int i = 0; i < n; i++) {
        sum += (float) a.toDouble(src, i);
        d.writeDouble(out, i, sum);
      }
    }
    return out;
  }

  /** One of numpy's numeric types. */
  private static final class Type {
    final char kind;
    final int size;
    final boolean bigEndian;

    private Type(char kind, int size, boolean bigEndian) {
      this.kind = kind;
      this.size = size;
      this.bigEndian = bigEndian;
    }

    static Type parse(String s) {
      String t = s == null ? "" : s;
      boolean big = false;
      if (!t.isEmpty() && "<>|=".indexOf(t.charAt(0)) >= 0) {
        big = t.charAt(0) == '>';
        t = t.substring(1);
      }
      if (t.length() == 2 && "iuf".indexOf(t.charAt(0)) >= 0
          && "1248".indexOf(t.charAt(1)) >= 0) {
        char kind = t.charAt(0);
        int size = t.charAt(1) - '0';
        if (kind != 'f' || size >= 4) {
          return new Type(kind, size, big);
        }
      }
      throw new ScienceFormatException("delta: the type " + s + " is not read (integers "
          + "i1-i8 and u1-u8, floats f4 and f8)");
    }

    /** Value i's bits: integers sign- or zero-extended, floats as their raw bits. */
    long read(byte[] b, int i) {
      int at = i * size;
      long v = 0;
      for (int k = 0; k < size; k++) {
        int shift = 8 * (bigEndian ? size - 1 - k : k);
        v |= (b[at + k] & 0xFFL) << shift;
      }
      if (kind == 'i' && size < 8) {
        int unused = 64 - 8 * size;
        v = v << unused >> unused;
      }
      return v;
    }

    void write(byte[] b, int i, long bits) {
      int at = i * size;
      for (int k = 0; k < size; k++) {
        int shift = 8 * (bigEndian ? size - 1 - k : k);
        b[at + k] = (byte) (bits >>> shift);
      }
    }

    /** Whether numpy promotes this type and a float to float64. */
    boolean wide() {
      return size >= 4 && (kind != 'f' || size == 8);
    }

    /** Value i as a double (exact but for integers past 2^53). */
    double toDouble(byte[] b, int i) {
      long v = read(b, i);
      if (kind == 'f') {
        return size == 4 ? Float.intBitsToFloat((int) v) : Double.longBitsToDouble(v);
      }
      return kind == 'u' && v < 0 ? (double) (v >>> 1 | (v & 1)) * 2.0 : (double) v;
    }

    /** A float sum as this type: a float rounded, an integer truncated toward zero. */
    void writeDouble(byte[] b, int i, double v) {
      if (kind == 'f') {
        if (size == 4) {
          write(b, i, Float.floatToRawIntBits((float) v));
        } else {
          write(b, i, Double.doubleToRawLongBits(v));
        }
      } else if (kind == 'u' && size == 8 && v >= 0x1p63) {
        write(b, i, x86(v - 0x1p63, 64) ^ Long.MIN_VALUE);
      } else {
        // as numpy's C casts compile on x86-64: to 32 bits for the narrower types but uint32
        write(b, i, x86(v, size == 8 || kind == 'u' && size == 4 ? 64 : 32));
      }
    }

    /** x86's truncating conversion to a signed integer of {@code bits}: out of range, MIN. */
    private static long x86(double v, int bits) {
      double limit = bits == 64 ? 0x1p63 : 0x1p31;
      if (!(v > -limit - 1 && v < limit)) {
        return bits == 64 ? Long.MIN_VALUE : Integer.MIN_VALUE;
      }
      return (long) v;
    }
  }
}
