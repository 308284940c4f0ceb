package org.opass.mrap.format.hdf5;

import java.util.ArrayList;
import java.util.List;
import org.opass.mrap.format.Variable;

/**
 * The chunks a chunked HDF5 dataset has stored, read from its chunk index: the version 1 B-tree
 * of HDF5 1.8 and earlier formats, and HDF5 1.10's single chunk, implicit index, fixed array,
 * extensible array and version 2 B-tree, as H5Dbtree.c, H5Dsingle.c, H5Dnone.c, H5Dfarray.c,
 * H5Dearray.c and H5Dbtree2.c write them. Chunks never written are simply absent, wherever they
 * lie among written ones: an array element whose address is undefined, a page of a fixed array or
 * a data block of an extensible array never allocated.
 *
 * <p>Arrays index chunks by a linear index over the chunk grid of the dataset's maximum shape
 * (for an extensible array, with its unlimited dimension moved first), as HDF5 computes it
 * (H5VM_array_offset_pre over {@code max_down_chunks}, swizzled for an extensible array).
 */
final class Hdf5ChunkIndex {
  private final Hdf5File file;
  private final Hdf5Object.Layout layout;
  private final long[] dims;
  private final long[] maxDims;
  private final long[] chunk;
  private final long chunkBytes;
  private final boolean filtered;
  private final String at;
  private final List<long[]> origins = new ArrayList<>();
  private final List<long[]> stored = new ArrayList<>(); // address, size, mask

  private Hdf5ChunkIndex(Hdf5File file, Hdf5Object.Layout layout, Hdf5Object.Space space,
      long chunkBytes, boolean filtered, String at) {
    this.file = file;
    this.layout = layout;
    this.dims = space.dims;
    this.maxDims = space.maxDims;
    this.chunk = layout.chunk;
    this.chunkBytes = chunkBytes;
    this.filtered = filtered;
    this.at = at;
  }

  /**
   * The stored chunks of a dataset of dataspace {@code space} (its maximum dimensions -1 where
   * unlimited) whose chunks hold {@code chunkBytes} bytes before filtering.
   */
  static Variable.Chunks read(Hdf5File file, Hdf5Object.Layout layout, Hdf5Object.Space space,
      long chunkBytes, boolean filtered, String at) {
    long[] dims = space.dims;
    Hdf5ChunkIndex r = new Hdf5ChunkIndex(file, layout, space, chunkBytes, filtered, at);
    if (layout.address != Hdf5Bytes.UNDEFINED) { // undefined: nothing was ever written
      switch (layout.index) {
        case 0:
          r.btree1();
          break;
        case 1:
          r.add(new long[dims.length], layout.address,
              filtered ? layout.singleSize : chunkBytes, layout.singleMask);
          break;
        case 2:
          r.implicit();
          break;
        case 3:
          r.fixedArray();
          break;
        case 4:
          r.extensibleArray();
          break;
        default:
          r.btree2();
          break;
      }
    }
    int n = r.origins.size();
    long[][] o = r.origins.toArray(new long[0][]);
    long[] addresses = new long[n];
    long[] sizes = new long[n];
    int[] masks = new int[n];
    for (int i = 0; i < n; i++) {
      long[] s = r.stored.get(i);
      addresses[i] = file.base() + s[0];
      sizes[i] = s[1];
      masks[i] = (int) s[2];
    }
    return new Variable.Chunks(o, addresses, sizes, masks);
  }

  /** Records a chunk whose first element is at {@code scaled} times the chunk shape. */
  private void add(long[] scaled, long address, long size, long mask) {
    if (address == Hdf5Bytes.UNDEFINED) {
      return;
    }
    long[] origin = new long[scaled.length];
    for (int d = 0; d < scaled.length; d++) {
      origin[d] = scaled[d] * chunk[d];
      if (scaled[d] < 0 || origin[d] / chunk[d] != scaled[d] || origin[d] >= dims[d]) {
        return; // outside the current shape (a dataset shrunk since): HDF5 reads none of it
      }
    }
    if (size <= 0 || !filtered && size != chunkBytes || !file.holds(address, size)) {
      throw new Hdf5Damage(at + ": the chunk at " + java.util.Arrays.toString(origin) + " ("
          + size + " bytes at address " + address + ") lies outside the file ("
          + file.length() + " bytes) or has the wrong size: the file is cut short or damaged");
    }
    if (origins.size() > file.length()) { // every chunk holds a byte: no file holds more
      throw new Hdf5Damage(at + ": the chunk index lists more chunks than the file has bytes");
    }
    origins.add(origin);
    stored.add(new long[] {address, size, mask});
  }

  // ---- version 1 B-tree (layout versions 1 to 3) --------------------------------------------

  private void btree1() {
    int rank = dims.length;
    BTrees.v1(file, layout.address, 1, rank + 1, (key, child) -> {
      long size = key.u32();
      long mask = key.u32();
      long[] scaled = new long[rank];
      for (int d = 0; d < rank; d++) {
        long offset = key.unsigned(8);
        if (offset % chunk[d] != 0) {
          throw new Hdf5Damage(at + ": a chunk at offset " + offset + " of dimension " + d
              + ", not a multiple of its chunks' " + chunk[d]);
        }
        scaled[d] = offset / chunk[d];
      }
      add(scaled, child, size, mask);
    });
  }

  // ---- implicit index ------------------------------------------------------------------------

  private void implicit() {
    long[] max = maxChunks(false);
    long n = product(max);
    if (n <= 0 || n > file.length() / Math.max(1, chunkBytes) + 1) {
      throw new Hdf5Damage(at + ": " + n + " chunks of " + chunkBytes + " bytes allocated "
          + "together, more than the file holds");
    }
    long[] down = down(max);
    for (long i = 0; i < n; i++) {
      add(scaled(i, down, -1), layout.address + i * chunkBytes, chunkBytes, 0);
    }
  }

  // ---- fixed array -------------------------------------------------------------------------

  private void fixedArray() {
    int so = file.sizeOfOffsets();
    int sl = file.sizeOfLengths();
    Hdf5Bytes h = file.read(layout.address, 8 + sl + so + 4, "the fixed array header of " + at)
        .signature("FAHD");
    h.checksum(0, 8 + sl + so, "the fixed array header of " + at);
    h.at(4);
    checkVersion(h.u8(), "fixed array header");
    int cls = checkClass(h.u8());
    int elementSize = checkElementSize(h.u8(), "fixed array");
    int pageBits = h.u8();
    long n = h.length();
    long dataBlock = h.address();
    if (pageBits > 31) {
      throw new Hdf5Damage(at + ": a fixed array of pages of 2^" + pageBits + " chunks");
    }
    long[] max = maxChunks(false);
    long[] down = down(max);
    if (dataBlock == Hdf5Bytes.UNDEFINED) {
      return;
    }
    long pageElements = 1L << pageBits;
    boolean paged = n > pageElements;
    long pages = paged ? (n + pageElements - 1) / pageElements : 0;
    long initBytes = (pages + 7) / 8;
    long prefix = 6 + so + initBytes;
    String what = "the fixed array data block of " + at;
    if (!paged) {
      Hdf5Bytes b = file.read(dataBlock, prefix + n * elementSize + 4, what);
      b.checksum(0, (int) (prefix + n * elementSize), what);
      dataBlockHead(b.signature("FADB"), cls, "FADB");
      for (long i = 0; i < n; i++) {
        element(b, elementSize, scaled(i, down, -1));
      }
      return;
    }
    Hdf5Bytes b = file.read(dataBlock, prefix + 4, what);
    b.checksum(0, (int) prefix, what);
    dataBlockHead(b.signature("FADB"), cls, "FADB");
    byte[] init = b.bytes(initBytes);
    long pageBytes = pageElements * elementSize + 4;
    for (long p = 0; p < pages; p++) {
      if (!bit(init, p)) {
        continue; // a page never written: all its chunks undefined
      }
      long count = Math.min(pageElements, n - p * pageElements);
      String page = "page " + p + " of " + what;
      Hdf5Bytes pb = file.read(dataBlock + prefix + 4 + p * pageBytes, count * elementSize + 4,
          page);
      pb.checksum(0, (int) (count * elementSize), page);
      for (long i = 0; i < count; i++) {
        element(pb, elementSize, scaled(p * pageElements + i, down, -1));
      }
    }
  }

  // ---- extensible array --------------------------------------------------------------------

  private void extensibleArray() {
    int so = file.sizeOfOffsets();
    int sl = file.sizeOfLengths();
    String what = "the extensible array header of " + at;
    Hdf5Bytes h = file.read(layout.address, 12 + 6L * sl + so + 4, what).signature("EAHD");
    h.checksum(0, 12 + 6 * sl + so, what);
    h.at(4);
    checkVersion(h.u8(), "extensible array header");
    int cls = checkClass(h.u8());
    int elementSize = checkElementSize(h.u8(), "extensible array");
    int maxBits = h.u8();
    int indexElements = h.u8();
    int minElements = h.u8();
    int minPointers = h.u8();
    int pageBits = h.u8();
    h.skip(4L * sl);
    long maxIndexSet = h.length();
    h.length();
    long indexBlock = h.address();
    if (maxBits < 1 || maxBits > 64 || minElements < 1 || Integer.bitCount(minElements) != 1
        || minPointers < 2 || Integer.bitCount(minPointers) != 1 || pageBits > 31
        || Hdf5File.log2(minElements) > maxBits) {
      throw new Hdf5Damage(what + " is damaged: " + maxBits + " bits of elements, data blocks "
          + "from " + minElements + " elements, super blocks from " + minPointers
          + " pointers, pages of 2^" + pageBits);
    }
    if (indexBlock == Hdf5Bytes.UNDEFINED) {
      return;
    }
    int superBlocks = 1 + maxBits - Hdf5File.log2(minElements);
    // the super blocks whose data blocks the index block lists
    int inIndex = 2 * Hdf5File.log2(minPointers);
    int dataBlockPointers = 2 * (minPointers - 1);
    int superBlockPointers = Math.max(0, superBlocks - inIndex);
    int offsetBytes = (maxBits + 7) / 8;
    long pageElements = 1L << pageBits;
    ExtensibleArray ea = new ExtensibleArray(cls, elementSize, offsetBytes, pageElements,
        maxIndexSet);
    what = "the extensible array index block of " + at;
    long size = 6 + so + (long) indexElements * elementSize
        + ((long) dataBlockPointers + superBlockPointers) * so;
    Hdf5Bytes ib = file.read(indexBlock, size + 4, what);
    ib.checksum(0, (int) size, what);
    dataBlockHead(ib.signature("EAIB"), cls, "EAIB");
    for (long i = 0; i < indexElements; i++) {
      element(ib, elementSize, ea.scaled(i));
    }
    long[] dataBlocks = new long[dataBlockPointers];
    for (int i = 0; i < dataBlockPointers; i++) {
      dataBlocks[i] = ib.address();
    }
    long[] supers = new long[superBlockPointers];
    for (int i = 0; i < superBlockPointers; i++) {
      supers[i] = ib.address();
    }
    long first = indexElements; // the array index of each super block's first element
    long firstDataBlock = 0;
    for (int u = 0; u < superBlocks && first < maxIndexSet; u++) {
      long count = 1L << (u / 2);
      long elements = (1L << ((u + 1) / 2)) * minElements;
      if (u < inIndex) {
        for (long d = 0; d < count && first + d * elements < maxIndexSet; d++) {
          int k = (int) (firstDataBlock + d);
          if (k < dataBlocks.length) {
            ea.dataBlock(dataBlocks[k], elements, first + d * elements, null, 0);
          }
        }
      } else if (supers[u - inIndex] != Hdf5Bytes.UNDEFINED) {
        ea.superBlock(supers[u - inIndex], count, elements, first);
      }
      first += count * elements;
      firstDataBlock += count;
    }
  }

  /** What an extensible array's super and data blocks share: their sizes and where chunks go. */
  private final class ExtensibleArray {
    private final int cls;
    private final int elementSize;
    private final int offsetBytes;
    private final long pageElements;
    private final long maxIndexSet;
    private final long[] down;
    private final int unlimited;

    ExtensibleArray(int cls, int elementSize, int offsetBytes, long pageElements,
        long maxIndexSet) {
      this.cls = cls;
      this.elementSize = elementSize;
      this.offsetBytes = offsetBytes;
      this.pageElements = pageElements;
      this.maxIndexSet = maxIndexSet;
      this.unlimited = unlimitedDimension();
      this.down = down(swizzle(maxChunks(true), unlimited));
    }

    /** The first unlimited dimension, which HDF5 moves first; -1 where none is. */
    private int unlimitedDimension() {
      for (int d = 0; d < maxDims.length; d++) {
        if (maxDims[d] < 0) {
          return d;
        }
      }
      return -1;
    }

    /** The chunk grid index of array element {@code i}. */
    long[] scaled(long i) {
      return Hdf5ChunkIndex.scaled(i, down, unlimited);
    }

    /** The super block at {@code address}: {@code count} data blocks of {@code elements}. */
    void superBlock(long address, long count, long elements, long first) {
      int so = file.sizeOfOffsets();
      boolean paged = elements > pageElements;
      long pages = paged ? elements / pageElements : 0;
      long initBytes = (pages + 7) / 8; // a data block's bytes of page bits; its bits are at
      // data block x pages + page of the whole bitmap (H5EA__lookup_elmt)
      long size = 6 + so + offsetBytes + count * initBytes + count * so;
      String what = "an extensible array super block of " + at;
      Hdf5Bytes b = file.read(address, size + 4, what);
      b.checksum(0, (int) size, what);
      dataBlockHead(b.signature("EASB"), cls, "EASB");
      b.skip(offsetBytes);
      byte[] init = b.bytes(count * initBytes);
      for (long d = 0; d < count && first + d * elements < maxIndexSet; d++) {
        long dataBlock = b.address();
        if (dataBlock != Hdf5Bytes.UNDEFINED) {
          dataBlock(dataBlock, elements, first + d * elements, init, d * pages);
        }
      }
    }

    /**
     * The data block at {@code address} of {@code elements} from array index {@code first}; a
     * paged one's pages initialized where bit {@code initFrom + page} of {@code init} is set.
     */
    void dataBlock(long address, long elements, long first, byte[] init, long initFrom) {
      if (address == Hdf5Bytes.UNDEFINED) {
        return;
      }
      int so = file.sizeOfOffsets();
      long prefix = 6 + so + offsetBytes;
      String what = "an extensible array data block of " + at;
      if (elements <= pageElements) {
        Hdf5Bytes b = file.read(address, prefix + elements * elementSize + 4, what);
        b.checksum(0, (int) (prefix + elements * elementSize), what);
        dataBlockHead(b.signature("EADB"), cls, "EADB");
        b.skip(offsetBytes);
        for (long i = 0; i < elements; i++) {
          element(b, elementSize, scaled(first + i));
        }
        return;
      }
      if (init == null) {
        throw new Hdf5Unsupported(what + " is paged outside a super block, which HDF5 does not "
            + "write");
      }
      Hdf5Bytes b = file.read(address, prefix + 4, what);
      b.checksum(0, (int) prefix, what);
      dataBlockHead(b.signature("EADB"), cls, "EADB");
      long pages = elements / pageElements;
      long pageBytes = pageElements * elementSize + 4;
      for (long p = 0; p < pages; p++) {
        if (!bit(init, initFrom + p)) {
          continue;
        }
        String page = "page " + p + " of " + what;
        Hdf5Bytes pb = file.read(address + prefix + 4 + p * pageBytes, pageBytes, page);
        pb.checksum(0, (int) (pageBytes - 4), page);
        for (long i = 0; i < pageElements; i++) {
          element(pb, elementSize, scaled(first + p * pageElements + i));
        }
      }
    }
  }

  // ---- version 2 B-tree --------------------------------------------------------------------

  private void btree2() {
    int rank = dims.length;
    int so = file.sizeOfOffsets();
    BTrees.v2(file, layout.address, filtered ? 11 : 10, (rec, i) -> {
      int sizeBytes = rec.remaining() - so - 4 - 8 * rank;
      long address = rec.address();
      long size = chunkBytes;
      long mask = 0;
      if (filtered) {
        size = rec.unsigned(sizeBytes);
        mask = rec.u32();
      }
      long[] scaled = new long[rank];
      for (int d = 0; d < rank; d++) {
        scaled[d] = rec.unsigned(8);
      }
      add(scaled, address, size, mask);
    });
  }

  // ---- shared ------------------------------------------------------------------------------

  /** An array element: a chunk's address, and for filtered chunks its size and filter mask. */
  private void element(Hdf5Bytes b, int elementSize, long[] scaled) {
    int so = file.sizeOfOffsets();
    long address = b.address();
    long size = chunkBytes;
    long mask = 0;
    if (filtered) {
      size = b.unsigned(elementSize - so - 4);
      mask = b.u32();
    }
    if (scaled != null) {
      add(scaled, address, size, mask);
    }
  }

  private void dataBlockHead(Hdf5Bytes b, int cls, String block) {
    checkVersion(b.u8(), block);
    if (b.u8() != cls) {
      throw new Hdf5Damage(at + ": the " + block + " block belongs to another kind of array");
    }
    if (b.address() != layout.address) {
      throw new Hdf5Damage(at + ": the " + block + " block belongs to another array");
    }
  }

  private void checkVersion(int version, String what) {
    if (version != 0) {
      throw new Hdf5Damage(at + ": " + what + " version " + version + " (0)");
    }
  }

  private int checkClass(int cls) {
    if (cls != (filtered ? 1 : 0)) {
      throw new Hdf5Damage(at + ": its chunk index holds " + (cls == 1 ? "filtered" : "unfiltered")
          + " chunks, its filter pipeline says otherwise");
    }
    return cls;
  }

  private int checkElementSize(int size, String what) {
    int so = file.sizeOfOffsets();
    if (filtered ? size < so + 5 || size > so + 12 : size != so) {
      throw new Hdf5Damage(at + ": " + what + " elements of " + size + " bytes");
    }
    return size;
  }

  /** HDF5's bit order for page bitmaps: bit 0 is the high bit of the first byte. */
  private static boolean bit(byte[] bits, long i) {
    return i / 8 < bits.length && (bits[(int) (i / 8)] & (0x80 >> (i % 8))) != 0;
  }

  /** Chunks per dimension over the maximum shape (an unlimited dimension: 0, if allowed). */
  private long[] maxChunks(boolean unlimitedAllowed) {
    long[] n = new long[chunk.length];
    for (int d = 0; d < n.length; d++) {
      if (maxDims[d] < 0) {
        if (!unlimitedAllowed) {
          throw new Hdf5Damage(at + ": an unlimited dimension under a fixed-size chunk index");
        }
        n[d] = 0;
      } else {
        n[d] = (Math.max(maxDims[d], dims[d]) + chunk[d] - 1) / chunk[d];
      }
    }
    return n;
  }

  /** The unlimited dimension moved first, as H5VM_swizzle_coords does. */
  private static long[] swizzle(long[] v, int unlimited) {
    if (unlimited <= 0) {
      return v.clone();
    }
    long[] s = new long[v.length];
    s[0] = v[unlimited];
    for (int d = 0, k = 1; d < v.length; d++) {
      if (d != unlimited) {
        s[k++] = v[d];
      }
    }
    return s;
  }

  /** Chunks per step of each dimension of a linear index (H5VM_array_down). */
  private static long[] down(long[] counts) {
    long[] down = new long[counts.length];
    long acc = 1;
    for (int d = counts.length - 1; d >= 0; d--) {
      down[d] = acc;
      acc = d > 0 ? saturatedProduct(acc, Math.max(1, counts[d])) : acc;
    }
    return down;
  }

  private static long saturatedProduct(long a, long b) {
    long p = a * b;
    return a != 0 && (p / a != b || p < 0) ? Long.MAX_VALUE : p;
  }

  private static long product(long[] v) {
    long p = 1;
    for (long x : v) {
      p = saturatedProduct(p, x);
    }
    return p;
  }

  /** The chunk coordinates of linear index {@code i}, unswizzled. */
  private static long[] scaled(long i, long[] down, int unlimited) {
    long[] s = new long[down.length];
    long rem = i;
    for (int d = 0; d < down.length; d++) {
      s[d] = rem / down[d];
      rem %= down[d];
    }
    if (unlimited <= 0) {
      return s;
    }
    long[] out = new long[s.length];
    out[unlimited] = s[0];
    for (int d = 0, k = 1; d < s.length; d++) {
      if (d != unlimited) {
        out[d] = s[k++];
      }
    }
    return out;
  }
}
