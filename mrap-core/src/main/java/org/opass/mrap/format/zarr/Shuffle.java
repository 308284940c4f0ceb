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
 * Elements of 2, 4 and 8 bytes, and bits, are moved 8 bytes at a time, as byte and bit
 * transposes within longs: about twice as fast as byte by byte (the C decoders use SIMD).
 */
public final class Shuffle {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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
    if (elementSize > 1 && src.length % elementSize != 0) {
      throw new ScienceFormatException("shuffle: a chunk of " + src.length + " bytes is not "
          + "whole elements of " + elementSize + " bytes");
    }
    byte[] out = new byte[src.length];
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

  /** Two streams: 8 elements at a time from a long of each, a 2x8 byte transpose. */
  private static void unshuffle2(byte[] src, int srcOff, byte[] dst, int dstOff, int n) {
    int s1 = srcOff + n;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long r0 = (long) LONGS.get(src, srcOff + i);
      long r1 = (long) LONGS.get(src, s1 + i);
      // 16-bit lanes: elements 0 2 4 6 and 1 3 5 7, then 0 1 4 5 and 2 3 6 7
      long t = (r0 ^ (r1 << 8)) & 0xFF00FF00FF00FF00L;
      long q0 = r0 ^ t;
      long q1 = r1 ^ (t >>> 8);
      t = (q0 ^ (q1 << 16)) & 0xFFFF0000FFFF0000L;
      long p0 = q0 ^ t;
      long p1 = q1 ^ (t >>> 16);
      t = (p0 ^ (p1 << 32)) & 0xFFFFFFFF00000000L;
      int d = dstOff + 2 * i;
      LONGS.set(dst, d, p0 ^ t);
      LONGS.set(dst, d + 8, p1 ^ (t >>> 32));
    }
    for (; i < n; i++) {
      dst[dstOff + 2 * i] = src[srcOff + i];
      dst[dstOff + 2 * i + 1] = src[s1 + i];
    }
  }

  /** Four streams: 8 elements at a time from a long of each, a 4x8 byte transpose. */
  private static void unshuffle4(byte[] src, int srcOff, byte[] dst, int dstOff, int n) {
    int s1 = srcOff + n;
    int s2 = s1 + n;
    int s3 = s2 + n;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long r0 = (long) LONGS.get(src, srcOff + i);
      long r1 = (long) LONGS.get(src, s1 + i);
      long r2 = (long) LONGS.get(src, s2 + i);
      long r3 = (long) LONGS.get(src, s3 + i);
      // bytes 0-1 of elements 0 2 4 6 (q0) and 1 3 5 7 (q1), bytes 2-3 likewise (q2, q3)
      long t = (r0 ^ (r1 << 8)) & 0xFF00FF00FF00FF00L;
      long q0 = r0 ^ t;
      long q1 = r1 ^ (t >>> 8);
      t = (r2 ^ (r3 << 8)) & 0xFF00FF00FF00FF00L;
      long q2 = r2 ^ t;
      long q3 = r3 ^ (t >>> 8);
      // whole elements: 0 and 4 (p0), 2 and 6 (p2), 1 and 5 (p1), 3 and 7 (p3)
      t = (q0 ^ (q2 << 16)) & 0xFFFF0000FFFF0000L;
      long p0 = q0 ^ t;
      long p2 = q2 ^ (t >>> 16);
      t = (q1 ^ (q3 << 16)) & 0xFFFF0000FFFF0000L;
      long p1 = q1 ^ t;
      long p3 = q3 ^ (t >>> 16);
      int d = dstOff + 4 * i;
      t = (p0 ^ (p1 << 32)) & 0xFFFFFFFF00000000L;
      LONGS.set(dst, d, p0 ^ t);
      LONGS.set(dst, d + 16, p1 ^ (t >>> 32));
      t = (p2 ^ (p3 << 32)) & 0xFFFFFFFF00000000L;
      LONGS.set(dst, d + 8, p2 ^ t);
      LONGS.set(dst, d + 24, p3 ^ (t >>> 32));
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

  /**
   * Undoes c-blosc 1.21's bit shuffle of a block of {@code length} bytes of elements of
   * {@code typesize} bytes ({@code blosc_internal_bitunshuffle}): where the block holds a
   * multiple of 8 whole elements, row {@code 8 j + k} of {@code n / 8} bytes holds bit k of
   * byte j of each element (element {@code 8 b + t} at bit t of byte b), and the bytes past
   * the last whole element are copied; any other block is copied as it is, as c-blosc 1.21
   * copies it (bitshuffle needs a multiple of 8 elements; unlike bitshuffle's own HDF5 filter,
   * c-blosc 1.21 does not transpose the largest multiple of 8 of such a block).
   */
  public static void bitUnshuffle(byte[] src, int srcOff, byte[] dst, int dstOff, int length,
      int typesize) {
    int n = typesize < 1 ? 0 : length / typesize;
    bitUnshuffle(src, srcOff, dst, dstOff, length, typesize,
        n % 8 == 0 && typesize > 1 ? new byte[n * typesize] : null);
  }

  /**
   * {@link #bitUnshuffle(byte[], int, byte[], int, int, int)} with {@code scratch} of at least
   * {@code length} bytes for its first step: bits back into bytes, each byte of the elements
   * in a stream of its own (a byte shuffle, undone by {@link #unshuffle} in the second).
   */
  static void bitUnshuffle(byte[] src, int srcOff, byte[] dst, int dstOff, int length,
      int typesize, byte[] scratch) {
    int n = typesize < 1 ? 0 : length / typesize;
    if (n == 0 || n % 8 != 0) {
      System.arraycopy(src, srcOff, dst, dstOff, length);
      return;
    }
    byte[] streams = typesize == 1 ? dst : scratch;
    int to = typesize == 1 ? dstOff : 0;
    int rowBytes = n / 8;
    for (int j = 0; j < typesize; j++) {
      // rows 8j .. 8j+7 hold bit k of byte j of each element; byte b of row 8j+k holds the
      // elements 8b .. 8b+7, element 8b+t at bit t
      int row = srcOff + j * 8 * rowBytes;
      int out = to + j * n;
      int b = 0;
      for (; b + 8 <= rowBytes; b += 8) {
        // 8 bytes of each row, transposed: r_m holds byte b+m of the 8 rows
        long r0 = (long) LONGS.get(src, row + b);
        long r1 = (long) LONGS.get(src, row + rowBytes + b);
        long r2 = (long) LONGS.get(src, row + 2 * rowBytes + b);
        long r3 = (long) LONGS.get(src, row + 3 * rowBytes + b);
        long r4 = (long) LONGS.get(src, row + 4 * rowBytes + b);
        long r5 = (long) LONGS.get(src, row + 5 * rowBytes + b);
        long r6 = (long) LONGS.get(src, row + 6 * rowBytes + b);
        long r7 = (long) LONGS.get(src, row + 7 * rowBytes + b);
        long t = (r0 ^ (r1 << 8)) & 0xFF00FF00FF00FF00L;
        r0 ^= t;
        r1 ^= t >>> 8;
        t = (r2 ^ (r3 << 8)) & 0xFF00FF00FF00FF00L;
        r2 ^= t;
        r3 ^= t >>> 8;
        t = (r4 ^ (r5 << 8)) & 0xFF00FF00FF00FF00L;
        r4 ^= t;
        r5 ^= t >>> 8;
        t = (r6 ^ (r7 << 8)) & 0xFF00FF00FF00FF00L;
        r6 ^= t;
        r7 ^= t >>> 8;
        t = (r0 ^ (r2 << 16)) & 0xFFFF0000FFFF0000L;
        r0 ^= t;
        r2 ^= t >>> 16;
        t = (r1 ^ (r3 << 16)) & 0xFFFF0000FFFF0000L;
        r1 ^= t;
        r3 ^= t >>> 16;
        t = (r4 ^ (r6 << 16)) & 0xFFFF0000FFFF0000L;
        r4 ^= t;
        r6 ^= t >>> 16;
        t = (r5 ^ (r7 << 16)) & 0xFFFF0000FFFF0000L;
        r5 ^= t;
        r7 ^= t >>> 16;
        t = (r0 ^ (r4 << 32)) & 0xFFFFFFFF00000000L;
        r0 ^= t;
        r4 ^= t >>> 32;
        t = (r1 ^ (r5 << 32)) & 0xFFFFFFFF00000000L;
        r1 ^= t;
        r5 ^= t >>> 32;
        t = (r2 ^ (r6 << 32)) & 0xFFFFFFFF00000000L;
        r2 ^= t;
        r6 ^= t >>> 32;
        t = (r3 ^ (r7 << 32)) & 0xFFFFFFFF00000000L;
        r3 ^= t;
        r7 ^= t >>> 32;
        int d = out + 8 * b;
        LONGS.set(streams, d, transposeBits(r0));
        LONGS.set(streams, d + 8, transposeBits(r1));
        LONGS.set(streams, d + 16, transposeBits(r2));
        LONGS.set(streams, d + 24, transposeBits(r3));
        LONGS.set(streams, d + 32, transposeBits(r4));
        LONGS.set(streams, d + 40, transposeBits(r5));
        LONGS.set(streams, d + 48, transposeBits(r6));
        LONGS.set(streams, d + 56, transposeBits(r7));
      }
      for (; b < rowBytes; b++) {
        long x = 0;
        for (int k = 0; k < 8; k++) {
          x |= (src[row + k * rowBytes + b] & 0xFFL) << (8 * k);
        }
        LONGS.set(streams, out + 8 * b, transposeBits(x));
      }
    }
    if (typesize > 1) {
      unshuffle(scratch, 0, dst, dstOff, n * typesize, typesize);
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
