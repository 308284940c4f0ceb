package org.opass.mrap.index;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.zarr.Inflate;
import org.opass.mrap.format.zarr.Shuffle;

/**
 * A variable as a Zarr v2 array ({@code .zarray}): its dtype, shape, chunk shape, fill value and
 * codecs, in the terms zarr-python 2.13 and numcodecs 0.11 (Debian's) read. An HDF5 pipeline maps
 * to Zarr's filters and compressor (shuffle, then deflate as {@code zlib}); what has no codec
 * there is refused by name ({@link Unexpressible}). An immutable value.
 */
final class ZarrArray {
  private static final int DEFLATE = 1;
  private static final int SHUFFLE = 2;

  private final String dtype;
  private final long[] shape;
  private final int[] chunks;
  private final Object fillValue; // a Number, "NaN"/"Infinity"/"-Infinity", or null
  private final List<Map<String, Object>> codecs; // first applied first

  ZarrArray(String dtype, long[] shape, int[] chunks, Object fillValue,
      List<Map<String, Object>> codecs) {
    this.dtype = dtype;
    this.shape = shape.clone();
    this.chunks = chunks.clone();
    this.fillValue = fillValue;
    this.codecs = List.copyOf(codecs);
  }

  /** A variable's elements that the set cannot describe: why, for the report. */
  static final class Unexpressible extends Exception {
    private static final long serialVersionUID = 1L;

    Unexpressible(String why) {
      super(why);
    }
  }

  /**
   * {@code v} stored in chunks of {@code chunks} through {@code v}'s filters.
   *
   * @throws Unexpressible where its type or a filter has no Zarr v2 form numcodecs 0.11 reads
   */
  static ZarrArray of(Variable v, long[] shape, int[] chunks) throws Unexpressible {
    return new ZarrArray(dtype(v.type(), v.order()), shape, chunks, fillValue(v), codecs(v));
  }

  /** The numpy dtype of elements of {@code t} stored in {@code order}. */
  static String dtype(ElementType t, ByteOrder order) throws Unexpressible {
    char kind;
    if (t == ElementType.CHAR) {
      throw new Unexpressible("a char variable: xarray reads it as strings from netCDF but as "
          + "single bytes from Zarr");
    } else if (t.floating()) {
      kind = 'f';
    } else {
      kind = t.signed() ? 'i' : 'u';
    }
    char endian = t.size() == 1 ? '|' : order == ByteOrder.BIG_ENDIAN ? '>' : '<';
    return "" + endian + kind + t.size();
  }

  /** The {@code _FillValue} attribute as Zarr's {@code fill_value}, or null without one. */
  private static Object fillValue(Variable v) {
    Attributes.Attribute a = v.attributes().get("_FillValue");
    if (a == null || a.isText() || a.count() != 1) {
      return null;
    }
    if (a.type().floating()) {
      double d = a.getDouble(0);
      if (Double.isNaN(d)) {
        return "NaN";
      }
      if (Double.isInfinite(d)) {
        return d > 0 ? "Infinity" : "-Infinity";
      }
      return d;
    }
    return a.getLong(0);
  }

  /** The numcodecs codecs of {@code v}'s filters, first applied first. */
  private static List<Map<String, Object>> codecs(Variable v) throws Unexpressible {
    List<Map<String, Object>> out = new ArrayList<>();
    for (FilterSpec f : v.filters().specs()) {
      int[] data = f.data();
      Map<String, Object> c = new LinkedHashMap<>();
      if (f.id() == DEFLATE) {
        c.put("id", "zlib");
        c.put("level", data.length > 0 ? data[0] : 6);
      } else if (f.id() == SHUFFLE) {
        c.put("id", "shuffle");
        c.put("elementsize", data.length > 0 ? data[0] : v.type().size());
      } else {
        throw new Unexpressible("the filter " + f + " has no codec numcodecs 0.11 reads (it "
            + "reads deflate and shuffle of HDF5's)");
      }
      out.add(c);
    }
    return out;
  }

  long[] shape() {
    return shape.clone();
  }

  int[] chunks() {
    return chunks.clone();
  }

  String dtype() {
    return dtype;
  }

  Object fillValue() {
    return fillValue;
  }

  /** The codecs, first applied first. */
  List<Map<String, Object>> codecs() {
    return codecs;
  }

  /** This array with another shape (a series' length along its first dimension). */
  ZarrArray withShape(long[] s) {
    return new ZarrArray(dtype, s, chunks, fillValue, codecs);
  }

  /**
   * The {@code .zarray} document: the last codec a compressor where it is one (zlib), the ones
   * before it filters, as Zarr applies filters first.
   */
  Map<String, Object> document() {
    Map<String, Object> z = new LinkedHashMap<>();
    z.put("chunks", chunks);
    List<Map<String, Object>> filters = new ArrayList<>(codecs);
    Map<String, Object> compressor = null;
    if (!filters.isEmpty() && "zlib".equals(filters.get(filters.size() - 1).get("id"))) {
      compressor = filters.remove(filters.size() - 1);
    }
    z.put("compressor", compressor);
    z.put("dtype", dtype);
    z.put("fill_value", fillValue);
    z.put("filters", filters.isEmpty() ? null : filters);
    z.put("order", "C");
    z.put("shape", shape);
    z.put("zarr_format", 2);
    return z;
  }

  /** Bytes in one chunk, unfiltered. */
  long chunkBytes() {
    long n = Integer.parseInt(dtype.substring(2));
    for (int c : chunks) {
      n = Math.multiplyExact(n, c);
    }
    return n;
  }

  /**
   * A chunk every element of which is {@code fill} (one element's bytes; null: zeros), through
   * this array's codecs: what a chunk never written reads as.
   */
  byte[] fillChunk(byte[] fill) {
    int size = Integer.parseInt(dtype.substring(2));
    byte[] raw = new byte[Math.toIntExact(chunkBytes())];
    if (fill != null) {
      for (int at = 0; at < raw.length; at += size) {
        System.arraycopy(fill, 0, raw, at, size);
      }
    }
    return encode(raw);
  }

  /** A chunk's raw bytes through this array's codecs, as Zarr stores it. */
  byte[] encode(byte[] raw) {
    byte[] data = raw;
    for (Map<String, Object> c : codecs) {
      data = "zlib".equals(c.get("id")) ? deflate(data, ((Number) c.get("level")).intValue())
          : shuffle(data, ((Number) c.get("elementsize")).intValue());
    }
    return data;
  }

  /**
   * A stored chunk back to its raw bytes, through this array's codecs in reverse: an inline
   * chunk the index wrote ({@link #encode}), at most {@code most} bytes.
   *
   * @throws IOException where it does not decode
   */
  byte[] decode(byte[] stored, int most) throws java.io.IOException {
    byte[] data = stored;
    try { // the Zarr format's own decoders: the ones every store is read through
      for (int i = codecs.size() - 1; i >= 0; i--) {
        Map<String, Object> c = codecs.get(i);
        data = "zlib".equals(c.get("id")) ? Inflate.zlib(data, most)
            : Shuffle.decode(data, ((Number) c.get("elementsize")).intValue());
      }
    } catch (org.opass.mrap.format.ScienceFormatException e) {
      throw new java.io.IOException("an inline chunk does not decode: " + e.getMessage(), e);
    }
    return data;
  }

  /** A coordinate's values inline: shuffled and deflated, as a regular grid packs well. */
  ZarrArray packedInline(int elementSize) {
    Map<String, Object> shuffle = new LinkedHashMap<>();
    shuffle.put("id", "shuffle");
    shuffle.put("elementsize", elementSize);
    Map<String, Object> zlib = new LinkedHashMap<>();
    zlib.put("id", "zlib");
    zlib.put("level", 9);
    return new ZarrArray(dtype, shape, chunks, fillValue, List.of(shuffle, zlib));
  }

  /** numcodecs' shuffle: byte j of every element together, j from 0. */
  static byte[] shuffle(byte[] in, int size) {
    if (size <= 1 || in.length % size != 0) {
      return in.clone();
    }
    int count = in.length / size;
    byte[] out = new byte[in.length];
    for (int i = 0; i < count; i++) {
      for (int j = 0; j < size; j++) {
        out[j * count + i] = in[i * size + j];
      }
    }
    return out;
  }

  /** {@code in} deflated at {@code level}: zlib-wrapped, as numcodecs' zlib writes it. */
  private static byte[] deflate(byte[] in, int level) {
    return deflate(in, level, false);
  }

  /** {@code in} deflated at {@code level}, zlib-wrapped or raw ({@code nowrap}: for gzip). */
  static byte[] deflate(byte[] in, int level, boolean nowrap) {
    Deflater d = new Deflater(Math.max(0, Math.min(9, level)), nowrap);
    try {
      d.setInput(in);
      d.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      while (!d.finished()) {
        out.write(buf, 0, d.deflate(buf));
      }
      return out.toByteArray();
    } finally {
      d.end();
    }
  }

  /** Whether chunks of {@code other} can be read as chunks of this array (a series' join). */
  String differenceFrom(ZarrArray other) {
    if (!dtype.equals(other.dtype)) {
      return "dtype " + other.dtype + ", not " + dtype;
    }
    if (!Arrays.equals(chunks, other.chunks)) {
      return "chunks of " + Arrays.toString(other.chunks) + ", not " + Arrays.toString(chunks);
    }
    if (!String.valueOf(fillValue).equals(String.valueOf(other.fillValue))) {
      return "the fill value " + other.fillValue + ", not " + fillValue;
    }
    if (!codecs.equals(other.codecs)) {
      return "the codecs " + other.codecs + ", not " + codecs;
    }
    if (shape.length != other.shape.length) {
      return other.shape.length + " dimensions, not " + shape.length;
    }
    for (int d = 1; d < shape.length; d++) {
      if (shape[d] != other.shape[d]) {
        return "the shape " + Arrays.toString(other.shape) + ", not " + Arrays.toString(shape);
      }
    }
    return null;
  }
}
