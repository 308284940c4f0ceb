package org.opass.mrap.write;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;

/**
 * The objects of a Zarr v2 store of an {@link OutputDataset}, as xarray writes one: a group
 * ({@code .zgroup}, {@code .zattrs} with the global attributes), an array per coordinate (one
 * chunk) and per data variable ({@code .zarray}: little-endian, C order, {@code "/"} between a
 * chunk key's indices; {@code .zattrs}: {@code _ARRAY_DIMENSIONS} and the CF attributes), chunks
 * compressed with zlib (numcodecs' {@code zlib}, which zarr reads without another package) and
 * {@code .zmetadata} consolidating them all. A chunk holding only the fill value is not written:
 * Zarr reads a missing chunk as the fill.
 */
public final class ZarrWriter {
  /** zlib's fastest level: a write runs at the speed of the query that feeds it. */
  static final int LEVEL = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  private ZarrWriter() {
  }

  /** The metadata objects of the store, by key, {@code .zmetadata} last. */
  public static Map<String, byte[]> metadata(OutputDataset ds) {
    LinkedHashMap<String, ObjectNode> meta = new LinkedHashMap<>();
    meta.put(".zgroup", JSON.createObjectNode().put("zarr_format", 2));
    meta.put(".zattrs", attributes(ds.attributes(), null));
    List<OutputDimension> dims = ds.dimensions();
    for (OutputDimension d : dims) {
      long[] shape = {d.length()};
      meta.put(d.name() + "/.zarray", zarray(shape, new int[] {d.length()}, d.type(),
          Double.NaN, false));
      ObjectNode attrs = attributes(d.attributes(), null);
      attrs.set("_ARRAY_DIMENSIONS", JSON.createArrayNode().add(d.name()));
      meta.put(d.name() + "/.zattrs", attrs);
    }
    for (OutputVariable v : ds.variables()) {
      meta.put(v.name() + "/.zarray", zarray(ds.shape(), ds.chunks(), v.type(),
          v.declaresFill() ? v.fill() : Double.NaN, v.declaresFill()));
      ObjectNode attrs = attributes(v.attributes(), v);
      ArrayNode names = JSON.createArrayNode();
      for (OutputDimension d : dims) {
        names.add(d.name());
      }
      attrs.set("_ARRAY_DIMENSIONS", names);
      meta.put(v.name() + "/.zattrs", attrs);
    }
    ObjectNode all = JSON.createObjectNode();
    for (Map.Entry<String, ObjectNode> e : meta.entrySet()) {
      all.set(e.getKey(), e.getValue());
    }
    ObjectNode consolidated = JSON.createObjectNode();
    consolidated.set("metadata", all);
    consolidated.put("zarr_consolidated_format", 1);
    LinkedHashMap<String, byte[]> out = new LinkedHashMap<>();
    for (Map.Entry<String, ObjectNode> e : meta.entrySet()) {
      out.put(e.getKey(), bytes(e.getValue()));
    }
    out.put(".zmetadata", bytes(consolidated));
    return out;
  }

  /** A coordinate's one chunk: its values, little-endian, compressed. */
  public static byte[] coordinateChunk(OutputDimension d) {
    ByteBuffer b = ByteBuffer.allocate(d.length() * d.type().size())
        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (double x : d.values()) {
      Elements.put(b, d.type(), x);
    }
    return compress(b.array(), b.position());
  }

  /** {@code length} bytes of a chunk's elements (little-endian, C order), compressed. */
  public static byte[] compress(byte[] raw, int length) {
    Deflater z = new Deflater(LEVEL);
    try {
      z.setInput(raw, 0, length);
      z.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, length / 4));
      byte[] buf = new byte[64 << 10];
      while (!z.finished()) {
        int n = z.deflate(buf);
        out.write(buf, 0, n);
      }
      return out.toByteArray();
    } finally {
      z.end();
    }
  }

  /** The key of the chunk at chunk-grid index {@code index}, "/" between its indices. */
  public static String chunkKey(long[] index) {
    StringBuilder b = new StringBuilder();
    for (int d = 0; d < index.length; d++) {
      if (d > 0) {
        b.append('/');
      }
      b.append(index[d]);
    }
    return b.toString();
  }

  private static ObjectNode zarray(long[] shape, int[] chunks, ElementType type, double fill,
      boolean declared) {
    ObjectNode a = JSON.createObjectNode();
    a.put("zarr_format", 2);
    ArrayNode s = a.putArray("shape");
    for (long x : shape) {
      s.add(x);
    }
    ArrayNode c = a.putArray("chunks");
    for (int x : chunks) {
      c.add(x);
    }
    a.put("dtype", dtype(type));
    ObjectNode z = a.putObject("compressor");
    z.put("id", "zlib");
    z.put("level", LEVEL);
    if (Double.isNaN(fill)) {
      if (declared && type.floating()) {
        a.put("fill_value", "NaN");
      } else {
        a.putNull("fill_value");
      }
    } else if (type.floating()) {
      a.put("fill_value", fill);
    } else {
      a.put("fill_value", (long) fill);
    }
    a.put("order", "C");
    a.putNull("filters");
    a.put("dimension_separator", "/");
    return a;
  }

  private static String dtype(ElementType t) {
    switch (t) {
      case INT8:
        return "|i1";
      case UINT8:
        return "|u1";
      case INT16:
        return "<i2";
      case UINT16:
        return "<u2";
      case INT32:
        return "<i4";
      case UINT32:
        return "<u4";
      case INT64:
        return "<i8";
      case UINT64:
        return "<u8";
      case FLOAT32:
        return "<f4";
      case FLOAT64:
        return "<f8";
      default:
        throw new IllegalArgumentException("no Zarr array is written as " + t);
    }
  }

  private static ObjectNode attributes(Map<String, Object> attrs, OutputVariable v) {
    ObjectNode o = JSON.createObjectNode();
    if (v != null && v.isPacked()) {
      o.put("scale_factor", v.scale());
      o.put("add_offset", v.offset());
    }
    for (Map.Entry<String, Object> a : attrs.entrySet()) {
      Object x = a.getValue();
      if (x instanceof Number) {
        double d = ((Number) x).doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          o.put(a.getKey(), String.valueOf(d));
        } else {
          o.put(a.getKey(), d);
        }
      } else {
        o.put(a.getKey(), String.valueOf(x));
      }
    }
    return o;
  }

  private static byte[] bytes(ObjectNode node) {
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node)
          .getBytes(StandardCharsets.UTF_8);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
