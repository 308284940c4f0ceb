package org.opass.mrap.format.zarr;

import java.util.Arrays;
import org.opass.mrap.format.ScienceFormatException;

/**
 * The BloscLZ decompressor of c-blosc 1.21 ({@code blosclz_decompress} of blosclz.c), the
 * default compressor of Blosc frames: a literal run is a control byte below 32 (run length
 * minus 1) and its bytes; a match is a control byte whose top 3 bits are its length (7: more
 * length bytes follow, each adding up to 255) and low 5 bits the high bits of its distance,
 * then the distance's low byte (255 after a high part of 31: a 16-bit distance beyond 8191
 * follows). Written to never read or write outside the given ranges.
 */
final class BloscLz {
  private static final int MAX_DISTANCE = 8191;

  private BloscLz() {
  }

  /**
   * Decodes {@code length} bytes of {@code in} from {@code from} into at most {@code maxOut}
   * bytes of {@code out} from {@code to}.
   *
   * @param codec how a message names the stream ("blosc: block 3 stream 1")
   *
   * @return the bytes written (c-blosc's caller wants exactly its stream's size)
   * @throws ScienceFormatException where the stream reads or writes past its bounds, or copies
   *     from before its output
   */
  static int decompress(String codec, byte[] in, int from, int length, byte[] out, int to,
      int maxOut) {
    if (length == 0) {
      return 0;
    }
    int ip = from;
    int ipLimit = from + length;
    int op = to;
    int opLimit = to + maxOut;
    int ctrl = in[ip++] & 31;
    while (true) {
      if (ctrl >= 32) {
        long len = (ctrl >>> 5) - 1;
        int ofs = (ctrl & 31) << 8;
        int code;
        if (len == 7 - 1) {
          do {
            if (ip + 1 >= ipLimit) {
              throw damaged(codec, "a match's length", ip - from, length);
            }
            code = in[ip++] & 0xFF;
            len += code;
            if (len > maxOut) {
              throw fail(codec, "a match of over " + len + " bytes at " + (ip - from)
                  + " past the stream's " + maxOut + " bytes");
            }
          } while (code == 255);
        } else if (ip + 1 >= ipLimit) {
          throw damaged(codec, "a match's distance", ip - from, length);
        }
        code = in[ip++] & 0xFF;
        len += 3;
        long distance = ofs + code;
        if (code == 255 && ofs == 31 << 8) {
          if (ip + 1 >= ipLimit) {
            throw damaged(codec, "a match's 16-bit distance", ip - from, length);
          }
          ofs = (in[ip] & 0xFF) << 8 | in[ip + 1] & 0xFF;
          ip += 2;
          distance = ofs + MAX_DISTANCE;
        }
        if (op + len > opLimit) {
          throw fail(codec, "a match of " + len + " bytes at " + (ip - from) + " ends past "
              + "the stream's " + maxOut + " bytes");
        }
        // c-blosc: ref = op - distance, then ref - 1 may not precede the output
        long ref = op - distance - 1;
        if (ref < to) {
          throw fail(codec, "a match at " + (ip - from) + " copies from " + (distance + 1)
              + " bytes back, before the stream's first byte (" + (op - to) + " written)");
        }
        if (ip >= ipLimit) {
          break; // as c-blosc: a match at the very end of the stream is not copied
        }
        ctrl = in[ip++] & 0xFF;
        copyMatch(out, (int) ref, op, (int) len);
        op += (int) len;
      } else {
        int run = ctrl + 1;
        if (op + run > opLimit) {
          throw fail(codec, "a literal run of " + run + " bytes at " + (ip - from) + " ends "
              + "past the stream's " + maxOut + " bytes");
        }
        if (ip + run > ipLimit) {
          throw damaged(codec, "a literal run of " + run + " bytes", ip - from, length);
        }
        System.arraycopy(in, ip, out, op, run);
        op += run;
        ip += run;
        if (ip >= ipLimit) {
          break;
        }
        ctrl = in[ip++] & 0xFF;
      }
    }
    return op - to;
  }

  /** LZ77's copy: byte by byte forward, where the source may overlap what it writes. */
  static void copyMatch(byte[] out, int ref, int op, int len) {
    int distance = op - ref;
    if (distance >= len) {
      System.arraycopy(out, ref, out, op, len);
    } else if (distance == 1) {
      Arrays.fill(out, op, op + len, out[ref]);
    } else {
      // the pattern of `distance` bytes repeats: copy it in growing pieces, each from bytes
      // already written
      int done = 0;
      int piece = distance;
      while (done < len) {
        int n = Math.min(piece, len - done);
        System.arraycopy(out, ref, out, op + done, n);
        done += n;
        piece = done + distance;
      }
    }
  }

  private static ScienceFormatException damaged(String codec, String what, int at,
      int length) {
    return fail(codec, what + " at " + at + " runs past the stream's " + length + " bytes");
  }

  private static ScienceFormatException fail(String codec, String why) {
    return new ScienceFormatException(codec + ": blosclz: " + why);
  }
}
