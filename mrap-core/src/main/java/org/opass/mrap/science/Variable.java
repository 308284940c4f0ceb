package org.opass.mrap.science;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * One variable of a NetCDF file or one dataset of an HDF5 file, as its header describes it: its
 * name, shape, element type and byte order, and where its elements lie in the file. An
 * immutable value; no Hadoop types.
 *
 * <p>Storage is either <em>strided</em>, every element at {@code base + sum(index[d] *
 * byteStride[d])} (an HDF5 contiguous dataset, a NetCDF-3 fixed variable with row-major
 * strides, a NetCDF-3 record variable whose first stride is the record's size), or
 * <em>chunked</em>: the array cut into chunks of one shape, each stored whole somewhere in the
 * file, perhaps through filters (HDF5, NetCDF-4). A chunked variable's elements past its stored
 * {@link #extent} (a NetCDF-4 variable shorter than its unlimited dimension) and those of chunks
 * never written read as its {@link #fill} value.
 */
public final class Variable {
  private final String file;
  private final String name;
  private final long[] shape;
  private final long[] extent;
  private final ElementType type;
  private final ByteOrder order;
  private final long base;
  private final long[] byteStrides;
  private final int[] chunkShape;
  private final Chunks chunks;
  private final List<FilterSpec> filters;
  private final byte[] fill;
  private final List<String> dimensions;
  private final Attributes attributes;

  private Variable(String file, String name, long[] shape, long[] extent, ElementType type,
      ByteOrder order, long base, long[] byteStrides, int[] chunkShape, Chunks chunks,
      List<FilterSpec> filters, byte[] fill) {
    this(file, name, shape, extent, type, order, base, byteStrides, chunkShape, chunks, filters,
        fill, unnamed(shape.length), Attributes.none());
  }

  private Variable(String file, String name, long[] shape, long[] extent, ElementType type,
      ByteOrder order, long base, long[] byteStrides, int[] chunkShape, Chunks chunks,
      List<FilterSpec> filters, byte[] fill, List<String> dimensions, Attributes attributes) {
    this.file = file;
    this.name = name;
    this.shape = shape;
    this.extent = extent;
    this.type = type;
    this.order = order;
    this.base = base;
    this.byteStrides = byteStrides;
    this.chunkShape = chunkShape;
    this.chunks = chunks;
    this.filters = filters;
    this.fill = fill;
    this.dimensions = dimensions;
    this.attributes = attributes;
  }

  private static List<String> unnamed(int rank) {
    return java.util.Collections.nCopies(rank, "");
  }

  /** A variable whose element {@code i} lies at {@code base + sum(i[d] * byteStrides[d])}. */
  public static Variable strided(String file, String name, long[] shape, ElementType type,
      ByteOrder order, long base, long[] byteStrides) {
    if (shape.length != byteStrides.length) {
      throw new IllegalArgumentException("one stride per dimension");
    }
    return new Variable(file, name, shape.clone(), shape.clone(), type, order, base,
        byteStrides.clone(), null, null, List.of(), null);
  }

  /**
   * A variable of chunks of {@code chunkShape}, each stored whole through {@code filters}; a
   * chunk never written reads as {@code fill} (one element's bytes; null: zeros).
   */
  public static Variable chunked(String file, String name, long[] shape, ElementType type,
      ByteOrder order, int[] chunkShape, Chunks chunks, List<FilterSpec> filters, byte[] fill) {
    return chunked(file, name, shape, shape, type, order, chunkShape, chunks, filters, fill);
  }

  /**
   * A chunked variable of {@code shape} whose chunks hold elements only within {@code extent}
   * (no larger than the shape in any dimension): the others read as {@code fill}.
   */
  public static Variable chunked(String file, String name, long[] shape, long[] extent,
      ElementType type, ByteOrder order, int[] chunkShape, Chunks chunks, List<FilterSpec> filters,
      byte[] fill) {
    if (fill != null && fill.length != type.size()) {
      throw new IllegalArgumentException("a fill value of " + fill.length + " bytes for "
          + type);
    }
    if (extent.length != shape.length || chunkShape.length != shape.length) {
      throw new IllegalArgumentException("an extent and a chunk shape of one length per "
          + "dimension");
    }
    for (int d = 0; d < shape.length; d++) {
      if (extent[d] < 0 || extent[d] > shape[d] || chunkShape[d] < 1) {
        throw new IllegalArgumentException("dimension " + d + ": extent " + extent[d]
            + " of " + shape[d] + ", chunks of " + chunkShape[d]);
      }
    }
    return new Variable(file, name, shape.clone(), extent.clone(), type, order, -1, null,
        chunkShape.clone(), chunks, List.copyOf(filters), fill == null ? null : fill.clone());
  }

  /** This chunked variable with other chunks stored (a task's share of them). */
  public Variable withChunks(Chunks c) {
    return chunked(file, name, shape, extent, type, order, chunkShape, c, filters, fill)
        .withMetadata(dimensions, attributes);
  }

  /**
   * This variable with its dimensions' names ("" where a dimension has none, as an HDF5
   * dataset without dimension scales) and its {@link Attributes}.
   */
  public Variable withMetadata(List<String> dimensions, Attributes attributes) {
    if (dimensions.size() != shape.length) {
      throw new IllegalArgumentException(dimensions.size() + " dimension names for " + name
          + Arrays.toString(shape));
    }
    return new Variable(file, name, shape, extent, type, order, base, byteStrides, chunkShape,
        chunks, filters, fill, List.copyOf(dimensions), attributes);
  }

  /** Each dimension's name, "" where it has none. */
  public List<String> dimensions() {
    return dimensions;
  }

  /** The attributes CF decoding and coordinates use ({@link Attributes#KEPT}). */
  public Attributes attributes() {
    return attributes;
  }

  /** A row-major array from {@code base}. */
  public static long[] rowMajor(long[] shape, int elementSize) {
    long[] s = new long[shape.length];
    long stride = elementSize;
    for (int d = shape.length - 1; d >= 0; d--) {
      s[d] = stride;
      stride = Math.multiplyExact(stride, Math.max(1, shape[d]));
    }
    return s;
  }

  /** The file the header was read from (as given when it was opened). */
  public String file() {
    return file;
  }

  public String name() {
    return name;
  }

  public long[] shape() {
    return shape.clone();
  }

  public int rank() {
    return shape.length;
  }

  /**
   * Per dimension, how many indices hold stored values: the shape, but for a NetCDF-4 variable
   * written to fewer records than its unlimited dimension (its HDF5 dataset's shape).
   */
  public long[] extent() {
    return extent.clone();
  }

  public ElementType type() {
    return type;
  }

  public ByteOrder order() {
    return order;
  }

  public boolean chunked() {
    return chunks != null;
  }

  /** For strided storage: the offset of element 0. */
  public long base() {
    return base;
  }

  /** For strided storage: bytes between consecutive indices of each dimension. */
  public long[] byteStrides() {
    return byteStrides.clone();
  }

  /** For chunked storage: elements per chunk and dimension. */
  public int[] chunkShape() {
    return chunkShape.clone();
  }

  /** For chunked storage: the chunks stored, in file order. */
  public Chunks chunks() {
    return chunks;
  }

  /**
   * For chunked storage: one element of the value read where nothing was stored (null: zeros).
   */
  public byte[] fill() {
    return fill == null ? null : fill.clone();
  }

  /** For chunked storage: the filters chunks went through when written, first applied first. */
  public List<FilterSpec> filters() {
    return filters;
  }

  @Override
  public String toString() {
    return name + Arrays.toString(shape) + (Arrays.equals(shape, extent) ? "" : " (stored "
        + Arrays.toString(extent) + ")") + " " + type.name().toLowerCase(java.util.Locale.ROOT)
        + (chunked() ? " in chunks of " + Arrays.toString(chunkShape)
        + (filters.isEmpty() ? "" : " through " + filters) : "");
  }

  /** A filter of an HDF5 dataset's pipeline: its id, name and client data. */
  public static final class FilterSpec {
    private final int id;
    private final String name;
    private final int[] data;

    public FilterSpec(int id, String name, int[] data) {
      this.id = id;
      this.name = name;
      this.data = data.clone();
    }

    public int id() {
      return id;
    }

    public String name() {
      return name;
    }

    public int[] data() {
      return data.clone();
    }

    @Override
    public String toString() {
      return name + " (id " + id + ")";
    }
  }

  /**
   * The stored chunks of a chunked variable, sorted by address: each one's origin (the array
   * index of its first element), address, stored bytes and filter mask (bit i set: filter i was
   * not applied to this chunk).
   */
  public static final class Chunks {
    private final long[][] origins;
    private final long[] addresses;
    private final long[] sizes;
    private final int[] masks;

    public Chunks(long[][] origins, long[] addresses, long[] sizes, int[] masks) {
      Integer[] order = new Integer[addresses.length];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Long.compare(addresses[a], addresses[b]));
      this.origins = new long[order.length][];
      this.addresses = new long[order.length];
      this.sizes = new long[order.length];
      this.masks = new int[order.length];
      for (int i = 0; i < order.length; i++) {
        this.origins[i] = origins[order[i]].clone();
        this.addresses[i] = addresses[order[i]];
        this.sizes[i] = sizes[order[i]];
        this.masks[i] = masks[order[i]];
      }
    }

    /** No chunk stored. */
    public static Chunks none() {
      return new Chunks(new long[0][], new long[0], new long[0], new int[0]);
    }

    public int count() {
      return addresses.length;
    }

    public long[] origin(int i) {
      return origins[i].clone();
    }

    public long address(int i) {
      return addresses[i];
    }

    public long size(int i) {
      return sizes[i];
    }

    public int mask(int i) {
      return masks[i];
    }

    /** The chunk stored at {@code address}, or -1. */
    public int at(long address) {
      int i = Arrays.binarySearch(addresses, address);
      return i >= 0 ? i : -1;
    }

    /** These chunks' {@code keep} ones (indices ascending). */
    public Chunks subset(int[] keep) {
      long[][] o = new long[keep.length][];
      long[] a = new long[keep.length];
      long[] s = new long[keep.length];
      int[] m = new int[keep.length];
      for (int i = 0; i < keep.length; i++) {
        o[i] = origins[keep[i]];
        a[i] = addresses[keep[i]];
        s[i] = sizes[keep[i]];
        m[i] = masks[keep[i]];
      }
      return new Chunks(o, a, s, m);
    }
  }
}
