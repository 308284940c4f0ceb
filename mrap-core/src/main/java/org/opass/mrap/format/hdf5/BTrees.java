package org.opass.mrap.format.hdf5;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * HDF5's version 1 B-trees (group nodes and chunk nodes) and version 2 B-trees (dense links and
 * attributes, chunk indexes), walked in key order. Each walk reads every node once and refuses a
 * node reached twice, so a damaged tree ends in {@link Hdf5Damage}, never in a loop.
 */
final class BTrees {
  private BTrees() {
  }

  /** What a version 1 B-tree leaf entry gives: the key before the child, and the child. */
  interface V1Entry {
    void entry(Hdf5Bytes key, long child);
  }

  /** A record of a version 2 B-tree, and its index in the walk. */
  interface V2Record {
    void record(Hdf5Bytes record, long index);
  }

  /**
   * Walks the version 1 B-tree at {@code address} of node type {@code type} (0 groups, 1 chunks,
   * whose keys hold {@code dims} offsets), giving each leaf child with the key before it.
   */
  static void v1(Hdf5File h, long address, int type, int dims, V1Entry out) {
    new V1Walk(h, type, dims, out).node(address, -1);
  }

  /** One walk of a version 1 B-tree: its node type, key size and the nodes seen. */
  private static final class V1Walk {
    private final Hdf5File h;
    private final int type;
    private final int keySize;
    private final V1Entry out;
    private final Set<Long> seen = new HashSet<>();

    V1Walk(Hdf5File h, int type, int dims, V1Entry out) {
      this.h = h;
      this.type = type;
      this.keySize = type == 0 ? h.sizeOfLengths() : 8 + 8 * dims;
      this.out = out;
    }

    /** The node at {@code address}, at {@code level} (-1: the root, any level). */
    void node(long address, int level) {
      if (!seen.add(address) || seen.size() > h.length() / 8 + 16) {
        throw new Hdf5Damage("the B-tree node at address " + address + " is reached twice: the "
            + "B-tree is damaged");
      }
      int so = h.sizeOfOffsets();
      int head = 8 + 2 * so;
      Hdf5Bytes n = h.read(address, head, "a B-tree node").signature("TREE");
      int nodeType = n.u8();
      int nodeLevel = n.u8();
      int entries = n.u16();
      if (nodeType != type || level >= 0 && nodeLevel != level
          || nodeLevel > Hdf5File.MAX_DEPTH) {
        throw new Hdf5Damage("the B-tree node at address " + address + " is of type " + nodeType
            + " at level " + nodeLevel + " where type " + type
            + (level >= 0 ? " at level " + level : "") + " belongs");
      }
      Hdf5Bytes b = h.read(address + head, (long) entries * (keySize + so) + keySize,
          "a B-tree node's entries");
      for (int i = 0; i < entries; i++) {
        Hdf5Bytes key = b.slice(keySize, "key " + i);
        long child = b.address();
        if (nodeLevel == 0) {
          out.entry(key, child);
        } else {
          node(child, nodeLevel - 1);
        }
      }
    }
  }

  /** Walks every record of the version 2 B-tree at {@code address}, of record type {@code type}. */
  static void v2(Hdf5File h, long address, int type, V2Record out) {
    int so = h.sizeOfOffsets();
    int sl = h.sizeOfLengths();
    Hdf5Bytes b = h.read(address, 16 + so + 2 + sl + 4, "a version 2 B-tree header")
        .signature("BTHD");
    b.checksum(0, 16 + so + 2 + sl, "the version 2 B-tree header at address " + address);
    b.at(4);
    if (b.u8() != 0) {
      throw new Hdf5Damage("the version 2 B-tree at address " + address + " has a version "
          + "other than 0");
    }
    int t = b.u8();
    if (t != type) {
      throw new Hdf5Damage("the version 2 B-tree at address " + address + " holds records of "
          + "type " + t + " where type " + type + " belongs");
    }
    long nodeSize = b.u32();
    int recordSize = b.u16();
    int depth = b.u16();
    b.skip(2);
    long rootNode = b.address();
    int rootRecords = b.u16();
    b.length();
    if (nodeSize < 16 || nodeSize > (1 << 24) || recordSize < 1
        || depth > Hdf5File.MAX_DEPTH) {
      throw new Hdf5Damage("the version 2 B-tree at address " + address + " gives nodes of "
          + nodeSize + " bytes, records of " + recordSize + " and depth " + depth);
    }
    if (rootNode == Hdf5Bytes.UNDEFINED) {
      return;
    }
    new V2Walk(h, type, (int) nodeSize, recordSize, depth, out).node(rootNode, depth,
        rootRecords);
  }

  /** One walk of a version 2 B-tree: its node and record sizes, the nodes seen, records given. */
  private static final class V2Walk {
    private final Hdf5File h;
    private final int type;
    private final int nodeSize;
    private final int recordSize;
    private final int maxRecordsSize;
    private final int[] cumulativeSize;
    private final V2Record out;
    private final Set<Long> seen = new HashSet<>();
    private long count;

    V2Walk(Hdf5File h, int type, int nodeSize, int recordSize, int depth, V2Record out) {
      this.h = h;
      this.type = type;
      this.nodeSize = nodeSize;
      this.recordSize = recordSize;
      this.out = out;
      // as H5B2__hdr_init sizes them: records a node holds at each depth, and the bytes that
      // count them in an internal node's child pointers
      long[] maxRecords = new long[depth + 1];
      long[] cumulative = new long[depth + 1];
      cumulativeSize = new int[depth + 1];
      maxRecords[0] = (nodeSize - 10) / recordSize;
      cumulative[0] = maxRecords[0];
      maxRecordsSize = Hdf5File.encodedSize(maxRecords[0]);
      for (int u = 1; u <= depth; u++) {
        long pointer = h.sizeOfOffsets() + maxRecordsSize + cumulativeSize[u - 1];
        maxRecords[u] = (nodeSize - (10 + pointer)) / (recordSize + pointer);
        cumulative[u] = saturated(maxRecords[u] + 1, cumulative[u - 1], maxRecords[u]);
        cumulativeSize[u] = Hdf5File.encodedSize(cumulative[u]);
      }
    }

    private static long saturated(long a, long b, long c) {
      try {
        return Math.addExact(Math.multiplyExact(a, b), c);
      } catch (ArithmeticException e) {
        return Long.MAX_VALUE;
      }
    }

    /** The node at {@code address}, {@code depth} above the leaves, holding {@code records}. */
    void node(long address, int depth, int records) {
      if (!seen.add(address)) {
        throw new Hdf5Damage("the version 2 B-tree node at address " + address + " is reached "
            + "twice: the B-tree is damaged");
      }
      Hdf5Bytes n = h.read(address, nodeSize, "a version 2 B-tree node");
      n.signature(depth == 0 ? "BTLF" : "BTIN");
      n.u8();
      if (n.u8() != type) {
        throw new Hdf5Damage("the version 2 B-tree node at address " + address + " holds "
            + "another record type");
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
          out.record(r, count++);
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
        node(children[i], depth - 1, childRecords[i]);
        if (i < records) {
          out.record(recs.get(i), count++);
        }
      }
    }
  }
}
