package org.opass.mrap.format.hdf5;

import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.ChunkFilters;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.Storage;
import org.opass.mrap.format.Variable;

/**
 * One dataset of an HDF5 file (NetCDF-4 files are HDF5 files; a NetCDF-4 variable is the
 * dataset of its name in its group), described from the file's metadata ({@link Hdf5File}): a
 * few positioned reads of 64 KiB pages, only the objects on the dataset's path, never its
 * siblings (but for its dimension scales, and the links of the groups that hold them where a
 * scale's name is its link's).
 *
 * <p>Served: contiguous and chunked datasets of integers and IEEE floating-point numbers, chunks
 * under every chunk index HDF5 writes and through the filters jHDF decodes (deflate, shuffle,
 * Fletcher-32, LZF, LZ4, bitshuffle). Chunks never written, and contiguous storage never
 * allocated, read as the dataset's fill value, as HDF5 reads them. Read as a NetCDF-4 variable,
 * a dataset has netCDF's shape: along an unlimited dimension, the dimension's length (its longest
 * variable's), the elements past its own records reading as its {@code _FillValue}, else
 * netCDF's default fill value for its type, as netCDF-C reads them. Refused by name: compact,
 * virtual and external datasets (only when they are the dataset asked for), strings, compound,
 * enumerated and variable-length types, other filters.
 *
 * <p>A dataset's {@link Variable#attributes} are those of {@link Attributes#KEPT} it has, of
 * number or string types (others are left out), and its {@link Variable#dimensions} the names of
 * its dimension scales: a scale's NAME, else (netCDF-C's dimension-only scales, a scale made
 * without a name) the name of the scale's link, as netCDF-C names a dimension.
 */
final class Hdf5Header implements ScienceFile {
  /** Elements of the chunks a never-allocated contiguous dataset is read in, as fill values. */
  private static final long FILL_CHUNK_ELEMENTS = 1 << 17;

  private final Hdf5File h;
  private final String file;
  private final boolean netcdf;

  /** {@code h} opened from {@code file}; {@code netcdf}: its datasets as NetCDF-4 variables. */
  Hdf5Header(Hdf5File h, String file, boolean netcdf) {
    this.h = h;
    this.file = file;
    this.netcdf = netcdf;
  }

  /**
   * The dataset {@code name} of {@code file} ({@code /group/name}; the leading slash may be
   * left out, as NetCDF-4 variable names are written), with HDF5's shape.
   *
   * @throws ScienceFormatException naming the file, the dataset and why it cannot be read
   */
  static Variable variable(Positioned in, String file, String name) throws IOException {
    try (Hdf5Header header = new Hdf5Header(open(in, file), file, false)) {
      return header.variable(name);
    }
  }

  /** Opens the metadata of {@code file}, refusing a file that is not HDF5 by name. */
  static Hdf5File open(Positioned in, String file) throws IOException {
    try {
      return Hdf5File.open(in);
    } catch (Hdf5Damage e) {
      throw new ScienceFormatException(file + ": not a readable HDF5 file: " + e.getMessage(), e);
    }
  }

  @Override
  public Variable variable(String name) {
    return variable(name, true);
  }

  @Override
  public Variable describe(String name) {
    return variable(name, false);
  }

  /**
   * The dataset {@code name}; without {@code index}, a chunked dataset's chunk index is not read
   * (its chunks none): its shape, dimensions and attributes only.
   */
  private Variable variable(String name, boolean index) {
    String path = name.startsWith("/") ? name : "/" + name;
    return guarded(file, path, () -> describe(dataset(path), path, index));
  }

  /**
   * The dataset of the dimension scale of dimension {@code d} of {@code v}, described as {@link
   * #variable} describes a dataset; null where that dimension has no scale (no DIMENSION_LIST
   * entry), or its scale is not a one-dimensional dataset or is only a netCDF dimension
   * (netCDF-C's dimension without a variable). A coordinate variable, itself a scale, is its own
   * dimension's.
   */
  @Override
  public Variable coordinate(Variable v, int d) {
    if (d < 0 || d >= v.rank()) {
      throw new IllegalArgumentException("dimension " + d + " of " + v);
    }
    String path = v.name().startsWith("/") ? v.name() : "/" + v.name();
    String at = file + ": " + path;
    return guarded(file, path, () -> {
      Hdf5Object o = dataset(path);
      if (d >= o.space().dims.length) {
        return null; // a scalar's one dimension
      }
      Long scale = DimensionScales.scale(h, o, d, at);
      if (scale == null) {
        return null;
      }
      if (scale == o.address()) {
        return describe(o, path, true);
      }
      Hdf5Object s = h.object(scale);
      if (!s.isDataset() || s.space().dims.length != 1 || DimensionScales.dimensionOnly(s)) {
        return null;
      }
      String scalePath = DimensionScales.pathOf(h, scale, path);
      if (scalePath == null) {
        throw new ScienceFormatException(at + ": the dimension scale of its dimension " + d
            + " (the object at address " + scale + ") is linked from no group of the file");
      }
      return describe(s, scalePath, true);
    });
  }

  @Override
  public String file() {
    return file;
  }

  @Override
  public void close() {
    h.close();
  }

  /** What is done to the metadata, its failures refused by name. */
  private interface Work<T> {
    T run();
  }

  private static <T> T guarded(String file, String path, Work<T> w) {
    try {
      return w.run();
    } catch (ScienceFormatException e) {
      throw e;
    } catch (Hdf5Unsupported e) {
      throw new ScienceFormatException(file + ": " + path + ": " + e.getMessage(), e);
    } catch (Hdf5Damage e) {
      throw new ScienceFormatException(file + ": the HDF5 metadata of " + path + " is damaged: "
          + e.getMessage(), e);
    } catch (ArithmeticException | IllegalArgumentException | IndexOutOfBoundsException
        | StackOverflowError e) {
      throw new ScienceFormatException(file + ": the HDF5 metadata of " + path + " is damaged ("
          + e + ")", e);
    }
  }

  /** The dataset at {@code path}, refused by name where there is none. */
  private Hdf5Object dataset(String path) {
    Long address = h.resolve(path);
    if (address == null) {
      throw new ScienceFormatException(file + ": no dataset " + path + "; datasets: "
          + datasets(h));
    }
    Hdf5Object o = h.object(address);
    if (!o.isDataset()) {
      throw new ScienceFormatException(file + ": " + path + " is a "
          + (o.isGroup() ? "group" : "named datatype") + ", not a dataset; datasets: "
          + datasets(h));
    }
    return o;
  }

  /** The dataset's storage, its dimensions' names and its kept attributes. */
  private Variable describe(Hdf5Object o, String path, boolean index) {
    Variable v = storage(o, path, index);
    String at = file + ": " + path;
    return v.withMetadata(DimensionScales.dimensionNames(h, o, path, v.rank(), at),
        Hdf5Attributes.attributes(h, o, at));
  }

  private Variable storage(Hdf5Object o, String path, boolean index) {
    String at = file + ": " + path;
    Datatype t = o.type();
    ElementType type = t.element();
    if (type == null) {
      String what = t.kind == Datatype.COMPOUND ? "compound" : t.kind == Datatype.VLEN
          ? "variable-length" : t.kind == Datatype.STRING ? "string" : t.kindName();
      throw new ScienceFormatException(at + " holds " + what + " elements of " + t.size
          + " bytes; only integers of 1, 2, 4 or 8 bytes and IEEE floating-point numbers of 4 or "
          + "8 are read");
    }
    ByteOrder order = t.order;
    Hdf5Object.Space space = o.space();
    if (space.isNull) {
      throw new ScienceFormatException(at + " is empty (a null dataspace)");
    }
    long[] dims = space.dims.length == 0 ? new long[] {1} : space.dims;
    long[] maxDims = space.dims.length == 0 ? new long[] {1} : space.maxDims;
    for (long s : dims) {
      if (s == 0) {
        throw new ScienceFormatException(at + " is empty (shape " + Arrays.toString(space.dims)
            + ")");
      }
    }
    if (o.external()) {
      throw new ScienceFormatException(at + " is stored in external files (its External Data "
          + "Files message), which are not read; the file's other datasets are");
    }
    Hdf5Object.Layout layout = o.layout();
    if (layout.kind == Hdf5Object.Layout.VIRTUAL) {
      throw new ScienceFormatException(at + " is a virtual dataset (its values come from other "
          + "datasets), which is not read: read its source datasets");
    }
    if (layout.kind == Hdf5Object.Layout.COMPACT) {
      throw new ScienceFormatException(at + " is stored compact (inside its object header), "
          + "which is not read; the file's other datasets are");
    }
    byte[] fill = fill(o.fill(), type, at);
    long[] shape = dims;
    if (netcdf && DimensionScales.dimensionOnly(o)) {
      throw new ScienceFormatException(at + " is a netCDF dimension (of length "
          + Arrays.toString(DimensionScales.netcdfShape(h, o, dims, maxDims, at))
          + "), not a variable");
    }
    if (netcdf) {
      shape = DimensionScales.netcdfShape(h, o, dims, maxDims, at);
      fill = Hdf5Attributes.netcdfFill(o, type, order, fill, at);
    }
    if (layout.kind == Hdf5Object.Layout.CONTIGUOUS) {
      if (layout.address == Hdf5Bytes.UNDEFINED) { // never written: all fill, read in chunks
        return Variable.of(file, path, shape, type, order, Storage.chunked(dims,
            fillChunks(shape, type.size()), Variable.Chunks.none(), ChunkFilters.NONE, fill));
      }
      long bytes = type.size();
      for (long d : dims) {
        bytes = Math.multiplyExact(bytes, d);
      }
      if (!h.holds(layout.address, bytes)) {
        throw new ScienceFormatException(at + ": its " + bytes + " bytes at address "
            + layout.address + " lie past the end of the file (" + h.length() + " bytes): the "
            + "file is cut short");
      }
      return Variable.of(file, path, dims, type, order, Storage.strided(h.base()
          + layout.address, Variable.rowMajor(dims, type.size())));
    }
    if (layout.kind != Hdf5Object.Layout.CHUNKED || layout.chunk == null
        || layout.chunk.length != dims.length && space.dims.length != 0) {
      throw new ScienceFormatException(at + " has a data layout of class " + layout.kind
          + " (version " + layout.version + "), which is not read");
    }
    long[] chunk = space.dims.length == 0 ? new long[] {1} : layout.chunk;
    int[] chunkShape = new int[chunk.length];
    long chunkBytes = type.size();
    for (int d = 0; d < chunk.length; d++) {
      if (chunk[d] < 1 || chunk[d] > Integer.MAX_VALUE) {
        throw new ScienceFormatException(at + " has chunks of " + Arrays.toString(chunk)
            + " elements: the file is damaged");
      }
      chunkShape[d] = (int) chunk[d];
      chunkBytes = Math.multiplyExact(chunkBytes, chunk[d]);
    }
    if (chunkBytes > Integer.MAX_VALUE - 64) {
      throw new ScienceFormatException(at + " has chunks of " + chunkBytes + " bytes, more than "
          + "a task holds at once");
    }
    List<FilterSpec> filters = o.filters();
    for (FilterSpec f : filters) {
      if (!Hdf5Filters.supports(f.id())) {
        throw new ScienceFormatException(at + " is stored through the filter " + f
            + ", which is not read; the filters read are " + Hdf5Filters.supported());
      }
    }
    Variable.Chunks chunks = !index ? Variable.Chunks.none() : Hdf5ChunkIndex.read(h, layout,
        new Hdf5Object.Space(dims, maxDims, false), chunkBytes, !filters.isEmpty(), at);
    return Variable.of(file, path, shape, type, order, Storage.chunked(dims, chunkShape, chunks,
        filters.isEmpty() ? ChunkFilters.NONE : new Hdf5Filters(filters), fill));
  }

  /** A chunk grid for a dataset never written: each chunk at most 128 Ki elements. */
  private static int[] fillChunks(long[] shape, int size) {
    int[] c = new int[shape.length];
    long inner = 1;
    for (int d = shape.length - 1; d >= 0; d--) {
      long room = Math.max(1, FILL_CHUNK_ELEMENTS / inner);
      c[d] = (int) Math.min(shape[d], room);
      inner = Math.multiplyExact(inner, c[d]);
    }
    return c;
  }

  private static byte[] fill(byte[] stored, ElementType type, String at) {
    if (stored != null && stored.length != type.size()) {
      throw new ScienceFormatException(at + ": a fill value of " + stored.length + " bytes for "
          + "elements of " + type.size() + ": the file is damaged");
    }
    return stored;
  }

  // ---- listing -----------------------------------------------------------------------------

  /**
   * The datasets of the file, by path, but (read as NetCDF-4) the dimension scales that are
   * netCDF dimensions only, not variables; at most {@value #MAX_LISTED}.
   */
  @Override
  public List<String> variableNames() {
    List<String> all = new ArrayList<>();
    List<String> out = new ArrayList<>();
    collect(h, h.root(), "", all, new HashSet<>(), 0, MAX_LISTED);
    for (String p : all) {
      Long at = h.resolve(p);
      if (at != null && !(netcdf && DimensionScales.dimensionOnly(h.object(at)))) {
        out.add(p);
      }
    }
    return out;
  }

  /** The most datasets {@link #variableNames} lists. */
  static final int MAX_LISTED = 100_000;

  /** The file's datasets (the first 20), for a message: each object read alone, failures named. */
  private static String datasets(Hdf5File h) {
    List<String> out = new ArrayList<>();
    try {
      collect(h, h.root(), "", out, new HashSet<>(), 0, 20);
    } catch (RuntimeException | StackOverflowError e) {
      out.add("(the listing stops: " + e.getMessage() + ")");
    }
    return out.isEmpty() ? "none" : String.join(", ", out.subList(0, Math.min(20, out.size())))
        + (out.size() > 20 ? " and more" : "");
  }

  private static void collect(Hdf5File h, long group, String path, List<String> out,
      Set<Long> seen, int depth, int most) {
    if (!seen.add(group) || depth > 32 || out.size() > most || seen.size() > 2000) {
      return;
    }
    for (Links.Link l : Links.of(h, h.object(group), null)) {
      if (l.kind != 0) {
        continue;
      }
      String p = path + "/" + l.name;
      try {
        Hdf5Object o = h.object(l.address);
        if (o.isDataset()) {
          out.add(p);
        } else if (o.isGroup()) {
          collect(h, l.address, p, out, seen, depth + 1, most);
        }
      } catch (Hdf5Damage | Hdf5Unsupported e) {
        out.add(p + " (unreadable)");
      }
    }
  }
}
