package org.opass.mrap.index;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opass.mrap.array.Elements;
import org.opass.mrap.format.Attributes;

/**
 * A kerchunk reference set, version 1: a Zarr v2 group whose arrays' chunks are byte ranges of
 * other files ({@code [url, offset, length]}) or inline ({@code base64:}), with a key for every
 * chunk of each array's grid (a chunk never written is an inline chunk of the fill value: Debian's
 * fsspec 2022.11 raises on a missing key rather than reading the fill value). Written as a
 * stream, array by array, so that a large set is never held as one document.
 */
final class ReferenceSet {
  /** The template chunk URLs begin with: {@code {{u}}/path}. */
  static final String TEMPLATE = "u";
  static final ObjectMapper JSON = new ObjectMapper();

  /** One array of a set. */
  interface Array {
    String name();

    ZarrArray zarr();

    List<String> dimensions();

    Attributes attributes();

    /**
     * Chunk {@code key}: a {@link Ref}, the chunk's bytes as stored (through the array's
     * codecs), or null for a chunk never written.
     */
    Object chunk(String key);

    /** One element of the fill value, raw (null: zeros): what chunks never written hold. */
    byte[] fill();
  }

  /** A chunk in a file: bytes {@code [offset, offset + length)} of {@code url}. */
  static final class Ref {
    final String url;
    final long offset;
    final long length;

    Ref(String url, long offset, long length) {
      this.url = url;
      this.offset = offset;
      this.length = length;
    }
  }

  private ReferenceSet() {
  }

  /**
   * Writes {@code arrays} as one set, chunk URLs from {@code templateUrl} (what {@code {{u}}}
   * stands for), with {@code extra} fields beside {@code version} and {@code refs} (fsspec reads
   * those two and ignores the others).
   */
  static void write(JsonGenerator g, String templateUrl, List<? extends Array> arrays,
      Map<String, Object> extra) throws IOException {
    g.writeStartObject();
    g.writeNumberField("version", 1);
    g.writeObjectFieldStart("templates");
    g.writeStringField(TEMPLATE, templateUrl);
    g.writeEndObject();
    g.writeObjectFieldStart("refs");
    g.writeStringField(".zgroup", "{\"zarr_format\":2}");
    java.util.Set<String> groups = new java.util.HashSet<>();
    for (Array a : arrays) {
      // an HDF5 dataset in a group: each group above it is a Zarr group
      for (int at = a.name().indexOf('/'); at > 0; at = a.name().indexOf('/', at + 1)) {
        if (groups.add(a.name().substring(0, at))) {
          g.writeStringField(a.name().substring(0, at) + "/.zgroup", "{\"zarr_format\":2}");
        }
      }
      writeArray(g, a);
    }
    g.writeEndObject();
    for (Map.Entry<String, Object> e : extra.entrySet()) {
      g.writeFieldName(e.getKey());
      g.writeObject(e.getValue());
    }
    g.writeEndObject();
  }

  private static void writeArray(JsonGenerator g, Array a) throws IOException {
    ZarrArray z = a.zarr();
    g.writeStringField(a.name() + "/.zarray", JSON.writeValueAsString(z.document()));
    g.writeStringField(a.name() + "/.zattrs", JSON.writeValueAsString(zattrs(a)));
    String fill = null;
    long[] shape = z.shape();
    int[] chunks = z.chunks();
    long[] grid = new long[shape.length];
    for (int d = 0; d < shape.length; d++) {
      grid[d] = (shape[d] + chunks[d] - 1) / chunks[d];
      if (grid[d] == 0) {
        return; // no element, no chunk
      }
    }
    long[] idx = new long[shape.length];
    long[] origin = new long[shape.length];
    do {
      for (int d = 0; d < shape.length; d++) {
        origin[d] = idx[d] * chunks[d];
      }
      String key = ArrayEntry.key(origin, chunks);
      Object c = a.chunk(key);
      g.writeFieldName(a.name() + "/" + key);
      if (c instanceof Ref) {
        Ref r = (Ref) c;
        g.writeStartArray();
        g.writeString(r.url);
        g.writeNumber(r.offset);
        g.writeNumber(r.length);
        g.writeEndArray();
      } else if (c instanceof byte[]) {
        g.writeString("base64:" + ArrayEntry.base64((byte[]) c));
      } else {
        if (fill == null) {
          fill = "base64:" + ArrayEntry.base64(z.fillChunk(a.fill()));
        }
        g.writeString(fill);
      }
    } while (next(idx, grid));
  }

  /** Steps {@code idx} through {@code grid} in C order; false after the last. */
  static boolean next(long[] idx, long[] grid) {
    for (int d = idx.length - 1; d >= 0; d--) {
      if (++idx[d] < grid[d]) {
        return true;
      }
      idx[d] = 0;
    }
    return false;
  }

  /**
   * The {@code .zattrs}: xarray's {@code _ARRAY_DIMENSIONS} and the attributes as the file holds
   * them, but {@code _FillValue}, which is the array's {@code fill_value} (as xarray reads it).
   */
  static Map<String, Object> zattrs(Array a) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("_ARRAY_DIMENSIONS", a.dimensions());
    Attributes attrs = a.attributes();
    for (String n : attrs.names()) {
      if (!n.equals("_FillValue")) {
        out.put(n, json(attrs.get(n)));
      }
    }
    return out;
  }

  /** An attribute as JSON: text, a number, or a list of numbers. */
  static Object json(Attributes.Attribute a) {
    if (a.isText()) {
      return a.text();
    }
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < a.count(); i++) {
      if (a.type().floating()) {
        double d = a.getDouble(i);
        values.add(Double.isNaN(d) ? "NaN" : Double.isInfinite(d) ? (d > 0 ? "Infinity"
            : "-Infinity") : (Object) d);
      } else if (!a.type().signed() && a.type().size() == 8 && a.getLong(i) < 0) {
        values.add(new java.math.BigInteger(Long.toUnsignedString(a.getLong(i))));
      } else {
        values.add(a.getLong(i));
      }
    }
    return values.size() == 1 ? values.get(0) : values;
  }

  /** Values decoded from raw elements ({@link Elements}): what a coordinate holds. */
  static double[] values(byte[] raw, org.opass.mrap.array.ElementType t,
      java.nio.ByteOrder o) {
    double[] out = new double[raw.length / t.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = Elements.asDouble(raw, i * t.size(), t, o);
    }
    return out;
  }
}
