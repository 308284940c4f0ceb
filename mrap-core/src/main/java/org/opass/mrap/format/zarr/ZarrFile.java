package org.opass.mrap.format.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.opass.mrap.format.ObjectStore;
import org.opass.mrap.format.PlacedChunks;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.Storage;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableValues;

/**
 * A Zarr store (v2 or v3) as a {@link ScienceFile}: an array by its path in the store ({@code
 * t2m}, {@code g/sub/a}; {@code /} for a store that is one array), its metadata read from the
 * consolidated metadata where the store has it, else from its own keys; its chunks listed and
 * {@linkplain Variable.Chunks#placed placed} in their objects (a shard's inner chunks at their
 * offsets, its index read); a dimension's coordinate, as xarray finds it, the array of the
 * dimension's name beside the variable, else at the store's root.
 */
final class ZarrFile implements ScienceFile {
  /** Most bytes of a metadata object read. */
  static final int MAX_METADATA = 64 << 20;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ObjectStore store;
  private final int format;
  private final Map<String, JsonNode> consolidated; // path -> metadata, or null
  private final Map<String, ArrayMetadata> arrays = new HashMap<>();

  private ZarrFile(ObjectStore store, int format, Map<String, JsonNode> consolidated) {
    this.store = store;
    this.format = format;
    this.consolidated = consolidated;
  }

  /**
   * Opens {@code store}: Zarr v3 where its root has {@code zarr.json}, else v2 ({@code .zgroup},
   * {@code .zarray}, {@code .zmetadata}).
   *
   * @throws ScienceFormatException naming the store where its root holds neither
   */
  static ZarrFile open(ObjectStore store) throws IOException {
    byte[] v3 = store.get("zarr.json", MAX_METADATA);
    if (v3 != null) {
      JsonNode root = json(store, "zarr.json", v3);
      if (root.path("zarr_format").asInt() != 3) {
        throw new ScienceFormatException(store.name() + ": zarr.json says zarr_format "
            + root.path("zarr_format") + "; Zarr 3 is read from zarr.json");
      }
      Map<String, JsonNode> meta = null;
      JsonNode cm = root.path("consolidated_metadata").path("metadata");
      if (cm.isObject()) {
        meta = new HashMap<>();
        meta.put("", root);
        for (Iterator<Map.Entry<String, JsonNode>> it = cm.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> e = it.next();
          meta.put(trim(e.getKey()), e.getValue());
        }
      }
      ZarrFile f = new ZarrFile(store, 3, meta);
      if (meta == null) {
        f.rootV3 = root;
      }
      return f;
    }
    byte[] zmeta = store.get(".zmetadata", MAX_METADATA);
    if (zmeta != null) {
      JsonNode m = json(store, ".zmetadata", zmeta).path("metadata");
      if (!m.isObject()) {
        throw new ScienceFormatException(store.name() + ": .zmetadata holds no metadata");
      }
      Map<String, JsonNode> meta = new HashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = m.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        meta.put(e.getKey(), e.getValue());
      }
      return new ZarrFile(store, 2, meta);
    }
    if (store.get(".zgroup", MAX_METADATA) == null && store.get(".zarray", MAX_METADATA) == null) {
      throw new ScienceFormatException(store.name() + " is not a Zarr store: its root holds "
          + "none of zarr.json (v3), .zgroup, .zarray or .zmetadata (v2)");
    }
    return new ZarrFile(store, 2, null);
  }

  private JsonNode rootV3; // v3 without consolidated metadata: the root's, read at open

  private static String trim(String path) {
    String p = path;
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  private static JsonNode json(ObjectStore store, String key, byte[] b) {
    try {
      return JSON.readTree(b);
    } catch (IOException e) {
      throw new ScienceFormatException(store.name() + ": " + key + " is not JSON: "
          + e.getMessage().split("\n")[0], e);
    }
  }

  /** An object of metadata, from the consolidated metadata where there is one; null: none. */
  private JsonNode metadata(String key) throws IOException {
    if (consolidated != null) {
      return consolidated.get(key);
    }
    byte[] b = store.get(key, MAX_METADATA);
    return b == null ? null : json(store, key, b);
  }

  /** The array at {@code name}, its metadata read once. */
  ArrayMetadata array(String name) throws IOException {
    ArrayMetadata a = find(name);
    if (a == null) {
      throw missing(name);
    }
    return a;
  }

  /**
   * The array at {@code name}, its metadata read once; null where the store holds no array
   * there (nothing, or a group).
   */
  private ArrayMetadata find(String name) throws IOException {
    String path = trim(name);
    ArrayMetadata a = arrays.get(path);
    if (a != null) {
      return a;
    }
    String prefix = path.isEmpty() ? "" : path + "/";
    if (format == 3) {
      JsonNode json = v3Node(path);
      if (json == null || !"array".equals(json.path("node_type").asText())) {
        return null;
      }
      a = ArrayMetadata.v3(store.name(), path, json);
    } else {
      JsonNode zarray = metadata(prefix + ".zarray");
      if (zarray == null) {
        return null;
      }
      a = ArrayMetadata.v2(store.name(), path, zarray, metadata(prefix + ".zattrs"));
    }
    arrays.put(path, a);
    return a;
  }

  /** A v3 node's {@code zarr.json}, or null. */
  private JsonNode v3Node(String path) throws IOException {
    return consolidated != null ? consolidated.get(path)
        : path.isEmpty() ? rootV3 : metadata(path + "/zarr.json");
  }

  /** The refusal of a name that is no array: a group, or nothing; the store's arrays named. */
  private ScienceFormatException missing(String name) throws IOException {
    String path = trim(name);
    boolean group = format == 3 ? v3Node(path) != null
        : metadata((path.isEmpty() ? "" : path + "/") + ".zgroup") != null;
    List<String> names = variableNames();
    return new ScienceFormatException(store.name() + ": " + name + " is "
        + (group ? "a group, not an array" : "no such array") + " of this Zarr store; its "
        + "arrays: " + (names.size() > 20 ? String.join(", ", names.subList(0, 20)) + ", ..."
        : String.join(", ", names)));
  }

  @Override
  public Variable variable(String name) throws IOException {
    ArrayMetadata a = array(name);
    return of(a, chunks(a));
  }

  @Override
  public Variable describe(String name) throws IOException {
    return of(array(name), Variable.Chunks.none());
  }

  private Variable of(ArrayMetadata a, Variable.Chunks chunks) {
    if (a.rank() == 0) {
      throw new ScienceFormatException(ArrayMetadata.where(store.name(), a.path) + " is a 0-d "
          + "(scalar) array; arrays of one or more dimensions are read");
    }
    Storage s = Storage.chunked(a.shape, a.chunks, chunks, a.filters, a.fill);
    return Variable.of(store.name(), a.path.isEmpty() ? "/" : a.path, a.shape, a.type, a.order,
        s).withMetadata(a.dimensions, a.attributes);
  }

  /**
   * The array's chunks as the store holds them, in C order of their grid: each chunk object,
   * or each inner chunk of each shard (its index read), placed where its bytes lie.
   */
  private Variable.Chunks chunks(ArrayMetadata a) throws IOException {
    String prefix = a.path.isEmpty() ? "" : a.path + "/";
    SortedMap<String, ObjectStore.Place> listed = store.list(prefix);
    TreeMap<long[], String> byPosition = new TreeMap<>(Arrays::compare);
    for (String key : listed.keySet()) {
      long[] at = a.position(key.substring(prefix.length()));
      if (at != null) {
        byPosition.put(at, key);
      }
    }
    int r = a.rank();
    List<long[]> origins = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    List<String> objects = new ArrayList<>();
    List<Long> offsets = new ArrayList<>();
    int[] ks = a.keyShape();
    for (Map.Entry<long[], String> e : byPosition.entrySet()) {
      long[] origin = new long[r];
      for (int d = 0; d < r; d++) {
        origin[d] = e.getKey()[d] * ks[d];
      }
      ObjectStore.Place p = listed.get(e.getValue());
      if (p.object().startsWith(ObjectStore.INLINE) && isFill(a, e.getValue())) {
        continue; // inline in a reference set, as a chunk never written: the fill value
      }
      if (p.length() == 0) { // zarr-python fails on it too: a writer's crash, or a cut copy
        throw new ScienceFormatException(ArrayMetadata.where(store.name(), a.path) + ": chunk "
            + e.getValue() + " is empty (0 bytes); a chunk never written has no object");
      }
      if (a.shard == null) {
        origins.add(origin);
        sizes.add(p.length());
        objects.add(p.object());
        offsets.add(p.offset());
        continue;
      }
      long[][] entries = shardIndex(a, e.getKey(), p);
      int[] per = new int[r];
      for (int d = 0; d < r; d++) {
        per[d] = a.shard[d] / a.chunks[d];
      }
      int[] idx = new int[r];
      for (int k = 0; k < entries.length; k++) {
        if (entries[k] != null) {
          long[] o = new long[r];
          boolean inside = true;
          for (int d = 0; d < r; d++) {
            o[d] = origin[d] + (long) idx[d] * a.chunks[d];
            inside &= o[d] < a.shape[d];
          }
          if (inside) {
            origins.add(o);
            sizes.add(entries[k][1]);
            objects.add(p.object());
            offsets.add(p.offset() + entries[k][0]);
          }
        }
        for (int d = r - 1; d >= 0 && ++idx[d] == per[d]; d--) {
          idx[d] = 0;
        }
      }
    }
    int n = origins.size();
    long[] s = new long[n];
    long[] off = new long[n];
    for (int i = 0; i < n; i++) {
      s[i] = sizes.get(i);
      off[i] = offsets.get(i);
    }
    return Variable.Chunks.placed(origins.toArray(new long[0][]), s,
        objects.toArray(new String[0]), off);
  }

  /** Whether the inline chunk {@code key} (a reference set's) holds only the fill value. */
  private boolean isFill(ArrayMetadata a, String key) throws IOException {
    if (a.shard != null) {
      return false;
    }
    int es = a.type.size();
    byte[] b;
    try {
      b = a.filters.decode(store.get(key, MAX_METADATA), 0, a.chunkElements() * es);
    } catch (ScienceFormatException e) {
      throw new ScienceFormatException(ArrayMetadata.where(store.name(), a.path) + ": chunk "
          + key + ": " + e.getMessage(), e);
    }
    byte[] fill = a.fill == null ? new byte[es] : a.fill;
    for (int i = 0; i < b.length; i++) {
      if (b[i] != fill[i % es]) {
        return false;
      }
    }
    return true;
  }

  /**
   * A shard's index: per inner chunk (C order), its offset in the shard and its bytes, null
   * where it is empty.
   *
   * @throws ScienceFormatException naming the store, array and shard where the index is
   *     damaged or points past the shard's end
   */
  private long[][] shardIndex(ArrayMetadata a, long[] at, ObjectStore.Place shard)
      throws IOException {
    ArrayMetadata.ShardIndex ix = a.index;
    String where = ArrayMetadata.where(store.name(), a.path) + ": shard " + a.key(at);
    long bytes = ix.bytes();
    if (shard.length() < bytes) {
      throw new ScienceFormatException(where + " holds " + shard.length() + " bytes, fewer "
          + "than its index's " + bytes);
    }
    byte[] b = new byte[(int) bytes];
    long from = ix.atEnd ? shard.length() - bytes : 0;
    store.readFully(shard.object(), shard.offset() + from, b, 0, b.length);
    if (ix.crc32c) {
      Crc32c.check(b, 0, b.length - 4, where + "'s index");
    }
    ByteBuffer buf = ByteBuffer.wrap(b).order(ix.order);
    long[][] out = new long[ix.entries][];
    for (int k = 0; k < ix.entries; k++) {
      long offset = buf.getLong();
      long n = buf.getLong();
      if (offset == -1L && n == -1L) {
        continue;
      }
      if (offset < 0 || n <= 0 || offset > shard.length() || n > shard.length() - offset) {
        throw new ScienceFormatException(where + ": inner chunk " + k + " lies at " + offset
            + " for " + n + " bytes, past the shard's " + shard.length());
      }
      out[k] = new long[] {offset, n};
    }
    return out;
  }

  @Override
  public List<String> variableNames() throws IOException {
    List<String> out = new ArrayList<>();
    if (consolidated != null) {
      for (Map.Entry<String, JsonNode> e : new TreeMap<>(consolidated).entrySet()) {
        String k = e.getKey();
        if (format == 3 && "array".equals(e.getValue().path("node_type").asText())) {
          out.add(k.isEmpty() ? "/" : k);
        } else if (format == 2 && (k.equals(".zarray") || k.endsWith("/.zarray"))) {
          out.add(k.equals(".zarray") ? "/" : k.substring(0, k.length() - 8));
        }
      }
      return out;
    }
    String marker = format == 3 ? "zarr.json" : ".zarray";
    for (String k : store.list("").keySet()) {
      if (k.equals(marker) || k.endsWith("/" + marker)) {
        String path = k.equals(marker) ? "" : k.substring(0, k.length() - marker.length() - 1);
        if (format == 2 || "array".equals(metadata(k).path("node_type").asText())) {
          out.add(path.isEmpty() ? "/" : path);
        }
      }
    }
    return out;
  }

  /**
   * The array named as dimension {@code d} of {@code v}, as xarray finds a coordinate: beside
   * {@code v} in its group, else at the store's root; 1-D along that dimension, with its
   * chunks listed.
   */
  @Override
  public Variable coordinate(Variable v, int d) throws IOException {
    String dim = v.dimensions().get(d);
    if (dim.isEmpty()) {
      return null;
    }
    String path = trim(v.name());
    int slash = path.lastIndexOf('/');
    List<String> tried = new ArrayList<>();
    if (slash > 0) {
      tried.add(path.substring(0, slash) + "/" + dim);
    }
    tried.add(dim);
    for (String c : tried) {
      ArrayMetadata a;
      try {
        a = find(c); // not array(): its refusal would list the whole store
      } catch (ScienceFormatException e) {
        continue; // metadata not read: no coordinate, as before
      }
      if (a != null && a.rank() == 1 && a.shape[0] == v.shape()[d] && (a.dimensions.get(0).isEmpty()
          || a.dimensions.get(0).equals(dim))) {
        return of(a, chunks(a));
      }
    }
    return null;
  }

  /** A coordinate's values, read from its chunks wherever they lie. */
  @Override
  public double[] values(Positioned in, Variable coordinate) throws IOException {
    return VariableValues.read(PlacedChunks.positioned(coordinate.chunks(), store), coordinate);
  }

  @Override
  public String file() {
    return store.name();
  }

  @Override
  public void close() {
  }
}
