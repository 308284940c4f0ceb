package org.opass.mrap.format.hdf5;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.opass.mrap.array.ElementType;

/**
 * A datatype message: its class, size and, for numbers, byte order, sign and whether it is an IEEE
 * binary32 or binary64 layout; a compound type's members by name and offset.
 */
final class Datatype {
  static final int FIXED = 0;
  static final int FLOAT = 1;
  static final int STRING = 3;
  static final int COMPOUND = 6;
  static final int REFERENCE = 7;
  static final int VLEN = 9;
  private static final String[] NAMES = {"fixed-point", "floating-point", "time", "string",
      "bit field", "opaque", "compound", "reference", "enumerated", "variable-length",
      "array", "complex"};

  final int kind;
  final long size;
  final ByteOrder order;
  final boolean signed;
  final boolean ieee; // floating point: IEEE 754 binary32 or binary64 layout
  final int bits; // class bit field
  final List<String> memberNames = new ArrayList<>();
  final List<Long> memberOffsets = new ArrayList<>();

  Datatype(int kind, long size, ByteOrder order, boolean signed, boolean ieee, int bits) {
    this.kind = kind;
    this.size = size;
    this.order = order;
    this.signed = signed;
    this.ieee = ieee;
    this.bits = bits;
  }

  String kindName() {
    return kind < NAMES.length ? NAMES[kind] : "class " + kind;
  }

  /** The element type a job reads, or null for one it does not. */
  ElementType element() {
    if (kind == FIXED && (size == 1 || size == 2 || size == 4 || size == 8)) {
      return ElementType.integer((int) size, signed);
    }
    if (kind == FLOAT && ieee && size == 4) {
      return ElementType.FLOAT32;
    }
    if (kind == FLOAT && ieee && size == 8) {
      return ElementType.FLOAT64;
    }
    return null;
  }

  long memberOffset(String name) {
    int i = memberNames.indexOf(name);
    return i < 0 ? -1 : memberOffsets.get(i);
  }

  /** The datatype message at {@code b}, the cursor moved past it (members and bases too). */
  static Datatype parse(Hdf5Bytes b) {
    int classAndVersion = b.u8();
    int kind = classAndVersion & 0x0f;
    int version = classAndVersion >> 4;
    int bits = b.u8() | b.u8() << 8 | b.u8() << 16;
    long size = b.u32();
    ByteOrder order = (bits & 1) != 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    if (kind == Datatype.FIXED) {
      b.u16();
      int precision = b.u16();
      return new Datatype(kind, size, order, (bits & 0x08) != 0, precision == 8 * size, bits);
    }
    if (kind == Datatype.FLOAT) {
      b.u16();
      int precision = b.u16();
      int expLocation = b.u8();
      int expSize = b.u8();
      int mantLocation = b.u8();
      int mantSize = b.u8();
      long bias = b.u32();
      boolean ieee = (bits & 0x40) == 0
          && (size == 4 && precision == 32 && expLocation == 23 && expSize == 8
          && mantLocation == 0 && mantSize == 23 && bias == 127
          || size == 8 && precision == 64 && expLocation == 52 && expSize == 11
          && mantLocation == 0 && mantSize == 52 && bias == 1023);
      return new Datatype(kind, size, order, true, ieee, bits);
    }
    Datatype t = new Datatype(kind, size, order, false, false, bits);
    if (kind == Datatype.COMPOUND) {
      int members = bits & 0xffff;
      for (int i = 0; i < members; i++) {
        int start = b.position();
        String name = b.cString();
        if (version < 3) {
          int used = b.position() - start;
          b.skip((used + 7) / 8 * 8 - used);
          t.memberOffsets.add(b.u32());
          if (version == 1) {
            b.skip(4 + 4 + 4 + 16);
          }
        } else {
          t.memberOffsets.add(b.unsigned(Hdf5File.encodedSize(size)));
        }
        t.memberNames.add(name);
        parse(b); // the member's own type, skipped past
      }
    } else if (kind == Datatype.VLEN || kind == 10) {
      if (kind == 10) { // array: dimensions, then the base type
        int rank = b.u8();
        b.skip(version < 3 ? 3 + 8L * rank : 4L * rank);
      }
      parse(b);
    } else if (kind == 8) { // enumerated: base type, names and values (not read)
      b.skip(b.remaining());
    } else if (kind == Datatype.REFERENCE && version >= 4) {
      b.skip(b.remaining());
    }
    return t;
  }
}
