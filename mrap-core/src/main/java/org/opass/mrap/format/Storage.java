package org.opass.mrap.format;

import java.util.Arrays;

/**
 * Where a variable's elements lie in its file: <em>strided</em>, every element at {@code base +
 * sum(index[d] * byteStrides[d])} (an HDF5 contiguous dataset, a NetCDF-3 fixed variable with
 * row-major strides, a NetCDF-3 record variable whose first stride is the record's size), or
 * <em>chunked</em>: the array cut into chunks of one shape, each stored whole somewhere in the
 * file, perhaps through filters (HDF5, NetCDF-4), elements past the stored {@code extent} and
 * those of chunks never written reading as the fill value. An immutable value; {@link
 * Variable#of} checks it against the variable's shape and element type.
 */
public final class Storage {
  private final long base;
  private final long[] byteStrides; // strided, else null
  private final long[] extent; // chunked, else null
  private final int[] chunkShape;
  private final Variable.Chunks chunks;
  private final ChunkFilters filters;
  private final byte[] fill;

  private Storage(long base, long[] byteStrides) {
    this.base = base;
    this.byteStrides = byteStrides;
    this.extent = null;
    this.chunkShape = null;
    this.chunks = null;
    this.filters = ChunkFilters.NONE;
    this.fill = null;
  }

  private Storage(long[] extent, int[] chunkShape, Variable.Chunks chunks, ChunkFilters filters,
      byte[] fill) {
    this.base = -1;
    this.byteStrides = null;
    this.extent = extent;
    this.chunkShape = chunkShape;
    this.chunks = chunks;
    this.filters = filters;
    this.fill = fill;
  }

  /** Element {@code i} at {@code base + sum(i[d] * byteStrides[d])}. */
  public static Storage strided(long base, long[] byteStrides) {
    return new Storage(base, byteStrides.clone());
  }

  /**
   * Chunks of {@code chunkShape}, those stored in {@code chunks}, each through {@code filters};
   * elements past {@code extent} (per dimension, how many indices hold stored values) and those
   * of chunks never written read as {@code fill} (one element's bytes; null: zeros).
   */
  public static Storage chunked(long[] extent, int[] chunkShape, Variable.Chunks chunks,
      ChunkFilters filters, byte[] fill) {
    return new Storage(extent.clone(), chunkShape.clone(),
        java.util.Objects.requireNonNull(chunks, "chunks"),
        java.util.Objects.requireNonNull(filters, "filters"), fill == null ? null : fill.clone());
  }

  /** This chunked storage with other chunks stored (a task's share of them). */
  Storage withChunks(Variable.Chunks c) {
    return chunked(extent, chunkShape, c, filters, fill);
  }

  boolean chunked() {
    return chunks != null;
  }

  long base() {
    return base;
  }

  long[] byteStrides() {
    return byteStrides.clone();
  }

  long[] extent() {
    return extent.clone();
  }

  int[] chunkShape() {
    return chunkShape.clone();
  }

  Variable.Chunks chunks() {
    return chunks;
  }

  ChunkFilters filters() {
    return filters;
  }

  byte[] fill() {
    return fill == null ? null : fill.clone();
  }

  /**
   * @throws IllegalArgumentException naming the bad value, where this does not fit a variable
   *     of {@code shape} and elements of {@code elementSize} bytes
   */
  void check(long[] shape, int elementSize) {
    if (!chunked()) {
      if (byteStrides.length != shape.length) {
        throw new IllegalArgumentException(byteStrides.length + " strides for " + shape.length
            + " dimensions");
      }
      return;
    }
    if (fill != null && fill.length != elementSize) {
      throw new IllegalArgumentException("a fill value of " + fill.length + " bytes for "
          + "elements of " + elementSize);
    }
    if (extent.length != shape.length || chunkShape.length != shape.length) {
      throw new IllegalArgumentException("an extent and a chunk shape of one length per "
          + "dimension: " + Arrays.toString(extent) + ", " + Arrays.toString(chunkShape)
          + " for " + Arrays.toString(shape));
    }
    for (int d = 0; d < shape.length; d++) {
      if (extent[d] < 0 || extent[d] > shape[d] || chunkShape[d] < 1) {
        throw new IllegalArgumentException("dimension " + d + ": extent " + extent[d]
            + " of " + shape[d] + ", chunks of " + chunkShape[d]);
      }
    }
  }
}
