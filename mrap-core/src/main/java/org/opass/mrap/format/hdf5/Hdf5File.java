package org.opass.mrap.format.hdf5;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opass.mrap.format.Positioned;

/**
 * The metadata of one HDF5 file, read as the HDF5 File Format Specification (version 3) lays it
 * out: the superblock, object headers and their messages, groups (symbol tables, compact and
 * dense links), local, global and fractal heaps, and version 1 and 2 B-trees. Only the objects a
 * lookup passes through are read, so one unsupported object (a virtual dataset, external
 * storage) never stops a sibling from being read.
 *
 * <p>Every block is read through {@link #read}, which checks it against the file's length and a
 * budget of metadata bytes (four times the file and a mebibyte) before allocating anything, and
 * every parse walks a bounded number of blocks, each once: a damaged file costs memory bounded by
 * its length and ends in {@link Hdf5Damage} naming what is damaged.
 */
final class Hdf5File implements Closeable {
  static final int MSG_DATASPACE = 0x01;
  static final int MSG_LINK_INFO = 0x02;
  static final int MSG_DATATYPE = 0x03;
  static final int MSG_FILL_OLD = 0x04;
  static final int MSG_FILL = 0x05;
  static final int MSG_LINK = 0x06;
  static final int MSG_EXTERNAL = 0x07;
  static final int MSG_LAYOUT = 0x08;
  static final int MSG_FILTERS = 0x0B;
  static final int MSG_ATTRIBUTE = 0x0C;
  static final int MSG_CONTINUATION = 0x10;
  static final int MSG_SYMBOL_TABLE = 0x11;
  static final int MSG_ATTRIBUTE_INFO = 0x15;

  private static final byte[] SIGNATURE = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  static final int MAX_DEPTH = 64; // B-tree levels, nested heap blocks, soft links
  private static final int KEPT_COLLECTION = 1 << 20;

  private final PagedChannel channel;
  private final long fileLength;
  private final long base;
  private final int sizeOfOffsets;
  private final int sizeOfLengths;
  private final long root;
  private long budget;
  /** Global heap collections of at most {@link #KEPT_COLLECTION} bytes, the last few read. */
  private final Map<Long, byte[]> collections = new LinkedHashMap<Long, byte[]>(16, 0.75f,
      true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
      return size() > 8;
    }
  };
  /** All the links of the last few groups listed whole ({@link #links(long)}). */
  private final Map<Long, List<Links.Link>> linkLists =
      new LinkedHashMap<Long, List<Links.Link>>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, List<Links.Link>> eldest) {
      return size() > 16;
    }
  };
  private final Map<Long, Hdf5Object> objects = new LinkedHashMap<Long, Hdf5Object>(16, 0.75f,
      true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Hdf5Object> eldest) {
      return size() > 256;
    }
  };

  private Hdf5File(PagedChannel channel, long fileLength, long base, int sizeOfOffsets,
      int sizeOfLengths, long root) {
    this.channel = channel;
    this.fileLength = fileLength;
    this.base = base;
    this.sizeOfOffsets = sizeOfOffsets;
    this.sizeOfLengths = sizeOfLengths;
    this.root = root;
    this.budget = 4 * fileLength + (1 << 20);
  }

  /** Whether {@code head} holds the HDF5 signature at 0 or at a user block's end (512, 1024...). */
  static boolean matches(byte[] head) {
    return signatureAt(head) >= 0;
  }

  private static long signatureAt(byte[] head) {
    for (long at = 0; at + SIGNATURE.length <= head.length; at = at == 0 ? 512 : at * 2) {
      boolean same = true;
      for (int i = 0; i < SIGNATURE.length && same; i++) {
        same = head[(int) at + i] == SIGNATURE[i];
      }
      if (same) {
        return at;
      }
    }
    return -1;
  }

  /**
   * Opens the file's superblock, looking for the signature at 0, 512, 1024 and on (a user block
   * before it), as HDF5 does.
   */
  static Hdf5File open(Positioned in) throws IOException {
    long length = in.length();
    PagedChannel ch = new PagedChannel(in);
    long at = -1;
    byte[] sig = new byte[SIGNATURE.length];
    for (long p = 0; p + 48 <= length; p = p == 0 ? 512 : p * 2) {
      readAbsolute(ch, p, sig);
      if (java.util.Arrays.equals(sig, SIGNATURE)) {
        at = p;
        break;
      }
    }
    if (at < 0) {
      throw new Hdf5Damage("no HDF5 signature at byte 0, 512, 1024 or any later power of two");
    }
    byte[] head = new byte[(int) Math.min(128, length - at)];
    readAbsolute(ch, at, head);
    Hdf5Bytes b = new Hdf5Bytes(head, "the superblock", 8, 8);
    b.skip(8);
    int version = b.u8();
    int so;
    int sl;
    long rootAddress;
    if (version == 0 || version == 1) {
      b.skip(4); // free-space, root symbol table and shared header versions, reserved
      so = b.u8();
      sl = b.u8();
      checkSizes(so, sl);
      b.skip(1 + 2 + 2 + 4 + (version == 1 ? 4 : 0));
      b = reread(b, so, sl);
      b.address(); // base address: HDF5 takes the superblock's own, as below
      b.address(); // free-space info
      b.address(); // end of file
      b.address(); // driver info
      b.address(); // root symbol table entry: link name offset
      rootAddress = b.address();
    } else if (version == 2 || version == 3) {
      so = b.u8();
      sl = b.u8();
      checkSizes(so, sl);
      b.u8(); // flags
      b = reread(b, so, sl);
      b.address(); // base address
      b.address(); // superblock extension
      b.address(); // end of file
      rootAddress = b.address();
      int end = b.position();
      b.checksum(0, end, "the superblock");
    } else {
      throw new Hdf5Damage("superblock version " + version + " (this reader knows 0 to 3)");
    }
    if (rootAddress == Hdf5Bytes.UNDEFINED) {
      throw new Hdf5Damage("the superblock names no root group");
    }
    // HDF5 counts addresses from the superblock, whatever base address it records
    return new Hdf5File(ch, length, at, so, sl, rootAddress);
  }

  private static Hdf5Bytes reread(Hdf5Bytes b, int so, int sl) {
    int at = b.position();
    byte[] all = b.at(0).bytes(b.remaining());
    return new Hdf5Bytes(all, "the superblock", so, sl).at(at);
  }

  private static void checkSizes(int so, int sl) {
    if (so != 2 && so != 4 && so != 8 || sl != 2 && sl != 4 && sl != 8) {
      throw new Hdf5Damage("the superblock gives offsets of " + so + " and lengths of " + sl
          + " bytes (2, 4 or 8)");
    }
  }

  private static void readAbsolute(PagedChannel ch, long at, byte[] into) throws IOException {
    ch.position(at);
    ByteBuffer bb = ByteBuffer.wrap(into);
    while (bb.hasRemaining()) {
      if (ch.read(bb) < 0) {
        throw new Hdf5Damage("the file ends at byte " + (at + bb.position()));
      }
    }
  }

  long length() {
    return fileLength;
  }

  /** Bytes before the superblock (a user block): file offsets are addresses plus this. */
  long base() {
    return base;
  }

  int sizeOfOffsets() {
    return sizeOfOffsets;
  }

  int sizeOfLengths() {
    return sizeOfLengths;
  }

  /**
   * Reads {@code length} bytes of metadata at {@code address}, after checking that they lie in
   * the file and within the budget.
   */
  Hdf5Bytes read(long address, long length, String what) {
    if (address == Hdf5Bytes.UNDEFINED || address < 0 || length < 0
        || address > fileLength - base || length > fileLength - base - address) {
      throw new Hdf5Damage(what + " at address " + (address == Hdf5Bytes.UNDEFINED ? "undefined"
          : Long.toString(address)) + " (" + length + " bytes) lies outside the file ("
          + fileLength + " bytes): the file is cut short or damaged");
    }
    if (length > budget) {
      throw new Hdf5Damage(what + " at address " + address + ": the metadata read adds up to "
          + "more than four times the file's length");
    }
    budget -= length;
    byte[] b = new byte[(int) length];
    try {
      readAbsolute(channel, base + address, b);
    } catch (IOException e) {
      throw new Hdf5Damage(what + " at address " + address + " cannot be read: " + e);
    }
    return new Hdf5Bytes(b, what + " at address " + address, sizeOfOffsets, sizeOfLengths);
  }

  /** A cursor over bytes of this file's metadata held elsewhere (an attribute's value). */
  Hdf5Bytes bytes(byte[] b, String what) {
    return new Hdf5Bytes(b, what, sizeOfOffsets, sizeOfLengths);
  }

  /** Whether {@code length} bytes at address {@code address} lie within the file. */
  boolean holds(long address, long length) {
    return address >= 0 && length >= 0 && address <= fileLength - base
        && length <= fileLength - base - address;
  }

  @Override
  public void close() {
    channel.close();
  }

  /** The object header at {@code address}, its messages read; the last few are kept. */
  Hdf5Object object(long address) {
    Hdf5Object o = objects.get(address);
    if (o == null) {
      o = new Hdf5Object(this, address, new ObjectHeaders(this, address).read());
      objects.put(address, o);
    }
    return o;
  }

  /** The root group's object header address. */
  long root() {
    return root;
  }

  /**
   * The address of the object at {@code path} (absolute, or relative to the root), following
   * soft links; null where no such object is linked.
   *
   * @throws Hdf5Unsupported for an external link on the way
   */
  Long resolve(String path) {
    return Links.resolve(this, root, path, 0);
  }

  /** All the links of the group at {@code group}; the last few groups' are kept. */
  List<Links.Link> links(long group) {
    List<Links.Link> l = linkLists.get(group);
    if (l == null) {
      l = java.util.Collections.unmodifiableList(Links.of(this, object(group), null));
      linkLists.put(group, l);
    }
    return l;
  }

  /** Bytes HDF5 uses to store a number up to {@code max} (H5VM_limit_enc_size). */
  static int encodedSize(long max) {
    return log2(Math.max(1, max)) / 8 + 1;
  }

  /** The highest bit set in {@code v} (H5VM_log2_gen), for v > 0. */
  static int log2(long v) {
    return 63 - Long.numberOfLeadingZeros(v);
  }

  /**
   * The object {@code index} of the global heap collection at {@code collection}; the last few
   * collections read are kept (a DIMENSION_LIST's references and vlen strings share one).
   */
  byte[] globalHeapObject(long collection, long index) {
    byte[] bytes = collections.get(collection);
    if (bytes == null) {
      Hdf5Bytes h = read(collection, 8 + sizeOfLengths, "a global heap collection")
          .signature("GCOL");
      h.skip(4);
      long size = h.length();
      bytes = read(collection, size, "a global heap collection").at(0).bytes(size);
      if (size <= KEPT_COLLECTION) {
        collections.put(collection, bytes);
      }
    }
    Hdf5Bytes c = bytes(bytes, "a global heap collection at address " + collection);
    c.skip(8 + sizeOfLengths);
    while (c.remaining() >= 8 + sizeOfLengths) {
      int i = c.u16();
      c.skip(6);
      long len = c.length();
      if (i == 0) {
        break; // free space: the rest of the collection
      }
      if (i == index) {
        return c.bytes(len);
      }
      c.skip(Math.min(c.remaining(), (len + 7) / 8 * 8));
    }
    throw new Hdf5Damage("the global heap collection at address " + collection + " holds no "
        + "object " + index);
  }
}
