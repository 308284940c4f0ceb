package org.opass.mrap.format;

import java.util.Arrays;
import org.opass.mrap.array.Slab;
import org.opass.mrap.pattern.SubarrayPattern;
import org.opass.mrap.pattern.TiledPattern;

/**
 * A variable cut into tiles (e.g. every time step over a lat/lon box: {@code *,30,30}): the
 * tiling of the bytes it is stored in, for a task a tile and for a copy that stores each tile
 * in one piece. Only a variable stored as one row-major array can be so cut: a NetCDF-3 fixed
 * variable, the one record variable of a file, or an HDF5 contiguous dataset.
 */
public final class VariableTiles {
  private VariableTiles() {
  }

  /**
   * The tiling {@code text} names over {@code v}: per dimension a tile extent, or {@code *} for
   * the whole dimension, comma-separated; an extent larger than the dimension is all of it.
   *
   * @throws ScienceFormatException naming the file, the variable and why: text that does not
   *     parse or fit, or a variable not stored as one array (chunked, or a record variable
   *     interleaved with others)
   */
  public static TiledPattern of(Variable v, String text) {
    String[] items = text.split(",", -1);
    long[] shape = v.shape();
    if (items.length != shape.length) {
      throw new ScienceFormatException(v.file() + ": " + v.name() + " has " + shape.length
          + " dimension" + (shape.length == 1 ? "" : "s") + ", the tile " + text + " gives "
          + items.length);
    }
    long[] tile = new long[shape.length];
    for (int d = 0; d < tile.length; d++) {
      String item = items[d].trim();
      try {
        tile[d] = item.equals("*") ? shape[d] : Math.min(shape[d], Long.parseLong(item));
      } catch (NumberFormatException e) {
        tile[d] = 0;
      }
      if (tile[d] < 1) {
        throw new ScienceFormatException("dimension " + d + " of the tile " + text + ": \""
            + item + "\" is not a positive extent or *");
      }
    }
    if (v.chunked()) {
      throw new ScienceFormatException(v.file() + ": " + v + " is stored in chunks, which are "
          + "tiles read whole already: read it by slab, or restructure it for a slab");
    }
    int size = v.type().size();
    if (!Arrays.equals(v.byteStrides(), Variable.rowMajor(shape, size))) {
      throw new ScienceFormatException(v.file() + ": " + v.name() + " is a record variable "
          + "whose records interleave with the file's other record variables, so its tiles "
          + "cannot be stored in one piece each: restructure it for a slab instead");
    }
    return TiledPattern.of(v.base(), shape, size, tile);
  }

  /** Tile {@code t}'s elements as a slab of the variable. */
  public static Slab slab(TiledPattern tiles, long t) {
    SubarrayPattern box = tiles.tile(t);
    long[] ones = new long[box.extent().length];
    Arrays.fill(ones, 1);
    return Slab.of(tiles.shape(), box.origin(), ones, box.extent(), ones);
  }
}
