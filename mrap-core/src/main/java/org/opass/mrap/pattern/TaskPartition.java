package org.opass.mrap.pattern;

import java.util.Arrays;

/**
 * Which regions each map task reads: task {@code t} reads {@link #task(int)}, whose first
 * region's logical offset (its place among all the tasks' regions laid end to end) is
 * {@link #logicalStart(int)}. Cutting a pattern by blocks, by bytes of interest, into tiles or
 * as a restructured file stores it all give one of these; none walks the regions (each cut is
 * a lookup of the pattern), so a pattern of 10^8 regions cuts as fast as one of ten.
 * Immutable.
 */
public abstract class TaskPartition {
  TaskPartition() {
  }

  /** Number of tasks. */
  public abstract int tasks();

  /** The regions task {@code t} reads, in file order. */
  public abstract AccessPattern task(int t);

  /** The logical offset of task {@code t}'s first region. */
  public abstract long logicalStart(int t);

  /**
   * For tasks of consecutive regions of one pattern: the index of task {@code t}'s first
   * region, its last plus one being {@code regionFrom(t + 1)} (or the region count).
   *
   * @throws UnsupportedOperationException for tiles, which are patterns of their own
   */
  public long regionFrom(int t) {
    throw new UnsupportedOperationException("tiles are not ranges of one pattern");
  }

  /**
   * Tasks of consecutive regions of {@code pattern}: task {@code t} reads regions
   * {@code [bounds[t], bounds[t + 1])}.
   *
   * @throws IllegalArgumentException unless the bounds run from 0 to the pattern's region count
   *     and increase
   */
  public static TaskPartition ofBounds(AccessPattern pattern, long[] bounds) {
    if (bounds.length < 2 || bounds[0] != 0 || bounds[bounds.length - 1] != pattern.regionCount()) {
      throw new IllegalArgumentException("task bounds must run from 0 to the pattern's "
          + pattern.regionCount() + " regions, got " + shortText(bounds));
    }
    for (int t = 1; t < bounds.length; t++) {
      if (bounds[t] <= bounds[t - 1]) {
        throw new IllegalArgumentException("task bounds must increase: " + shortText(bounds));
      }
    }
    return new Ranges(pattern, bounds.clone());
  }

  /**
   * A task per block of the file: the regions that start in it (as many tasks as a plain scan
   * of the blocks, each local to its block; blocks where no region starts make no task).
   *
   * @param blockStarts the offsets of the file's blocks, ascending, the first 0
   */
  public static TaskPartition byBlocks(AccessPattern pattern, long[] blockStarts) {
    long[] bounds = new long[blockStarts.length + 1];
    int n = 0;
    bounds[n++] = 0;
    for (int b = 1; b < blockStarts.length; b++) {
      long k = pattern.firstAtOrAfter(blockStarts[b]);
      if (k > bounds[n - 1] && k < pattern.regionCount()) {
        bounds[n++] = k;
      }
    }
    bounds[n++] = pattern.regionCount();
    return new Ranges(pattern, Arrays.copyOf(bounds, n));
  }

  /**
   * Tasks of about {@code bytesPerTask} bytes of interest: each takes regions until it holds at
   * least that many (a region is never cut), the last the remainder.
   */
  public static TaskPartition byBytes(AccessPattern pattern, long bytesPerTask) {
    if (bytesPerTask < 1) {
      throw new IllegalArgumentException("bytes per task must be >= 1, got " + bytesPerTask);
    }
    long n = pattern.regionCount();
    long total = pattern.totalBytes();
    long tasks = (total - 1) / bytesPerTask + 1;
    if (tasks > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(total + " bytes in tasks of " + bytesPerTask
          + " make more than 2^31 tasks");
    }
    long[] bounds = new long[(int) Math.min(n, tasks) + 1];
    int t = 1;
    long k = 0;
    while (k < n) {
      long target = pattern.bytesBefore(k) + bytesPerTask; // bytes reached at the cut
      k = target >= total ? n : pattern.regionOfByte(target - 1) + 1;
      bounds[t++] = k;
    }
    return new Ranges(pattern, Arrays.copyOf(bounds, t));
  }

  /** A task per tile. */
  public static TaskPartition ofTiles(TiledPattern tiles) {
    if (tiles.tileCount() > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(tiles + " has " + tiles.tileCount()
          + " tiles: more tasks than a job holds");
    }
    return new Tiles(tiles);
  }

  private static String shortText(long[] bounds) {
    String s = Arrays.toString(bounds);
    return s.length() > 80 ? s.substring(0, 80) + "...]" : s;
  }

  private static final class Ranges extends TaskPartition {
    private final AccessPattern pattern;
    private final long[] bounds;

    Ranges(AccessPattern pattern, long[] bounds) {
      this.pattern = pattern;
      this.bounds = bounds;
    }

    @Override
    public int tasks() {
      return bounds.length - 1;
    }

    @Override
    public AccessPattern task(int t) {
      return pattern.slice(bounds[t], bounds[t + 1]);
    }

    @Override
    public long logicalStart(int t) {
      return pattern.bytesBefore(bounds[t]);
    }

    @Override
    public long regionFrom(int t) {
      return bounds[t];
    }
  }

  private static final class Tiles extends TaskPartition {
    private final TiledPattern tiles;

    Tiles(TiledPattern tiles) {
      this.tiles = tiles;
    }

    @Override
    public int tasks() {
      return (int) tiles.tileCount();
    }

    @Override
    public AccessPattern task(int t) {
      return tiles.tile(t);
    }

    @Override
    public long logicalStart(int t) {
      return tiles.bytesBeforeTile(t);
    }
  }
}
