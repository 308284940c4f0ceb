package org.opass.mrap.format.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.ScienceFormatException;

/**
 * One Zarr array's metadata, v2 ({@code .zarray} and {@code .zattrs}) or v3 ({@code zarr.json}),
 * as MRAP reads it: shape, chunk (or shard and inner chunk) shape, element type and byte order,
 * fill value, the codecs a chunk went through ({@link ZarrFilters}), how a chunk's key is made,
 * and its dimensions' names and attributes as xarray gives them. An immutable value; a codec or
 * data type not read is refused by name.
 */
final class ArrayMetadata {
  final String store;
  final String path; // the array's key prefix: "" for a store that is one array
  final int format; // 2 or 3
  final long[] shape;
  final int[] chunks; // elements a chunk (sharded: an inner chunk) holds per dimension
  final int[] shard; // sharded (v3): elements a shard holds per dimension, else null
  final ElementType type;
  final ByteOrder order;
  final byte[] fill; // one element in `order`, or null: zeros
  final ZarrFilters filters; // a chunk's (sharded: an inner chunk's)
  final ShardIndex index; // sharded: how a shard's index is read, else null
  final String separator; // between a key's indices
  final boolean prefixC; // v3 default keys: "c" first
  final List<String> dimensions;
  final Attributes attributes;

  private ArrayMetadata(Builder b) {
    store = b.store;
    path = b.path;
    format = b.format;
    shape = b.shape;
    chunks = b.chunks;
    shard = b.shard;
    type = b.type;
    order = b.order;
    fill = b.fill;
    filters = b.filters;
    index = b.index;
    separator = b.separator;
    prefixC = b.prefixC;
    dimensions = b.dimensions;
    attributes = b.attributes;
  }

  private static final class Builder {
    String store;
    String path;
    int format;
    long[] shape;
    int[] chunks;
    int[] shard;
    ElementType type;
    ByteOrder order = ByteOrder.LITTLE_ENDIAN;
    byte[] fill;
    ZarrFilters filters;
    ShardIndex index;
    String separator = ".";
    boolean prefixC;
    List<String> dimensions;
    Attributes attributes;
  }

  /** How a shard's index is read: its place and codecs, inner chunks per shard. */
  static final class ShardIndex {
    final boolean atEnd;
    final boolean crc32c; // the index ends in a CRC-32C of its entries
    final ByteOrder order;
    final int entries; // inner chunks a shard holds

    ShardIndex(boolean atEnd, boolean crc32c, ByteOrder order, int entries) {
      this.atEnd = atEnd;
      this.crc32c = crc32c;
      this.order = order;
      this.entries = entries;
    }

    /** The index's bytes in a shard. */
    long bytes() {
      return 16L * entries + (crc32c ? 4 : 0);
    }
  }

  /** The number of dimensions. */
  int rank() {
    return shape.length;
  }

  /** The shape of what a key names: a shard where sharded, else a chunk. */
  int[] keyShape() {
    return shard != null ? shard : chunks;
  }

  /** The key of the object (chunk or shard) at grid position {@code at}. */
  String key(long[] at) {
    StringBuilder b = new StringBuilder(path.isEmpty() ? "" : path + "/");
    if (prefixC) {
      b.append('c');
    }
    for (int d = 0; d < at.length; d++) {
      if (d > 0 || prefixC) {
        b.append(separator);
      }
      b.append(at[d]);
    }
    if (at.length == 0 && !prefixC) {
      b.append('0');
    }
    return b.toString();
  }

  /**
   * The grid position of the object a key names (the key without the array's prefix), or null
   * where it names none of this array's chunks (metadata, another array's key).
   */
  long[] position(String rest) {
    String s = rest;
    if (prefixC) {
      if (!s.startsWith("c")) {
        return null;
      }
      s = s.substring(1);
      if (shape.length == 0) {
        return s.isEmpty() ? new long[0] : null;
      }
      if (!s.startsWith(separator)) {
        return null;
      }
      s = s.substring(separator.length());
    } else if (shape.length == 0) {
      return s.equals("0") ? new long[0] : null;
    }
    String[] parts = s.split(java.util.regex.Pattern.quote(separator), -1);
    if (parts.length != shape.length) {
      return null;
    }
    long[] at = new long[parts.length];
    int[] ks = keyShape();
    for (int d = 0; d < parts.length; d++) {
      if (parts[d].isEmpty() || parts[d].length() > 18 || !parts[d].chars().allMatch(
          Character::isDigit)) {
        return null;
      }
      at[d] = Long.parseLong(parts[d]);
      long grid = shape[d] == 0 ? 0 : (shape[d] + ks[d] - 1) / ks[d];
      if (at[d] >= grid) {
        return null; // past the array: left by a resize, not read
      }
    }
    return at;
  }

  /** Elements of one chunk (inner chunk where sharded). */
  long chunkElements() {
    long n = 1;
    for (int c : chunks) {
      n = Math.multiplyExact(n, c);
    }
    return n;
  }

  // ---------------------------------------------------------------- v2

  /**
   * The v2 array at {@code path} of {@code store} from its {@code .zarray} and {@code .zattrs}
   * (null: none).
   *
   * @throws ScienceFormatException naming the store, the array and the value not read
   */
  static ArrayMetadata v2(String store, String path, JsonNode zarray, JsonNode zattrs) {
    Builder b = new Builder();
    b.store = store;
    b.path = path;
    b.format = 2;
    String where = where(store, path);
    if (!zarray.isObject() || zarray.path("zarr_format").asInt() != 2) {
      throw new ScienceFormatException(where + ": .zarray is not Zarr v2 array metadata "
          + "(zarr_format " + zarray.path("zarr_format") + ")");
    }
    b.shape = longs(zarray.get("shape"), where, "shape", 0);
    b.chunks = ints(zarray.get("chunks"), where, "chunks");
    sameRank(b, where);
    JsonNode dtype = zarray.get("dtype");
    if (dtype == null || !dtype.isTextual()) {
      throw new ScienceFormatException(where + ": dtype " + dtype + " is not read: structured "
          + "dtypes are not; numbers and bool are");
    }
    dtype(b, dtype.asText(), where);
    if (zarray.has("dimension_separator") && !zarray.get("dimension_separator").isNull()) {
      b.separator = zarray.get("dimension_separator").asText();
      if (!b.separator.equals(".") && !b.separator.equals("/")) {
        throw new ScienceFormatException(where + ": dimension_separator \"" + b.separator
            + "\" is neither \".\" nor \"/\"");
      }
    }
    b.fill = fill(zarray.get("fill_value"), b.type, b.order, where);
    String order = zarray.path("order").asText("C");
    if (!order.equals("C") && !order.equals("F")) {
      throw new ScienceFormatException(where + ": order \"" + order + "\" is neither C nor F");
    }
    List<FilterSpec> specs = new ArrayList<>();
    JsonNode compressor = zarray.get("compressor");
    if (compressor != null && !compressor.isNull()) {
      specs.add(ZarrFilters.v2(compressor, b.type, where));
    }
    JsonNode filters = zarray.get("filters");
    if (filters != null && !filters.isNull()) {
      List<FilterSpec> fs = new ArrayList<>();
      for (JsonNode f : filters) {
        fs.add(ZarrFilters.v2(f, b.type, where));
      }
      Collections.reverse(fs); // decoded last filter first, after the compressor
      specs.addAll(fs);
    }
    if (order.equals("F") && b.shape.length > 1) {
      specs.add(ZarrFilters.fortran(b.chunks, b.type.size()));
    }
    b.filters = new ZarrFilters(specs);
    Map<String, JsonNode> attrs = fields(zattrs);
    JsonNode dims = attrs.remove("_ARRAY_DIMENSIONS");
    b.dimensions = dimensions(dims, b.shape.length, where, "_ARRAY_DIMENSIONS");
    b.attributes = attributes(attrs, b.fill, b.type, b.order);
    return new ArrayMetadata(b);
  }

  private static void dtype(Builder b, String dtype, String where) {
    if (dtype.length() < 3) {
      throw new ScienceFormatException(where + ": dtype \"" + dtype + "\" is not read");
    }
    char endian = dtype.charAt(0);
    char kind = dtype.charAt(1);
    int size;
    try {
      size = Integer.parseInt(dtype.substring(2));
    } catch (NumberFormatException e) {
      throw new ScienceFormatException(where + ": dtype \"" + dtype + "\" is not read");
    }
    b.order = endian == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    ElementType t = null;
    if (kind == 'i' || kind == 'u') {
      t = ElementType.integer(size, kind == 'i');
    } else if (kind == 'f') {
      t = size == 4 ? ElementType.FLOAT32 : size == 8 ? ElementType.FLOAT64 : null;
    } else if (kind == 'b' && size == 1) {
      t = ElementType.UINT8; // numpy's bool: one byte, 0 or 1
    }
    if (t == null || endian != '<' && endian != '>' && endian != '|') {
      throw new ScienceFormatException(where + ": dtype \"" + dtype + "\" is not read: "
          + "integers (i1..i8, u1..u8), floats (f4, f8) and bool (b1) are");
    }
    b.type = t;
  }

  // ---------------------------------------------------------------- v3

  /**
   * The v3 array at {@code path} of {@code store} from its {@code zarr.json}.
   *
   * @throws ScienceFormatException naming the store, the array and the value not read
   */
  static ArrayMetadata v3(String store, String path, JsonNode json) {
    Builder b = new Builder();
    b.store = store;
    b.path = path;
    b.format = 3;
    String where = where(store, path);
    if (!"array".equals(json.path("node_type").asText())) {
      throw new ScienceFormatException(where + ": zarr.json is a " + json.path("node_type")
          + " node, not an array");
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().isObject() && e.getValue().path("must_understand").isBoolean()
          && e.getValue().path("must_understand").asBoolean() && !KNOWN_V3.contains(
          e.getKey())) {
        throw new ScienceFormatException(where + ": zarr.json has the extension " + e.getKey()
            + " that must be understood; it is not read");
      }
    }
    b.shape = longs(json.get("shape"), where, "shape", 0);
    JsonNode grid = json.path("chunk_grid");
    if (!"regular".equals(grid.path("name").asText())) {
      throw new ScienceFormatException(where + ": chunk_grid " + grid.path("name")
          + " is not read; regular is");
    }
    int[] gridShape = ints(grid.path("configuration").get("chunk_shape"), where,
        "chunk_grid.configuration.chunk_shape");
    b.chunks = gridShape;
    sameRank(b, where);
    String dt = json.path("data_type").asText("");
    b.type = v3Type(dt, where);
    JsonNode keys = json.path("chunk_key_encoding");
    String encoding = keys.path("name").asText("default");
    String sep = keys.path("configuration").path("separator").asText(null);
    if (encoding.equals("default")) {
      b.prefixC = true;
      b.separator = sep == null ? "/" : sep;
    } else if (encoding.equals("v2")) {
      b.separator = sep == null ? "." : sep;
    } else {
      throw new ScienceFormatException(where + ": chunk_key_encoding " + encoding
          + " is not read; default and v2 are");
    }
    if (!b.separator.equals(".") && !b.separator.equals("/")) {
      throw new ScienceFormatException(where + ": chunk key separator \"" + b.separator
          + "\" is neither \".\" nor \"/\"");
    }
    // codecs: array-to-array, one array-to-bytes, bytes-to-bytes; sharding nests a pipeline
    JsonNode codecs = json.get("codecs");
    if (codecs == null || !codecs.isArray() || codecs.size() == 0) {
      throw new ScienceFormatException(where + ": codecs " + codecs + " is not a list of "
          + "codecs");
    }
    if (codecs.size() == 1 && "sharding_indexed".equals(codecs.get(0).path("name").asText())) {
      JsonNode conf = codecs.get(0).path("configuration");
      b.shard = gridShape;
      b.chunks = ints(conf.get("chunk_shape"), where, "sharding_indexed chunk_shape");
      if (b.chunks.length != b.shape.length) {
        throw new ScienceFormatException(where + ": sharding_indexed chunk_shape "
            + Arrays.toString(b.chunks) + " is not of the array's " + b.shape.length
            + " dimensions");
      }
      int entries = 1;
      for (int d = 0; d < b.chunks.length; d++) {
        if (b.shard[d] % b.chunks[d] != 0) {
          throw new ScienceFormatException(where + ": sharding_indexed chunk_shape "
              + Arrays.toString(b.chunks) + " does not divide the shard shape "
              + Arrays.toString(b.shard));
        }
        entries = Math.multiplyExact(entries, b.shard[d] / b.chunks[d]);
      }
      Pipeline inner = pipeline(conf.get("codecs"), b, where);
      b.order = inner.order;
      b.filters = inner.filters;
      b.index = shardIndex(conf, entries, where);
    } else {
      Pipeline p = pipeline(codecs, b, where);
      b.order = p.order;
      b.filters = p.filters;
    }
    b.fill = fill(json.get("fill_value"), b.type, b.order, where);
    JsonNode dims = json.get("dimension_names");
    b.dimensions = dimensions(dims, b.shape.length, where, "dimension_names");
    Map<String, JsonNode> attrs = fields(json.get("attributes"));
    attrs.remove("_ARRAY_DIMENSIONS");
    b.attributes = attributes(attrs, b.fill, b.type, b.order);
    return new ArrayMetadata(b);
  }

  private static final List<String> KNOWN_V3 = List.of("chunk_grid", "chunk_key_encoding");

  /** A v3 codec pipeline: the byte order of its bytes codec and its filters. */
  private static final class Pipeline {
    ByteOrder order = ByteOrder.LITTLE_ENDIAN;
    ZarrFilters filters;
  }

  private static Pipeline pipeline(JsonNode codecs, Builder b, String where) {
    if (codecs == null || !codecs.isArray()) {
      throw new ScienceFormatException(where + ": codecs " + codecs + " is not a list");
    }
    Pipeline p = new Pipeline();
    List<FilterSpec> arrayToArray = new ArrayList<>();
    List<FilterSpec> bytesToBytes = new ArrayList<>();
    boolean bytes = false;
    for (JsonNode c : codecs) {
      String name = c.path("name").asText("");
      JsonNode conf = c.path("configuration");
      if (name.equals("bytes")) {
        if (bytes) {
          throw new ScienceFormatException(where + ": two array-to-bytes codecs");
        }
        bytes = true;
        String endian = conf.path("endian").asText("little");
        p.order = endian.equals("big") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
      } else if (name.equals("transpose")) {
        if (bytes) {
          throw new ScienceFormatException(where + ": transpose after the bytes codec");
        }
        arrayToArray.add(ZarrFilters.transpose(conf.get("order"), b.chunks, b.type.size(),
            where));
      } else if (name.equals("sharding_indexed")) {
        throw new ScienceFormatException(where + ": sharding_indexed nested in a pipeline is "
            + "not read; as an array's one codec it is");
      } else {
        if (!bytes) {
          throw new ScienceFormatException(where + ": codec " + name + " before the "
              + "array's bytes codec is not read");
        }
        bytesToBytes.add(ZarrFilters.v3(name, conf, b.type, where));
      }
    }
    if (!bytes) {
      throw new ScienceFormatException(where + ": no bytes codec (the array-to-bytes codec "
          + "read)");
    }
    // decoded bytes-to-bytes last first, then the array-to-array ones last first
    List<FilterSpec> specs = new ArrayList<>(bytesToBytes);
    Collections.reverse(specs);
    Collections.reverse(arrayToArray);
    specs.addAll(arrayToArray);
    p.filters = new ZarrFilters(specs);
    return p;
  }

  private static ShardIndex shardIndex(JsonNode conf, int entries, String where) {
    String location = conf.path("index_location").asText("end");
    if (!location.equals("end") && !location.equals("start")) {
      throw new ScienceFormatException(where + ": sharding_indexed index_location "
          + location + " is neither start nor end");
    }
    JsonNode codecs = conf.get("index_codecs");
    ByteOrder order = ByteOrder.LITTLE_ENDIAN;
    boolean crc = false;
    boolean bytes = false;
    for (JsonNode c : codecs == null ? com.fasterxml.jackson.databind.node.MissingNode
        .getInstance() : codecs) {
      String name = c.path("name").asText("");
      if (name.equals("bytes") && !bytes && !crc) {
        bytes = true;
        order = c.path("configuration").path("endian").asText("little").equals("big")
            ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
      } else if (name.equals("crc32c") && bytes && !crc) {
        crc = true;
      } else {
        throw new ScienceFormatException(where + ": sharding_indexed index_codecs "
            + codecs + " are not read; [bytes] and [bytes, crc32c] are");
      }
    }
    if (!bytes) {
      throw new ScienceFormatException(where + ": sharding_indexed index_codecs " + codecs
          + " have no bytes codec");
    }
    return new ShardIndex(location.equals("end"), crc, order, entries);
  }

  private static ElementType v3Type(String dt, String where) {
    switch (dt) {
      case "int8": return ElementType.INT8;
      case "uint8": return ElementType.UINT8;
      case "bool": return ElementType.UINT8;
      case "int16": return ElementType.INT16;
      case "uint16": return ElementType.UINT16;
      case "int32": return ElementType.INT32;
      case "uint32": return ElementType.UINT32;
      case "int64": return ElementType.INT64;
      case "uint64": return ElementType.UINT64;
      case "float32": return ElementType.FLOAT32;
      case "float64": return ElementType.FLOAT64;
      default:
        throw new ScienceFormatException(where + ": data_type \"" + dt + "\" is not read: "
            + "bool, int8..int64, uint8..uint64, float32 and float64 are");
    }
  }

  // ---------------------------------------------------------------- shared

  static String where(String store, String path) {
    return store + (path.isEmpty() ? "" : ": array " + path);
  }

  private static void sameRank(Builder b, String where) {
    if (b.chunks.length != b.shape.length) {
      throw new ScienceFormatException(where + ": chunks " + Arrays.toString(b.chunks)
          + " are not of the shape's " + b.shape.length + " dimensions "
          + Arrays.toString(b.shape));
    }
    for (int c : b.chunks) {
      if (c < 1) {
        throw new ScienceFormatException(where + ": chunks " + Arrays.toString(b.chunks)
            + ": a chunk holds at least one element a dimension");
      }
    }
  }

  private static long[] longs(JsonNode n, String where, String key, long min) {
    if (n == null || !n.isArray()) {
      throw new ScienceFormatException(where + ": " + key + " " + n + " is not a list of "
          + "numbers");
    }
    long[] out = new long[n.size()];
    for (int i = 0; i < out.length; i++) {
      if (!n.get(i).canConvertToLong() || !n.get(i).isIntegralNumber()
          || n.get(i).asLong() < min) {
        throw new ScienceFormatException(where + ": " + key + " " + n + " holds "
            + n.get(i) + ", not a whole number of at least " + min);
      }
      out[i] = n.get(i).asLong();
    }
    return out;
  }

  private static int[] ints(JsonNode n, String where, String key) {
    long[] l = longs(n, where, key, 1);
    int[] out = new int[l.length];
    long elements = 1;
    for (int i = 0; i < l.length; i++) {
      elements = Math.multiplyExact(elements, l[i]);
      if (l[i] > Integer.MAX_VALUE || elements > Integer.MAX_VALUE / 8) {
        throw new ScienceFormatException(where + ": " + key + " " + n + " makes chunks of more "
            + "than " + Integer.MAX_VALUE / 8 + " elements");
      }
      out[i] = (int) l[i];
    }
    return out;
  }

  private static List<String> dimensions(JsonNode dims, int rank, String where, String key) {
    if (dims == null || dims.isNull()) {
      return Collections.nCopies(rank, "");
    }
    if (!dims.isArray() || dims.size() != rank) {
      throw new ScienceFormatException(where + ": " + key + " " + dims + " does not name the "
          + "array's " + rank + " dimensions");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode d : dims) {
      out.add(d.isNull() ? "" : d.asText());
    }
    return List.copyOf(out);
  }

  private static Map<String, JsonNode> fields(JsonNode json) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    if (json != null && json.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  /**
   * One element of the fill value in {@code order}: a number, "NaN", "Infinity", "-Infinity",
   * v3's hex of a float's bits, a bool; null for none (v2's null: zeros).
   */
  static byte[] fill(JsonNode f, ElementType t, ByteOrder order, String where) {
    if (f == null || f.isNull()) {
      return null;
    }
    ByteBuffer b = ByteBuffer.allocate(t.size()).order(order);
    if (f.isBoolean()) {
      b.put((byte) (f.asBoolean() ? 1 : 0));
      return b.array();
    }
    if (f.isTextual()) {
      String s = f.asText();
      double d;
      if (s.equals("NaN")) {
        d = Double.NaN;
      } else if (s.equals("Infinity")) {
        d = Double.POSITIVE_INFINITY;
      } else if (s.equals("-Infinity")) {
        d = Double.NEGATIVE_INFINITY;
      } else if (s.startsWith("0x") && t.floating() && s.length() == 2 + 2 * t.size()) {
        long bits = Long.parseUnsignedLong(s.substring(2), 16);
        if (t == ElementType.FLOAT32) {
          b.putInt((int) bits);
        } else {
          b.putLong(bits);
        }
        return b.array();
      } else {
        throw new ScienceFormatException(where + ": fill_value \"" + s + "\" is not read");
      }
      if (!t.floating()) {
        throw new ScienceFormatException(where + ": fill_value \"" + s + "\" for integers");
      }
      org.opass.mrap.array.Elements.put(b, t, d);
      return b.array();
    }
    if (!f.isNumber()) {
      throw new ScienceFormatException(where + ": fill_value " + f + " is not read");
    }
    if (t.floating()) {
      org.opass.mrap.array.Elements.put(b, t, f.asDouble());
    } else {
      long x = f.isIntegralNumber() ? f.bigIntegerValue().longValue() : (long) f.asDouble();
      for (int i = 0; i < t.size(); i++) {
        int shift = 8 * (order == ByteOrder.BIG_ENDIAN ? t.size() - 1 - i : i);
        b.put(i, (byte) (x >>> shift));
      }
    }
    return b.array();
  }

  /**
   * The attributes as xarray reads them: JSON numbers as float64 (int64 where whole and
   * written without a fraction), strings as text, and the fill value as {@code _FillValue}
   * where the attributes do not give one (xarray's Zarr backend does the same).
   */
  private static Attributes attributes(Map<String, JsonNode> json, byte[] fill, ElementType t,
      ByteOrder order) {
    Map<String, Attributes.Attribute> m = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : json.entrySet()) {
      Attributes.Attribute a = attribute(e.getValue());
      if (a != null) {
        m.put(e.getKey(), a);
      }
    }
    if (fill != null && !m.containsKey("_FillValue")) {
      m.put("_FillValue", Attributes.Attribute.numbers(t, order, fill));
    }
    return Attributes.of(m);
  }

  private static Attributes.Attribute attribute(JsonNode v) {
    if (v.isTextual()) {
      return Attributes.Attribute.text(v.asText());
    }
    List<JsonNode> items = new ArrayList<>();
    if (v.isArray()) {
      v.forEach(items::add);
    } else {
      items.add(v);
    }
    if (items.isEmpty()) {
      return null;
    }
    boolean whole = true;
    for (JsonNode i : items) {
      boolean named = i.isTextual() && (i.asText().equals("NaN")
          || i.asText().endsWith("Infinity"));
      if (!i.isNumber() && !named) {
        return null; // nested, text in a list, null: not an attribute CF uses
      }
      whole &= i.isIntegralNumber() && i.canConvertToLong();
    }
    if (whole) {
      ByteBuffer b = ByteBuffer.allocate(8 * items.size()).order(ByteOrder.LITTLE_ENDIAN);
      for (JsonNode i : items) {
        b.putLong(i.asLong());
      }
      return Attributes.Attribute.numbers(ElementType.INT64, ByteOrder.LITTLE_ENDIAN,
          b.array());
    }
    double[] d = new double[items.size()];
    for (int i = 0; i < d.length; i++) {
      JsonNode x = items.get(i);
      d[i] = x.isTextual() ? Double.parseDouble(x.asText()) : x.asDouble();
    }
    return Attributes.Attribute.of(ElementType.FLOAT64, d);
  }
}
