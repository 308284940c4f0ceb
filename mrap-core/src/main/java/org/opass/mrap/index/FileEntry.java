package org.opass.mrap.index;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.format.ChunkFilters;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.Storage;
import org.opass.mrap.format.Variable;
import org.opass.mrap.science.ScienceFiles;

/**
 * One file of an index: the file it was read from (path, length and modification time: an entry
 * serves that file only), the kind it was read as, its variables ({@link ArrayEntry}) and those
 * left out with why. Its line in the index is a kerchunk reference set of the file by itself
 * ({@link ReferenceSet}), with a {@code "mrap"} field beside it that fsspec ignores and the
 * planner reads: the binding and what Zarr's metadata does not carry exactly. An immutable value.
 */
public final class FileEntry {
  private final String path;
  private final long length;
  private final long modificationTime;
  private final String kind;
  private final Map<String, ArrayEntry> arrays;
  private final List<Refusal> refused;

  FileEntry(String path, long length, long modificationTime, String kind,
      Map<String, ArrayEntry> arrays, List<Refusal> refused) {
    this.path = path;
    this.length = length;
    this.modificationTime = modificationTime;
    this.kind = kind;
    this.arrays = Collections.unmodifiableMap(new LinkedHashMap<>(arrays));
    this.refused = List.copyOf(refused);
  }

  /** The file's path, without scheme or authority. */
  public String path() {
    return path;
  }

  public long length() {
    return length;
  }

  public long modificationTime() {
    return modificationTime;
  }

  /** The kind the file was read as ({@code netcdf}, {@code hdf5}). */
  public String kind() {
    return kind;
  }

  /** The variables of the set, coordinates among them, by name. */
  Map<String, ArrayEntry> arrays() {
    return arrays;
  }

  /** Variables left out, and why. */
  public List<Refusal> refused() {
    return refused;
  }

  /** Whether this entry was read from {@code length} bytes last modified at {@code mtime}. */
  public boolean binds(long len, long mtime) {
    return length == len && modificationTime == mtime;
  }

  /**
   * Per dimension that has a coordinate variable held inline, its least and greatest value,
   * units, calendar and standard name: what lets a planner pass over a file a selection misses
   * without reading its entry.
   */
  Map<String, List<Object>> extremes() {
    Map<String, List<Object>> out = new LinkedHashMap<>();
    for (ArrayEntry a : arrays.values()) {
      byte[] raw = a.inline();
      if (raw == null || raw.length == 0 || a.zarrDimensions().size() != 1
          || !a.zarrDimensions().get(0).equals(a.key())) {
        continue;
      }
      double lo = Double.POSITIVE_INFINITY;
      double hi = Double.NEGATIVE_INFINITY;
      for (double v : ReferenceSet.values(raw, a.type(), a.order())) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      if (Double.isFinite(lo) && Double.isFinite(hi)) {
        out.put(a.key(), java.util.Arrays.asList(lo, hi, a.attributes().text("units"),
            a.attributes().text("calendar"), a.attributes().text("standard_name")));
      }
    }
    return out;
  }

  /** The URL of this file's chunks, through the set's template. */
  String url() {
    return "{{" + ReferenceSet.TEMPLATE + "}}" + path;
  }

  /** This entry's line: the file's own reference set, {@code {{u}}} standing for {@code url}. */
  public String line(String templateUrl) throws IOException {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = ReferenceSet.JSON.getFactory().createGenerator(w)) {
      List<ReferenceSet.Array> sets = new ArrayList<>();
      for (ArrayEntry a : arrays.values()) {
        sets.add(a.inSet(url()));
      }
      ReferenceSet.write(g, templateUrl, sets, Map.of("mrap", mrap()));
    }
    return w.toString();
  }

  private Map<String, Object> mrap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", path);
    m.put("length", length);
    m.put("mtime", modificationTime);
    m.put("kind", kind);
    Map<String, Object> vars = new LinkedHashMap<>();
    for (ArrayEntry a : arrays.values()) {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("name", a.name());
      v.put("dims", a.dimensions());
      v.put("coords", a.coordinates());
      v.put("type", a.type().name());
      v.put("order", a.order() == ByteOrder.BIG_ENDIAN ? "big" : "little");
      v.put("attrs", ArrayEntry.attributesJson(a.attributes()));
      v.put("inline", a.inline() != null);
      if (a.chunked()) {
        v.put("extent", a.extent());
        v.put("format", a.filters().format());
        List<Object> specs = new ArrayList<>();
        for (FilterSpec f : a.filters().specs()) {
          specs.add(List.of(f.id(), f.name(), f.data()));
        }
        v.put("filters", specs);
        byte[] fill = a.fill();
        v.put("fill", fill == null ? null : ArrayEntry.base64(fill));
      } else {
        v.put("base", a.base());
        v.put("strides", a.strides());
      }
      vars.put(a.key(), v);
    }
    m.put("arrays", vars);
    List<Object> no = new ArrayList<>();
    for (Refusal r : refused) {
      no.add(Map.of("variable", r.variable(), "reason", r.reason()));
    }
    m.put("refused", no);
    return m;
  }

  /**
   * The entry of a line ({@link #line}).
   *
   * @throws IOException naming what is missing where the line is not an entry
   */
  public static FileEntry parse(String line) throws IOException {
    JsonNode root = ReferenceSet.JSON.readTree(line);
    JsonNode m = root.get("mrap");
    JsonNode refs = root.get("refs");
    if (m == null || refs == null) {
      throw new IOException("not an index entry (no \"mrap\" or \"refs\"): "
          + line.substring(0, Math.min(80, line.length())));
    }
    String path = m.get("path").asText();
    Map<String, Map<String, long[]>> chunks = chunkRefs(refs);
    Map<String, ArrayEntry> arrays = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = m.get("arrays").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      arrays.put(e.getKey(), array(path, e.getKey(), e.getValue(), refs,
          chunks.getOrDefault(e.getKey(), Map.of())));
    }
    List<Refusal> refused = new ArrayList<>();
    for (JsonNode r : m.get("refused")) {
      refused.add(new Refusal(path, r.get("variable").asText(), r.get("reason").asText()));
    }
    return new FileEntry(path, m.get("length").asLong(), m.get("mtime").asLong(),
        m.get("kind").asText(), arrays, refused);
  }

  /**
   * The array {@code key} of a line: its {@code "mrap"} field {@code v}, the set's {@code refs}
   * and its chunks' byte ranges, {@code chunkRefs}.
   */
  private static ArrayEntry array(String path, String key, JsonNode v, JsonNode refs,
      Map<String, long[]> chunkRefs) throws IOException {
    String name = v.get("name").asText();
    JsonNode z = ReferenceSet.JSON.readTree(refs.get(key + "/.zarray").asText());
    JsonNode za = ReferenceSet.JSON.readTree(refs.get(key + "/.zattrs").asText());
    long[] shape = longs(z.get("shape"));
    int[] chunks = new int[shape.length];
    for (int d = 0; d < chunks.length; d++) {
      chunks[d] = z.get("chunks").get(d).asInt();
    }
    ElementType type = ElementType.valueOf(v.get("type").asText());
    ByteOrder order = v.get("order").asText().equals("big") ? ByteOrder.BIG_ENDIAN
        : ByteOrder.LITTLE_ENDIAN;
    Storage storage;
    if (v.has("strides")) {
      storage = Storage.strided(v.get("base").asLong(), longs(v.get("strides")));
    } else {
      List<FilterSpec> specs = new ArrayList<>();
      for (JsonNode f : v.get("filters")) {
        int[] data = new int[f.get(2).size()];
        for (int i = 0; i < data.length; i++) {
          data[i] = f.get(2).get(i).asInt();
        }
        specs.add(new FilterSpec(f.get(0).asInt(), f.get(1).asText(), data));
      }
      ChunkFilters filters = specs.isEmpty() ? ChunkFilters.NONE
          : ScienceFiles.filters(v.get("format").asText(), specs);
      JsonNode fill = v.get("fill");
      storage = Storage.chunked(longs(v.get("extent")), chunks, Variable.Chunks.none(), filters,
          fill == null || fill.isNull() ? null : ArrayEntry.unbase64(fill.asText()));
    }
    List<String> dims = texts(v.get("dims"));
    Variable described = Variable.of(path, name, shape, type, order, storage)
        .withMetadata(dims, ArrayEntry.attributes(v.get("attrs")));
    List<String> coords = new ArrayList<>();
    for (JsonNode c : v.get("coords")) {
      coords.add(c.isNull() ? null : c.asText());
    }
    byte[] inline = null;
    if (v.get("inline").asBoolean()) {
      JsonNode only = refs.get(key + "/" + ArrayEntry.key(new long[shape.length], chunks));
      inline = only == null ? new byte[0] : ArrayEntry.unbase64(only.asText().substring(7));
    }
    ZarrArray zarr = new ZarrArray(z.get("dtype").asText(), shape, chunks,
        ReferenceSet.JSON.treeToValue(z.get("fill_value"), Object.class), codecs(z));
    if (inline != null && inline.length > 0) {
      inline = zarr.decode(inline, Math.toIntExact(zarr.chunkBytes()));
    }
    return new ArrayEntry(described, texts(za.get("_ARRAY_DIMENSIONS")), coords, zarr,
        chunkRefs, inline);
  }

  /** By array, the chunks of a set that are byte ranges: {offset, length} by chunk key. */
  private static Map<String, Map<String, long[]>> chunkRefs(JsonNode refs) {
    Map<String, Map<String, long[]>> out = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = refs.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String k = e.getKey();
      int slash = k.lastIndexOf('/');
      if (slash > 0 && e.getValue().isArray() && !k.startsWith(".", slash + 1)) {
        out.computeIfAbsent(k.substring(0, slash), a -> new TreeMap<>()).put(
            k.substring(slash + 1), new long[] {e.getValue().get(1).asLong(),
                e.getValue().get(2).asLong()});
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> codecs(JsonNode z) throws IOException {
    List<Map<String, Object>> out = new ArrayList<>();
    if (z.hasNonNull("filters")) {
      for (JsonNode f : z.get("filters")) {
        out.add(ReferenceSet.JSON.treeToValue(f, LinkedHashMap.class));
      }
    }
    if (z.hasNonNull("compressor")) {
      out.add(ReferenceSet.JSON.treeToValue(z.get("compressor"), LinkedHashMap.class));
    }
    return out;
  }

  private static long[] longs(JsonNode n) {
    long[] out = new long[n.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = n.get(i).asLong();
    }
    return out;
  }

  private static List<String> texts(JsonNode n) {
    List<String> out = new ArrayList<>();
    for (JsonNode t : n) {
      out.add(t.asText());
    }
    return out;
  }
}
