package org.opass.mrap.format.zarr;

import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.opass.mrap.format.ScienceFormatException;

/**
 * Deflate streams: numcodecs' {@code Zlib} (a zlib stream, as Python's {@code zlib.decompress}
 * reads it: bytes after the stream's end ignored) and {@code GZip} (gzip members, as Python's
 * {@code gzip} module reads them: one or more members, each checked by its CRC-32 and length,
 * zero bytes between or after them skipped), and the zlib streams of Blosc frames. Decoded by
 * java.util.zip into at most the caller's bound: a stream that would decode further is refused
 * as soon as it passes it.
 */
public final class Inflate {
  /** Deflate's largest ratio is about 1032 to 1. */
  private static final long MAX_RATIO = 1032;

  private Inflate() {
  }

  /**
   * numcodecs' {@code Zlib.decode}: the zlib stream's bytes.
   *
   * @param maxBytes the most bytes the chunk may decode to (its declared size)
   * @throws ScienceFormatException where the stream is damaged, cut short, or decodes past
   *     {@code maxBytes}
   */
  public static byte[] zlib(byte[] src, long maxBytes) {
    byte[] out = new byte[capacity(src.length, maxBytes)];
    Inflater inf = new Inflater();
    try {
      inf.setInput(src, 0, src.length);
      int n = inflate("zlib", inf, out, 0, out.length, maxBytes);
      return n == out.length ? out : Arrays.copyOf(out, n);
    } finally {
      inf.end();
    }
  }

  /**
   * numcodecs' {@code GZip.decode}: the bytes of the chunk's gzip members, one after another.
   *
   * @param maxBytes the most bytes the chunk may decode to (its declared size)
   * @throws ScienceFormatException where a member's header, data or trailer is damaged or cut
   *     short, bytes other than zeros follow a member and are no member, or the members decode
   *     past {@code maxBytes}
   */
  public static byte[] gzip(byte[] src, long maxBytes) {
    byte[] out = new byte[capacity(src.length, maxBytes)];
    int written = 0;
    int at = 0;
    Inflater inf = new Inflater(true);
    CRC32 crc = new CRC32();
    try {
      for (int member = 0; ; member++) {
        while (at < src.length && src[at] == 0) {
          at++; // zeros after a member (Python's gzip skips them)
        }
        if (at == src.length) {
          break;
        }
        int data = gzipHeader(src, at, member);
        inf.reset();
        inf.setInput(src, data, src.length - data);
        int n = inflate("gzip", inf, out, written, out.length - written, maxBytes - written);
        long end = data + inf.getBytesRead();
        if (src.length - end < 8) {
          throw new ScienceFormatException("gzip: member " + member + " ends at " + src.length
              + " before its 8-byte trailer");
        }
        crc.reset();
        crc.update(out, written, n);
        long stored = le32(src, (int) end);
        long length = le32(src, (int) end + 4);
        if (stored != crc.getValue()) {
          throw new ScienceFormatException("gzip: member " + member + "'s CRC-32 is "
              + Long.toHexString(stored) + ", its bytes' " + Long.toHexString(crc.getValue()));
        }
        if (length != (n & 0xFFFFFFFFL)) {
          throw new ScienceFormatException("gzip: member " + member + " says it holds "
              + length + " bytes (modulo 2^32), not the " + n + " it decodes to");
        }
        written += n;
        at = (int) end + 8;
      }
      return written == out.length ? out : Arrays.copyOf(out, written);
    } finally {
      inf.end();
    }
  }

  /**
   * Inflates the zlib stream of {@code length} bytes of {@code in} from {@code from} into
   * exactly {@code size} bytes of {@code out} from {@code to} (as c-blosc's {@code
   * uncompress}: the stream must end there).
   */
  static void zlibInto(String codec, byte[] in, int from, int length, byte[] out, int to,
      int size) {
    Inflater inf = new Inflater();
    try {
      inf.setInput(in, from, length);
      int n = inflate(codec, inf, out, to, size, size);
      if (n != size) {
        throw new ScienceFormatException(codec + ": the zlib stream of " + length + " bytes "
            + "decodes to " + n + " bytes, not " + size);
      }
    } finally {
      inf.end();
    }
  }

  /** Room for what {@code length} bytes may inflate to, up to {@code maxBytes}. */
  private static int capacity(int length, long maxBytes) {
    return (int) Math.max(0, Math.min(Math.min(maxBytes, Blosc.MAX_ARRAY),
        MAX_RATIO * length + 1024));
  }

  /**
   * Inflates to the stream's end into at most {@code room} bytes of {@code out} from
   * {@code to}.
   *
   * @param bound the bytes the caller allows (at least {@code room}): a stream that needs more
   *     room than {@code room} is refused as passing it
   * @return the bytes written
   */
  private static int inflate(String codec, Inflater inf, byte[] out, int to, int room,
      long bound) {
    int written = 0;
    byte[] probe = null;
    long lastRead = -1;
    try {
      while (!inf.finished()) {
        int n;
        if (written < room) {
          n = inf.inflate(out, to + written, room - written);
          written += n;
        } else {
          if (probe == null) {
            probe = new byte[1];
          }
          n = inf.inflate(probe, 0, 1);
          if (n > 0) {
            throw new ScienceFormatException(codec + ": the stream decodes past the " + bound
                + " bytes the chunk may hold");
          }
        }
        if (n == 0 && !inf.finished()) {
          if (inf.needsDictionary()) {
            throw new ScienceFormatException(codec + ": the stream needs a preset "
                + "dictionary");
          }
          if (inf.needsInput()) {
            throw new ScienceFormatException(codec + ": the stream is cut short after "
                + inf.getBytesRead() + " bytes (" + written + " decoded)");
          }
          if (inf.getBytesRead() == lastRead) {
            throw new ScienceFormatException(codec + ": the stream stops at its byte "
                + inf.getBytesRead());
          }
        }
        lastRead = inf.getBytesRead();
      }
    } catch (DataFormatException e) {
      throw new ScienceFormatException(codec + ": the stream is damaged after "
          + inf.getBytesRead() + " bytes: " + e.getMessage(), e);
    }
    return written;
  }

  /** The header of the gzip member at {@code at}; where its deflate data start. */
  private static int gzipHeader(byte[] src, int at, int member) {
    String which = "gzip: member " + member + " at " + at;
    if (src.length - at < 10) {
      throw new ScienceFormatException(which + " has " + (src.length - at) + " bytes, fewer "
          + "than a header's 10");
    }
    if ((src[at] & 0xFF) != 0x1F || (src[at + 1] & 0xFF) != 0x8B) {
      throw new ScienceFormatException(which + " does not start with gzip's magic 1f 8b");
    }
    if (src[at + 2] != 8) {
      throw new ScienceFormatException(which + " has compression method " + src[at + 2]
          + ", not deflate's 8");
    }
    int flags = src[at + 3] & 0xFF;
    long p = at + 10;
    if ((flags & 0x04) != 0) { // FEXTRA
      if (src.length - p < 2) {
        throw new ScienceFormatException(which + " ends in its extra field's length");
      }
      p += 2 + ((src[(int) p] & 0xFF) | (src[(int) p + 1] & 0xFF) << 8);
    }
    for (int zeroEnded : new int[] {0x08, 0x10}) { // FNAME, FCOMMENT
      if ((flags & zeroEnded) != 0) {
        while (p < src.length && src[(int) p] != 0) {
          p++;
        }
        p++;
      }
    }
    if ((flags & 0x02) != 0) { // FHCRC
      p += 2;
    }
    if (p > src.length) {
      throw new ScienceFormatException(which + " ends in its header");
    }
    return (int) p;
  }

  private static long le32(byte[] b, int at) {
    return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16
        | (b[at + 3] & 0xFFL) << 24;
  }
}
