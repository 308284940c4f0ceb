package org.opass.mrap.write;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.array.Elements;

/**
 * One part of a dataset in a task: the rows {@code [start, end)} of its first dimension, every
 * variable's elements there held as stored (fill where no point is put), then written into the
 * write's work folder. NetCDF: a file a variable, {@code v<var>.p<part>.<attempt>}, its bytes
 * as they lie in the joined file (big-endian; the last part ends with the variable's padding).
 * Zarr: the part's chunks under {@code <attempt>/<variable>/<c0>/...} (chunks of only the fill
 * left out). A point put twice is refused: rows and pieces name each point once.
 */
public final class PartWriter {
  private final OutputDataset dataset;
  private final int part;
  private final long first;
  private final long points;
  private final ByteBuffer[] values;
  private final BitSet[] seen;

  /**
   * @throws IllegalArgumentException if the part holds more than 2 GiB of one variable (its
   *     chunks or parts must be smaller)
   */
  public PartWriter(OutputDataset dataset, int part) {
    this.dataset = dataset;
    this.part = part;
    long inner = dataset.rowElements();
    this.first = dataset.partStart(part) * inner;
    this.points = (dataset.partEnd(part) - dataset.partStart(part)) * inner;
    List<OutputVariable> vars = dataset.variables();
    this.values = new ByteBuffer[vars.size()];
    this.seen = new BitSet[vars.size()];
    ByteOrder order = dataset.kind() == OutputDataset.Kind.NETCDF ? ByteOrder.BIG_ENDIAN
        : ByteOrder.LITTLE_ENDIAN;
    for (int v = 0; v < vars.size(); v++) {
      OutputVariable var = vars.get(v);
      long bytes = points * var.type().size();
      if (bytes > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("a part of " + var.name() + " would hold " + bytes
            + " bytes, " + (dataset.partEnd(part) - dataset.partStart(part)) + " rows of "
            + dataset.dimensions().get(0).name() + ": make its chunks smaller");
      }
      values[v] = ByteBuffer.allocate((int) bytes).order(order);
      fill(values[v], var);
      seen[v] = new BitSet((int) Math.min(points, Integer.MAX_VALUE));
    }
  }

  private static void fill(ByteBuffer b, OutputVariable var) {
    int size = var.type().size();
    if (b.capacity() == 0) {
      return;
    }
    Elements.put(b, var.type(), var.fill());
    byte[] a = b.array();
    int filled = size;
    while (filled < a.length) {
      int n = Math.min(filled, a.length - filled);
      System.arraycopy(a, 0, a, filled, n);
      filled += n;
    }
    b.clear();
  }

  public int part() {
    return part;
  }

  /** Whether the grid point at linear index {@code index} (C order) lies in this part. */
  public boolean holds(long index) {
    return index >= first && index < first + points;
  }

  /**
   * Puts {@code value} (decoded: packing is applied here; NaN is the fill) at the grid point
   * whose linear index in C order is {@code index}.
   *
   * @throws IllegalArgumentException naming the variable and the point if it lies outside
   *     this part or was put before, or the value does not fit the variable
   */
  public void put(int var, long index, double value) {
    OutputVariable v = dataset.variables().get(var);
    if (!holds(index)) {
      long all = dataset.rowElements() * dataset.dimensions().get(0).length();
      // an index off the grid has no coordinates to name
      String point = index < 0 || index >= all ? "linear index " + index + " (the grid has "
          + all + " points)" : "grid point " + describe(index);
      throw new IllegalArgumentException("variable " + v.name() + ": " + point
          + " lies outside part " + part + " (rows " + dataset.partStart(part) + " to "
          + dataset.partEnd(part) + " of " + dataset.dimensions().get(0).name() + ")");
    }
    int i = (int) (index - first);
    if (seen[var].get(i)) {
      throw new IllegalArgumentException("two values name grid point " + describe(index)
          + " of " + v.name() + ": a point is written once");
    }
    // encoded first: a value refused does not take the point
    double stored = v.encode(value);
    seen[var].set(i);
    ByteBuffer b = values[var];
    b.position(i * v.type().size());
    Elements.put(b, v.type(), stored);
  }

  /** The point at linear index {@code index} as its dimensions' values, for messages. */
  public String describe(long index) {
    List<OutputDimension> dims = dataset.dimensions();
    long[] idx = new long[dims.size()];
    long rest = index;
    for (int d = dims.size() - 1; d >= 0; d--) {
      idx[d] = rest % dims.get(d).length();
      rest /= dims.get(d).length();
    }
    StringBuilder s = new StringBuilder("(");
    for (int d = 0; d < dims.size(); d++) {
      s.append(d == 0 ? "" : ", ").append(dims.get(d).name()).append('=')
          .append(dims.get(d).key((int) idx[d]));
    }
    return s.append(')').toString();
  }

  /**
   * Writes the part into {@code work}, its file names made unique by {@code attempt}.
   *
   * @return what it wrote, relative to {@code work}: NetCDF's part files; Zarr's chunk-row
   *     folders (or chunk files of a one-dimensional variable) that hold a chunk, then {@code
   *     part-<p>}, which says the part is whole
   */
  public List<String> write(FileSystem fs, Path work, String attempt) throws IOException {
    List<String> out = new ArrayList<>();
    if (dataset.kind() == OutputDataset.Kind.NETCDF) {
      for (int v = 0; v < values.length; v++) {
        String name = netcdfPart(v, part, attempt);
        try (FSDataOutputStream o = fs.create(new Path(work, name), true)) {
          o.write(values[v].array());
          if (dataset.partEnd(part) == dataset.dimensions().get(0).length()) {
            long all = dataset.rowElements() * dataset.dimensions().get(0).length()
                * dataset.variables().get(v).type().size();
            o.write(new byte[Netcdf3Writer.padding(all)]);
          }
        }
        out.add(name);
      }
    } else {
      for (int v = 0; v < values.length; v++) {
        out.addAll(writeChunks(fs, work, attempt, v));
      }
      out.add("part-" + part);
    }
    return out;
  }

  /** The name of variable {@code v}'s part {@code p} in the work folder. */
  static String netcdfPart(int v, int p, String attempt) {
    return "v" + v + ".p" + p + "." + attempt;
  }

  private List<String> writeChunks(FileSystem fs, Path work, String attempt, int v)
      throws IOException {
    OutputVariable var = dataset.variables().get(v);
    long[] shape = dataset.shape();
    int[] chunks = dataset.chunks();
    int rank = shape.length;
    int size = var.type().size();
    long[] grid = new long[rank];
    for (int d = 0; d < rank; d++) {
      grid[d] = (shape[d] + chunks[d] - 1) / chunks[d];
    }
    int chunkElements = 1;
    for (int c : chunks) {
      chunkElements = Math.multiplyExact(chunkElements, c);
    }
    byte[] raw = new byte[Math.multiplyExact(chunkElements, size)];
    ByteBuffer fillBytes = ByteBuffer.allocate(size).order(values[v].order());
    Elements.put(fillBytes, var.type(), var.fill());
    byte[] fill = fillBytes.array();
    List<String> rows = new ArrayList<>();
    long c0From = dataset.partStart(part) / chunks[0];
    long c0To = (dataset.partEnd(part) + chunks[0] - 1) / chunks[0];
    for (long c0 = c0From; c0 < c0To; c0++) {
      boolean any = false;
      long[] ci = new long[rank];
      ci[0] = c0;
      long innerChunks = 1;
      for (int d = 1; d < rank; d++) {
        innerChunks *= grid[d];
      }
      for (long k = 0; k < innerChunks; k++) {
        long r = k;
        for (int d = rank - 1; d >= 1; d--) {
          ci[d] = r % grid[d];
          r /= grid[d];
        }
        // a chunk of only the fill is left out, as Zarr reads a missing one as the fill: where
        // the fill is declared
        if (gather(v, ci, chunks, shape, size, raw, fill) || !var.declaresFill()) {
          String key = var.name() + "/" + ZarrWriter.chunkKey(ci);
          try (FSDataOutputStream o = fs.create(new Path(new Path(work, attempt), key), true)) {
            o.write(ZarrWriter.compress(raw, raw.length));
          }
          any = true;
        }
      }
      if (any) {
        rows.add(attempt + "/" + var.name() + "/" + c0);
      }
    }
    return rows;
  }

  /** Copies chunk {@code ci}'s elements into {@code raw}; false if all are the fill. */
  private boolean gather(int v, long[] ci, int[] chunks, long[] shape, int size, byte[] raw,
      byte[] fill) {
    int rank = shape.length;
    byte[] src = values[v].array();
    long rowStart = dataset.partStart(part);
    long inner = dataset.rowElements();
    // walk the chunk's rows along the last dimension, C order; outside the grid is fill
    int last = chunks[rank - 1];
    long[] at = new long[rank];
    int rowsInChunk = raw.length / size / last;
    boolean any = false;
    for (int r = 0; r < rowsInChunk; r++) {
      int rest = r;
      boolean inside = true;
      for (int d = rank - 2; d >= 0; d--) {
        at[d] = ci[d] * chunks[d] + rest % chunks[d];
        rest /= chunks[d];
        if (at[d] >= shape[d]) {
          inside = false;
        }
      }
      int dst = r * last * size;
      long x0 = ci[rank - 1] * last;
      int n = inside ? (int) Math.max(0, Math.min(last, shape[rank - 1] - x0)) : 0;
      if (rank == 1) {
        at[0] = x0;
        n = (int) Math.max(0, Math.min(last, shape[0] - x0));
      }
      if (n > 0) {
        long index = 0;
        for (int d = 0; d < rank - 1; d++) {
          index = index * shape[d] + at[d];
        }
        index = index * shape[rank - 1] + x0;
        int from = (int) ((index - rowStart * inner) * size);
        System.arraycopy(src, from, raw, dst, n * size);
        for (int i = 0; i < n * size && !any; i += size) {
          for (int b = 0; b < size; b++) {
            if (raw[dst + i + b] != fill[b]) {
              any = true;
              break;
            }
          }
        }
      }
      for (int i = n * size; i < last * size; i += size) {
        System.arraycopy(fill, 0, raw, dst + i, size);
      }
    }
    return any;
  }
}
