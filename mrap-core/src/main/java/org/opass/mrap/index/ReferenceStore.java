package org.opass.mrap.index;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.opass.mrap.format.ObjectStore;
import org.opass.mrap.format.ScienceFormatException;

/**
 * A kerchunk reference set (version 0 or 1, JSON) as the Zarr store it describes: each key's
 * value inline (text, or {@code base64:}), or a reference {@code [url]}, {@code [url, offset,
 * length]} into another file, templates expanded. So a series index ({@link IndexBuilder}'s
 * {@code refs.json}), a set kerchunk wrote, and a Zarr store in a folder are read by one path:
 * Zarr metadata, then each chunk key resolved to bytes where they lie. Objects are read
 * through {@code files}, a store that reads URIs.
 */
public final class ReferenceStore implements ObjectStore {
  /** The field of a set that MRAP's own keys are under (kerchunk's readers pass it over). */
  public static final String MRAP = "mrap";
  /**
   * Under {@link #MRAP}: a store packed by {@code mrap-copy -pack}, each container's length and
   * CRC32C; its template {@code u} is the set's own folder, wherever it has been moved.
   */
  public static final String PACKED = "packed";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String name;
  private final ObjectStore files;
  private final Map<String, JsonNode> refs = new TreeMap<>();
  private final Map<String, String> templates = new java.util.HashMap<>();

  private ReferenceStore(String name, ObjectStore files) {
    this.name = name;
    this.files = files;
  }

  /**
   * The set {@code json} (the bytes of the file {@code name}), its references read through
   * {@code files}.
   *
   * @throws ScienceFormatException naming the set where it is not a kerchunk reference set
   */
  public static ReferenceStore of(String name, byte[] json, ObjectStore files)
      throws IOException {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (IOException e) {
      throw new ScienceFormatException(name + " is not JSON, so no reference set: "
          + e.getMessage().split("\n")[0], e);
    }
    ReferenceStore s = new ReferenceStore(name, files);
    JsonNode refs = root;
    if (root.has("version")) {
      if (root.path("version").asInt() != 1 || !root.path("refs").isObject()) {
        throw new ScienceFormatException(name + ": a reference set of version "
            + root.path("version") + "; versions 0 and 1 are read");
      }
      if (root.has("gen")) {
        throw new ScienceFormatException(name + ": a reference set with generated keys "
            + "(gen) is not read");
      }
      refs = root.get("refs");
      for (Iterator<Map.Entry<String, JsonNode>> it = root.path("templates").fields();
          it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        s.templates.put(e.getKey(), e.getValue().asText());
      }
    }
    JsonNode packed = root.path(MRAP).path(PACKED);
    if (packed.isObject()) { // the containers beside the set, checked as packed
      String folder = name.substring(0, Math.max(0, name.lastIndexOf('/')));
      s.templates.put("u", folder);
      SortedMap<String, Place> beside = files.list("");
      for (Iterator<Map.Entry<String, JsonNode>> it = packed.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        Place p = beside.get(e.getKey());
        long length = e.getValue().path(0).asLong(-1);
        if (p == null || p.length() != length) {
          throw new ScienceFormatException(name + ": the container " + e.getKey() + " packed "
              + "with it " + (p == null ? "is gone" : "holds " + p.length() + " bytes, not "
              + "the " + length + " packed") + ": the store was changed since mrap-copy "
              + "packed it; copy it again");
        }
      }
    }
    if (!refs.isObject()) {
      throw new ScienceFormatException(name + " is no kerchunk reference set: its JSON is not "
          + "an object of keys");
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = refs.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (v.isObject()) { // an inline JSON object (metadata), as kerchunk's writers allow
        v = com.fasterxml.jackson.databind.node.TextNode.valueOf(v.toString());
      }
      s.refs.put(e.getKey(), v);
    }
    return s;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public byte[] get(String key, int max) throws IOException {
    JsonNode v = refs.get(key);
    if (v == null) {
      return null;
    }
    if (v.isTextual()) {
      byte[] b = inline(key, v.asText());
      if (b.length > max) {
        throw new ScienceFormatException(name + ": " + key + " holds more than " + max
            + " bytes");
      }
      return b;
    }
    Place p = place(key, v);
    if (p.length() > max) {
      throw new ScienceFormatException(name + ": " + key + " holds more than " + max
          + " bytes");
    }
    byte[] b = new byte[(int) p.length()];
    files.readFully(p.object(), p.offset(), b, 0, b.length);
    return b;
  }

  private byte[] inline(String key, String text) {
    if (text.startsWith("base64:")) {
      try {
        return java.util.Base64.getDecoder().decode(text.substring(7));
      } catch (IllegalArgumentException e) {
        throw new ScienceFormatException(name + ": " + key + " is not base64: "
            + e.getMessage(), e);
      }
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Where a key's bytes lie; an inline value's object is {@link #INLINE} and the key.
   */
  private Place place(String key, JsonNode v) {
    if (v.isTextual()) {
      return new Place(INLINE + key, 0, inline(key, v.asText()).length);
    }
    if (!v.isArray() || v.size() != 3 || !v.get(0).isTextual()) {
      throw new ScienceFormatException(name + ": " + key + " is neither inline nor a "
          + "reference [url, offset, length] (a whole file's [url] is not read): " + v);
    }
    String url = expand(v.get(0).asText());
    if (!v.get(1).canConvertToLong() || !v.get(2).canConvertToLong() || v.get(1).asLong() < 0
        || v.get(2).asLong() < 0) {
      throw new ScienceFormatException(name + ": " + key + " refers to " + v.get(2) + " bytes "
          + "at " + v.get(1) + " of " + url);
    }
    return new Place(url, v.get(1).asLong(), v.get(2).asLong());
  }

  private String expand(String url) {
    if (!url.contains("{{")) {
      return url;
    }
    String out = url;
    for (Map.Entry<String, String> t : templates.entrySet()) {
      out = out.replace("{{" + t.getKey() + "}}", t.getValue());
    }
    if (out.contains("{{")) {
      throw new ScienceFormatException(name + ": the reference " + url + " names a template "
          + "the set does not define");
    }
    return out;
  }

  @Override
  public SortedMap<String, Place> list(String prefix) throws IOException {
    SortedMap<String, Place> out = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : refs.entrySet()) {
      if (e.getKey().startsWith(prefix)) {
        out.put(e.getKey(), place(e.getKey(), e.getValue()));
      }
    }
    return out;
  }

  @Override
  public void readFully(String object, long pos, byte[] b, int off, int len)
      throws IOException {
    if (object.startsWith(INLINE)) {
      byte[] v = get(object.substring(INLINE.length()), Integer.MAX_VALUE);
      if (v == null || pos < 0 || pos + len > v.length) {
        throw new java.io.EOFException(name + ": " + object + " holds no bytes at " + pos);
      }
      System.arraycopy(v, (int) pos, b, off, len);
      return;
    }
    files.readFully(object, pos, b, off, len);
  }
}
