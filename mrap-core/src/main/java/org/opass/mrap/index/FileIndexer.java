package org.opass.mrap.index;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableValues;

/**
 * One file's header read into its {@link FileEntry}: each variable named with the coordinate
 * variables of its dimensions, as a Zarr array whose chunks are byte ranges of the file. Strided
 * storage becomes chunks too: a NetCDF-3 record variable a chunk a record, a contiguous array
 * chunks of whole rows; a coordinate is held inline. A variable the set cannot describe is left
 * out, with why ({@link Refusal}).
 */
final class FileIndexer {
  /** A contiguous array is cut into chunks of whole rows of at most this many bytes. */
  static final long CONTIGUOUS_CHUNK_BYTES = 32L << 20;
  /** Coordinates of at most this many elements are held inline. */
  static final long INLINE_ELEMENTS = 1L << 20;
  /** The most bytes of inline chunks of the fill value a variable may need. */
  static final long MAX_FILL_BYTES = 16L << 20;

  private final ScienceFile file;
  private final Positioned in;
  private final String path;
  private final Map<String, ArrayEntry> arrays = new LinkedHashMap<>();
  private final List<Refusal> refused = new ArrayList<>();
  private final Map<Long, String> phony = new HashMap<>(); // netCDF-C's names of unnamed dims

  private FileIndexer(ScienceFile file, Positioned in, String path) {
    this.file = file;
    this.in = in;
    this.path = path;
  }

  /** An indexer of {@code file}, read through {@code in}, at {@code path}. */
  static FileIndexer of(ScienceFile file, Positioned in, String path) {
    return new FileIndexer(file, in, path);
  }

  /**
   * The file's entry, read as {@code kind}, for the variables {@code names} (none: all) and
   * their coordinates; bound to {@code length} bytes last modified at {@code mtime}.
   */
  FileEntry entry(List<String> names, String kind, long length, long mtime) throws IOException {
    for (String n : names.isEmpty() ? file.variableNames() : names) {
      add(n);
    }
    return new FileEntry(path, length, mtime, kind, arrays, refused);
  }

  private void add(String name) throws IOException {
    if (arrays.containsKey(ArrayEntry.key(name))) {
      return;
    }
    Variable v;
    try {
      v = file.variable(name);
    } catch (ScienceFormatException e) {
      refused.add(new Refusal(path, name, e.getMessage()));
      return;
    }
    if (v.rank() == 1 && !v.dimensions().get(0).isEmpty()) {
      Variable self = file.coordinate(v, 0);
      if (self != null && self.name().equals(v.name()) && addCoordinate(v)) {
        return; // a coordinate variable: inline
      }
    }
    List<String> coords = new ArrayList<>();
    for (int d = 0; d < v.rank(); d++) {
      Variable c = v.dimensions().get(d).isEmpty() ? null : file.coordinate(v, d);
      coords.add(c != null && addCoordinate(c) ? ArrayEntry.key(c.name()) : null);
    }
    try {
      arrays.put(ArrayEntry.key(v.name()), array(v, coords));
    } catch (ZarrArray.Unexpressible e) {
      refused.add(new Refusal(path, name, e.getMessage()));
    }
  }

  /** Adds coordinate {@code c} inline (once); false where it cannot be. */
  private boolean addCoordinate(Variable c) throws IOException {
    String key = ArrayEntry.key(c.name());
    if (arrays.containsKey(key)) {
      return arrays.get(key).inline() != null;
    }
    if (c.rank() != 1 || c.shape()[0] > INLINE_ELEMENTS) {
      return false;
    }
    try {
      double[] values = VariableValues.read(in, c);
      byte[] raw = raw(values, c.type(), c.order());
      int[] chunk = {(int) Math.max(1, c.shape()[0])};
      arrays.put(key, new ArrayEntry(c, zarrDimensions(c), List.of(key),
          ZarrArray.of(c, c.shape(), chunk).packedInline(c.type().size()), Map.of(), raw));
      return true;
    } catch (ZarrArray.Unexpressible e) {
      refused.add(new Refusal(path, c.name(), e.getMessage()));
      return false;
    }
  }

  /** {@code v} as a Zarr array of chunks in the file. */
  private ArrayEntry array(Variable v, List<String> coords) throws IOException,
      ZarrArray.Unexpressible {
    long[] shape = v.shape();
    int[] chunks;
    Map<String, long[]> refs = new LinkedHashMap<>();
    if (v.chunked()) {
      chunks = v.chunkShape();
      Variable.Chunks stored = v.chunks();
      for (int i = 0; i < stored.count(); i++) {
        long[] o = stored.origin(i);
        for (int d = 0; d < o.length; d++) {
          if (o[d] % chunks[d] != 0) {
            throw new ZarrArray.Unexpressible("a chunk at " + Arrays.toString(o) + " off the "
                + "grid of chunks of " + Arrays.toString(chunks));
          }
        }
        if (stored.mask(i) != 0) {
          throw new ZarrArray.Unexpressible("the chunk at " + Arrays.toString(o) + " skipped "
              + "filters (mask " + stored.mask(i) + "), which Zarr cannot say of one chunk");
        }
        refs.put(ArrayEntry.key(o, chunks), new long[] {stored.address(i), stored.size(i)});
      }
      checkTails(v, stored);
    } else {
      chunks = stridedChunks(v, refs);
    }
    ZarrArray z = ZarrArray.of(v, shape, chunks);
    long missing = gridChunks(shape, chunks) - refs.size();
    if (missing > 0 && missing * z.fillChunk(v.chunked() ? v.fill() : null).length
        > MAX_FILL_BYTES) {
      throw new ZarrArray.Unexpressible(missing + " chunks never written, each "
          + z.fillChunk(v.fill()).length + " bytes inline: more than " + MAX_FILL_BYTES
          + " bytes of fill values in the set");
    }
    return new ArrayEntry(v, zarrDimensions(v), coords, z, refs, null);
  }

  /**
   * Refuses {@code v} where a stored chunk holds, past the stored extent of a variable shorter
   * than its dimension (a NetCDF-4 variable written to fewer records than its unlimited
   * dimension), anything but the fill value: netCDF reads the fill value there, Zarr the chunk.
   * Such chunks are read and decoded here: at most one row of chunks a variable.
   */
  private void checkTails(Variable v, Variable.Chunks stored) throws IOException,
      ZarrArray.Unexpressible {
    long[] shape = v.shape();
    long[] extent = v.extent();
    int[] chunks = v.chunkShape();
    int size = v.type().size();
    byte[] fill = v.fill() == null ? new byte[size] : v.fill();
    long chunkBytes = size;
    for (int c : chunks) {
      chunkBytes *= c;
    }
    for (int i = 0; i < stored.count(); i++) {
      long[] o = stored.origin(i);
      boolean straddles = false;
      for (int d = 0; d < shape.length; d++) {
        straddles |= o[d] < extent[d] && o[d] + chunks[d] > extent[d] && extent[d] < shape[d];
      }
      if (!straddles) {
        continue;
      }
      byte[] raw = new byte[Math.toIntExact(stored.size(i))];
      in.readFully(stored.address(i), raw, 0, raw.length);
      byte[] chunk = v.filters().decode(raw, stored.mask(i), chunkBytes);
      int[] idx = new int[chunks.length];
      for (int at = 0; at + size <= chunk.length; at += size) {
        boolean past = false;
        boolean within = true;
        for (int d = 0; d < chunks.length; d++) {
          long g = o[d] + idx[d];
          past |= g >= extent[d];
          within &= g < shape[d];
        }
        if (past && within && !Arrays.equals(chunk, at, at + size, fill, 0, size)) {
          throw new ZarrArray.Unexpressible("its chunk at " + Arrays.toString(o) + " holds "
              + "values past the " + Arrays.toString(extent) + " stored, which netCDF reads as "
              + "the fill value and Zarr would read as they are (written without fill)");
        }
        for (int d = chunks.length - 1; d >= 0 && ++idx[d] == chunks[d]; d--) {
          idx[d] = 0;
        }
      }
    }
  }

  /**
   * The chunks of strided {@code v} (into {@code refs}): a record a chunk for a NetCDF-3 record
   * variable, whole rows for a contiguous one.
   */
  private static int[] stridedChunks(Variable v, Map<String, long[]> refs)
      throws ZarrArray.Unexpressible {
    long[] shape = v.shape();
    long[] strides = v.byteStrides();
    long[] rowMajor = Variable.rowMajor(shape, v.type().size());
    for (int d = 1; d < shape.length; d++) {
      if (strides[d] != rowMajor[d] && shape[d] > 1) {
        throw new ZarrArray.Unexpressible("strides " + Arrays.toString(strides) + " are not "
            + "row-major within a record");
      }
    }
    if (shape.length == 0) {
      refs.put("0", new long[] {v.base(), v.type().size()});
      return new int[0];
    }
    long rowBytes = shape.length == 1 ? v.type().size() : rowMajor[0];
    long rows = 1;
    if (strides[0] == rowMajor[0] || shape[0] <= 1) { // contiguous: whole rows a chunk
      for (long k = Math.max(1, shape[0]); k >= 1; k--) {
        if (shape[0] % k == 0 && k * rowBytes <= CONTIGUOUS_CHUNK_BYTES) {
          rows = k;
          break;
        }
      }
    }
    int[] chunks = new int[shape.length];
    chunks[0] = Math.toIntExact(rows);
    for (int d = 1; d < shape.length; d++) {
      chunks[d] = (int) Math.max(1, shape[d]);
      if (shape[d] > Integer.MAX_VALUE) {
        throw new ZarrArray.Unexpressible("a dimension of " + shape[d] + " elements in a chunk");
      }
    }
    long step = strides[0] == rowMajor[0] || shape[0] <= 1 ? rowBytes * rows : strides[0];
    long[] origin = new long[shape.length];
    for (long r = 0; r < shape[0]; r += rows) {
      origin[0] = r;
      refs.put(ArrayEntry.key(origin, chunks), new long[] {v.base() + (r / rows) * step,
          rowBytes * rows});
    }
    return chunks;
  }

  private static long gridChunks(long[] shape, int[] chunks) {
    long n = 1;
    for (int d = 0; d < shape.length; d++) {
      n = Math.multiplyExact(n, (shape[d] + chunks[d] - 1) / chunks[d]);
    }
    return n;
  }

  /** The dimensions' names, netCDF-C's {@code phony_dim_N} for those the file leaves unnamed. */
  private List<String> zarrDimensions(Variable v) {
    List<String> out = new ArrayList<>();
    long[] shape = v.shape();
    for (int d = 0; d < v.rank(); d++) {
      String n = v.dimensions().get(d);
      out.add(n.isEmpty() ? phony.computeIfAbsent(shape[d], k -> "phony_dim_" + phony.size())
          : n);
    }
    return out;
  }

  /** {@code values} as elements of {@code t} in {@code order}. */
  static byte[] raw(double[] values, ElementType t, ByteOrder order) {
    ByteBuffer b = ByteBuffer.allocate(values.length * t.size()).order(order);
    for (double v : values) {
      Elements.put(b, t, v);
    }
    return b.array();
  }
}
