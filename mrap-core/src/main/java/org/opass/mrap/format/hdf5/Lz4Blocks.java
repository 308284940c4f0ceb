package org.opass.mrap.format.hdf5;

import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.opass.mrap.format.ScienceFormatException;

/**
 * LZ4 blocks as HDF5's filters store them, each a 4-byte big-endian length and an LZ4 block:
 * the LZ4 filter (32004, HDF5_LZ4.pdf) and bitshuffle's (32008) compressed blocks. Pure Java
 * (lz4-java's safe decompressor, no native code), and bounded: a block decodes into the bytes
 * its caller expects, never into a size read from the chunk.
 */
final class Lz4Blocks {
  private static final LZ4SafeDecompressor LZ4 = LZ4Factory.safeInstance().safeDecompressor();

  private final byte[] in;
  private int at;

  /** The blocks of {@code in} from byte {@code start}. */
  Lz4Blocks(byte[] in, int start) {
    this.in = in;
    this.at = start;
  }

  /** Big-endian bytes {@code [at, at + width)} of {@code b}, unsigned. */
  static long bigEndian(byte[] b, int at, int width) {
    long v = 0;
    for (int i = 0; i < width; i++) {
      v = v << 8 | (b[at + i] & 0xFF);
    }
    return v;
  }

  /**
   * Decodes the next block into exactly {@code length} bytes of {@code out} from {@code off}.
   *
   * @param stored true where a block of its decoded length is stored as it is (the LZ4
   *     filter's rule for blocks LZ4 does not shrink); bitshuffle always compresses
   * @throws ScienceFormatException where the block is cut short, or does not decode to
   *     {@code length} bytes
   */
  void next(byte[] out, int off, int length, boolean stored) {
    if (in.length - at < 4) {
      throw new ScienceFormatException("the chunk ends at " + in.length + " before a block's "
          + "length");
    }
    long n = bigEndian(in, at, 4);
    at += 4;
    if (n > in.length - at) {
      throw new ScienceFormatException("a block of " + n + " bytes at " + (at - 4) + " runs "
          + "past the chunk's " + in.length);
    }
    if (stored && n == length) {
      System.arraycopy(in, at, out, off, length);
    } else {
      int got;
      try {
        got = LZ4.decompress(in, at, (int) n, out, off, length);
      } catch (LZ4Exception e) {
        throw new ScienceFormatException("the LZ4 block at " + (at - 4) + " is damaged: "
            + e.getMessage(), e);
      }
      if (got != length) {
        throw new ScienceFormatException("the LZ4 block at " + (at - 4) + " decodes to " + got
            + " bytes, not " + length);
      }
    }
    at += (int) n;
  }

  /** Where the next block would start. */
  int position() {
    return at;
  }
}
