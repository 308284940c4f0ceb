package org.opass.mrap.format.hdf5;

import io.jhdf.checksum.JenkinsLookup3HashLittle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The links of HDF5 groups, whichever way a group keeps them: a symbol table (a version 1 B-tree
 * of symbol table nodes over a local heap), link messages in its object header, or dense links
 * (a version 2 B-tree of name hashes over a fractal heap); and paths resolved through them, soft
 * links followed.
 */
final class Links {
  private Links() {
  }

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

  /**
   * The address of the object at {@code path} from the group at {@code from} (absolute paths from
   * the root), following soft links; null where no such object is linked.
   *
   * @throws Hdf5Unsupported for an external link on the way
   */
  static Long resolve(Hdf5File h, long from, String path, int depth) {
    if (depth > Hdf5File.MAX_DEPTH) {
      throw new Hdf5Damage("soft links from " + path + " go round in a loop");
    }
    long at = path.startsWith("/") ? h.root() : from;
    List<Long> parents = new ArrayList<>();
    for (String part : path.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      Link l = link(h, at, part);
      if (l == null) {
        return null;
      }
      parents.add(at);
      if (l.kind == 0) {
        at = l.address;
      } else if (l.kind == 1) {
        Long t = resolve(h, at, l.target, depth + 1);
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
  private static Link link(Hdf5File h, long group, String name) {
    Hdf5Object g = h.object(group);
    byte[] key = name.getBytes(StandardCharsets.UTF_8);
    for (Link l : of(h, g, JenkinsLookup3HashLittle.hash(key, 0))) {
      if (l.name.equals(name)) {
        return l;
      }
    }
    return null;
  }

  /**
   * The links of a group: its symbol table's entries, its link messages, and its dense links
   * (only those whose name hashes to {@code hash}, when not null).
   */
  static List<Link> of(Hdf5File h, Hdf5Object g, Integer hash) {
    List<Link> out = new ArrayList<>();
    for (ObjectHeaders.Message m : g.messages(Hdf5File.MSG_LINK)) {
      out.add(Hdf5Object.link(m.body()));
    }
    for (ObjectHeaders.Message m : g.messages(Hdf5File.MSG_SYMBOL_TABLE)) {
      Hdf5Bytes b = m.body();
      symbolTable(h, b.address(), b.address(), out);
    }
    for (ObjectHeaders.Message m : g.messages(Hdf5File.MSG_LINK_INFO)) {
      Hdf5Bytes b = m.body();
      b.u8(); // version
      int flags = b.u8();
      if ((flags & 1) != 0) {
        b.skip(8);
      }
      long heap = b.address();
      long names = b.address();
      if (names != Hdf5Bytes.UNDEFINED && heap != Hdf5Bytes.UNDEFINED) {
        FractalHeap heapOf = new FractalHeap(h, heap);
        BTrees.v2(h, names, 5, (rec, n) -> {
          long h32 = rec.u32();
          if (hash == null || (int) h32 == hash) {
            out.add(Hdf5Object.link(heapOf.object(rec.bytes(rec.remaining()))));
          }
        });
      }
    }
    return out;
  }

  private static void symbolTable(Hdf5File h, long btree, long heap, List<Link> out) {
    int so = h.sizeOfOffsets();
    Hdf5Bytes lh = h.read(heap, 8 + 2L * h.sizeOfLengths() + so, "a local heap")
        .signature("HEAP");
    lh.skip(4);
    long dataSize = lh.length();
    lh.length(); // free list head
    long dataAt = lh.address();
    Hdf5Bytes names = h.read(dataAt, dataSize, "a local heap's data");
    BTrees.v1(h, btree, 0, 0, (key, child) -> {
      Hdf5Bytes s = h.read(child, 8, "a symbol table node").signature("SNOD");
      s.u8();
      s.u8();
      int n = s.u16();
      long entry = 2L * so + 4 + 4 + 16;
      Hdf5Bytes e = h.read(child + 8, n * entry, "a symbol table node's entries");
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
}
