package org.opass.mrap.format.zarr;

import java.util.zip.CRC32C;
import org.opass.mrap.format.ScienceFormatException;

/** Zarr v3's crc32c codec: the bytes, then their CRC-32C (Castagnoli), 4 bytes little-endian. */
final class Crc32c {
  private Crc32c() {
  }

  /** {@code in} without its checksum, which must match. */
  static byte[] strip(byte[] in) {
    int n = in.length - 4;
    if (n < 0) {
      throw new ScienceFormatException("crc32c: " + in.length + " bytes hold no checksum");
    }
    check(in, 0, n, "crc32c");
    return java.util.Arrays.copyOf(in, n);
  }

  /** Checks that bytes {@code [off, off + n)} are followed by their CRC-32C. */
  static void check(byte[] in, int off, int n, String what) {
    CRC32C c = new CRC32C();
    c.update(in, off, n);
    long stored = (in[off + n] & 0xffL) | (in[off + n + 1] & 0xffL) << 8
        | (in[off + n + 2] & 0xffL) << 16 | (in[off + n + 3] & 0xffL) << 24;
    if (stored != c.getValue()) {
      throw new ScienceFormatException(what + ": the CRC-32C of " + n + " bytes is "
          + Long.toHexString(c.getValue()) + ", the stored one " + Long.toHexString(stored)
          + ": the bytes are damaged");
    }
  }
}
