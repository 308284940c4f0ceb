package org.opass.mrap.index;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.ChunkFilters;
import org.opass.mrap.format.Storage;
import org.opass.mrap.format.Variable;

/**
 * One variable of one indexed file: its Zarr form ({@link ZarrArray}) and chunk references
 * (each chunk's offset and length in the file, by Zarr chunk key; a key of the grid with none is
 * a chunk never written), or its values inline (a coordinate); and what the planner needs
 * exactly that Zarr's metadata does not carry: the element type and byte order, the attributes
 * as typed as the file holds them, the dimensions as the file names them, the coordinate
 * variable of each, and where the elements lie as the header said (strided, or chunked with
 * the stored extent, the filters and the fill value). An immutable value.
 */
final class ArrayEntry {
  private final String name;
  private final List<String> dimensions; // as the file names them, "" where unnamed
  private final List<String> zarrDimensions; // as _ARRAY_DIMENSIONS names them
  private final List<String> coordinates; // per dimension its coordinate variable, or null
  private final ElementType type;
  private final ByteOrder order;
  private final Attributes attributes;
  private final ZarrArray zarr;
  private final long base; // strided: element 0's offset
  private final long[] strides; // strided, else null
  private final long[] extent; // chunked, else null
  private final ChunkFilters filters;
  private final byte[] fill; // chunked: one element read where nothing was stored, or null
  private final TreeMap<String, long[]> refs; // chunk key -> {offset, length}
  private final byte[] inline; // the values, raw, or null

  /**
   * {@code v} (its chunk index read, or not where {@code inline}) as the Zarr array {@code zarr}
   * of dimensions {@code zarrDimensions} with chunks {@code refs}, or its values {@code inline}.
   */
  ArrayEntry(Variable v, List<String> zarrDimensions, List<String> coordinates, ZarrArray zarr,
      Map<String, long[]> refs, byte[] inline) {
    this.name = v.name();
    this.dimensions = v.dimensions();
    this.zarrDimensions = List.copyOf(zarrDimensions);
    this.coordinates = Collections.unmodifiableList(new ArrayList<>(coordinates));
    this.type = v.type();
    this.order = v.order();
    this.attributes = v.attributes();
    this.zarr = zarr;
    this.base = v.chunked() ? -1 : v.base();
    this.strides = v.chunked() ? null : v.byteStrides();
    this.extent = v.chunked() ? v.extent() : null;
    this.filters = v.filters();
    this.fill = v.chunked() ? v.fill() : null;
    this.refs = new TreeMap<>(refs);
    this.inline = inline == null ? null : inline.clone();
  }

  /** The variable's name as its file gives it (an HDF5 dataset's path). */
  String name() {
    return name;
  }

  /** Its name in the set: its path without the leading slash. */
  String key() {
    return key(name);
  }

  /** A variable's name in a set: without the leading slash of an HDF5 path. */
  static String key(String name) {
    return name.startsWith("/") ? name.substring(1) : name;
  }

  ZarrArray zarr() {
    return zarr;
  }

  List<String> dimensions() {
    return dimensions;
  }

  List<String> zarrDimensions() {
    return zarrDimensions;
  }

  List<String> coordinates() {
    return coordinates;
  }

  /** The chunk references, by key ("0.1.2"): offset and length in the file. */
  Map<String, long[]> refs() {
    return Collections.unmodifiableMap(refs);
  }

  /** The raw values, for an array held inline; else null. */
  byte[] inline() {
    return inline == null ? null : inline.clone();
  }

  ElementType type() {
    return type;
  }

  ByteOrder order() {
    return order;
  }

  Attributes attributes() {
    return attributes;
  }

  boolean chunked() {
    return strides == null;
  }

  long base() {
    return base;
  }

  long[] strides() {
    return strides.clone();
  }

  long[] extent() {
    return extent.clone();
  }

  ChunkFilters filters() {
    return filters;
  }

  byte[] fill() {
    return fill == null ? null : fill.clone();
  }

  /**
   * The variable as the file's header describes it, named as {@code file}; with its chunk index
   * where {@code withChunks}, else no chunk stored.
   */
  Variable variable(String file, boolean withChunks) {
    Storage s;
    if (!chunked()) {
      s = Storage.strided(base, strides);
    } else {
      int[] chunk = zarr.chunks();
      Variable.Chunks stored = Variable.Chunks.none();
      if (withChunks) {
        long[][] origins = new long[refs.size()][];
        long[] addresses = new long[refs.size()];
        long[] sizes = new long[refs.size()];
        int i = 0;
        for (Map.Entry<String, long[]> e : refs.entrySet()) {
          origins[i] = origin(e.getKey(), chunk);
          addresses[i] = e.getValue()[0];
          sizes[i] = e.getValue()[1];
          i++;
        }
        stored = new Variable.Chunks(origins, addresses, sizes, new int[refs.size()]);
      }
      s = Storage.chunked(extent, chunk, stored, filters, fill);
    }
    return Variable.of(file, name, zarr.shape(), type, order, s).withMetadata(dimensions,
        attributes);
  }

  /** The array index of the first element of chunk {@code key} ("i.j.k"). */
  static long[] origin(String key, int[] chunk) {
    if (chunk.length == 0) {
      return new long[0];
    }
    String[] parts = key.split("\\.");
    long[] o = new long[chunk.length];
    for (int d = 0; d < chunk.length; d++) {
      o[d] = Long.parseLong(parts[d]) * chunk[d];
    }
    return o;
  }

  /** The chunk key of the chunk whose first element is {@code origin}. */
  static String key(long[] origin, int[] chunk) {
    if (chunk.length == 0) {
      return "0";
    }
    StringBuilder b = new StringBuilder();
    for (int d = 0; d < chunk.length; d++) {
      b.append(d == 0 ? "" : ".").append(origin[d] / chunk[d]);
    }
    return b.toString();
  }

  static String base64(byte[] b) {
    return Base64.getEncoder().encodeToString(b);
  }

  static byte[] unbase64(String s) {
    return Base64.getDecoder().decode(s);
  }

  /**
   * Attributes as JSON, typed: text as a string, numbers as {@code [type, "<" or ">" (their byte
   * order in the file), value...]} (integers
   * as JSON integers, floats as the doubles that print them exactly, NaN and infinities as
   * strings), so that they read back as the file holds them ({@link #attributes}).
   */
  static Map<String, Object> attributesJson(Attributes a) {
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    for (String n : a.names()) {
      Attributes.Attribute x = a.get(n);
      if (x.isText()) {
        out.put(n, x.text());
        continue;
      }
      List<Object> v = new ArrayList<>();
      v.add(x.type().name());
      v.add(x.order() == ByteOrder.LITTLE_ENDIAN ? "<" : ">");
      for (int i = 0; i < x.count(); i++) {
        if (x.type().floating()) {
          double d = x.getDouble(i);
          v.add(Double.isFinite(d) ? (Object) d : Double.toString(d));
        } else {
          v.add(x.getLong(i));
        }
      }
      out.put(n, v);
    }
    return out;
  }

  /** The attributes {@link #attributesJson} wrote. */
  static Attributes attributes(com.fasterxml.jackson.databind.JsonNode json) {
    Map<String, Attributes.Attribute> m = new java.util.LinkedHashMap<>();
    java.util.Iterator<Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it =
        json.fields();
    while (it.hasNext()) {
      Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> e = it.next();
      com.fasterxml.jackson.databind.JsonNode v = e.getValue();
      if (v.isTextual()) {
        m.put(e.getKey(), Attributes.Attribute.text(v.asText()));
        continue;
      }
      ElementType t = ElementType.valueOf(v.get(0).asText());
      ByteOrder order = v.get(1).asText().equals("<") ? ByteOrder.LITTLE_ENDIAN
          : ByteOrder.BIG_ENDIAN;
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((v.size() - 2) * t.size())
          .order(order);
      for (int i = 2; i < v.size(); i++) {
        if (t.floating()) {
          double d = v.get(i).isTextual() ? Double.parseDouble(v.get(i).asText())
              : v.get(i).asDouble();
          if (t == ElementType.FLOAT32) {
            b.putFloat((float) d);
          } else {
            b.putDouble(d);
          }
        } else {
          long x = v.get(i).asLong();
          switch (t.size()) {
            case 1:
              b.put((byte) x);
              break;
            case 2:
              b.putShort((short) x);
              break;
            case 4:
              b.putInt((int) x);
              break;
            default:
              b.putLong(x);
          }
        }
      }
      m.put(e.getKey(), Attributes.Attribute.numbers(t, order, b.array()));
    }
    return Attributes.of(m);
  }

  /** This array in a set of its file's: its chunks at {@code url}, or its values inline. */
  ReferenceSet.Array inSet(String url) {
    if (inline != null) {
      byte[] stored = zarr.encode(inline);
      return inSet(zarr, key -> stored);
    }
    return inSet(zarr, key -> {
      long[] r = refs.get(key);
      return r == null ? null : new ReferenceSet.Ref(url, r[0], r[1]);
    });
  }

  /**
   * This array in a set as {@code zarr} (a series' join: another shape or codecs), its chunks
   * by key as {@code chunks} gives them ({@link ReferenceSet.Array#chunk}).
   */
  ReferenceSet.Array inSet(ZarrArray zarr, Function<String, Object> chunks) {
    return new InSet(this, zarr, chunks);
  }

  /** An array of a set: its name, dimensions and attributes this entry's. */
  private static final class InSet implements ReferenceSet.Array {
    private final ArrayEntry a;
    private final ZarrArray zarr;
    private final Function<String, Object> chunks;

    InSet(ArrayEntry a, ZarrArray zarr, Function<String, Object> chunks) {
      this.a = a;
      this.zarr = zarr;
      this.chunks = chunks;
    }

    @Override
    public String name() {
      return a.key();
    }

    @Override
    public ZarrArray zarr() {
      return zarr;
    }

    @Override
    public List<String> dimensions() {
      return a.zarrDimensions;
    }

    @Override
    public Attributes attributes() {
      return a.attributes;
    }

    @Override
    public Object chunk(String key) {
      return chunks.apply(key);
    }

    @Override
    public byte[] fill() {
      return a.chunked() ? a.fill() : null;
    }
  }
}
