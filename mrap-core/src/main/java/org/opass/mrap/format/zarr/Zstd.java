package org.opass.mrap.format.zarr;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.zstd.ZstdDecompressor;
import java.util.Arrays;
import org.opass.mrap.format.ScienceFormatException;

/**
 * Zstandard frames (RFC 8878): numcodecs' {@code Zstd} codec and the zstd streams of Blosc
 * frames. One or more frames one after another, skippable frames skipped, each frame with or
 * without its content size in its header (the {@code zstd} command reading a pipe writes none,
 * and numcodecs 0.11 cannot read such a frame). The frames' headers and block headers are read
 * here, which bounds what they can decode to (their content sizes, or 128 KiB, or the window,
 * a block); their blocks are decoded by aircompressor's pure-Java decompressor into at most
 * that, and never past the caller's bound.
 */
public final class Zstd {
  private static final int MAGIC = 0xFD2FB528;
  private static final int SKIPPABLE = 0x184D2A50;
  private static final int MAX_BLOCK = 128 * 1024;
  /** aircompressor's decompressor keeps its tables (and 128 KiB of literals) between calls. */
  private static final ThreadLocal<ZstdDecompressor> ZSTD =
      ThreadLocal.withInitial(ZstdDecompressor::new);

  private Zstd() {
  }

  /**
   * numcodecs' {@code Zstd.decode}: the bytes of the chunk's frames, one after another.
   *
   * @param maxBytes the most bytes the chunk may decode to (its declared size)
   * @throws ScienceFormatException where a frame is damaged or cut short, the chunk holds no
   *     frame, or its frames decode past {@code maxBytes}
   */
  public static byte[] decode(byte[] src, long maxBytes) {
    long[] frames = frames("zstd", src, 0, src.length);
    long limit = Math.min(maxBytes, Blosc.MAX_ARRAY);
    long most = 0;
    long known = 0;
    for (int f = 0; f < frames.length; f += 4) {
      most += frames[f + 2] >= 0 ? frames[f + 2] : frames[f + 3];
      known += Math.max(frames[f + 2], 0);
      if (known > limit) {
        throw new ScienceFormatException("zstd: the frame at " + frames[f] + " holds "
            + frames[f + 2] + " bytes, past the " + maxBytes + " the chunk may hold ("
            + (known - frames[f + 2]) + " before it)");
      }
    }
    byte[] out = new byte[(int) Math.max(0, Math.min(most, limit))];
    int n = decode("zstd", src, frames, out, 0, out.length, limit);
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /**
   * Decodes the frames of {@code length} bytes of {@code in} from {@code from} into exactly
   * {@code size} bytes of {@code out} from {@code to} (as c-blosc's {@code ZSTD_decompress}).
   *
   * @param codec how a message names the stream ("blosc: block 3")
   */
  static void decodeInto(String codec, byte[] in, int from, int length, byte[] out, int to,
      int size) {
    long[] frames = frames(codec + ": zstd", in, from, from + length);
    int n = decode(codec + ": zstd", in, frames, out, to, size, size);
    if (n != size) {
      throw new ScienceFormatException(codec + ": the zstd stream of " + length + " bytes "
          + "decodes to " + n + " bytes, not " + size);
    }
  }

  /** Decodes the frames into at most {@code room} bytes of {@code out} from {@code to}. */
  private static int decode(String codec, byte[] in, long[] frames, byte[] out, int to,
      int room, long bound) {
    int written = 0;
    for (int f = 0; f < frames.length; f += 4) {
      int start = (int) frames[f];
      int length = (int) frames[f + 1];
      long contentSize = frames[f + 2];
      long most = contentSize >= 0 ? contentSize : frames[f + 3];
      boolean capped = most > room - written;
      if (capped) {
        if (contentSize >= 0 || written == room) {
          throw new ScienceFormatException(codec + ": the frame at " + start + " holds "
              + (contentSize >= 0 ? contentSize + " bytes" : "bytes") + ", past the " + bound
              + " the chunk may hold (" + written + " written before it)");
        }
        most = room - written;
      }
      int n;
      if (most == 0) {
        n = 0; // aircompressor reads nothing into no room; its blocks were read in frames()
      } else {
        try {
          n = ZSTD.get().decompress(in, start, length, out, to + written, (int) most);
        } catch (MalformedInputException e) {
          throw damaged(codec, start, capped, bound,
              e.getMessage().replaceFirst(": offset=-?[0-9]+$", ""), e);
        } catch (IndexOutOfBoundsException | IllegalArgumentException
            | IllegalStateException e) {
          throw damaged(codec, start, capped, bound, e.toString(), e);
        }
      }
      if (contentSize >= 0 && n != contentSize) {
        throw new ScienceFormatException(codec + ": the frame at " + start + " decodes to "
            + n + " bytes, not the " + contentSize + " its header says");
      }
      written += n;
    }
    return written;
  }

  private static ScienceFormatException damaged(String codec, int start, boolean capped,
      long bound, String why, RuntimeException e) {
    return new ScienceFormatException(codec + ": the frame at " + start + " is damaged"
        + (capped ? " or decodes past the " + bound + " bytes the chunk may hold" : "") + " ("
        + why + ")", e);
  }

  /**
   * The frames of {@code in[from, end)}, four longs each: start, length, content size (-1
   * where the header gives none) and the most its blocks can decode to.
   */
  private static long[] frames(String codec, byte[] in, int from, int end) {
    long[] frames = new long[16];
    int count = 0;
    int at = from;
    while (at < end) {
      if (end - at < 4) {
        throw new ScienceFormatException(codec + ": " + (end - at) + " bytes at " + at
            + " are no frame");
      }
      int magic = le32(in, at);
      if ((magic & 0xFFFFFFF0) == SKIPPABLE) {
        long size = end - at < 8 ? -1 : le32(in, at + 4) & 0xFFFFFFFFL;
        if (size < 0 || size > end - at - 8) {
          throw new ScienceFormatException(codec + ": the skippable frame at " + at
              + " runs past the end at " + end);
        }
        at += 8 + (int) size;
        continue;
      }
      if (magic != MAGIC) {
        throw new ScienceFormatException(codec + ": no frame at " + at + " (magic "
            + Integer.toHexString(magic) + ", not fd2fb528)");
      }
      int start = at;
      long[] header = header(codec, in, at + 4, end, at);
      at = (int) header[0];
      long contentSize = header[1];
      long windowSize = header[2];
      boolean checksum = header[3] != 0;
      long most = 0;
      boolean last;
      do {
        if (end - at < 3) {
          throw new ScienceFormatException(codec + ": the frame at " + start + " ends "
              + "at " + end + " in a block's header");
        }
        int block = (in[at] & 0xFF) | (in[at + 1] & 0xFF) << 8 | (in[at + 2] & 0xFF) << 16;
        at += 3;
        last = (block & 1) != 0;
        int type = block >>> 1 & 3;
        int size = block >>> 3;
        int stored;
        if (type == 0) { // raw
          stored = size;
          most += size;
        } else if (type == 1) { // one byte repeated
          stored = 1;
          most += size;
        } else if (type == 2) { // compressed: at most a block's 128 KiB, or the window
          stored = size;
          most += Math.min(MAX_BLOCK, windowSize);
        } else {
          throw new ScienceFormatException(codec + ": the frame at " + start + " has "
              + "a block of the reserved type 3 at " + (at - 3));
        }
        if (stored > end - at) {
          throw new ScienceFormatException(codec + ": a block of " + stored + " bytes at "
              + (at - 3) + " runs past the end at " + end);
        }
        at += stored;
      } while (!last);
      if (checksum) {
        if (end - at < 4) {
          throw new ScienceFormatException(codec + ": the frame at " + start + " ends "
              + "before its checksum");
        }
        at += 4;
      }
      if (count == frames.length) {
        frames = Arrays.copyOf(frames, 2 * count);
      }
      frames[count++] = start;
      frames[count++] = at - start;
      frames[count++] = contentSize;
      frames[count++] = most;
    }
    if (count == 0) {
      throw new ScienceFormatException(codec + ": no frame in " + (end - from) + " bytes");
    }
    return Arrays.copyOf(frames, count);
  }

  /**
   * A frame's header from its descriptor at {@code at}: where its blocks start, its content
   * size (-1 where none), its window size, and whether a checksum ends it (1).
   */
  private static long[] header(String codec, byte[] in, int at, int end, int frame) {
    if (at >= end) {
      throw new ScienceFormatException(codec + ": the frame at " + frame + " ends in its "
          + "header");
    }
    int descriptor = in[at] & 0xFF;
    int sizeFlag = descriptor >>> 6;
    boolean single = (descriptor & 0x20) != 0;
    int dictionaryFlag = descriptor & 3;
    if ((descriptor & 0x08) != 0) {
      throw new ScienceFormatException(codec + ": the frame at " + frame + " sets its "
          + "header's reserved bit");
    }
    int dictionaryBytes = dictionaryFlag == 0 ? 0 : 1 << (dictionaryFlag - 1);
    int sizeBytes = sizeFlag == 0 ? (single ? 1 : 0) : 1 << sizeFlag;
    int length = 1 + (single ? 0 : 1) + dictionaryBytes + sizeBytes;
    if (end - at < length) {
      throw new ScienceFormatException(codec + ": the frame at " + frame + " ends in its "
          + "header");
    }
    int p = at + 1;
    long window = -1;
    if (!single) {
      int w = in[p++] & 0xFF;
      long base = 1L << (10 + (w >>> 3));
      window = base + base / 8 * (w & 7);
    }
    long dictionary = 0;
    for (int i = 0; i < dictionaryBytes; i++) {
      dictionary |= (in[p++] & 0xFFL) << (8 * i);
    }
    if (dictionaryFlag != 0) {
      throw new ScienceFormatException(codec + ": the frame at " + frame + " names "
          + "dictionary " + dictionary + " (Zarr's codec uses none)");
    }
    long size = -1;
    if (sizeBytes > 0) {
      size = 0;
      for (int i = 0; i < sizeBytes; i++) {
        size |= (in[p++] & 0xFFL) << (8 * i);
      }
      if (sizeBytes == 2) {
        size += 256;
      }
      if (size < 0) {
        size = Long.MAX_VALUE; // past any bound
      }
    }
    if (single) {
      window = size;
    }
    return new long[] {p, size, window, (descriptor & 0x04) != 0 ? 1 : 0};
  }

  private static int le32(byte[] b, int at) {
    return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16
        | (b[at + 3] & 0xFF) << 24;
  }
}
