package org.opass.mrap.science;

import io.jhdf.AbstractNode;
import io.jhdf.HdfFile;
import io.jhdf.ObjectHeader;
import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.api.dataset.ContiguousDataset;
import io.jhdf.dataset.chunked.Chunk;
import io.jhdf.dataset.chunked.ChunkedDatasetBase;
import io.jhdf.filter.PipelineFilterWithData;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.FixedPoint;
import io.jhdf.object.datatype.FloatingPoint;
import io.jhdf.object.message.DataLayout;
import io.jhdf.object.message.FillValueMessage;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * One dataset of an HDF5 file (NetCDF-4 files are HDF5 files; a NetCDF-4 variable is the
 * dataset of its name in its group), described through jHDF ({@code io.jhdf:jhdf}), which reads
 * the superblock, object headers and chunk indexes (B-trees v1 and v2, fixed and extensible
 * arrays) through a {@link PagedChannel}: a few positioned reads of 64 KiB, not the file.
 *
 * <p>Served: contiguous and chunked datasets of integers and floating-point numbers, chunks
 * through the filters jHDF decodes (deflate, shuffle, Fletcher-32, LZF, LZ4, bitshuffle).
 * Chunks never written read as the dataset's fill value, as HDF5 reads them. Refused by name:
 * compact datasets, strings, compound and variable-length types, other filters, contiguous
 * storage never written.
 */
public final class Hdf5Header {
  /** The HDF5 signature, at 0 or 512, 1024, 2048... (after a user block). */
  private static final byte[] SIGNATURE = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
  private static final Method CHUNK_LOOKUP;

  static {
    Method m = null;
    try { // jHDF keeps the chunk index protected; the addresses are what a split needs
      m = ChunkedDatasetBase.class.getDeclaredMethod("getChunkLookup");
      m.setAccessible(true);
    } catch (ReflectiveOperationException | RuntimeException e) {
      m = null;
    }
    CHUNK_LOOKUP = m;
  }

  private Hdf5Header() {
  }

  /** Whether {@code head} begins an HDF5 file (no user block). */
  public static boolean matches(byte[] head) {
    if (head.length < SIGNATURE.length) {
      return false;
    }
    for (int i = 0; i < SIGNATURE.length; i++) {
      if (head[i] != SIGNATURE[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The dataset {@code name} of {@code file} ({@code /group/name}; the leading slash may be
   * left out, as NetCDF-4 variable names are written).
   *
   * @throws ScienceFormatException naming the file, the dataset and why it cannot be read
   */
  public static Variable variable(Positioned in, String file, String name) throws IOException {
    String path = name.startsWith("/") ? name : "/" + name;
    try (PagedChannel ch = new PagedChannel(in);
         HdfFile h = new HdfFile(ch, URI.create("hdf5:/" + file.replaceAll("[^A-Za-z0-9/._-]", "_")))) {
      Node node;
      try {
        node = h.getByPath(path);
      } catch (RuntimeException e) {
        throw new ScienceFormatException(file + ": no dataset " + path + " (" + e.getMessage()
            + "); datasets: " + datasets(h));
      }
      if (!(node instanceof Dataset)) {
        throw new ScienceFormatException(file + ": " + path + " is a " + node.getType()
            + ", not a dataset; datasets: " + datasets(h));
      }
      return describe((Dataset) node, file, path, h.getUserBlockSize());
    } catch (ScienceFormatException e) {
      throw e;
    } catch (RuntimeException e) { // jHDF's HdfException and the like
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      throw new ScienceFormatException(file + ": the HDF5 metadata cannot be read for " + path
          + ": " + root.getMessage() + " (jHDF " + jhdfVersion() + ")", e);
    }
  }

  /** {@code base}: the user block's bytes before the superblock, which addresses count from. */
  private static Variable describe(Dataset d, String file, String path, long base) {
    String at = file + ": " + path;
    if (d.isCompound() || d.isVariableLength()) {
      throw new ScienceFormatException(at + " holds " + (d.isCompound() ? "compound"
          : "variable-length") + " elements (" + d.getJavaType().getSimpleName() + "); only "
          + "integers and floating-point numbers are read");
    }
    DataType t = d.getDataType();
    ElementType type;
    ByteOrder order;
    if (t instanceof FixedPoint) {
      FixedPoint f = (FixedPoint) t;
      type = ElementType.integer(f.getSize(), f.isSigned());
      order = f.getByteOrder();
    } else if (t instanceof FloatingPoint && (t.getSize() == 4 || t.getSize() == 8)) {
      type = t.getSize() == 4 ? ElementType.FLOAT32 : ElementType.FLOAT64;
      order = ((FloatingPoint) t).getByteOrder();
    } else {
      type = null;
      order = null;
    }
    if (type == null) {
      throw new ScienceFormatException(at + " holds elements of HDF5 class "
          + t.getClass().getSimpleName() + " of " + t.getSize() + " bytes; only integers of 1, "
          + "2, 4 or 8 bytes and floating-point numbers of 4 or 8 are read");
    }
    int[] dims = d.getDimensions();
    long[] shape = new long[Math.max(1, dims.length)];
    shape[0] = 1;
    for (int i = 0; i < dims.length; i++) {
      shape[i] = dims[i];
    }
    for (long s : shape) {
      if (s == 0) {
        throw new ScienceFormatException(at + " is empty (shape "
            + java.util.Arrays.toString(dims) + ")");
      }
    }
    DataLayout layout = d.getDataLayout();
    if (d instanceof ContiguousDataset) {
      long address = ((ContiguousDataset) d).getDataAddress();
      if (address < 0 || address == 0xFFFFFFFFFFFFFFFFL) {
        throw new ScienceFormatException(at + " has no storage: its values were never "
            + "written (fill values are not read)");
      }
      return Variable.strided(file, path, shape, type, order, base + address,
          Variable.rowMajor(shape, type.size()));
    }
    if (!(d instanceof ChunkedDataset) || !(d instanceof ChunkedDatasetBase)) {
      throw new ScienceFormatException(at + " is stored " + layout + "; only contiguous and "
          + "chunked datasets are read");
    }
    List<Variable.FilterSpec> filters = new ArrayList<>();
    try {
      for (PipelineFilterWithData f : d.getFilters()) {
        filters.add(new Variable.FilterSpec(f.getId(), f.getName(), f.getFilterData()));
      }
    } catch (RuntimeException e) {
      throw new ScienceFormatException(at + ": " + e.getMessage() + "; the filters read are "
          + ChunkDecoder.supported(), e);
    }
    for (Variable.FilterSpec f : filters) {
      if (!ChunkDecoder.supports(f.id())) {
        throw new ScienceFormatException(at + " is stored through the filter " + f
            + ", which is not read; the filters read are " + ChunkDecoder.supported());
      }
    }
    if (CHUNK_LOOKUP == null) {
      throw new ScienceFormatException(at + ": this jHDF (" + jhdfVersion() + ") does not "
          + "give the chunks' addresses");
    }
    Collection<?> chunks;
    try {
      chunks = ((Map<?, ?>) CHUNK_LOOKUP.invoke(d)).values();
    } catch (ReflectiveOperationException e) {
      throw new ScienceFormatException(at + ": the chunk index cannot be read: " + e, e);
    }
    long[][] origins = new long[chunks.size()][];
    long[] addresses = new long[chunks.size()];
    long[] sizes = new long[chunks.size()];
    int[] masks = new int[chunks.size()];
    int i = 0;
    for (Object o : chunks) {
      Chunk c = (Chunk) o;
      int[] off = c.getChunkOffset();
      origins[i] = new long[shape.length];
      for (int k = 0; k < off.length && k < shape.length; k++) {
        origins[i][k] = off[k];
      }
      addresses[i] = base + c.getAddress();
      sizes[i] = c.getSize() & 0xFFFFFFFFL;
      BitSet m = c.getFilterMask();
      masks[i] = m == null || m.isEmpty() ? 0 : (int) m.toLongArray()[0];
      i++;
    }
    int[] chunkShape = ((ChunkedDataset) d).getChunkDimensions();
    if (dims.length == 0) {
      chunkShape = new int[] {1};
    }
    return Variable.chunked(file, path, shape, type, order, chunkShape,
        new Variable.Chunks(origins, addresses, sizes, masks), filters,
        fill(d, type.size(), at));
  }

  /**
   * One element of the value a chunk never written holds, from the dataset's fill value message
   * (the raw bytes, in the dataset's type and order); null where none is defined, which HDF5
   * reads as zeros.
   */
  private static byte[] fill(Dataset d, int size, String at) {
    if (!(d instanceof AbstractNode)) {
      return null;
    }
    ObjectHeader header = ((AbstractNode) d).getHeader();
    if (!header.hasMessageOfType(FillValueMessage.class)) {
      return null;
    }
    FillValueMessage m = header.getMessageOfType(FillValueMessage.class);
    if (!m.isFillValueDefined()) {
      return null;
    }
    java.nio.ByteBuffer b = m.getFillValue().duplicate();
    if (b.remaining() != size) {
      throw new ScienceFormatException(at + ": a fill value of " + b.remaining() + " bytes for "
          + "elements of " + size);
    }
    byte[] out = new byte[size];
    b.get(out);
    return out;
  }

  private static String datasets(HdfFile h) {
    List<String> out = new ArrayList<>();
    collect(h, out);
    return out.isEmpty() ? "none" : String.join(", ", out.subList(0, Math.min(20, out.size())))
        + (out.size() > 20 ? " and " + (out.size() - 20) + " more" : "");
  }

  private static void collect(io.jhdf.api.Group g, List<String> out) {
    for (Node n : g) {
      if (n instanceof io.jhdf.api.Group) {
        collect((io.jhdf.api.Group) n, out);
      } else if (n instanceof Dataset) {
        out.add(n.getPath());
      }
    }
  }

  private static String jhdfVersion() {
    String v = HdfFile.class.getPackage().getImplementationVersion();
    return v == null ? "unknown version" : v;
  }
}
