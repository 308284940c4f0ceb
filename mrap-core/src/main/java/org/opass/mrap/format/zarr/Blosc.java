package org.opass.mrap.format.zarr;

import org.opass.mrap.format.ScienceFormatException;

/**
 * Blosc 1 frames, numcodecs' {@code Blosc} codec (c-blosc 1.21's format 2, as {@code
 * blosc_run_decompression_with_context}, {@code serial_blosc} and {@code blosc_d} of blosc.c
 * read it). A 16-byte header: format version (2), the compressor's format version (1), flags
 * (bit 0 byte shuffle, bit 1 stored as is, bit 2 bit shuffle, bit 3 reserved, bit 4 blocks
 * not split, bits 5-7 the compressor: 0 BloscLZ, 1 LZ4 and LZ4HC, 2 Snappy, 3 zlib, 4 zstd),
 * type size, then decoded size, block size and frame size, each 4 bytes little-endian. Then,
 * unless stored as is, each block's start (4 bytes), and the blocks: each of 1 stream, or of
 * type-size streams (bytes of a block split when the flag allows it, the type size is at most
 * 16, the block holds at least 128 elements and is not the last, shorter, block); a stream is
 * its length (4 bytes) and its compressed bytes, or its bytes as they are where the length is
 * the stream's size. Each block is then unshuffled.
 *
 * <p>Pure Java; memory is the decoded size (at most the caller's bound) and up to two blocks.
 * A frame shorter than its header's frame size is refused (c-blosc, trusting the header,
 * reads past it), and so are Snappy streams.
 */
public final class Blosc {
  /** The largest Java array this package allocates. */
  static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

  private static final int HEADER = 16;
  private static final int VERSION = 2;
  private static final int SHUFFLE = 0x01;
  private static final int MEMCPYED = 0x02;
  private static final int BITSHUFFLE = 0x04;
  private static final int RESERVED = 0x08;
  private static final int DONT_SPLIT = 0x10;
  private static final int MAX_SPLITS = 16;
  private static final int MIN_BUFFERSIZE = 128;
  private static final String[] COMPRESSORS = {"blosclz", "lz4", "snappy", "zlib", "zstd"};

  private Blosc() {
  }

  /**
   * numcodecs' {@code Blosc.decode}: the frame's decoded bytes. Bytes after the frame's size
   * are ignored, as c-blosc ignores them.
   *
   * @param maxBytes the most bytes the chunk may decode to (its declared size)
   * @throws ScienceFormatException where the frame is damaged or cut short, decodes past
   *     {@code maxBytes}, or is of a format or compressor not read here
   */
  public static byte[] decode(byte[] src, long maxBytes) {
    if (src.length < HEADER) {
      throw new ScienceFormatException("blosc: a frame of " + src.length + " bytes is shorter "
          + "than its 16-byte header");
    }
    int version = src[0] & 0xFF;
    int compversion = src[1] & 0xFF;
    int flags = src[2] & 0xFF;
    int typesize = src[3] & 0xFF;
    int nbytes = le32(src, 4);
    int blocksize = le32(src, 8);
    int cbytes = le32(src, 12);
    if (version != VERSION) {
      throw new ScienceFormatException("blosc: format version " + version + ", not Blosc 1's "
          + VERSION);
    }
    if (nbytes < 0) {
      throw new ScienceFormatException("blosc: the frame says it holds " + (nbytes
          & 0xFFFFFFFFL) + " bytes");
    }
    if (nbytes > Math.min(maxBytes, MAX_ARRAY)) {
      throw new ScienceFormatException("blosc: the frame holds " + nbytes + " bytes, past the "
          + maxBytes + " the chunk may hold");
    }
    if (nbytes == 0) {
      return new byte[0]; // c-blosc reads no further (numcodecs 0.11 then refuses the 0 bytes)
    }
    if (blocksize <= 0 || blocksize > nbytes || typesize == 0) {
      throw new ScienceFormatException("blosc: blocks of " + blocksize + " bytes of type size "
          + typesize + " in a frame of " + nbytes + " bytes");
    }
    if ((flags & RESERVED) != 0) {
      throw new ScienceFormatException("blosc: flags " + Integer.toHexString(flags) + " set "
          + "the reserved bit 3");
    }
    if (cbytes < HEADER || cbytes > src.length) {
      throw new ScienceFormatException("blosc: the frame says it is " + (cbytes & 0xFFFFFFFFL)
          + " bytes, and " + src.length + " are given");
    }
    byte[] out = new byte[nbytes];
    if ((flags & MEMCPYED) != 0) {
      if (cbytes != nbytes + HEADER) {
        throw new ScienceFormatException("blosc: a frame stored as is of " + cbytes + " bytes "
            + "for " + nbytes + " bytes");
      }
      System.arraycopy(src, HEADER, out, 0, nbytes);
      return out;
    }
    int compressor = flags >>> 5;
    if (compressor >= COMPRESSORS.length) {
      throw new ScienceFormatException("blosc: compressor " + compressor + " is none of "
          + "Blosc 1's (0 blosclz, 1 lz4, 2 snappy, 3 zlib, 4 zstd)");
    }
    if (compressor == 2) {
      throw new ScienceFormatException("blosc: snappy-compressed frames are not read");
    }
    if (compversion != 1) {
      throw new ScienceFormatException("blosc: " + COMPRESSORS[compressor] + " format version "
          + compversion + ", not 1");
    }
    int nblocks = nbytes / blocksize + (nbytes % blocksize > 0 ? 1 : 0);
    if (nblocks > (cbytes - HEADER) / 4) {
      throw new ScienceFormatException("blosc: the starts of " + nblocks + " blocks do not "
          + "fit in a frame of " + cbytes + " bytes");
    }
    boolean shuffle = (flags & SHUFFLE) != 0 && typesize > 1;
    byte[] tmp = null;
    byte[] tmp2 = null;
    for (int j = 0; j < nblocks; j++) {
      int bsize = blocksize;
      boolean leftover = false;
      if (j == nblocks - 1 && nbytes % blocksize != 0) {
        bsize = nbytes % blocksize;
        leftover = true;
      }
      boolean bitshuffle = !shuffle && (flags & BITSHUFFLE) != 0 && bsize >= typesize;
      int at = j * blocksize;
      if (shuffle || bitshuffle) {
        if (tmp == null) {
          tmp = new byte[blocksize];
        }
        block(src, cbytes, flags, typesize, j, le32(src, HEADER + 4 * j), bsize, leftover,
            tmp, 0);
        if (shuffle) {
          Shuffle.unshuffle(tmp, 0, out, at, bsize, typesize);
        } else {
          if (tmp2 == null && typesize > 1) {
            tmp2 = new byte[blocksize];
          }
          Shuffle.bitUnshuffle(tmp, 0, out, at, bsize, typesize, tmp2);
        }
      } else {
        block(src, cbytes, flags, typesize, j, le32(src, HEADER + 4 * j), bsize, leftover,
            out, at);
      }
    }
    return out;
  }

  /** c-blosc's {@code blosc_d} but its unshuffle: block j's streams into {@code dst}. */
  private static void block(byte[] src, int cbytes, int flags, int typesize, int j, int start,
      int bsize, boolean leftover, byte[] dst, int to) {
    int nsplits = (flags & DONT_SPLIT) == 0 && typesize <= MAX_SPLITS
        && bsize / typesize >= MIN_BUFFERSIZE && !leftover ? typesize : 1;
    int neblock = bsize / nsplits;
    if (neblock * nsplits != bsize) {
      throw new ScienceFormatException("blosc: block " + j + " of " + bsize + " bytes is not "
          + nsplits + " streams of whole elements");
    }
    int at = start;
    for (int k = 0; k < nsplits; k++) {
      if (at < 0 || at > cbytes - 4) {
        throw new ScienceFormatException("blosc: block " + j + (nsplits > 1 ? " stream " + k
            : "") + " starts at " + at + ", outside the frame's " + cbytes + " bytes");
      }
      int length = le32(src, at);
      at += 4;
      if (length < 0 || length > cbytes - at) {
        throw new ScienceFormatException("blosc: block " + j + (nsplits > 1 ? " stream " + k
            : "") + " ends at " + (at + (length & 0xFFFFFFFFL)) + " past the frame's " + cbytes
            + " bytes");
      }
      int d = to + k * neblock;
      if (length == neblock) {
        System.arraycopy(src, at, dst, d, neblock);
      } else {
        String which = "blosc: block " + j + (nsplits > 1 ? " stream " + k : "");
        switch (flags >>> 5) {
          case 0:
            int n = BloscLz.decompress(which, src, at, length, dst, d, neblock);
            if (n != neblock) {
              throw new ScienceFormatException(which + ": " + length + " bytes of blosclz "
                  + "decode to " + n + " bytes, not " + neblock);
            }
            break;
          case 1:
            Lz4.decodeBlock(which, src, at, length, dst, d, neblock);
            break;
          case 3:
            Inflate.zlibInto(which, src, at, length, dst, d, neblock);
            break;
          default:
            Zstd.decodeInto(which, src, at, length, dst, d, neblock);
        }
      }
      at += length;
    }
  }

  private static int le32(byte[] b, int at) {
    return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16
        | (b[at + 3] & 0xFF) << 24;
  }
}
