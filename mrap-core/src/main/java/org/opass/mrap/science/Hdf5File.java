package org.opass.mrap.science;

import io.jhdf.checksum.JenkinsLookup3HashLittle;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
  private static final int MAX_DEPTH = 64; // B-tree levels, nested heap blocks, soft links
  private static final int MAX_MESSAGES = 1 << 16;
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
  private final Map<Long, List<Link>> linkLists = new LinkedHashMap<Long, List<Link>>(16, 0.75f,
      true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, List<Link>> eldest) {
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

  // ---- object headers ----------------------------------------------------------------------

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

  /** The messages of the object header at {@code address}, continuation blocks followed. */
  Hdf5Object object(long address) {
    Hdf5Object o = objects.get(address);
    if (o == null) {
      o = new Hdf5Object(this, address, readMessages(address));
      objects.put(address, o);
    }
    return o;
  }

  private List<Message> readMessages(long address) {
    List<Message> out = new ArrayList<>();
    Hdf5Bytes first = read(address, Math.min(16, fileLength - base - Math.max(0, address)),
        "an object header");
    if (first.remaining() >= 4 && first.u8() == 'O' && first.u8() == 'H' && first.u8() == 'D'
        && first.u8() == 'R') {
      readV2(address, out);
    } else {
      readV1(address, first.at(0), out);
    }
    return out;
  }

  /** {@code h}: the header's first 16 bytes, its prefix. */
  private void readV1(long address, Hdf5Bytes h, List<Message> out) {
    int version = h.u8();
    if (version != 1) {
      throw new Hdf5Damage("the object header at address " + address + " has version "
          + version + " (1, or OHDR for 2)");
    }
    h.skip(1 + 2 + 4);
    long size = h.u32();
    List<long[]> blocks = new ArrayList<>();
    blocks.add(new long[] {address + 16, size});
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < blocks.size(); i++) {
      long[] blk = blocks.get(i);
      if (!seen.add(blk[0]) || blocks.size() > MAX_DEPTH * 16) {
        throw new Hdf5Damage("the object header at address " + address + " continues in a loop");
      }
      Hdf5Bytes m = read(blk[0], blk[1], "an object header block");
      while (m.remaining() >= 8) {
        int type = m.u16();
        int len = m.u16();
        int flags = m.u8();
        m.skip(3);
        byte[] body = m.bytes(len);
        add(out, type, flags, body, address, blocks);
      }
    }
  }

  private void readV2(long address, List<Message> out) {
    Hdf5Bytes h = read(address, Math.min(6 + 16 + 4 + 8, fileLength - base - address),
        "an object header");
    h.skip(4);
    int version = h.u8();
    if (version != 2) {
      throw new Hdf5Damage("the object header at address " + address + " has version "
          + version + " (2)");
    }
    int flags = h.u8();
    if ((flags & 0x20) != 0) {
      h.skip(16);
    }
    if ((flags & 0x10) != 0) {
      h.skip(4);
    }
    long size = h.unsigned(1 << (flags & 3));
    int prefix = h.position();
    boolean order = (flags & 0x04) != 0;
    List<long[]> blocks = new ArrayList<>();
    blocks.add(new long[] {address, prefix + size + 4, prefix});
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < blocks.size(); i++) {
      long[] blk = blocks.get(i);
      if (!seen.add(blk[0]) || blocks.size() > MAX_DEPTH * 16) {
        throw new Hdf5Damage("the object header at address " + address + " continues in a loop");
      }
      Hdf5Bytes m = read(blk[0], blk[1], i == 0 ? "an object header" : "an object header "
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
        add(out, type, mflags, m.bytes(len), address, blocks);
      }
    }
  }

  private void add(List<Message> out, int type, int flags, byte[] body, long address,
      List<long[]> blocks) {
    if (out.size() >= MAX_MESSAGES) {
      throw new Hdf5Damage("the object header at address " + address + " has more than "
          + MAX_MESSAGES + " messages");
    }
    String what = "message " + type + " of the object header at address " + address;
    if (type == MSG_CONTINUATION) {
      Hdf5Bytes c = new Hdf5Bytes(body, what, sizeOfOffsets, sizeOfLengths);
      // a block: address, length, and (version 2) where its messages start, past OCHK
      blocks.add(new long[] {c.address(), c.length(), 4});
      return;
    }
    out.add(new Message(type, flags, body, what, sizeOfOffsets, sizeOfLengths));
  }

  // ---- links and paths ---------------------------------------------------------------------

  /** A link of a group: hard (an object's address), soft (a path) or external. */
  static final class Link {
    final String name;
    final int kind; // 0 hard, 1 soft, 64 external
    final long address;
    final String target;

    Link(String name, int kind, long address, String target) {
      this.name = name;
      this.kind = kind;
      this.address = address;
      this.target = target;
    }
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
    return resolve(root, path, 0);
  }

  private Long resolve(long from, String path, int depth) {
    if (depth > MAX_DEPTH) {
      throw new Hdf5Damage("soft links from " + path + " go round in a loop");
    }
    long at = path.startsWith("/") ? root : from;
    List<Long> parents = new ArrayList<>();
    for (String part : path.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      Link l = link(at, part);
      if (l == null) {
        return null;
      }
      parents.add(at);
      if (l.kind == 0) {
        at = l.address;
      } else if (l.kind == 1) {
        Long t = resolve(at, l.target, depth + 1);
        if (t == null) {
          return null;
        }
        at = t;
      } else {
        throw new Hdf5Unsupported(part + " is an external link to " + l.target
            + ", which is not followed: read that file itself");
      }
    }
    return at;
  }

  /** The link {@code name} of the group at {@code group}, or null. */
  Link link(long group, String name) {
    Hdf5Object g = object(group);
    byte[] key = name.getBytes(StandardCharsets.UTF_8);
    for (Link l : links(g, JenkinsLookup3HashLittle.hash(key, 0))) {
      if (l.name.equals(name)) {
        return l;
      }
    }
    return null;
  }

  /** All the links of the group at {@code group}; the last few groups' are kept. */
  List<Link> links(long group) {
    List<Link> l = linkLists.get(group);
    if (l == null) {
      l = java.util.Collections.unmodifiableList(links(object(group), null));
      linkLists.put(group, l);
    }
    return l;
  }

  /**
   * The links of a group: its symbol table's entries, its link messages, and its dense links
   * (only those whose name hashes to {@code hash}, when not null).
   */
  List<Link> links(Hdf5Object g, Integer hash) {
    List<Link> out = new ArrayList<>();
    for (Message m : g.messages(MSG_LINK)) {
      out.add(Hdf5Object.link(m.body()));
    }
    for (Message m : g.messages(MSG_SYMBOL_TABLE)) {
      Hdf5Bytes b = m.body();
      symbolTable(b.address(), b.address(), out);
    }
    for (Message m : g.messages(MSG_LINK_INFO)) {
      Hdf5Bytes b = m.body();
      b.u8(); // version
      int flags = b.u8();
      if ((flags & 1) != 0) {
        b.skip(8);
      }
      long heap = b.address();
      long names = b.address();
      if (names != Hdf5Bytes.UNDEFINED && heap != Hdf5Bytes.UNDEFINED) {
        FractalHeap h = new FractalHeap(heap);
        btree2(names, 5, (rec, n) -> {
          long h32 = rec.u32();
          if (hash == null || (int) h32 == hash) {
            out.add(Hdf5Object.link(h.object(rec.bytes(rec.remaining()))));
          }
        });
      }
    }
    return out;
  }

  private void symbolTable(long btree, long heap, List<Link> out) {
    Hdf5Bytes lh = read(heap, 8 + 2L * sizeOfLengths + sizeOfOffsets, "a local heap")
        .signature("HEAP");
    lh.skip(4);
    long dataSize = lh.length();
    lh.length(); // free list head
    long dataAt = lh.address();
    Hdf5Bytes names = read(dataAt, dataSize, "a local heap's data");
    btree1(btree, 0, 0, (key, child) -> {
      Hdf5Bytes s = read(child, 8, "a symbol table node").signature("SNOD");
      s.u8();
      s.u8();
      int n = s.u16();
      long entry = 2L * sizeOfOffsets + 4 + 4 + 16;
      Hdf5Bytes e = read(child + 8, n * entry, "a symbol table node's entries");
      for (int i = 0; i < n; i++) {
        long nameOffset = e.length();
        long header = e.address();
        int cache = (int) e.u32();
        e.skip(4);
        Hdf5Bytes scratch = e.slice(16, "scratch");
        String name = names.at(names.checkedInt(nameOffset, "link name offset")).cString();
        if (cache == 2) {
          long target = scratch.u32();
          out.add(new Link(name, 1, Hdf5Bytes.UNDEFINED,
              names.at(names.checkedInt(target, "soft link offset")).cString()));
        } else {
          out.add(new Link(name, 0, header, null));
        }
      }
    });
  }

  // ---- version 1 B-trees -------------------------------------------------------------------

  /** What a version 1 B-tree leaf entry gives: the key before the child, and the child. */
  interface Btree1Entry {
    void entry(Hdf5Bytes key, long child);
  }

  /**
   * Walks the version 1 B-tree at {@code address} of node type {@code type} (0 groups, 1 chunks,
   * whose keys hold {@code dims} offsets), giving each leaf child with the key before it.
   */
  void btree1(long address, int type, int dims, Btree1Entry out) {
    btree1(address, type, dims, out, new HashSet<>(), -1);
  }

  private void btree1(long address, int type, int dims, Btree1Entry out, Set<Long> seen,
      int level) {
    if (!seen.add(address) || seen.size() > fileLength / 8 + 16) {
      throw new Hdf5Damage("the B-tree node at address " + address + " is reached twice: the "
          + "B-tree is damaged");
    }
    int head = 8 + 2 * sizeOfOffsets;
    Hdf5Bytes h = read(address, head, "a B-tree node").signature("TREE");
    int nodeType = h.u8();
    int nodeLevel = h.u8();
    int entries = h.u16();
    if (nodeType != type || level >= 0 && nodeLevel != level || nodeLevel > MAX_DEPTH) {
      throw new Hdf5Damage("the B-tree node at address " + address + " is of type " + nodeType
          + " at level " + nodeLevel + " where type " + type
          + (level >= 0 ? " at level " + level : "") + " belongs");
    }
    int keySize = type == 0 ? sizeOfLengths : 8 + 8 * dims;
    Hdf5Bytes b = read(address + head, (long) entries * (keySize + sizeOfOffsets) + keySize,
        "a B-tree node's entries");
    for (int i = 0; i < entries; i++) {
      Hdf5Bytes key = b.slice(keySize, "key " + i);
      long child = b.address();
      if (nodeLevel == 0) {
        out.entry(key, child);
      } else {
        btree1(child, type, dims, out, seen, nodeLevel - 1);
      }
    }
  }

  // ---- version 2 B-trees -------------------------------------------------------------------

  /** A record of a version 2 B-tree, and its index in the walk. */
  interface Btree2Record {
    void record(Hdf5Bytes record, long index);
  }

  /** Walks every record of the version 2 B-tree at {@code address}, of record type {@code type}. */
  void btree2(long address, int type, Btree2Record out) {
    Hdf5Bytes h = read(address, 16 + sizeOfOffsets + 2 + sizeOfLengths + 4,
        "a version 2 B-tree header").signature("BTHD");
    h.checksum(0, 16 + sizeOfOffsets + 2 + sizeOfLengths, "the version 2 B-tree header at "
        + "address " + address);
    h.at(4);
    if (h.u8() != 0) {
      throw new Hdf5Damage("the version 2 B-tree at address " + address + " has a version "
          + "other than 0");
    }
    int t = h.u8();
    if (t != type) {
      throw new Hdf5Damage("the version 2 B-tree at address " + address + " holds records of "
          + "type " + t + " where type " + type + " belongs");
    }
    long nodeSize = h.u32();
    int recordSize = h.u16();
    int depth = h.u16();
    h.skip(2);
    long rootNode = h.address();
    int rootRecords = h.u16();
    h.length();
    if (nodeSize < 16 || nodeSize > (1 << 24) || recordSize < 1 || depth > MAX_DEPTH) {
      throw new Hdf5Damage("the version 2 B-tree at address " + address + " gives nodes of "
          + nodeSize + " bytes, records of " + recordSize + " and depth " + depth);
    }
    if (rootNode == Hdf5Bytes.UNDEFINED) {
      return;
    }
    // as H5B2__hdr_init sizes them: records a node holds at each depth, and the bytes that count
    // them in an internal node's child pointers
    long[] maxRecords = new long[depth + 1];
    long[] cumulative = new long[depth + 1];
    int[] cumulativeSize = new int[depth + 1];
    maxRecords[0] = (nodeSize - 10) / recordSize;
    cumulative[0] = maxRecords[0];
    int maxRecordsSize = encodedSize(maxRecords[0]);
    for (int u = 1; u <= depth; u++) {
      long pointer = sizeOfOffsets + maxRecordsSize + cumulativeSize[u - 1];
      maxRecords[u] = (nodeSize - (10 + pointer)) / (recordSize + pointer);
      cumulative[u] = saturated(maxRecords[u] + 1, cumulative[u - 1], maxRecords[u]);
      cumulativeSize[u] = encodedSize(cumulative[u]);
    }
    long[] count = {0};
    btree2Node(rootNode, depth, rootRecords, type, (int) nodeSize, recordSize, maxRecordsSize,
        cumulativeSize, new HashSet<>(), count, out);
  }

  private static long saturated(long a, long b, long c) {
    try {
      return Math.addExact(Math.multiplyExact(a, b), c);
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /** Bytes HDF5 uses to store a number up to {@code max} (H5VM_limit_enc_size). */
  static int encodedSize(long max) {
    return log2(Math.max(1, max)) / 8 + 1;
  }

  /** The highest bit set in {@code v} (H5VM_log2_gen), for v > 0. */
  static int log2(long v) {
    return 63 - Long.numberOfLeadingZeros(v);
  }

  private void btree2Node(long address, int depth, int records, int type, int nodeSize,
      int recordSize, int maxRecordsSize, int[] cumulativeSize, Set<Long> seen, long[] count,
      Btree2Record out) {
    if (!seen.add(address)) {
      throw new Hdf5Damage("the version 2 B-tree node at address " + address + " is reached "
          + "twice: the B-tree is damaged");
    }
    Hdf5Bytes n = read(address, nodeSize, "a version 2 B-tree node");
    n.signature(depth == 0 ? "BTLF" : "BTIN");
    n.u8();
    if (n.u8() != type) {
      throw new Hdf5Damage("the version 2 B-tree node at address " + address + " holds another "
          + "record type");
    }
    if ((long) records * recordSize > nodeSize) {
      throw new Hdf5Damage("the version 2 B-tree node at address " + address + " claims "
          + records + " records of " + recordSize + " bytes in " + nodeSize);
    }
    List<Hdf5Bytes> recs = new ArrayList<>(records);
    for (int i = 0; i < records; i++) {
      recs.add(n.slice(recordSize, "record " + i));
    }
    if (depth == 0) {
      n.checksum(0, n.position(), "the version 2 B-tree leaf at address " + address);
      for (Hdf5Bytes r : recs) {
        out.record(r, count[0]++);
      }
      return;
    }
    long[] children = new long[records + 1];
    int[] childRecords = new int[records + 1];
    for (int i = 0; i <= records; i++) {
      children[i] = n.address();
      childRecords[i] = n.checkedInt(n.unsigned(maxRecordsSize), "record count");
      if (depth > 1) {
        n.unsigned(cumulativeSize[depth - 1]);
      }
    }
    n.checksum(0, n.position(), "the version 2 B-tree node at address " + address);
    for (int i = 0; i <= records; i++) { // children and records in key order
      btree2Node(children[i], depth - 1, childRecords[i], type, nodeSize, recordSize,
          maxRecordsSize, cumulativeSize, seen, count, out);
      if (i < records) {
        out.record(recs.get(i), count[0]++);
      }
    }
  }

  // ---- heaps -------------------------------------------------------------------------------

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
    Hdf5Bytes c = new Hdf5Bytes(bytes, "a global heap collection at address " + collection,
        sizeOfOffsets, sizeOfLengths);
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

  /** A fractal heap: the storage of dense links and attributes. */
  final class FractalHeap {
    private final long address;
    private final int idLength;
    private final int tableWidth;
    private final long startBlock;
    private final long maxDirect;
    private final int offsetBytes;
    private final int lengthBytes;
    private final boolean checksummed;
    private final long rootBlock;
    private final int rootRows;
    private final int maxDirectRows;
    private final int firstRowBits;
    private final Map<Long, Hdf5Bytes> blocks = new java.util.HashMap<>(); // direct, by address

    FractalHeap(long address) {
      this.address = address;
      Hdf5Bytes h = read(address, 4 + 1 + 2 + 2 + 1 + 4 + 12L * sizeOfLengths
          + 3L * sizeOfOffsets + 2 + 2 + 2 + 2 + 4, "a fractal heap header").signature("FRHP");
      if (h.u8() != 0) {
        throw new Hdf5Damage("the fractal heap at address " + address + " has a version other "
            + "than 0");
      }
      idLength = h.u16();
      int filters = h.u16();
      int flags = h.u8();
      long maxManaged = h.u32();
      h.length();
      h.address();
      h.length();
      h.address();
      h.skip(8L * sizeOfLengths);
      tableWidth = h.u16();
      startBlock = h.length();
      maxDirect = h.length();
      int maxHeapBits = h.u16();
      h.u16(); // starting rows of the root indirect block
      rootBlock = h.address();
      rootRows = h.u16();
      if (filters != 0) {
        throw new Hdf5Unsupported("the fractal heap at address " + address + " is filtered, "
            + "which this reader does not read");
      }
      if (tableWidth < 1 || tableWidth > 1 << 16 || Long.bitCount(tableWidth) != 1
          || startBlock < 1 || Long.bitCount(startBlock) != 1 || maxDirect < startBlock
          || Long.bitCount(maxDirect) != 1 || maxHeapBits < 1 || maxHeapBits > 64
          || rootRows > 64) {
        throw new Hdf5Damage("the fractal heap at address " + address + " gives a table of "
            + tableWidth + " blocks from " + startBlock + " bytes to " + maxDirect);
      }
      checksummed = (flags & 0x02) != 0;
      offsetBytes = (maxHeapBits + 7) / 8;
      lengthBytes = encodedSize(Math.min(maxDirect, maxManaged));
      maxDirectRows = log2(maxDirect) - log2(startBlock) + 2;
      firstRowBits = log2(startBlock) + log2(tableWidth);
    }

    private long rowSize(int row) {
      return row == 0 ? startBlock : startBlock << (row - 1);
    }

    private long rowOffset(int row) {
      return row == 0 ? 0 : (startBlock * tableWidth) << (row - 1);
    }

    /** The object a heap ID names. */
    Hdf5Bytes object(byte[] id) {
      if (id.length != idLength) {
        throw new Hdf5Damage("a heap ID of " + id.length + " bytes for the fractal heap at "
            + "address " + address + " (" + idLength + ")");
      }
      Hdf5Bytes b = new Hdf5Bytes(id, "a fractal heap ID", sizeOfOffsets, sizeOfLengths);
      int first = b.u8();
      int kind = first >> 4 & 3;
      if (kind == 2) { // tiny: the object is in the ID
        int len = (first & 0x0f) + 1;
        return b.slice(len, "a tiny object");
      }
      if (kind != 0) {
        throw new Hdf5Unsupported("a huge object of the fractal heap at address " + address
            + ", which this reader does not read");
      }
      long offset = b.unsigned(offsetBytes);
      long length = b.unsigned(lengthBytes);
      if (rootBlock == Hdf5Bytes.UNDEFINED) {
        throw new Hdf5Damage("the fractal heap at address " + address + " is empty");
      }
      if (rootRows == 0) {
        return direct(rootBlock, 0, startBlock, offset, length);
      }
      return indirect(rootBlock, 0, rootRows, offset, length, 0);
    }

    private Hdf5Bytes indirect(long at, long blockOffset, int rows, long offset, long length,
        int depth) {
      if (depth > MAX_DEPTH) {
        throw new Hdf5Damage("the fractal heap at address " + address + " nests too deep");
      }
      long rel = offset - blockOffset;
      int row = rel < startBlock * tableWidth ? 0 : log2(rel) - firstRowBits + 1;
      if (row < 0 || row >= rows) {
        throw new Hdf5Damage("an object at heap offset " + offset + " lies outside the fractal "
            + "heap at address " + address);
      }
      long col = (rel - rowOffset(row)) / rowSize(row);
      int directRows = Math.min(rows, maxDirectRows);
      long entry = (long) row * tableWidth + col;
      long head = 4 + 1 + sizeOfOffsets + offsetBytes;
      Hdf5Bytes b = read(at + head + entry * sizeOfOffsets, sizeOfOffsets,
          "a fractal heap indirect block entry");
      long child = b.address();
      long childOffset = blockOffset + rowOffset(row) + col * rowSize(row);
      if (child == Hdf5Bytes.UNDEFINED) {
        throw new Hdf5Damage("the fractal heap at address " + address + " has no block for "
            + "heap offset " + offset);
      }
      if (row < directRows) {
        return direct(child, childOffset, rowSize(row), offset, length);
      }
      int childRows = log2(rowSize(row)) - firstRowBits + 1;
      return indirect(child, childOffset, childRows, offset, length, depth + 1);
    }

    private Hdf5Bytes direct(long at, long blockOffset, long size, long offset, long length) {
      Hdf5Bytes b = blocks.get(at);
      if (b == null) {
        b = directBlock(at, size);
        blocks.put(at, b);
      }
      long rel = offset - blockOffset;
      if (rel < 0 || rel > size || length > size - rel) {
        throw new Hdf5Damage("an object at heap offset " + offset + " of " + length + " bytes "
            + "lies outside its direct block at address " + at);
      }
      return b.at((int) rel).slice(length, "a heap object");
    }

    private Hdf5Bytes directBlock(long at, long size) {
      Hdf5Bytes b = read(at, size, "a fractal heap direct block").signature("FHDB");
      if (checksummed) {
        int head = 4 + 1 + sizeOfOffsets + offsetBytes;
        b.at(head);
        long stored = b.u32();
        byte[] copy = b.at(0).bytes(size);
        for (int i = 0; i < 4; i++) {
          copy[head + i] = 0;
        }
        if ((int) stored != JenkinsLookup3HashLittle.hash(copy, 0)) {
          throw new Hdf5Damage("the fractal heap direct block at address " + at + " fails its "
              + "checksum");
        }
      }
      return b;
    }
  }
}
