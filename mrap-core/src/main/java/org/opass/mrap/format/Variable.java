package org.opass.mrap.format;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.opass.mrap.array.ElementType;

/**
 * One variable of a NetCDF file, one dataset of an HDF5 file, or one array of any format of
 * {@link FileFormat}, as its header describes it: its name, shape, element type and byte order,
 * and where its elements lie in the file ({@link Storage}: strided, or chunked with a chunk
 * index and filters), with its dimensions' names and the {@link Attributes} CF uses. An
 * immutable value; no Hadoop types.
 */
public final class Variable {
  private final String file;
  private final String name;
  private final long[] shape;
  private final ElementType type;
  private final ByteOrder order;
  private final Storage storage;
  private final List<String> dimensions;
  private final Attributes attributes;

  private Variable(Variable v, Storage storage, List<String> dimensions, Attributes attributes) {
    this.file = v.file;
    this.name = v.name;
    this.shape = v.shape;
    this.type = v.type;
    this.order = v.order;
    this.storage = storage;
    this.dimensions = dimensions;
    this.attributes = attributes;
  }

  private Variable(String file, String name, long[] shape, ElementType type, ByteOrder order,
      Storage storage) {
    this.file = file;
    this.name = name;
    this.shape = shape;
    this.type = type;
    this.order = order;
    this.storage = storage;
    this.dimensions = java.util.Collections.nCopies(shape.length, "");
    this.attributes = Attributes.none();
  }

  /**
   * The variable {@code name} of {@code file} ({@link #file} names it as given), without
   * dimension names or attributes ({@link #withMetadata}).
   *
   * @throws IllegalArgumentException naming the value, where {@code storage} does not fit the
   *     shape or the element type
   */
  public static Variable of(String file, String name, long[] shape, ElementType type,
      ByteOrder order, Storage storage) {
    storage.check(shape, type.size());
    return new Variable(file, name, shape.clone(), type, order, storage);
  }

  /** This chunked variable with other chunks stored (a task's share of them). */
  public Variable withChunks(Chunks c) {
    return new Variable(this, storage.withChunks(c), dimensions, attributes);
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
    return new Variable(this, storage, List.copyOf(dimensions), attributes);
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
    return storage.chunked() ? storage.extent() : shape.clone();
  }

  public ElementType type() {
    return type;
  }

  public ByteOrder order() {
    return order;
  }

  /** Where the elements lie. */
  public Storage storage() {
    return storage;
  }

  public boolean chunked() {
    return storage.chunked();
  }

  /** For strided storage: the offset of element 0. */
  public long base() {
    return storage.base();
  }

  /** For strided storage: bytes between consecutive indices of each dimension. */
  public long[] byteStrides() {
    return storage.byteStrides();
  }

  /** For chunked storage: elements per chunk and dimension. */
  public int[] chunkShape() {
    return storage.chunkShape();
  }

  /** For chunked storage: the chunks stored, in file order. */
  public Chunks chunks() {
    return storage.chunks();
  }

  /**
   * For chunked storage: one element of the value read where nothing was stored (null: zeros).
   */
  public byte[] fill() {
    return storage.fill();
  }

  /** The filters chunks went through when written ({@link ChunkFilters#NONE} for strided). */
  public ChunkFilters filters() {
    return storage.filters();
  }

  @Override
  public String toString() {
    long[] extent = extent();
    return name + Arrays.toString(shape) + (Arrays.equals(shape, extent) ? "" : " (stored "
        + Arrays.toString(extent) + ")") + " " + type.name().toLowerCase(java.util.Locale.ROOT)
        + (chunked() ? " in chunks of " + Arrays.toString(chunkShape())
        + (filters().specs().isEmpty() ? "" : " through " + filters().specs()) : "");
  }

  /**
   * The stored chunks of a chunked variable, sorted by address: each one's origin (the array
   * index of its first element), address, stored bytes and filter mask (bit i set: filter i was
   * not applied to this chunk). Chunks {@linkplain #placed placed} in other objects than the
   * variable's file (a Zarr store's chunk files, a shard, a file a reference set points into)
   * have addresses of their own, the chunks laid end to end in the order given, and each its
   * object and offset in it.
   */
  public static final class Chunks {
    private final long[][] origins;
    private final long[] addresses;
    private final long[] sizes;
    private final int[] masks;
    private final String[] objects; // placed: each chunk's object, else null
    private final long[] offsets; // placed: where in its object each chunk starts

    public Chunks(long[][] origins, long[] addresses, long[] sizes, int[] masks) {
      this(origins, addresses, sizes, masks, null, null);
    }

    private Chunks(long[][] origins, long[] addresses, long[] sizes, int[] masks,
        String[] objects, long[] offsets) {
      Integer[] order = new Integer[addresses.length];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Long.compare(addresses[a], addresses[b]));
      this.origins = new long[order.length][];
      this.addresses = new long[order.length];
      this.sizes = new long[order.length];
      this.masks = new int[order.length];
      this.objects = objects == null ? null : new String[order.length];
      this.offsets = objects == null ? null : new long[order.length];
      for (int i = 0; i < order.length; i++) {
        this.origins[i] = origins[order[i]].clone();
        this.addresses[i] = addresses[order[i]];
        this.sizes[i] = sizes[order[i]];
        this.masks[i] = masks[order[i]];
        if (objects != null) {
          this.objects[i] = objects[order[i]];
          this.offsets[i] = offsets[order[i]];
        }
      }
    }

    /**
     * Chunks each in an object of its own or at an offset of one: chunk i ({@code sizes[i]}
     * bytes) is bytes {@code [offsets[i], offsets[i] + sizes[i])} of {@code objects[i]} (a key
     * of the variable's store, or a file's URI), addressed as the chunks laid end to end in
     * the order given.
     */
    public static Chunks placed(long[][] origins, long[] sizes, String[] objects,
        long[] offsets) {
      long[] addresses = new long[sizes.length];
      long at = 0;
      for (int i = 0; i < sizes.length; i++) {
        addresses[i] = at;
        at = Math.addExact(at, sizes[i]);
      }
      return new Chunks(origins, addresses, sizes, new int[sizes.length], objects.clone(),
          offsets.clone());
    }

    /** Chunks as {@link #placed} gives them, at addresses already given (a split's). */
    public static Chunks placed(long[][] origins, long[] addresses, long[] sizes,
        String[] objects, long[] offsets) {
      return new Chunks(origins, addresses, sizes, new int[sizes.length], objects.clone(),
          offsets.clone());
    }

    /** Whether the chunks lie in other objects than the variable's file ({@link #object}). */
    public boolean placed() {
      return objects != null;
    }

    /** For placed chunks: the object chunk {@code i} lies in. */
    public String object(int i) {
      return objects[i];
    }

    /** For placed chunks: where in its {@link #object} chunk {@code i} starts. */
    public long objectOffset(int i) {
      return offsets[i];
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
      String[] obj = objects == null ? null : new String[keep.length];
      long[] off = objects == null ? null : new long[keep.length];
      for (int i = 0; i < keep.length; i++) {
        o[i] = origins[keep[i]];
        a[i] = addresses[keep[i]];
        s[i] = sizes[keep[i]];
        m[i] = masks[keep[i]];
        if (obj != null) {
          obj[i] = objects[keep[i]];
          off[i] = offsets[keep[i]];
        }
      }
      return new Chunks(o, a, s, m, obj, off);
    }
  }
}
