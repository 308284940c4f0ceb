package org.opass.mrap.format.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.format.ChunkFilters;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.ScienceFormatException;

/**
 * The codecs a Zarr chunk went through, in the order they decode: v2's compressor, its filters
 * last first, and a Fortran-ordered chunk's transpose; v3's bytes-to-bytes codecs last first,
 * then its array-to-array ones. Each is a {@link FilterSpec} (its id below, its numbers), as a
 * split carries it. Decoding is pure Java and bounded by the chunk's bytes; a codec not read is
 * refused by name when the metadata is read, naming the store and the array.
 */
final class ZarrFilters implements ChunkFilters {
  static final String FORMAT = "Zarr";
  static final int ZLIB = 1;
  static final int GZIP = 2;
  static final int BLOSC = 3;
  static final int ZSTD = 4;
  static final int LZ4 = 5;
  static final int SHUFFLE = 6; // data: element size
  static final int DELTA = 7; // data: dtype, astype (dtypeCode)
  static final int TRANSPOSE = 8; // data: element size, rank, order..., chunk shape...
  static final int CRC32C = 9;

  private final List<FilterSpec> specs;

  ZarrFilters(List<FilterSpec> specs) {
    this.specs = List.copyOf(specs);
  }

  /** The filters of {@code specs}, as a split carries them. */
  static ZarrFilters of(List<FilterSpec> specs) {
    for (FilterSpec f : specs) {
      if (f.id() < ZLIB || f.id() > CRC32C) {
        throw new ScienceFormatException("a Zarr codec of id " + f.id() + " (" + f.name()
            + ") is not read");
      }
    }
    return new ZarrFilters(specs);
  }

  @Override
  public String format() {
    return FORMAT;
  }

  /** The codecs in the order they decode. */
  @Override
  public List<FilterSpec> specs() {
    return specs;
  }

  @Override
  public byte[] decode(byte[] stored, int mask, long chunkBytes) {
    byte[] b = stored;
    // a stage may widen (delta's astype): bound each by the chunk's elements of 8 bytes
    long bound = Math.max(chunkBytes, 0) * 8 + 64;
    for (FilterSpec f : specs) {
      int[] d = f.data();
      switch (f.id()) {
        case ZLIB:
          b = Inflate.zlib(b, bound);
          break;
        case GZIP:
          b = Inflate.gzip(b, bound);
          break;
        case BLOSC:
          b = Blosc.decode(b, bound);
          break;
        case ZSTD:
          b = Zstd.decode(b, bound);
          break;
        case LZ4:
          b = Lz4.decode(b, bound);
          break;
        case SHUFFLE:
          b = Shuffle.decode(b, d[0]);
          break;
        case DELTA:
          b = Delta.decode(b, dtype(d[0]), dtype(d[1]));
          break;
        case TRANSPOSE:
          b = untranspose(b, d, chunkBytes);
          break;
        case CRC32C:
          b = Crc32c.strip(b);
          break;
        default:
          throw new ScienceFormatException("a Zarr codec of id " + f.id() + " is not read");
      }
    }
    if (b.length != chunkBytes) {
      throw new ScienceFormatException("a chunk decoded through " + specs + " holds "
          + b.length + " bytes, not the chunk's " + chunkBytes);
    }
    return b;
  }

  @Override
  public String toString() {
    return specs.toString();
  }

  // ---------------------------------------------------------------- from metadata

  /** A v2 compressor or filter ({@code {"id": ..., ...}}). */
  static FilterSpec v2(JsonNode codec, ElementType type, String where) {
    String id = codec.path("id").asText("");
    switch (id) {
      case "zlib":
        return new FilterSpec(ZLIB, "zlib", new int[0]);
      case "gzip":
        return new FilterSpec(GZIP, "gzip", new int[0]);
      case "blosc":
        if (codec.path("cname").asText("lz4").equals("snappy")) {
          throw refused(where, "blosc with cname snappy");
        }
        return new FilterSpec(BLOSC, "blosc " + codec.path("cname").asText("lz4"),
            new int[0]);
      case "zstd":
        return new FilterSpec(ZSTD, "zstd", new int[0]);
      case "lz4":
        return new FilterSpec(LZ4, "lz4", new int[0]);
      case "shuffle":
        return new FilterSpec(SHUFFLE, "shuffle", new int[] {
            codec.path("elementsize").asInt(type.size())});
      case "delta": {
        int dt = dtypeCode(codec.path("dtype").asText(""), where);
        int as = codec.hasNonNull("astype") ? dtypeCode(codec.get("astype").asText(), where)
            : dt;
        return new FilterSpec(DELTA, "delta", new int[] {dt, as});
      }
      default:
        throw refused(where, id.isEmpty() ? "the codec " + codec : id);
    }
  }

  /** A v3 bytes-to-bytes codec. */
  static FilterSpec v3(String name, JsonNode conf, ElementType type, String where) {
    switch (name) {
      case "gzip":
        return new FilterSpec(GZIP, "gzip", new int[0]);
      case "zstd":
        return new FilterSpec(ZSTD, "zstd", new int[0]);
      case "blosc":
        if (conf.path("cname").asText("lz4").equals("snappy")) {
          throw refused(where, "blosc with cname snappy");
        }
        return new FilterSpec(BLOSC, "blosc " + conf.path("cname").asText("lz4"), new int[0]);
      case "crc32c":
        return new FilterSpec(CRC32C, "crc32c", new int[0]);
      default:
        throw refused(where, name);
    }
  }

  private static ScienceFormatException refused(String where, String codec) {
    return new ScienceFormatException(where + ": codec " + codec + " is not read; zlib, gzip, "
        + "blosc (blosclz, lz4, lz4hc, zlib, zstd), zstd, lz4, shuffle, delta, crc32c, "
        + "transpose and sharding_indexed are");
  }

  /** v2's order "F": a chunk's elements stored with the first index fastest. */
  static FilterSpec fortran(int[] chunks, int elementSize) {
    int r = chunks.length;
    int[] order = new int[r];
    for (int d = 0; d < r; d++) {
      order[d] = r - 1 - d;
    }
    return transposeSpec(order, chunks, elementSize, "order F");
  }

  /** v3's transpose codec, {@code order} a permutation of the chunk's dimensions. */
  static FilterSpec transpose(JsonNode order, int[] chunks, int elementSize, String where) {
    int r = chunks.length;
    if (order == null || !order.isArray() || order.size() != r) {
      throw new ScienceFormatException(where + ": transpose order " + order + " is not a "
          + "permutation of the array's " + r + " dimensions");
    }
    int[] o = new int[r];
    boolean[] seen = new boolean[r];
    for (int d = 0; d < r; d++) {
      o[d] = order.get(d).asInt(-1);
      if (o[d] < 0 || o[d] >= r || seen[o[d]]) {
        throw new ScienceFormatException(where + ": transpose order " + order + " is not a "
            + "permutation of the array's " + r + " dimensions");
      }
      seen[o[d]] = true;
    }
    return transposeSpec(o, chunks, elementSize, "transpose " + order);
  }

  private static FilterSpec transposeSpec(int[] order, int[] chunks, int elementSize,
      String name) {
    int r = chunks.length;
    int[] data = new int[2 + 2 * r];
    data[0] = elementSize;
    data[1] = r;
    System.arraycopy(order, 0, data, 2, r);
    System.arraycopy(chunks, 0, data, 2 + r, r);
    return new FilterSpec(TRANSPOSE, name, data);
  }

  /**
   * A chunk stored transposed ({@code data}: element size, rank, order, chunk shape) back in
   * C order: the stored array's dimension k is the chunk's dimension order[k].
   */
  static byte[] untranspose(byte[] in, int[] data, long chunkBytes) {
    int es = data[0];
    int r = data[1];
    int[] order = new int[r];
    int[] shape = new int[r];
    System.arraycopy(data, 2, order, 0, r);
    System.arraycopy(data, 2 + r, shape, 0, r);
    if (in.length != chunkBytes) {
      throw new ScienceFormatException("transpose: a chunk of " + in.length + " bytes, not "
          + chunkBytes);
    }
    // strides, in elements, of the stored array's dimensions, by the chunk's dimension
    long[] strideOf = new long[r];
    long s = 1;
    for (int k = r - 1; k >= 0; k--) {
      strideOf[order[k]] = s;
      s *= shape[order[k]];
    }
    byte[] out = new byte[in.length];
    int[] idx = new int[r];
    long n = in.length / es;
    long src = 0;
    for (long i = 0; i < n; i++) {
      System.arraycopy(in, (int) (src * es), out, (int) (i * es), es);
      for (int d = r - 1; d >= 0; d--) {
        src += strideOf[d];
        if (++idx[d] < shape[d]) {
          break;
        }
        src -= strideOf[d] * shape[d];
        idx[d] = 0;
      }
    }
    return out;
  }

  /** A numpy dtype string ("<i4", ">f8", "|u1") as a number a spec carries. */
  static int dtypeCode(String dtype, String where) {
    if (dtype.length() < 3 || "iuf".indexOf(dtype.charAt(1)) < 0 || "<>|=".indexOf(
        dtype.charAt(0)) < 0) {
      throw new ScienceFormatException(where + ": delta dtype \"" + dtype + "\" is not read");
    }
    int size;
    try {
      size = Integer.parseInt(dtype.substring(2));
    } catch (NumberFormatException e) {
      throw new ScienceFormatException(where + ": delta dtype \"" + dtype + "\" is not read");
    }
    return "iuf".indexOf(dtype.charAt(1)) * 1000 + size * 2 + (dtype.charAt(0) == '>' ? 1 : 0);
  }

  /** The dtype string of {@link #dtypeCode}. */
  static String dtype(int code) {
    return ((code % 2) == 1 ? ">" : "<") + "iuf".charAt(code / 1000) + ((code % 1000) / 2);
  }
}
