package org.opass.mrap.format.hdf5;

import io.jhdf.checksum.JenkinsLookup3HashLittle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.opass.mrap.format.FilterSpec;

/**
 * One object of an HDF5 file (a group or a dataset) as its header describes it: the messages it
 * holds and what they say (dataspace, datatype, fill value, storage layout, filters, links,
 * attributes), each decoded as the HDF5 File Format Specification lays it out.
 */
final class Hdf5Object {
  private final Hdf5File file;
  private final long address;
  private final List<ObjectHeaders.Message> messages;

  Hdf5Object(Hdf5File file, long address, List<ObjectHeaders.Message> messages) {
    this.file = file;
    this.address = address;
    this.messages = messages;
  }

  long address() {
    return address;
  }

  List<ObjectHeaders.Message> messages(int type) {
    List<ObjectHeaders.Message> out = new ArrayList<>();
    for (ObjectHeaders.Message m : messages) {
      if (m.type == type) {
        out.add(m);
      }
    }
    return out;
  }

  boolean has(int type) {
    for (ObjectHeaders.Message m : messages) {
      if (m.type == type) {
        return true;
      }
    }
    return false;
  }

  /** A dataset has a dataspace; a group has links or a symbol table; else a named datatype. */
  boolean isDataset() {
    return has(Hdf5File.MSG_DATASPACE);
  }

  boolean isGroup() {
    return !isDataset() && !has(Hdf5File.MSG_DATATYPE);
  }

  private ObjectHeaders.Message one(int type, String what) {
    for (ObjectHeaders.Message m : messages) {
      if (m.type == type) {
        if (m.shared() && type != Hdf5File.MSG_DATATYPE) {
          throw new Hdf5Unsupported("its " + what + " is a shared message, which this reader does "
              + "not read");
        }
        return m;
      }
    }
    return null;
  }

  // ---- dataspace ---------------------------------------------------------------------------

  /** A dataspace: its current and maximum dimensions (-1: unlimited); rank 0 a scalar. */
  static final class Space {
    final long[] dims;
    final long[] maxDims;
    final boolean isNull;

    Space(long[] dims, long[] maxDims, boolean isNull) {
      this.dims = dims;
      this.maxDims = maxDims;
      this.isNull = isNull;
    }
  }

  Space space() {
    ObjectHeaders.Message m = one(Hdf5File.MSG_DATASPACE, "dataspace");
    if (m == null) {
      throw new Hdf5Damage("the object at address " + address + " has no dataspace");
    }
    return space(m.body());
  }

  static Space space(Hdf5Bytes b) {
    int version = b.u8();
    int rank = b.u8();
    int flags = b.u8();
    boolean isNull = false;
    if (version == 1) {
      b.skip(5);
    } else if (version == 2) {
      isNull = b.u8() == 2;
    } else {
      throw new Hdf5Damage("a dataspace message of version " + version + " (1 or 2)");
    }
    if (rank > 32) {
      throw new Hdf5Damage("a dataspace of rank " + rank + " (HDF5 allows 32)");
    }
    long[] dims = new long[rank];
    long[] max = new long[rank];
    for (int d = 0; d < rank; d++) {
      dims[d] = b.length();
    }
    for (int d = 0; d < rank; d++) {
      if ((flags & 1) != 0) {
        long v = b.unsigned(b.sizeOfLengths());
        max[d] = v == -1L || b.sizeOfLengths() < 8 && v == (1L << 8 * b.sizeOfLengths()) - 1
            ? -1 : v;
      } else {
        max[d] = dims[d];
      }
    }
    return new Space(dims, max, isNull);
  }

  Datatype type() {
    ObjectHeaders.Message m = one(Hdf5File.MSG_DATATYPE, "datatype");
    if (m == null) {
      throw new Hdf5Damage("the object at address " + address + " has no datatype");
    }
    if (m.shared()) { // a committed datatype: its own object's datatype message
      Hdf5Bytes b = m.body();
      int version = b.u8();
      int kind = b.u8();
      if (version == 1) {
        b.skip(6);
      }
      if (kind != 2 && !(version < 3 && kind == 0)) {
        throw new Hdf5Unsupported("its datatype is shared through the file's shared message "
            + "table, which this reader does not read");
      }
      long at = b.address();
      if (at == address) {
        throw new Hdf5Damage("the datatype of the object at address " + address + " names itself");
      }
      return file.object(at).type();
    }
    return Datatype.parse(m.body());
  }

  // ---- fill value --------------------------------------------------------------------------

  /** One element of the dataset's fill value as stored (its type and order), or null: zeros. */
  byte[] fill() {
    ObjectHeaders.Message m = one(Hdf5File.MSG_FILL, "fill value");
    if (m != null) {
      Hdf5Bytes b = m.body();
      int version = b.u8();
      if (version == 1 || version == 2) {
        b.u8();
        b.u8();
        int defined = b.u8();
        if (version == 1 || defined != 0) {
          long size = b.u32();
          return size == 0 ? null : b.bytes(size);
        }
        return null;
      }
      if (version == 3) {
        int flags = b.u8();
        if ((flags & 0x20) != 0) {
          long size = b.u32();
          return size == 0 ? null : b.bytes(size);
        }
        return null;
      }
      throw new Hdf5Damage("a fill value message of version " + version + " (1 to 3)");
    }
    m = one(Hdf5File.MSG_FILL_OLD, "fill value");
    if (m != null) {
      Hdf5Bytes b = m.body();
      long size = b.u32();
      return size == 0 ? null : b.bytes(size);
    }
    return null;
  }

  // ---- layout ------------------------------------------------------------------------------

  /** How a dataset's elements are stored. */
  static final class Layout {
    static final int COMPACT = 0;
    static final int CONTIGUOUS = 1;
    static final int CHUNKED = 2;
    static final int VIRTUAL = 3;

    int version;
    int kind;
    long address = Hdf5Bytes.UNDEFINED;
    long size;
    long[] chunk;
    /** 0 a version 1 B-tree (layout versions 1 to 3), else HDF5's chunk index type (1 to 5). */
    int index;
    int flags;
    long singleSize;
    int singleMask;
  }

  Layout layout() {
    ObjectHeaders.Message m = one(Hdf5File.MSG_LAYOUT, "data layout");
    if (m == null) {
      throw new Hdf5Damage("the dataset at address " + address + " has no data layout message");
    }
    Hdf5Bytes b = m.body();
    Layout l = new Layout();
    l.version = b.u8();
    if (l.version == 1 || l.version == 2) {
      int rank = b.u8();
      l.kind = b.u8();
      b.skip(5);
      if (l.kind != Layout.COMPACT) {
        l.address = b.address();
      }
      long[] dims = new long[rank];
      for (int d = 0; d < rank; d++) {
        dims[d] = b.u32();
      }
      if (l.kind == Layout.CHUNKED) {
        l.chunk = java.util.Arrays.copyOf(dims, Math.max(0, rank - 1));
      }
      return l;
    }
    if (l.version != 3 && l.version != 4) {
      throw new Hdf5Unsupported("its data layout message version " + l.version + " is not read "
          + "(versions 1 to 4 are: HDF5 1.0 to 1.14)");
    }
    l.kind = b.u8();
    if (l.kind == Layout.CONTIGUOUS) {
      l.address = b.address();
      l.size = b.length();
    } else if (l.kind == Layout.CHUNKED && l.version == 3) {
      int rank = b.u8() - 1;
      l.address = b.address();
      l.chunk = new long[Math.max(0, rank)];
      for (int d = 0; d < l.chunk.length; d++) {
        l.chunk[d] = b.u32();
      }
      b.u32(); // element size
    } else if (l.kind == Layout.CHUNKED) {
      l.flags = b.u8();
      int rank = b.u8() - 1;
      int width = b.u8();
      l.chunk = new long[Math.max(0, rank)];
      for (int d = 0; d < l.chunk.length; d++) {
        l.chunk[d] = b.unsigned(width);
      }
      b.unsigned(width); // element size
      l.index = b.u8();
      if (l.index == 1 && (l.flags & 0x02) != 0) {
        l.singleSize = b.length();
        l.singleMask = (int) b.u32();
      } else if (l.index == 3) {
        b.u8();
      } else if (l.index == 4) {
        b.skip(5);
      } else if (l.index == 5) {
        b.skip(6);
      } else if (l.index < 1 || l.index > 5) {
        throw new Hdf5Damage("chunk index type " + l.index + " (1 to 5)");
      }
      l.address = b.address();
    }
    return l;
  }

  /** Whether the dataset's elements lie in files of their own (the External Data Files message). */
  boolean external() {
    return has(Hdf5File.MSG_EXTERNAL);
  }

  // ---- filters -----------------------------------------------------------------------------

  List<FilterSpec> filters() {
    List<FilterSpec> out = new ArrayList<>();
    ObjectHeaders.Message m = one(Hdf5File.MSG_FILTERS, "filter pipeline");
    if (m == null) {
      return out;
    }
    Hdf5Bytes b = m.body();
    int version = b.u8();
    int n = b.u8();
    if (version == 1) {
      b.skip(6);
    } else if (version != 2) {
      throw new Hdf5Damage("a filter pipeline message of version " + version + " (1 or 2)");
    }
    for (int i = 0; i < n; i++) {
      int id = b.u16();
      int nameLength = version == 1 || id >= 256 ? b.u16() : 0;
      b.u16(); // flags
      int values = b.u16();
      String name = "";
      if (nameLength > 0) {
        name = b.string(version == 1 ? (nameLength + 7) / 8 * 8 : nameLength);
      }
      int[] data = new int[values];
      for (int k = 0; k < values; k++) {
        data[k] = (int) b.u32();
      }
      if (version == 1 && values % 2 == 1) {
        b.skip(4);
      }
      out.add(new FilterSpec(id, name.isEmpty() ? filterName(id) : name, data));
    }
    return out;
  }

  private static String filterName(int id) {
    switch (id) {
      case 1:
        return "deflate";
      case 2:
        return "shuffle";
      case 3:
        return "fletcher32";
      case 4:
        return "szip";
      case 5:
        return "nbit";
      case 6:
        return "scaleoffset";
      default:
        return "filter " + id;
    }
  }

  // ---- links -------------------------------------------------------------------------------

  static Links.Link link(Hdf5Bytes b) {
    int version = b.u8();
    if (version != 1) {
      throw new Hdf5Damage("a link message of version " + version + " (1)");
    }
    int flags = b.u8();
    int kind = (flags & 0x08) != 0 ? b.u8() : 0;
    if ((flags & 0x04) != 0) {
      b.skip(8);
    }
    if ((flags & 0x10) != 0) {
      b.u8();
    }
    long nameLength = b.unsigned(1 << (flags & 3));
    String name = b.string(b.checkedInt(nameLength, "link name length"));
    if (kind == 0) {
      return new Links.Link(name, 0, b.address(), null);
    }
    int len = b.u16();
    if (kind == 1) {
      return new Links.Link(name, 1, Hdf5Bytes.UNDEFINED, b.string(len));
    }
    Hdf5Bytes e = b.slice(len, "an external link");
    if (kind == 64 && len > 0) {
      e.u8();
      String target = e.cString();
      return new Links.Link(name, 64, Hdf5Bytes.UNDEFINED, target + ":" + e.cString());
    }
    return new Links.Link(name, kind, Hdf5Bytes.UNDEFINED, "a link of type " + kind);
  }

  // ---- attributes --------------------------------------------------------------------------

  /** An attribute: its name, type, dataspace and raw value. */
  static final class Attribute {
    final String name;
    final Datatype type;
    final Space space;
    final byte[] value;

    Attribute(String name, Datatype type, Space space, byte[] value) {
      this.name = name;
      this.type = type;
      this.space = space;
      this.value = value;
    }

    long elements() {
      long n = 1;
      for (long d : space.dims) {
        n *= d;
      }
      return space.isNull ? 0 : n;
    }
  }

  /**
   * The attribute {@code name}, stored in the header or densely, or null.
   *
   * @throws Hdf5Unsupported where its datatype or dataspace is a shared message
   */
  Attribute attribute(String name) {
    return attributes(java.util.Collections.singleton(name), true).get(name);
  }

  /**
   * Those of the attributes {@code names} the object has, by name, found in one pass over its
   * attribute messages or its dense attribute storage; one whose datatype or dataspace is a
   * shared message (which this reader does not read) is left out.
   */
  Map<String, Attribute> attributes(Collection<String> names) {
    return attributes(names, false);
  }

  private Map<String, Attribute> attributes(Collection<String> names, boolean strict) {
    Map<String, Attribute> found = new LinkedHashMap<>();
    for (ObjectHeaders.Message m : messages(Hdf5File.MSG_ATTRIBUTE)) {
      Attribute a = attribute(m.body(), names, found, strict);
      if (a != null) {
        found.put(a.name, a);
      }
    }
    if (found.size() == names.size()) {
      return found;
    }
    ObjectHeaders.Message info = one(Hdf5File.MSG_ATTRIBUTE_INFO, "attribute info");
    if (info == null) {
      return found;
    }
    Hdf5Bytes b = info.body();
    b.u8();
    int flags = b.u8();
    if ((flags & 1) != 0) {
      b.skip(2);
    }
    long heap = b.address();
    long index = b.address();
    if (heap == Hdf5Bytes.UNDEFINED || index == Hdf5Bytes.UNDEFINED) {
      return found;
    }
    Set<Integer> hashes = new HashSet<>();
    for (String n : names) {
      if (!found.containsKey(n)) {
        hashes.add(JenkinsLookup3HashLittle.hash(n.getBytes(StandardCharsets.UTF_8), 0));
      }
    }
    FractalHeap h = new FractalHeap(file, heap);
    BTrees.v2(file, index, 8, (rec, i) -> {
      byte[] id = rec.bytes(8);
      rec.u8();
      rec.u32();
      if (hashes.contains((int) rec.u32())) {
        Attribute a = attribute(h.object(id), names, found, strict);
        if (a != null) {
          found.put(a.name, a);
        }
      }
    });
    return found;
  }

  /** The attribute of this message when it is one of {@code wanted} not yet found, else null. */
  private static Attribute attribute(Hdf5Bytes b, Collection<String> wanted,
      Map<String, Attribute> found, boolean strict) {
    int version = b.u8();
    int flags = b.u8();
    int nameSize = b.u16();
    int typeSize = b.u16();
    int spaceSize = b.u16();
    if (version == 3) {
      b.u8();
    } else if (version != 1 && version != 2) {
      throw new Hdf5Damage("an attribute message of version " + version + " (1 to 3)");
    }
    int pad = version == 1 ? 8 : 1;
    String name = b.string(nameSize);
    b.skip((nameSize + pad - 1) / pad * pad - nameSize);
    if (!wanted.contains(name) || found.containsKey(name)) {
      return null;
    }
    if ((flags & 3) != 0) {
      if (!strict) {
        return null;
      }
      throw new Hdf5Unsupported("the attribute " + name + " has a shared type or dataspace, "
          + "which this reader does not read");
    }
    Datatype type = Datatype.parse(b.slice(typeSize, "the attribute " + name + "'s type"));
    b.skip((typeSize + pad - 1) / pad * pad - typeSize);
    Space space = space(b.slice(spaceSize, "the attribute " + name + "'s dataspace"));
    b.skip((spaceSize + pad - 1) / pad * pad - spaceSize);
    long n = 1;
    for (long d : space.dims) {
      n = Math.multiplyExact(n, d);
    }
    long bytes = space.isNull ? 0 : Math.multiplyExact(n, type.size);
    return new Attribute(name, type, space, b.bytes(Math.min(bytes, b.remaining())));
  }
}
