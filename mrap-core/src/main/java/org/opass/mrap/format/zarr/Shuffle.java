package org.opass.mrap.format.zarr;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.opass.mrap.format.ScienceFormatException;

/**
 * Byte and bit shuffles undone: numcodecs' {@code Shuffle(elementsize)} filter, and the two
 * shuffles c-blosc 1.21 applies to each block before compressing it ({@code
 * unshuffle_generic} of shuffle-generic.c, {@code bshuf_untrans_bit_elem} of
 * bitshuffle-generic.c, as shuffle.c calls them). A shuffle stores byte j of every element
 * together (stream j); a bit shuffle stores bit k of byte j of every element together.
 */
public final class Shuffle {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private Shuffle() {
  }

  /**
   * numcodecs' {@code Shuffle(elementsize).decode}: the chunk's bytes with each element's bytes
   * together again. An element size of 0 or 1 leaves the bytes as they are.
   *
   * @throws ScienceFormatException where the chunk is not whole elements (numcodecs 0.11
   *     refuses it: "Shuffle buffer is not an integer multiple of elementsize")
   */
  public static byte[] decode(byte[] src, int elementSize) {
    if (elementSize < 0) {
      throw new ScienceFormatException("shuffle: an element size of " + elementSize);
    }
    byte[] out = new byte[src.length];
    if (elementSize > 1 && src.length % elementSize != 0) {
      throw new ScienceFormatException("shuffle: a chunk of " + src.length + " bytes is not "
          + "whole elements of " + elementSize + " bytes");
    }
    unshuffle(src, 0, out, 0, src.length, Math.max(elementSize, 1));
    return out;
  }

  /**
   * Undoes a byte shuffle of {@code length} bytes of elements of {@code typesize} bytes, from
   * {@code src} into {@code dst} (not overlapping): stream j of {@code length / typesize}
   * bytes holds byte j of each element; the last {@code length % typesize} bytes, part of no
   * whole element, are copied as they are.
   */
  public static void unshuffle(byte[] src, int srcOff, byte[] dst, int dstOff, int length,
      int typesize) {
    int n = typesize < 2 ? 0 : length / typesize;
    if (n == 0) {
      System.arraycopy(src, srcOff, dst, dstOff, length);
      return;
    }
    switch (typesize) {
      case 2:
        unshuffle2(src, srcOff, dst, dstOff, n);
        break;
      case 4:
        unshuffle4(src, srcOff, dst, dstOff, n);
        break;
      case 8:
        unshuffle8(src, srcOff, dst, dstOff, n);
        break;
      default:
        for (int j = 0; j < typesize; j++) {
          int s = srcOff + j * n;
          int d = dstOff + j;
          for (int i = 0; i < n; i++, d += typesize) {
            dst[d] = src[s + i];
          }
        }
    }
    int whole = n * typesize;
    System.arraycopy(src, srcOff + whole, dst, dstOff + whole, length - whole);
  }

  /** Two streams: 4 elements at a time from an int of each. */
  private static void unshuffle2(byte[] src, int srcOff, byte[] dst, int dstOff, int n) {
    int s1 = srcOff + n;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
      long a = spread16((int) INTS.get(src, srcOff + i));
      long b = spread16((int) INTS.get(src, s1 + i));
      LONGS.set(dst, dstOff + 2 * i, a | b << 8);
    }
    for (; i < n; i++) {
      dst[dstOff + 2 * i] = src[srcOff + i];
      dst[dstOff + 2 * i + 1] = src[s1 + i];
    }
  }

  /** Four streams: 4 elements at a time from an int of each. */
  private static void unshuffle4(byte[] src, int srcOff, byte[] dst, int dstOff, int n) {
    int s1 = srcOff + n;
    int s2 = s1 + n;
    int s3 = s2 + n;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
      // 16-bit lanes (byte 0, byte 1) and (byte 2, byte 3) of the 4 elements
      long a = spread16((int) INTS.get(src, srcOff + i))
          | spread16((int) INTS.get(src, s1 + i)) << 8;
      long b = spread16((int) INTS.get(src, s2 + i))
          | spread16((int) INTS.get(src, s3 + i)) << 8;
      long lo = interleave32Low(a) | interleave32Low(b) << 16;
      long hi = interleave32High(a) | interleave32High(b) << 16;
      int d = dstOff + 4 * i;
      LONGS.set(dst, d, lo);
      LONGS.set(dst, d + 8, hi);
    }
    for (; i < n; i++) {
      int d = dstOff + 4 * i;
      dst[d] = src[srcOff + i];
      dst[d + 1] = src[s1 + i];
      dst[d + 2] = src[s2 + i];
      dst[d + 3] = src[s3 + i];
    }
  }

  /** Eight streams: 8 elements at a time from a long of each, an 8x8 byte transpose. */
  private static void unshuffle8(byte[] src, int srcOff, byte[] dst, int dstOff, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long r0 = (long) LONGS.get(src, srcOff + i);
      long r1 = (long) LONGS.get(src, srcOff + n + i);
      long r2 = (long) LONGS.get(src, srcOff + 2 * n + i);
      long r3 = (long) LONGS.get(src, srcOff + 3 * n + i);
      long r4 = (long) LONGS.get(src, srcOff + 4 * n + i);
      long r5 = (long) LONGS.get(src, srcOff + 5 * n + i);
      long r6 = (long) LONGS.get(src, srcOff + 6 * n + i);
      long r7 = (long) LONGS.get(src, srcOff + 7 * n + i);
      // transpose the 8x8 byte matrix (row = stream, column = element) in three steps
      long t;
      t = (r0 ^ (r1 << 8)) & 0xFF00FF00FF00FF00L;
      long q0 = r0 ^ t;
      long q1 = r1 ^ (t >>> 8);
      t = (r2 ^ (r3 << 8)) & 0xFF00FF00FF00FF00L;
      long q2 = r2 ^ t;
      long q3 = r3 ^ (t >>> 8);
      t = (r4 ^ (r5 << 8)) & 0xFF00FF00FF00FF00L;
      long q4 = r4 ^ t;
      long q5 = r5 ^ (t >>> 8);
      t = (r6 ^ (r7 << 8)) & 0xFF00FF00FF00FF00L;
      long q6 = r6 ^ t;
      long q7 = r7 ^ (t >>> 8);
      // q0 = e0s0 e0s1 e2s0 e2s1 ...; q1 = e1s0 e1s1 e3s0 e3s1 ...
      t = (q0 ^ (q2 << 16)) & 0xFFFF0000FFFF0000L;
      long p0 = q0 ^ t;
      long p2 = q2 ^ (t >>> 16);
      t = (q1 ^ (q3 << 16)) & 0xFFFF0000FFFF0000L;
      long p1 = q1 ^ t;
      long p3 = q3 ^ (t >>> 16);
      t = (q4 ^ (q6 << 16)) & 0xFFFF0000FFFF0000L;
      long p4 = q4 ^ t;
      long p6 = q6 ^ (t >>> 16);
      t = (q5 ^ (q7 << 16)) & 0xFFFF0000FFFF0000L;
      long p5 = q5 ^ t;
      long p7 = q7 ^ (t >>> 16);
      t = (p0 ^ (p4 << 32)) & 0xFFFFFFFF00000000L;
      long o0 = p0 ^ t;
      long o4 = p4 ^ (t >>> 32);
      t = (p1 ^ (p5 << 32)) & 0xFFFFFFFF00000000L;
      long o1 = p1 ^ t;
      long o5 = p5 ^ (t >>> 32);
      t = (p2 ^ (p6 << 32)) & 0xFFFFFFFF00000000L;
      long o2 = p2 ^ t;
      long o6 = p6 ^ (t >>> 32);
      t = (p3 ^ (p7 << 32)) & 0xFFFFFFFF00000000L;
      long o3 = p3 ^ t;
      long o7 = p7 ^ (t >>> 32);
      int d = dstOff + 8 * i;
      LONGS.set(dst, d, o0);
      LONGS.set(dst, d + 8, o1);
      LONGS.set(dst, d + 16, o2);
      LONGS.set(dst, d + 24, o3);
      LONGS.set(dst, d + 32, o4);
      LONGS.set(dst, d + 40, o5);
      LONGS.set(dst, d + 48, o6);
      LONGS.set(dst, d + 56, o7);
    }
    for (; i < n; i++) {
      for (int j = 0; j < 8; j++) {
        dst[dstOff + 8 * i + j] = src[srcOff + j * n + i];
      }
    }
  }

  /** The 4 bytes of {@code v} to bytes 0, 2, 4 and 6 of a long. */
  private static long spread16(int v) {
    long x = v & 0xFFFFFFFFL;
    x = (x | x << 16) & 0x0000FFFF0000FFFFL;
    return (x | x << 8) & 0x00FF00FF00FF00FFL;
  }

  /** 16-bit lanes 0 and 1 of {@code v} to lanes 0 and 2 of a long. */
  private static long interleave32Low(long v) {
    return (v & 0xFFFFL) | (v & 0xFFFF_0000L) << 16;
  }

  /** 16-bit lanes 2 and 3 of {@code v} to lanes 0 and 2 of a long. */
  private static long interleave32High(long v) {
    return (v >>> 32 & 0xFFFFL) | (v >>> 48) << 32;
  }

  /**
   * Undoes c-blosc 1.21's bit shuffle of a block of {@code length} bytes of elements of
   * {@code typesize} bytes ({@code blosc_internal_bitunshuffle}): where the block holds a
   * multiple of 8 whole elements, row {@code 8 j + k} of {@code n / 8} bytes holds bit k of
   * byte j of each element (element {@code 8 b + t} at bit t of byte b), and the bytes past
   * the last whole element are copied; any other block is copied as it is, as c-blosc 1.21
   * copies it (bitshuffle needs a multiple of 8 elements).
   */
  public static void bitUnshuffle(byte[] src, int srcOff, byte[] dst, int dstOff, int length,
      int typesize) {
    int n = typesize < 1 ? 0 : length / typesize;
    if (n == 0 || n % 8 != 0) {
      System.arraycopy(src, srcOff, dst, dstOff, length);
      return;
    }
    int rowBytes = n / 8;
    for (int j = 0; j < typesize; j++) {
      int row = srcOff + j * 8 * rowBytes;
      for (int b = 0; b < rowBytes; b++) {
        // bit k of byte b of rows 8j .. 8j+7, for the 8 elements 8b .. 8b+7: bits of byte k
        // of x are element bits; the 8x8 bit transpose makes byte t element t's byte j
        long x = (src[row + b] & 0xFFL)
            | (src[row + rowBytes + b] & 0xFFL) << 8
            | (src[row + 2 * rowBytes + b] & 0xFFL) << 16
            | (src[row + 3 * rowBytes + b] & 0xFFL) << 24
            | (src[row + 4 * rowBytes + b] & 0xFFL) << 32
            | (src[row + 5 * rowBytes + b] & 0xFFL) << 40
            | (src[row + 6 * rowBytes + b] & 0xFFL) << 48
            | (src[row + 7 * rowBytes + b] & 0xFFL) << 56;
        x = transposeBits(x);
        int d = dstOff + 8 * b * typesize + j;
        for (int t = 0; t < 8; t++, d += typesize) {
          dst[d] = (byte) (x >>> (8 * t));
        }
      }
    }
    int whole = n * typesize;
    System.arraycopy(src, srcOff + whole, dst, dstOff + whole, length - whole);
  }

  /** bitshuffle's {@code TRANS_BIT_8X8}: bit t of byte k to bit k of byte t. */
  private static long transposeBits(long x) {
    long t = (x ^ (x >>> 7)) & 0x00AA00AA00AA00AAL;
    x = x ^ t ^ (t << 7);
    t = (x ^ (x >>> 14)) & 0x0000CCCC0000CCCCL;
    x = x ^ t ^ (t << 14);
    t = (x ^ (x >>> 28)) & 0x00000000F0F0F0F0L;
    return x ^ t ^ (t << 28);
  }
}
