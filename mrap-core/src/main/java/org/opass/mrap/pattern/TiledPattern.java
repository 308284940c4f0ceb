package org.opass.mrap.pattern;

import java.util.Arrays;

/**
 * An n-dimensional row-major array cut into tiles of {@code tile} elements per dimension (the
 * last tiles of a dimension may be smaller), each tile a {@link SubarrayPattern}: one map task
 * per tile, as a halo finder or a stencil code reads its domain. Tiles are numbered row-major
 * over the tile grid. Tiles are made on demand.
 */
public final class TiledPattern {
  private final long base;
  private final long[] shape;
  private final long elementSize;
  private final long[] tile;
  private final long[] tilesPerDim;
  private final long tileCount;

  private TiledPattern(long base, long[] shape, long elementSize, long[] tile) {
    this.base = base;
    this.shape = shape;
    this.elementSize = elementSize;
    this.tile = tile;
    tilesPerDim = new long[shape.length];
    long n = 1;
    for (int d = 0; d < shape.length; d++) {
      tilesPerDim[d] = (shape[d] - 1) / tile[d] + 1;
      try {
        n = Math.multiplyExact(n, tilesPerDim[d]);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("the tiles number more than 2^63");
      }
    }
    tileCount = n;
  }

  /** @throws IllegalArgumentException naming the bad value */
  public static TiledPattern of(long base, long[] shape, long elementSize, long[] tile) {
    SubarrayPattern.whole(base, shape, elementSize); // checks the array
    if (tile.length != shape.length) {
      throw new IllegalArgumentException("the tile needs one extent per dimension ("
          + shape.length + "), got " + tile.length);
    }
    for (int d = 0; d < tile.length; d++) {
      if (tile[d] < 1 || tile[d] > shape[d]) {
        throw new IllegalArgumentException("tile[" + d + "] (" + tile[d]
            + ") must be within [1, " + shape[d] + "]");
      }
    }
    return new TiledPattern(base, shape.clone(), elementSize, tile.clone());
  }

  public long tileCount() {
    return tileCount;
  }

  /** Byte offset of the array's first element. */
  public long base() {
    return base;
  }

  /** Elements per dimension. */
  public long[] shape() {
    return shape.clone();
  }

  public long elementSize() {
    return elementSize;
  }

  /** A tile's extent per dimension (the last tiles of a dimension may be smaller). */
  public long[] tileShape() {
    return tile.clone();
  }

  /** The tile holding array index {@code index}, row-major over the tile grid. */
  public long tileOf(long[] index) {
    long t = 0;
    for (int d = 0; d < shape.length; d++) {
      t = t * tilesPerDim[d] + index[d] / tile[d];
    }
    return t;
  }

  /**
   * Tile {@code i}'s first index and extent per dimension, into {@code origin} and
   * {@code extent}: {@link #tile}'s box without a pattern made, for lookups on a hot path.
   */
  public void box(long i, long[] origin, long[] extent) {
    for (int d = shape.length - 1; d >= 0; d--) {
      origin[d] = i % tilesPerDim[d] * tile[d];
      extent[d] = Math.min(tile[d], shape[d] - origin[d]);
      i /= tilesPerDim[d];
    }
  }

  /** Tile {@code i}, row-major over the tile grid. */
  public SubarrayPattern tile(long i) {
    if (i < 0 || i >= tileCount) {
      throw new IndexOutOfBoundsException("tile " + i + " of " + tileCount);
    }
    long[] origin = new long[shape.length];
    long[] extent = new long[shape.length];
    box(i, origin, extent);
    return SubarrayPattern.of(base, shape, elementSize, origin, extent);
  }

  /**
   * Bytes of the tiles before tile {@code i} (row-major), laid end to end: tile {@code i}'s
   * logical offset. In closed form: for each dimension, the elements of the tiles that share
   * the index's earlier digits and come before it in that dimension.
   */
  public long bytesBeforeTile(long i) {
    if (i < 0 || i > tileCount) {
      throw new IndexOutOfBoundsException("tile " + i + " of " + tileCount);
    }
    if (i == tileCount) {
      return array().totalBytes();
    }
    int n = shape.length;
    long[] digit = new long[n];
    for (int d = n - 1; d >= 0; d--) {
      digit[d] = i % tilesPerDim[d];
      i /= tilesPerDim[d];
    }
    long elements = 0;
    long outer = 1; // elements per index of the tile's own earlier dimensions
    for (int d = 0; d < n; d++) {
      long inner = 1;
      for (int e = d + 1; e < n; e++) {
        inner *= shape[e];
      }
      elements += outer * Math.min(digit[d] * tile[d], shape[d]) * inner;
      outer *= Math.min(tile[d], shape[d] - digit[d] * tile[d]);
    }
    return elements * elementSize;
  }

  /** The whole array, whose end a file must reach. */
  public SubarrayPattern array() {
    return SubarrayPattern.whole(base, shape, elementSize);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TiledPattern)) {
      return false;
    }
    TiledPattern p = (TiledPattern) o;
    return p.base == base && p.elementSize == elementSize && Arrays.equals(p.shape, shape)
        && Arrays.equals(p.tile, tile);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(shape) * 31 + Arrays.hashCode(tile) + Long.hashCode(base)
        + Long.hashCode(elementSize);
  }

  @Override
  public String toString() {
    return "tiled(base=" + base + ", shape=" + Arrays.toString(shape) + ", element="
        + elementSize + ", tile=" + Arrays.toString(tile) + ")";
  }
}
