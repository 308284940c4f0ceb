package org.opass.mrap.format.zarr;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.lz4.Lz4Decompressor;
import org.opass.mrap.format.ScienceFormatException;

/**
 * LZ4 blocks: numcodecs' {@code LZ4} codec (a 4-byte little-endian decoded size, then one LZ4
 * block) and the LZ4 streams of Blosc frames (lz4 and lz4hc write the same blocks). Decoded by
 * aircompressor's pure-Java decompressor (no native code; bounds-checked since 0.27), into
 * exactly the bytes the caller expects, never into a size read from the data beyond its bound.
 */
public final class Lz4 {
  private static final Lz4Decompressor LZ4 = new Lz4Decompressor();

  private Lz4() {
  }

  /**
   * numcodecs' {@code LZ4.decode}: the chunk's bytes.
   *
   * @param maxBytes the most bytes the chunk may decode to (its declared size)
   * @throws ScienceFormatException where the size is past {@code maxBytes} or the block is
   *     damaged or does not decode to that size
   */
  public static byte[] decode(byte[] src, long maxBytes) {
    if (src.length < 4) {
      throw new ScienceFormatException("lz4: a chunk of " + src.length + " bytes has no "
          + "4-byte size");
    }
    long size = (src[0] & 0xFFL) | (src[1] & 0xFFL) << 8 | (src[2] & 0xFFL) << 16
        | (src[3] & 0xFFL) << 24;
    if (size > Math.min(maxBytes, Blosc.MAX_ARRAY) || size > Integer.MAX_VALUE) {
      throw new ScienceFormatException("lz4: the chunk says it holds " + size + " bytes, past "
          + "the " + maxBytes + " it may hold");
    }
    // an LZ4 block decodes to at most 255 bytes a byte
    if (size > 255L * (src.length - 4) + 16) {
      throw new ScienceFormatException("lz4: " + (src.length - 4) + " bytes cannot decode to "
          + "the chunk's " + size);
    }
    byte[] out = new byte[(int) size];
    if (size == 0) {
      return out; // numcodecs 0.11 refuses a size of 0; LZ4 wrote a block of no bytes
    }
    decodeBlock("lz4", src, 4, src.length - 4, out, 0, out.length);
    return out;
  }

  /**
   * Decodes the LZ4 block of {@code length} bytes of {@code in} from {@code from} into exactly
   * {@code size} bytes of {@code out} from {@code to}.
   *
   * @param codec how a message names the block ("lz4", "blosc: block 3")
   * @throws ScienceFormatException where the block is damaged or decodes to another size
   */
  static void decodeBlock(String codec, byte[] in, int from, int length, byte[] out, int to,
      int size) {
    int got;
    try {
      got = length == 0 ? -1 : LZ4.decompress(in, from, length, out, to, size);
    } catch (MalformedInputException e) {
      throw new ScienceFormatException(codec + ": the LZ4 block of " + length + " bytes is "
          + "damaged (" + e.getMessage() + ")", e);
    } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
      throw new ScienceFormatException(codec + ": the LZ4 block of " + length + " bytes is "
          + "damaged (" + e + ")", e);
    }
    if (got != size) {
      throw new ScienceFormatException(codec + ": the LZ4 block of " + length + " bytes "
          + "decodes to " + (got < 0 ? "nothing" : got + " bytes") + ", not " + size);
    }
  }
}
