package org.opass.mrap.layout;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** Non-negative longs in 7-bit groups, low group first: a byte for values below 128. */
final class Varint {
  private Varint() {
  }

  static void write(DataOutput out, long v) throws IOException {
    if (v < 0) {
      throw new IllegalArgumentException("negative " + v);
    }
    while (v >= 0x80) {
      out.writeByte((int) (v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.writeByte((int) v);
  }

  /** @throws IOException for more than 63 bits */
  static long read(DataInput in) throws IOException {
    long v = 0;
    for (int shift = 0; shift < 63; shift += 7) {
      int b = in.readUnsignedByte();
      v |= (long) (b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        if (v < 0) {
          break;
        }
        return v;
      }
    }
    throw new IOException("a number of more than 63 bits");
  }
}
