package org.opass.mrap.array;

import java.nio.ByteOrder;

/**
 * Reads one element of a type and byte order from bytes, as a Java number; writes one from a
 * double.
 */
public final class Elements {
  private Elements() {
  }

  /** Element at byte {@code at}, as a long: integers exactly (UINT64 above 2^63 wraps), floats
   * truncated. */
  public static long asLong(byte[] b, int at, ElementType t, ByteOrder o) {
    if (t.floating()) {
      return (long) asDouble(b, at, t, o);
    }
    long v = raw(b, at, t.size(), o);
    if (t.signed()) {
      int shift = 64 - 8 * t.size();
      return v << shift >> shift;
    }
    return v;
  }

  /**
   * Puts {@code v} as an element of {@code t} into {@code b} (in {@code b}'s order): integers
   * truncated, a UINT64 above 2^63 as its unsigned bits.
   */
  public static void put(java.nio.ByteBuffer b, ElementType t, double v) {
    switch (t) {
      case FLOAT32:
        b.putFloat((float) v);
        break;
      case FLOAT64:
        b.putDouble(v);
        break;
      case INT8: case UINT8: case CHAR:
        b.put((byte) (long) v);
        break;
      case INT16: case UINT16:
        b.putShort((short) (long) v);
        break;
      case INT32: case UINT32:
        b.putInt((int) (long) v);
        break;
      case UINT64:
        b.putLong(v >= 0x1p63 ? (long) (v - 0x1p63) ^ Long.MIN_VALUE : (long) v);
        break;
      default:
        b.putLong((long) v);
    }
  }

  /** Element at byte {@code at}, as a double. */
  public static double asDouble(byte[] b, int at, ElementType t, ByteOrder o) {
    switch (t) {
      case FLOAT32:
        return Float.intBitsToFloat((int) raw(b, at, 4, o));
      case FLOAT64:
        return Double.longBitsToDouble(raw(b, at, 8, o));
      case UINT64: {
        long v = raw(b, at, 8, o);
        return v >= 0 ? v : (double) (v >>> 1) * 2 + (v & 1);
      }
      default:
        return asLong(b, at, t, o);
    }
  }

  private static long raw(byte[] b, int at, int size, ByteOrder o) {
    long v = 0;
    if (o == ByteOrder.BIG_ENDIAN) {
      for (int i = 0; i < size; i++) {
        v = v << 8 | (b[at + i] & 0xff);
      }
    } else {
      for (int i = size - 1; i >= 0; i--) {
        v = v << 8 | (b[at + i] & 0xff);
      }
    }
    return v;
  }
}
