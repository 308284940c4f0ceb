package org.opass.mrap.layout;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.SubarrayPattern;
import org.opass.mrap.pattern.TaskPartition;
import org.opass.mrap.pattern.TiledPattern;

/**
 * A tile-major layout (format version {@value #VERSION}): the original's array stored tile by
 * tile (tiles in row-major order over the tile grid, each tile's elements row-major within
 * it), so that every tile is one contiguous run of the file, and every byte outside the array
 * (a file header before it, other variables after it) in place. The file: the
 * {@link LayoutHeader}, the original with its array so re-laid, then the trailer. A tile that
 * spans all of a climate series' time steps over a lat/lon box is thus one read, where the
 * original holds it as a row piece per time step and latitude.
 *
 * <p>Original offset and stored offset map onto each other in closed form (the element's tile
 * from its index, its place in the tile, {@link TiledPattern#bytesBeforeTile}), so readers
 * need no index and the trailer is the tiling alone. Tiles are not aligned to chunks: a tile
 * that straddles a chunk boundary is still one read, from the two blocks. Immutable.
 */
public final class TiledLayout implements RestructuredLayout {
  /** The format version of a tile-major layout. */
  public static final int VERSION = 3;
  private static final long TRAILER_MAGIC = 0x4d52415054494c45L; // "MRAPTILE"
  /** Most tile bytes a writer reads at once ({@link #readTogether}). */
  static final long GATHER_BYTES = 64L << 20;

  private final TiledPattern tiles;
  private final TaskPartition tasks; // a tile each
  private final long chunk;
  private final long logicalLength;
  private final long base;
  private final long arrayEnd;
  private final long element;
  private final long[] shape;
  private final long[] tile;
  private final byte[] trailer;
  private final int trailerCrc;

  private TiledLayout(TiledPattern tiles, long chunk, long logicalLength) {
    this.tiles = tiles;
    tasks = TaskPartition.ofTiles(tiles);
    this.chunk = chunk;
    this.logicalLength = logicalLength;
    base = tiles.base();
    element = tiles.elementSize();
    arrayEnd = tiles.array().end();
    shape = tiles.shape();
    tile = tiles.tileShape();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      writeTrailer(new DataOutputStream(bytes));
    } catch (IOException e) { // writing to memory
      throw new IllegalStateException(e);
    }
    trailer = bytes.toByteArray();
    trailerCrc = RestructuredLayout.crc(trailer);
  }

  /**
   * The tile-major layout of a file of {@code logicalLength} bytes for {@code tiles}, written
   * in chunks of {@code chunk} bytes.
   *
   * @throws IllegalArgumentException for a chunk no larger than the header, an array past the
   *     file's end, or more tiles than a job has tasks
   */
  public static TiledLayout plan(TiledPattern tiles, long chunk, long logicalLength) {
    if (chunk <= HEADER_BYTES) {
      throw new IllegalArgumentException("the chunk size (" + chunk + ") must be more than the "
          + HEADER_BYTES + "-byte header");
    }
    if (tiles.array().end() > logicalLength) {
      throw new IllegalArgumentException("the array reaches byte " + tiles.array().end()
          + ", past the file's " + logicalLength);
    }
    if (tiles.tileCount() > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(tiles.tileCount() + " tiles: more tasks than a job "
          + "holds; use larger tiles");
    }
    return new TiledLayout(tiles, chunk, logicalLength);
  }

  public TiledPattern tiles() {
    return tiles;
  }

  @Override
  public long logicalLength() {
    return logicalLength;
  }

  @Override
  public long dataLength() {
    return HEADER_BYTES + logicalLength;
  }

  @Override
  public int trailerLength() {
    return trailer.length;
  }

  @Override
  public long chunkSize() {
    return chunk;
  }

  @Override
  public int version() {
    return VERSION;
  }

  @Override
  public byte[] trailer() {
    return trailer.clone();
  }

  @Override
  public int trailerCrc() {
    return trailerCrc;
  }

  @Override
  public TaskPartition tasks() {
    return tasks;
  }

  @Override
  public long taskStart(int t) {
    return HEADER_BYTES + base + tiles.bytesBeforeTile(t);
  }

  @Override
  public long taskEnd(int t) {
    return HEADER_BYTES + base + tiles.bytesBeforeTile(t + 1L);
  }

  @Override
  public boolean contiguous() {
    return true;
  }

  @Override
  public long taskFirstChunk(int t) {
    return taskStart(t) / chunk;
  }

  @Override
  public long taskChunks(int t) {
    return (taskEnd(t) - 1) / chunk - taskFirstChunk(t) + 1;
  }

  @Override
  public boolean packs(TiledPattern other) {
    return tiles.equals(other);
  }

  @Override
  public String restructuredFor() {
    return "the tiles " + tiles;
  }

  /**
   * The tiles of the band (the tiles that differ in their last dimension only) from the one
   * holding {@code logical} on, as many as {@value #GATHER_BYTES} bytes hold: written one after
   * another, read as one block of the array. Null outside the array, or for a tile larger than
   * that.
   */
  @Override
  public AccessPattern readTogether(long logical) {
    if (logical < base || logical >= arrayEnd) {
      return null;
    }
    int n = shape.length;
    long[] origin = new long[n];
    long[] extent = new long[n];
    tiles.box(tiles.tileOf(index((logical - base) / element)), origin, extent);
    long bytes = element;
    for (long e : extent) {
      bytes *= e;
    }
    if (bytes > GATHER_BYTES) {
      return null;
    }
    long more = Math.min(GATHER_BYTES / bytes, (shape[n - 1] - origin[n - 1] - 1) / tile[n - 1]
        + 1); // tiles from this one to the band's end
    extent[n - 1] = Math.min(shape[n - 1] - origin[n - 1], more * tile[n - 1]);
    return SubarrayPattern.of(base, shape, element, origin, extent);
  }

  /** The array index of element {@code e}, row-major. */
  private long[] index(long e) {
    long[] idx = new long[shape.length];
    for (int d = shape.length - 1; d >= 0; d--) {
      idx[d] = e % shape[d];
      e /= shape[d];
    }
    return idx;
  }

  /** Where original byte {@code x} of the array is stored. */
  private long physicalOf(long x, long[] idx, long t, long[] origin, long[] extent) {
    long inTile = 0;
    for (int d = 0; d < shape.length; d++) {
      inTile = inTile * extent[d] + idx[d] - origin[d];
    }
    return HEADER_BYTES + base + tiles.bytesBeforeTile(t) + inTile * element
        + (x - base) % element;
  }

  /**
   * Bytes from original byte {@code x} of the array (at index {@code idx} of the tile with
   * that box) that lie in order in both files: to the end of its row in the tile, and on
   * through the following rows while the tile spans the dimensions after them whole.
   */
  private long runFrom(long x, long[] idx, long[] origin, long[] extent) {
    int n = shape.length;
    long elements = origin[n - 1] + extent[n - 1] - idx[n - 1];
    long block = 1; // elements of one index of dimension d - 1
    long into = 0; // elements of that block before idx
    for (int d = n - 1; d > 0 && extent[d] == shape[d]; d--) {
      into += idx[d] * block;
      block *= shape[d];
      elements = (origin[d - 1] + extent[d - 1] - idx[d - 1]) * block - into;
    }
    return elements * element - (x - base) % element;
  }

  @Override
  public SegmentCursor physical(long from, long to) {
    if (from < 0 || from > to || to > physicalLength()) {
      throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of a "
          + physicalLength() + "-byte file");
    }
    return new Cursor(from, to, true);
  }

  @Override
  public LogicalCursor logical(long from, long to) {
    Cursor c = new Cursor(0, 0, false);
    c.seek(from, to);
    return c;
  }

  /** The tile stored at {@code q} bytes into the tiles: the last that starts at or before it. */
  private long tileAt(long q) {
    long lo = 0;
    long hi = tiles.tileCount() - 1;
    while (lo < hi) {
      long mid = (lo + hi + 1) >>> 1;
      if (tiles.bytesBeforeTile(mid) <= q) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** Both walks: in physical order ({@link #physical}) or in original order. */
  private final class Cursor extends Runs implements LogicalCursor {
    private final boolean physicalOrder;
    private long pos; // the next physical byte, or the next original one
    private long to;
    private final long[] idx = new long[shape.length];
    private final long[] origin = new long[shape.length];
    private final long[] extent = new long[shape.length];
    // in physical order: the tile of the last run, and its bytes in the tiles
    private long tile = -1;
    private long tileFrom;
    private long tileTo;

    Cursor(long from, long to, boolean physicalOrder) {
      this.pos = from;
      this.to = to;
      this.physicalOrder = physicalOrder;
    }

    @Override
    public void seek(long from, long to) {
      if (from < 0 || from > to || to > logicalLength) {
        throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of a "
            + logicalLength + "-byte original");
      }
      this.pos = from;
      this.to = to;
    }

    @Override
    public boolean next() {
      if (pos >= to) {
        return false;
      }
      long left = to - pos;
      if (physicalOrder && pos < HEADER_BYTES) {
        return emit(Segment.Kind.HEADER, -1, pos, Math.min(HEADER_BYTES - pos, left));
      }
      if (physicalOrder && pos >= dataLength()) {
        return emit(Segment.Kind.TRAILER, -1, pos, left);
      }
      long x = physicalOrder ? pos - HEADER_BYTES : pos; // as if in place
      if (x < base) {
        return emit(Segment.Kind.REST, x, HEADER_BYTES + x, Math.min(base - x, left));
      }
      if (x >= arrayEnd) {
        return emit(Segment.Kind.REST, x, HEADER_BYTES + x, Math.min(
            physicalOrder ? dataLength() - pos : logicalLength - x, left));
      }
      long p;
      if (physicalOrder) {
        p = pos;
        x = logicalOf(p);
      } else {
        long[] i = index((x - base) / element);
        System.arraycopy(i, 0, idx, 0, i.length);
        long t = tiles.tileOf(idx);
        tiles.box(t, origin, extent);
        p = physicalOf(x, idx, t, origin, extent);
      }
      return emit(Segment.Kind.REGION, x, p, Math.min(runFrom(x, idx, origin, extent), left));
    }

    /**
     * The original byte stored at {@code p} of the array's stored bytes; sets its index and its
     * tile's box. Runs in physical order stay in a tile for its length: it is looked up when
     * they leave it.
     */
    private long logicalOf(long p) {
      long q = p - HEADER_BYTES - base; // bytes into the tiles
      if (tile < 0 || q < tileFrom || q >= tileTo) {
        tile = tileAt(q);
        tileFrom = tiles.bytesBeforeTile(tile);
        tileTo = tiles.bytesBeforeTile(tile + 1);
        tiles.box(tile, origin, extent);
      }
      long into = q - tileFrom;
      long inTile = into / element;
      for (int d = shape.length - 1; d >= 0; d--) {
        idx[d] = origin[d] + inTile % extent[d];
        inTile /= extent[d];
      }
      long e = 0;
      for (int d = 0; d < shape.length; d++) {
        e = e * shape[d] + idx[d];
      }
      return base + e * element + into % element;
    }

    private boolean emit(Segment.Kind k, long logicalAt, long physicalAt, long n) {
      kind = k;
      logical = logicalAt;
      physical = physicalAt;
      length = n;
      pos += n;
      return true;
    }
  }

  private void writeTrailer(DataOutput out) throws IOException {
    out.writeLong(TRAILER_MAGIC);
    out.writeInt(VERSION);
    out.writeLong(base);
    out.writeLong(element);
    out.writeInt(shape.length);
    for (int d = 0; d < shape.length; d++) {
      out.writeLong(shape[d]);
      out.writeLong(tile[d]);
    }
    out.writeLong(chunk);
    out.writeLong(logicalLength);
  }

  /** Reads a version-3 trailer; {@link RestructuredLayout#read} checked its CRC. */
  static TiledLayout read(byte[] trailer, String source) throws IOException {
    DataInput in = new DataInputStream(new ByteArrayInputStream(trailer));
    try {
      if (in.readLong() != TRAILER_MAGIC || in.readInt() != VERSION) {
        throw new IOException(source + ": not an MRAP tile-major layout");
      }
      long base = in.readLong();
      long element = in.readLong();
      int n = in.readInt();
      if (n < 1 || n > 32) {
        throw corrupt(source, n + " dimensions");
      }
      long[] shape = new long[n];
      long[] tile = new long[n];
      for (int d = 0; d < n; d++) {
        shape[d] = in.readLong();
        tile[d] = in.readLong();
      }
      long chunk = in.readLong();
      long logical = in.readLong();
      try {
        return plan(TiledPattern.of(base, shape, element, tile), chunk, logical);
      } catch (IllegalArgumentException e) {
        throw corrupt(source, e.getMessage());
      }
    } catch (EOFException e) {
      throw new IOException(source + ": its MRAP layout is cut short", e);
    }
  }

  private static IOException corrupt(String source, String what) {
    return new IOException(source + ": a damaged MRAP layout (" + what + ")");
  }

  @Override
  public String toString() {
    return "layout(v" + VERSION + ", tile-major, " + tiles + ", " + tiles.tileCount()
        + " tiles, chunks of " + chunk + ", " + logicalLength + " -> " + physicalLength()
        + " bytes)";
  }
}
