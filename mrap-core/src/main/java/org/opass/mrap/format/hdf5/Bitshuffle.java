package org.opass.mrap.format.hdf5;

import java.util.Arrays;
import org.opass.mrap.format.ScienceFormatException;

/**
 * bitshuffle's HDF5 filter (32008), decoded as bitshuffle's own {@code bshuf_h5filter.c} and
 * {@code bshuf_blocked_wrap_fun} do: the elements in blocks of a block size (whole blocks, then
 * one shorter block of a multiple of 8 elements, then fewer than 8 elements stored as they are),
 * each block's bits transposed and, with LZ4, compressed. A chunk smaller than a block (the
 * default block is 8 KiB) is one short block. Memory is bounded by the chunk's size, never by
 * the block size a chunk's header gives.
 */
final class Bitshuffle {
  /** bitshuffle's client data: [filter version, library version, element size, block, codec]. */
  private static final int ELEMENT_SIZE = 2;
  private static final int BLOCK = 3;
  private static final int CODEC = 4;
  private static final int LZ4 = 2;
  /** bitshuffle's {@code BSHUF_BLOCKED_MULT}, {@code BSHUF_TARGET_BLOCK_SIZE_B} and its least. */
  private static final int MULTIPLE = 8;
  private static final int TARGET_BLOCK_BYTES = 8192;
  private static final int MIN_BLOCK = 128;

  private Bitshuffle() {
  }

  /**
   * The chunk's bytes before bitshuffle.
   *
   * @param data the filter's client data
   * @param bound the most bytes a chunk can decode to
   * @throws ScienceFormatException where the client data or the chunk are damaged
   */
  static byte[] decode(byte[] stored, int[] data, long bound) {
    if (data.length <= ELEMENT_SIZE || data[ELEMENT_SIZE] < 1) {
      throw new ScienceFormatException("bitshuffle's client data " + Arrays.toString(data)
          + " give no element size");
    }
    int e = data[ELEMENT_SIZE];
    boolean lz4 = data.length > CODEC && data[CODEC] == LZ4;
    if (data.length > CODEC && data[CODEC] != LZ4 && data[CODEC] != 0) {
      throw new ScienceFormatException("bitshuffle's compression " + data[CODEC] + " is not "
          + "read (0, none, and 2, LZ4, are)");
    }
    long total;
    long blockElements;
    int from;
    if (lz4) { // a header: bytes decoded (8, big-endian), then the block's bytes (4)
      if (stored.length < 12) {
        throw new ScienceFormatException("a chunk of " + stored.length + " bytes is shorter "
            + "than bitshuffle's header");
      }
      total = Lz4Blocks.bigEndian(stored, 0, 8);
      blockElements = Lz4Blocks.bigEndian(stored, 8, 4) / e;
      from = 12;
      if (total < 0 || total > bound) {
        throw new ScienceFormatException("bitshuffle's header says the chunk decodes to "
            + Long.toUnsignedString(total) + " bytes, more than a chunk's " + bound);
      }
    } else {
      total = stored.length;
      blockElements = data.length > BLOCK ? data[BLOCK] & 0xFFFFFFFFL : 0;
      from = 0;
    }
    if (blockElements == 0) {
      blockElements = Math.max(TARGET_BLOCK_BYTES / e / MULTIPLE * MULTIPLE, MIN_BLOCK);
    }
    if (blockElements % MULTIPLE != 0 || total % e != 0) {
      throw new ScienceFormatException("bitshuffle's blocks of " + blockElements + " elements "
          + "of " + e + " bytes do not hold a chunk of " + total + " bytes");
    }
    long elements = total / e;
    byte[] out = new byte[(int) total];
    // whole blocks, then one of the multiple of 8 elements left, then the rest as stored
    int block = (int) Math.min(blockElements, elements);
    byte[] shuffled = lz4 ? new byte[block * e] : null;
    Lz4Blocks blocks = lz4 ? new Lz4Blocks(stored, from) : null;
    long done = 0;
    while (done < elements - elements % MULTIPLE) {
      int n = (int) Math.min(blockElements, (elements - done) / MULTIPLE * MULTIPLE);
      int at = (int) (done * e);
      if (lz4) {
        blocks.next(shuffled, 0, n * e, false);
        untranspose(shuffled, 0, n, e, out, at);
      } else {
        untranspose(stored, at, n, e, out, at);
      }
      done += n;
    }
    int rest = (int) (total - done * e);
    int restAt = lz4 ? blocks.position() : (int) (done * e);
    if (stored.length - restAt < rest) {
      throw new ScienceFormatException("the chunk ends at " + stored.length + ", before its "
          + rest + " bytes stored as they are");
    }
    System.arraycopy(stored, restAt, out, (int) (done * e), rest);
    return out;
  }

  /**
   * Undoes bitshuffle's transposition of a block of {@code n} elements (a multiple of 8) of
   * {@code e} bytes: bit k of byte j of element i lies in row {@code 8 j + k}, whose
   * {@code n / 8} bytes hold one bit of each element, element {@code 8 b + t} at bit t of byte b.
   */
  private static void untranspose(byte[] in, int from, int n, int e, byte[] out, int to) {
    Arrays.fill(out, to, to + n * e, (byte) 0);
    int rowBytes = n / MULTIPLE;
    for (int j = 0; j < e; j++) {
      for (int k = 0; k < 8; k++) {
        int row = from + (j * 8 + k) * rowBytes;
        for (int b = 0; b < rowBytes; b++) {
          int v = in[row + b] & 0xFF;
          for (int t = 0; v != 0; t++, v >>>= 1) {
            if ((v & 1) != 0) {
              out[to + (b * MULTIPLE + t) * e + j] |= (byte) (1 << k);
            }
          }
        }
      }
    }
  }
}
