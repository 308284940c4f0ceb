package org.opass.mrap.format.hdf5;

import io.jhdf.checksum.JenkinsLookup3HashLittle;
import java.util.Map;

/**
 * A fractal heap: the storage of dense links and attributes, its objects found by heap ID
 * through the doubling table of direct and indirect blocks (tiny objects are inside the ID),
 * direct blocks checked against their checksums and kept while the heap is in use.
 */
final class FractalHeap {
  private final Hdf5File h;
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

  FractalHeap(Hdf5File file, long address) {
    this.h = file;
    this.address = address;
    int sizeOfOffsets = file.sizeOfOffsets();
    int sizeOfLengths = file.sizeOfLengths();
    Hdf5Bytes b = file.read(address, 4 + 1 + 2 + 2 + 1 + 4 + 12L * sizeOfLengths
        + 3L * sizeOfOffsets + 2 + 2 + 2 + 2 + 4, "a fractal heap header").signature("FRHP");
    if (b.u8() != 0) {
      throw new Hdf5Damage("the fractal heap at address " + address + " has a version other "
          + "than 0");
    }
    idLength = b.u16();
    int filters = b.u16();
    int flags = b.u8();
    long maxManaged = b.u32();
    b.length();
    b.address();
    b.length();
    b.address();
    b.skip(8L * sizeOfLengths);
    tableWidth = b.u16();
    startBlock = b.length();
    maxDirect = b.length();
    int maxHeapBits = b.u16();
    b.u16(); // starting rows of the root indirect block
    rootBlock = b.address();
    rootRows = b.u16();
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
    lengthBytes = Hdf5File.encodedSize(Math.min(maxDirect, maxManaged));
    maxDirectRows = Hdf5File.log2(maxDirect) - Hdf5File.log2(startBlock) + 2;
    firstRowBits = Hdf5File.log2(startBlock) + Hdf5File.log2(tableWidth);
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
    Hdf5Bytes b = h.bytes(id, "a fractal heap ID");
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
    if (depth > Hdf5File.MAX_DEPTH) {
      throw new Hdf5Damage("the fractal heap at address " + address + " nests too deep");
    }
    long rel = offset - blockOffset;
    int row = rel < startBlock * tableWidth ? 0 : Hdf5File.log2(rel) - firstRowBits + 1;
    if (row < 0 || row >= rows) {
      throw new Hdf5Damage("an object at heap offset " + offset + " lies outside the fractal "
          + "heap at address " + address);
    }
    long col = (rel - rowOffset(row)) / rowSize(row);
    int directRows = Math.min(rows, maxDirectRows);
    long entry = (long) row * tableWidth + col;
    int so = h.sizeOfOffsets();
    long head = 4 + 1 + so + offsetBytes;
    Hdf5Bytes b = h.read(at + head + entry * so, so,
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
    int childRows = Hdf5File.log2(rowSize(row)) - firstRowBits + 1;
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
    Hdf5Bytes b = h.read(at, size, "a fractal heap direct block").signature("FHDB");
    if (checksummed) {
      int head = 4 + 1 + h.sizeOfOffsets() + offsetBytes;
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
