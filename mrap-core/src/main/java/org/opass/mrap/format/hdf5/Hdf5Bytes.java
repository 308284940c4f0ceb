package org.opass.mrap.format.hdf5;

import io.jhdf.checksum.JenkinsLookup3HashLittle;
import java.nio.charset.StandardCharsets;

/**
 * A little-endian cursor over one block of HDF5 metadata read from a file (an object header, a
 * B-tree node, a heap block). Every read is checked against the block: a field that runs past it
 * is a damaged file, reported as {@link Hdf5Damage} naming the block, never an unnamed
 * exception.
 */
final class Hdf5Bytes {
  /** HDF5's undefined address (all bits set), as {@link #address} gives it. */
  static final long UNDEFINED = -1L;

  private final byte[] b;
  private final String what;
  private final int sizeOfOffsets;
  private final int sizeOfLengths;
  private final int start;
  private final int end;
  private int pos;

  Hdf5Bytes(byte[] b, String what, int sizeOfOffsets, int sizeOfLengths) {
    this(b, 0, b.length, what, sizeOfOffsets, sizeOfLengths);
  }

  private Hdf5Bytes(byte[] b, int from, int end, String what, int sizeOfOffsets,
      int sizeOfLengths) {
    this.b = b;
    this.start = from;
    this.pos = from;
    this.end = end;
    this.what = what;
    this.sizeOfOffsets = sizeOfOffsets;
    this.sizeOfLengths = sizeOfLengths;
  }

  String what() {
    return what;
  }

  /** Bytes read from the start of this block. */
  int position() {
    return pos - start;
  }

  int remaining() {
    return end - pos;
  }

  /** Moves to byte {@code position} of this block. */
  Hdf5Bytes at(int position) {
    if (position < 0 || position > end - start) {
      throw new Hdf5Damage(what + " is damaged: a field at byte " + position + " of a block of "
          + (end - start));
    }
    pos = start + position;
    return this;
  }

  /**
   * Checks the metadata checksum (Jenkins' lookup3, as HDF5 computes it) stored at byte {@code to}
   * of this block over bytes {@code [from, to)}.
   */
  void checksum(int from, int to, String block) {
    if (from < 0 || to < from || to + 4 > end - start) {
      throw new Hdf5Damage(block + " is damaged: its checksum lies outside it");
    }
    int stored = (b[start + to] & 0xff) | (b[start + to + 1] & 0xff) << 8
        | (b[start + to + 2] & 0xff) << 16 | (b[start + to + 3] & 0xff) << 24;
    int computed = JenkinsLookup3HashLittle.hash(
        java.util.Arrays.copyOfRange(b, start + from, start + to), 0);
    if (stored != computed) {
      throw new Hdf5Damage(block + " fails its checksum: the file is damaged");
    }
  }

  Hdf5Bytes skip(long n) {
    need(n);
    pos += (int) n;
    return this;
  }

  /** The next {@code n} bytes as a cursor of their own (this one moves past them). */
  Hdf5Bytes slice(long n, String part) {
    need(n);
    Hdf5Bytes s = new Hdf5Bytes(b, pos, pos + (int) n, what + ", " + part, sizeOfOffsets,
        sizeOfLengths);
    pos += (int) n;
    return s;
  }

  private void need(long n) {
    if (n < 0 || n > end - pos) {
      throw new Hdf5Damage(what + " is damaged: a field of " + n + " bytes at byte "
          + (pos - start) + " runs past its end (" + (end - start) + " bytes)");
    }
  }

  int u8() {
    need(1);
    return b[pos++] & 0xff;
  }

  int u16() {
    return (int) unsigned(2);
  }

  long u32() {
    return unsigned(4);
  }

  /** An unsigned little-endian number of {@code n} bytes (n at most 8; 8 may read as negative). */
  long unsigned(int n) {
    if (n < 0 || n > 8) {
      throw new Hdf5Damage(what + " is damaged: a number of " + n + " bytes");
    }
    need(n);
    long v = 0;
    for (int i = n - 1; i >= 0; i--) {
      v = v << 8 | (b[pos + i] & 0xff);
    }
    pos += n;
    return v;
  }

  /** A file address ({@link #UNDEFINED} when all its bytes are set). */
  long address() {
    long v = unsigned(sizeOfOffsets);
    if (sizeOfOffsets == 8 ? v == -1L : v == (1L << (8 * sizeOfOffsets)) - 1) {
      return UNDEFINED;
    }
    if (v < 0) {
      throw new Hdf5Damage(what + " is damaged: an address of 2^63 or more");
    }
    return v;
  }

  /** A length field of the file's size of lengths, checked to fit a signed long. */
  long length() {
    long v = unsigned(sizeOfLengths);
    if (v < 0) {
      throw new Hdf5Damage(what + " is damaged: a length of 2^63 bytes or more");
    }
    return v;
  }

  /** A length field that must fit an int (a count or size held in memory). */
  int smallLength(String field) {
    return checkedInt(length(), field);
  }

  int checkedInt(long v, String field) {
    if (v < 0 || v > Integer.MAX_VALUE - 8) {
      throw new Hdf5Damage(what + " is damaged: its " + field + " is " + v);
    }
    return (int) v;
  }

  byte[] bytes(long n) {
    need(n);
    byte[] out = new byte[(int) n];
    System.arraycopy(b, pos, out, 0, (int) n);
    pos += (int) n;
    return out;
  }

  /** A string of {@code n} bytes, cut at its first NUL. */
  String string(long n) {
    byte[] s = bytes(n);
    int len = 0;
    while (len < s.length && s[len] != 0) {
      len++;
    }
    return new String(s, 0, len, StandardCharsets.UTF_8);
  }

  /** A NUL-terminated string from here, the cursor left past its NUL. */
  String cString() {
    int start = pos;
    while (pos < end && b[pos] != 0) {
      pos++;
    }
    if (pos >= end) {
      throw new Hdf5Damage(what + " is damaged: a name runs past its end");
    }
    String s = new String(b, start, pos - start, StandardCharsets.UTF_8);
    pos++;
    return s;
  }

  /** Checks the 4-byte signature at the cursor. */
  Hdf5Bytes signature(String expected) {
    byte[] s = bytes(4);
    String got = new String(s, StandardCharsets.ISO_8859_1);
    if (!got.equals(expected)) {
      throw new Hdf5Damage(what + " is damaged: signature '" + printable(got) + "' where '"
          + expected + "' belongs");
    }
    return this;
  }

  private static String printable(String s) {
    StringBuilder out = new StringBuilder();
    for (char c : s.toCharArray()) {
      out.append(c >= 32 && c < 127 ? String.valueOf(c) : String.format("\\x%02x", (int) c));
    }
    return out.toString();
  }

  int sizeOfOffsets() {
    return sizeOfOffsets;
  }

  int sizeOfLengths() {
    return sizeOfLengths;
  }
}
