package org.opass.mrap.format.hdf5;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One object header read into its messages (version 1, or version 2 with its checksums), its
 * continuation blocks followed: each block read once, at most {@value #MAX_MESSAGES} messages.
 */
final class ObjectHeaders {
  private static final int MAX_MESSAGES = 1 << 16;

  private final Hdf5File h;
  private final long address;
  private final List<Message> out = new ArrayList<>();

  /** The object header at {@code address} of {@code h}. */
  ObjectHeaders(Hdf5File h, long address) {
    this.h = h;
    this.address = address;
  }

  /** One message of an object header: its type, flags and body. */
  static final class Message {
    final int type;
    final int flags;
    private final byte[] body;
    private final String what;
    private final int so;
    private final int sl;

    Message(int type, int flags, byte[] body, String what, int so, int sl) {
      this.type = type;
      this.flags = flags;
      this.body = body;
      this.what = what;
      this.so = so;
      this.sl = sl;
    }

    /** A fresh cursor over the message's body. */
    Hdf5Bytes body() {
      return new Hdf5Bytes(body, what, so, sl);
    }

    boolean shared() {
      return (flags & 0x02) != 0;
    }
  }

  /** The messages of the object header, continuation blocks followed. */
  List<Message> read() {
    Hdf5Bytes first = h.read(address, Math.min(16, h.length() - h.base() - Math.max(0, address)),
        "an object header");
    if (first.remaining() >= 4 && first.u8() == 'O' && first.u8() == 'H' && first.u8() == 'D'
        && first.u8() == 'R') {
      readV2();
    } else {
      readV1(first.at(0));
    }
    return out;
  }

  /** {@code h}: the header's first 16 bytes, its prefix. */
  private void readV1(Hdf5Bytes prefix) {
    int version = prefix.u8();
    if (version != 1) {
      throw new Hdf5Damage("the object header at address " + address + " has version "
          + version + " (1, or OHDR for 2)");
    }
    prefix.skip(1 + 2 + 4);
    long size = prefix.u32();
    List<long[]> blocks = new ArrayList<>();
    blocks.add(new long[] {address + 16, size});
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < blocks.size(); i++) {
      long[] blk = blocks.get(i);
      if (!seen.add(blk[0]) || blocks.size() > Hdf5File.MAX_DEPTH * 16) {
        throw new Hdf5Damage("the object header at address " + address + " continues in a loop");
      }
      Hdf5Bytes m = h.read(blk[0], blk[1], "an object header block");
      while (m.remaining() >= 8) {
        int type = m.u16();
        int len = m.u16();
        int flags = m.u8();
        m.skip(3);
        byte[] body = m.bytes(len);
        add(type, flags, body, blocks);
      }
    }
  }

  private void readV2() {
    Hdf5Bytes p = h.read(address, Math.min(6 + 16 + 4 + 8, h.length() - h.base() - address),
        "an object header");
    p.skip(4);
    int version = p.u8();
    if (version != 2) {
      throw new Hdf5Damage("the object header at address " + address + " has version "
          + version + " (2)");
    }
    int flags = p.u8();
    if ((flags & 0x20) != 0) {
      p.skip(16);
    }
    if ((flags & 0x10) != 0) {
      p.skip(4);
    }
    long size = p.unsigned(1 << (flags & 3));
    int prefix = p.position();
    boolean order = (flags & 0x04) != 0;
    List<long[]> blocks = new ArrayList<>();
    blocks.add(new long[] {address, prefix + size + 4, prefix});
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < blocks.size(); i++) {
      long[] blk = blocks.get(i);
      if (!seen.add(blk[0]) || blocks.size() > Hdf5File.MAX_DEPTH * 16) {
        throw new Hdf5Damage("the object header at address " + address + " continues in a loop");
      }
      Hdf5Bytes m = h.read(blk[0], blk[1], i == 0 ? "an object header" : "an object header "
          + "continuation block");
      int end = (int) blk[1] - 4;
      m.checksum(0, end, i == 0 ? "the object header at address " + address
          : "an object header continuation block at address " + blk[0]);
      if (i > 0) {
        m.signature("OCHK");
      }
      m.at((int) blk[2]);
      int header = order ? 6 : 4;
      while (end - m.position() >= header) {
        int type = m.u8();
        int len = m.u16();
        int mflags = m.u8();
        if (order) {
          m.skip(2);
        }
        if (len > end - m.position()) {
          throw new Hdf5Damage("the object header at address " + address + " is damaged: a "
              + "message of " + len + " bytes runs past its block");
        }
        add(type, mflags, m.bytes(len), blocks);
      }
    }
  }

  private void add(int type, int flags, byte[] body, List<long[]> blocks) {
    if (out.size() >= MAX_MESSAGES) {
      throw new Hdf5Damage("the object header at address " + address + " has more than "
          + MAX_MESSAGES + " messages");
    }
    String what = "message " + type + " of the object header at address " + address;
    if (type == Hdf5File.MSG_CONTINUATION) {
      Hdf5Bytes c = h.bytes(body, what);
      // a block: address, length, and (version 2) where its messages start, past OCHK
      blocks.add(new long[] {c.address(), c.length(), 4});
      return;
    }
    out.add(new Message(type, flags, body, what, h.sizeOfOffsets(), h.sizeOfLengths()));
  }
}
