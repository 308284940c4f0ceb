package org.opass.mrap.science;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
public final class Hdf5Header {
  /** Elements of the chunks a never-allocated contiguous dataset is read in, as fill values. */
  private static final long FILL_CHUNK_ELEMENTS = 1 << 17;
  /** Objects a search for a dimension scale's path reads at most. */
  private static final int MAX_WALK = 2000;
  private static final String NETCDF_DIMENSION_ONLY =
      "This is a netCDF dimension but not a netCDF variable";

  private Hdf5Header() {
  }

  /** Whether {@code head} begins an HDF5 file (or holds its signature after a user block). */
  public static boolean matches(byte[] head) {
    return Hdf5File.matches(head);
  }

  /**
   * The dataset {@code name} of {@code file} ({@code /group/name}; the leading slash may be
   * left out, as NetCDF-4 variable names are written), with HDF5's shape.
   *
   * @throws ScienceFormatException naming the file, the dataset and why it cannot be read
   */
  public static Variable variable(Positioned in, String file, String name) throws IOException {
    return variable(in, file, name, false);
  }

  /**
   * The dataset {@code name} of {@code file}; with {@code netcdf}, as netCDF-C reads the
   * NetCDF-4 variable it is (netCDF's shape along unlimited dimensions, netCDF's fill values).
   */
  static Variable variable(Positioned in, String file, String name, boolean netcdf)
      throws IOException {
    Hdf5File h = open(in, file);
    try {
      return variable(h, file, name, netcdf, true);
    } finally {
      h.close();
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

  /**
   * The dataset {@code name} of the file {@code h} opened, as {@link #variable} describes it;
   * without {@code index}, a chunked dataset's chunk index is not read (its chunks none): its
   * shape, dimensions and attributes only.
   */
  static Variable variable(Hdf5File h, String file, String name, boolean netcdf,
      boolean index) {
    String path = name.startsWith("/") ? name : "/" + name;
    return guarded(file, path, () -> describe(h, dataset(h, file, path), file, path, netcdf,
        index));
  }

  /**
   * The dataset of the dimension scale of dimension {@code d} of {@code v} (a dataset of the
   * file {@code h} opened), described as {@link #variable} describes a dataset; null where that
   * dimension has no scale (no DIMENSION_LIST entry), or its scale is not a one-dimensional
   * dataset or is only a netCDF dimension (netCDF-C's dimension without a variable). A
   * coordinate variable, itself a scale, is its own dimension's.
   */
  static Variable coordinate(Hdf5File h, String file, Variable v, int d, boolean netcdf) {
    if (d < 0 || d >= v.rank()) {
      throw new IllegalArgumentException("dimension " + d + " of " + v);
    }
    String path = v.name().startsWith("/") ? v.name() : "/" + v.name();
    String at = file + ": " + path;
    return guarded(file, path, () -> {
      Hdf5Object o = dataset(h, file, path);
      if (d >= o.space().dims.length) {
        return null; // a scalar's one dimension
      }
      Long scale = scale(h, o, d, at);
      if (scale == null) {
        return null;
      }
      if (scale == o.address()) {
        return describe(h, o, file, path, netcdf, true);
      }
      Hdf5Object s = h.object(scale);
      if (!s.isDataset() || s.space().dims.length != 1 || dimensionOnly(s)) {
        return null;
      }
      String scalePath = pathOf(h, scale, path);
      if (scalePath == null) {
        throw new ScienceFormatException(at + ": the dimension scale of its dimension " + d
            + " (the object at address " + scale + ") is linked from no group of the file");
      }
      return describe(h, s, file, scalePath, netcdf, true);
    });
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
  private static Hdf5Object dataset(Hdf5File h, String file, String path) {
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
  private static Variable describe(Hdf5File h, Hdf5Object o, String file, String path,
      boolean netcdf, boolean index) {
    Variable v = storage(h, o, file, path, netcdf, index);
    String at = file + ": " + path;
    return v.withMetadata(dimensionNames(h, o, path, v.rank(), at), attributes(h, o, at));
  }

  private static Variable storage(Hdf5File h, Hdf5Object o, String file, String path,
      boolean netcdf, boolean index) {
    String at = file + ": " + path;
    Hdf5Object.Type t = o.type();
    ElementType type = t.element();
    if (type == null) {
      String what = t.kind == Hdf5Object.Type.COMPOUND ? "compound" : t.kind == Hdf5Object.Type.VLEN
          ? "variable-length" : t.kind == Hdf5Object.Type.STRING ? "string" : t.kindName();
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
    if (netcdf && dimensionOnly(o)) {
      throw new ScienceFormatException(at + " is a netCDF dimension (of length "
          + Arrays.toString(netcdfShape(h, o, dims, maxDims, at)) + "), not a variable");
    }
    if (netcdf) {
      shape = netcdfShape(h, o, dims, maxDims, at);
      fill = netcdfFill(o, type, order, fill, at);
    }
    if (layout.kind == Hdf5Object.Layout.CONTIGUOUS) {
      if (layout.address == Hdf5Bytes.UNDEFINED) { // never written: all fill, read in chunks
        return Variable.chunked(file, path, shape, dims, type, order,
            fillChunks(shape, type.size()), Variable.Chunks.none(), List.of(), fill);
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
      return Variable.strided(file, path, dims, type, order, h.base() + layout.address,
          Variable.rowMajor(dims, type.size()));
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
    List<Variable.FilterSpec> filters = o.filters();
    for (Variable.FilterSpec f : filters) {
      if (!ChunkDecoder.supports(f.id())) {
        throw new ScienceFormatException(at + " is stored through the filter " + f
            + ", which is not read; the filters read are " + ChunkDecoder.supported());
      }
    }
    Variable.Chunks chunks = !index ? Variable.Chunks.none() : Hdf5ChunkIndex.read(h, layout,
        dims, maxDims, chunkBytes, !filters.isEmpty(), at);
    return Variable.chunked(file, path, shape, dims, type, order, chunkShape, chunks, filters,
        fill);
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

  // ---- NetCDF-4 ----------------------------------------------------------------------------

  /**
   * netCDF's shape: along each unlimited dimension, the dimension's length, which netCDF-C takes
   * as the longest of the variables that use it (its scale's attached datasets, through the
   * scale's REFERENCE_LIST, and the scale itself when it is a variable).
   */
  private static long[] netcdfShape(Hdf5File h, Hdf5Object o, long[] dims, long[] maxDims,
      String at) {
    long[] shape = dims.clone();
    for (int d = 0; d < dims.length; d++) {
      if (maxDims[d] >= 0) {
        continue;
      }
      Long scale = scale(h, o, d, at);
      if (scale == null) {
        continue; // not a netCDF dimension: HDF5's shape
      }
      Hdf5Object s = scale == o.address() ? o : h.object(scale);
      if (!dimensionOnly(s)) {
        shape[d] = Math.max(shape[d], length(s, 0));
      }
      Hdf5Object.Attribute refs = s.attribute("REFERENCE_LIST");
      if (refs == null) {
        continue;
      }
      long ref = refs.type.memberOffset("dataset");
      long dim = refs.type.memberOffset("dimension");
      if (refs.type.kind != Hdf5Object.Type.COMPOUND || ref < 0 || dim < 0
          || ref + h.sizeOfOffsets() > refs.type.size || dim + 4 > refs.type.size) {
        throw new Hdf5Damage("the REFERENCE_LIST of the dimension scale of " + at
            + " is not a list of (dataset, dimension)");
      }
      Hdf5Bytes b = h.bytes(refs.value, "the REFERENCE_LIST of the dimension scale of " + at);
      Set<Long> seen = new HashSet<>();
      for (long i = 0; i < refs.elements(); i++) {
        int p = (int) (i * refs.type.size);
        long target = b.at(p + (int) ref).address();
        int index = (int) b.at(p + (int) dim).u32();
        if (seen.add(target) && target != o.address()) {
          shape[d] = Math.max(shape[d], length(h.object(target), index));
        }
      }
    }
    return shape;
  }

  /** The address of the dimension scale of dimension {@code d} of {@code o}, or null. */
  private static Long scale(Hdf5File h, Hdf5Object o, int d, String at) {
    Hdf5Object.Attribute list = o.attribute("DIMENSION_LIST");
    if (list == null) {
      Hdf5Object.Attribute cls = o.attribute("CLASS");
      return d == 0 && cls != null && text(cls).equals("DIMENSION_SCALE") ? o.address() : null;
    }
    int so = h.sizeOfOffsets();
    long element = 4 + so + 4;
    if (list.type.kind != Hdf5Object.Type.VLEN || list.type.size != element
        || list.value.length < (d + 1) * element) {
      throw new Hdf5Damage("the DIMENSION_LIST of " + at + " is not a list of references per "
          + "dimension");
    }
    Hdf5Bytes b = h.bytes(list.value, "the DIMENSION_LIST of " + at).at((int) (d * element));
    long count = b.u32();
    long collection = b.address();
    long index = b.u32();
    if (count == 0) {
      return null;
    }
    return h.bytes(h.globalHeapObject(collection, index), "the DIMENSION_LIST of " + at)
        .address();
  }

  private static long length(Hdf5Object o, int dim) {
    long[] dims = o.space().dims;
    if (dim < 0 || dim >= dims.length) {
      throw new Hdf5Damage("a dimension scale refers to dimension " + dim + " of a dataset of "
          + "rank " + dims.length);
    }
    return dims[dim];
  }

  /** Whether a dimension scale is only a netCDF dimension, not also a variable. */
  private static boolean dimensionOnly(Hdf5Object scale) {
    Hdf5Object.Attribute name = scale.attribute("NAME");
    return name != null && text(name).startsWith(NETCDF_DIMENSION_ONLY);
  }

  private static String text(Hdf5Object.Attribute a) {
    if (a.type.kind != Hdf5Object.Type.STRING) {
      return "";
    }
    String s = new String(a.value, StandardCharsets.UTF_8);
    int nul = s.indexOf(0);
    return (nul < 0 ? s : s.substring(0, nul)).trim();
  }

  /**
   * netCDF's fill value: the variable's _FillValue, else the dataset's (netCDF-C sets it to the
   * same; a file written without fill has none), else netCDF's default for its type.
   */
  private static byte[] netcdfFill(Hdf5Object o, ElementType type, ByteOrder order,
      byte[] hdf5, String at) {
    Hdf5Object.Attribute a = o.attribute("_FillValue");
    ByteBuffer out = ByteBuffer.allocate(type.size()).order(order);
    if (a != null) {
      ElementType t = a.type.element();
      if (t != type || a.value.length != type.size()) {
        throw new Hdf5Damage("the _FillValue of " + at + " is not one element of its type");
      }
      byte[] v = a.value.clone();
      if (a.type.order != order) {
        for (int i = 0; i < v.length / 2; i++) {
          byte x = v[i];
          v[i] = v[v.length - 1 - i];
          v[v.length - 1 - i] = x;
        }
      }
      return v;
    }
    if (hdf5 != null) {
      return hdf5;
    }
    switch (type) { // netcdf.h's NC_FILL_*
      case INT8:
        out.put((byte) -127);
        break;
      case UINT8:
      case CHAR:
        out.put(type == ElementType.CHAR ? (byte) 0 : (byte) 255);
        break;
      case INT16:
        out.putShort((short) -32767);
        break;
      case UINT16:
        out.putShort((short) 65535);
        break;
      case INT32:
        out.putInt(-2147483647);
        break;
      case UINT32:
        out.putInt((int) 4294967295L);
        break;
      case INT64:
        out.putLong(-9223372036854775806L);
        break;
      case UINT64:
        out.putLong(-2L); // 18446744073709551614
        break;
      case FLOAT32:
        out.putFloat(9.9692099683868690e+36f);
        break;
      default:
        out.putDouble(9.9692099683868690e+36);
        break;
    }
    return out.array();
  }

  // ---- dimension names and attributes ------------------------------------------------------

  /**
   * Each dimension's name: its dimension scale's NAME (as h5py's {@code make_scale(name)} and
   * netCDF-C for a coordinate variable set it), else (netCDF-C's dimension-only scales, a scale
   * made without a name) the scale dataset's own name, as netCDF-C names a dimension; "" where
   * the dimension has no scale.
   */
  private static List<String> dimensionNames(Hdf5File h, Hdf5Object o, String path, int rank,
      String at) {
    int stored = o.space().dims.length;
    List<String> names = new ArrayList<>(rank);
    for (int d = 0; d < rank; d++) {
      Long scale = d < stored ? scale(h, o, d, at) : null;
      names.add(scale == null ? "" : scaleName(h, scale, path, at));
    }
    return names;
  }

  private static String scaleName(Hdf5File h, long scale, String near, String at) {
    Hdf5Object s = h.object(scale);
    Hdf5Object.Attribute a = s.attributes(List.of("NAME")).get("NAME");
    String name = a == null ? null : string(h, a, at);
    if (name != null && !name.isEmpty() && !name.startsWith(NETCDF_DIMENSION_ONLY)) {
      return name;
    }
    String p = pathOf(h, scale, near);
    return p == null ? "" : p.substring(p.lastIndexOf('/') + 1);
  }

  /**
   * The path of the object at {@code address}: looked for among the hard links of the groups on
   * the path {@code near}, innermost first (where netCDF-C puts a dimension's scale: in the
   * group of the dimension, the variable's or an ancestor), then through the file's groups (at
   * most {@link #MAX_WALK} objects); null where it is not found.
   */
  private static String pathOf(Hdf5File h, long address, String near) {
    Set<Long> searched = new HashSet<>();
    for (int slash = near.lastIndexOf('/'); slash >= 0;
        slash = slash == 0 ? -1 : near.lastIndexOf('/', slash - 1)) {
      String group = near.substring(0, slash);
      Long g = group.isEmpty() ? Long.valueOf(h.root()) : h.resolve(group);
      if (g == null || !searched.add(g)) {
        continue;
      }
      for (Hdf5File.Link l : h.links(g)) {
        if (l.kind == 0 && l.address == address) {
          return group + "/" + l.name;
        }
      }
    }
    List<Long> groups = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    groups.add(h.root());
    paths.add("");
    Set<Long> seen = new HashSet<>(groups);
    for (int i = 0; i < groups.size() && seen.size() < MAX_WALK; i++) {
      for (Hdf5File.Link l : h.links(groups.get(i))) {
        if (l.kind != 0) {
          continue;
        }
        if (l.address == address) {
          return paths.get(i) + "/" + l.name;
        }
        if (seen.size() < MAX_WALK && seen.add(l.address) && isGroup(h, l.address)) {
          groups.add(l.address);
          paths.add(paths.get(i) + "/" + l.name);
        }
      }
    }
    return null;
  }

  /** Whether the object at {@code address} is a group; an unreadable one is not searched. */
  private static boolean isGroup(Hdf5File h, long address) {
    try {
      return h.object(address).isGroup();
    } catch (Hdf5Damage | Hdf5Unsupported e) {
      return false;
    }
  }

  /**
   * The dataset's attributes named in {@link Attributes#KEPT}: numbers (integers and IEEE
   * floating point, in their own type and byte order) and text (a fixed-length or variable-length
   * string, one element); those of other types (compound, enumerated, references, several
   * strings) and those over {@link Attributes#MAX_VALUE_BYTES} are left out.
   */
  private static Attributes attributes(Hdf5File h, Hdf5Object o, String at) {
    Map<String, Attributes.Attribute> out = new LinkedHashMap<>();
    for (Hdf5Object.Attribute a : o.attributes(Attributes.KEPT).values()) {
      ElementType t = a.type.element();
      if (t != null) {
        long bytes = Math.multiplyExact(a.elements(), t.size());
        if (a.value.length != bytes) {
          throw new Hdf5Damage("the attribute " + a.name + " of " + at + " holds "
              + a.value.length + " bytes for " + a.elements() + " numbers of " + t.size());
        }
        if (bytes <= Attributes.MAX_VALUE_BYTES) {
          out.put(a.name, Attributes.Attribute.numbers(t, a.type.order, a.value));
        }
        continue;
      }
      String text = string(h, a, at);
      if (text != null) {
        out.put(a.name, Attributes.Attribute.text(text));
      }
    }
    return Attributes.of(out);
  }

  /**
   * The text of a string attribute of one element (fixed-length, or variable-length in the
   * global heap) or none (a null dataspace: ""), its padding dropped; null for an attribute of
   * another type or of several strings, or over {@link Attributes#MAX_VALUE_BYTES}.
   */
  private static String string(Hdf5File h, Hdf5Object.Attribute a, String at) {
    boolean fixed = a.type.kind == Hdf5Object.Type.STRING;
    boolean vlen = a.type.kind == Hdf5Object.Type.VLEN && (a.type.bits & 0x0f) == 1;
    if (!fixed && !vlen) {
      return null;
    }
    if (a.space.isNull) {
      return "";
    }
    if (a.elements() != 1) {
      return null;
    }
    if (a.value.length < a.type.size) {
      throw new Hdf5Damage("the attribute " + a.name + " of " + at + " holds "
          + a.value.length + " bytes for a string of " + a.type.size);
    }
    if (fixed) {
      return a.type.size > Attributes.MAX_VALUE_BYTES ? null
          : unpad(a.value, (int) a.type.size, a.type.bits & 0x0f);
    }
    Hdf5Bytes b = h.bytes(a.value, "the attribute " + a.name + " of " + at);
    long length = b.u32();
    long collection = b.address();
    long index = b.u32();
    if (length == 0) {
      return "";
    }
    if (length > Attributes.MAX_VALUE_BYTES) {
      return null;
    }
    byte[] s = h.globalHeapObject(collection, index);
    if (s.length < length) {
      throw new Hdf5Damage("the attribute " + a.name + " of " + at + " is a string of " + length
          + " bytes held in a global heap object of " + s.length);
    }
    return unpad(s, (int) length, a.type.bits >> 4 & 0x0f);
  }

  /** {@code n} bytes of UTF-8 padded as HDF5 pads strings: 0 NUL-terminated, 1 NULs, 2 spaces. */
  private static String unpad(byte[] b, int n, int padding) {
    int end = 0;
    if (padding == 0) {
      while (end < n && b[end] != 0) {
        end++;
      }
    } else {
      end = n;
      while (end > 0 && (b[end - 1] == 0 || padding == 2 && b[end - 1] == ' ')) {
        end--;
      }
    }
    return new String(b, 0, end, StandardCharsets.UTF_8);
  }

  // ---- listing -----------------------------------------------------------------------------

  /** The file's datasets (the first 20), for a message: each object read alone, failures named. */
  private static String datasets(Hdf5File h) {
    List<String> out = new ArrayList<>();
    try {
      collect(h, h.root(), "", out, new HashSet<>(), 0);
    } catch (RuntimeException | StackOverflowError e) {
      out.add("(the listing stops: " + e.getMessage() + ")");
    }
    return out.isEmpty() ? "none" : String.join(", ", out.subList(0, Math.min(20, out.size())))
        + (out.size() > 20 ? " and more" : "");
  }

  private static void collect(Hdf5File h, long group, String path, List<String> out,
      Set<Long> seen, int depth) {
    if (!seen.add(group) || depth > 32 || out.size() > 20 || seen.size() > 2000) {
      return;
    }
    for (Hdf5File.Link l : h.links(h.object(group), null)) {
      if (l.kind != 0) {
        continue;
      }
      String p = path + "/" + l.name;
      try {
        Hdf5Object o = h.object(l.address);
        if (o.isDataset()) {
          out.add(p);
        } else if (o.isGroup()) {
          collect(h, l.address, p, out, seen, depth + 1);
        }
      } catch (Hdf5Damage | Hdf5Unsupported e) {
        out.add(p + " (unreadable)");
      }
    }
  }
}
