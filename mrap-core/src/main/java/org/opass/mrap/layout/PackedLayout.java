package org.opass.mrap.layout;

import java.util.Arrays;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.ConcatenatedPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.TaskPartition;

/**
 * A restructured file whose pattern's regions are packed per task (format version
 * {@value #VERSION}; thesis §4.3.2, Algorithm 4.3.1). The regions of the pattern are cut, in order, into tasks: each task takes
 * regions while first fit ({@link TaskPlacer}) packs them into at most {@code chunksPerTask}
 * chunks of its own, so that a task reads a few whole chunks instead of regions scattered over
 * many. The room left in each chunk (less than the region that did not fit) is filled with the
 * original's other bytes, in order, and the rest of those bytes follow the last chunk; a
 * chunk's room is zeros only when no such byte is left. The last chunk is never padded. When
 * first fit would need zeros for more than {@value #MAX_PADDING_PERCENT}% of the original, the
 * layout is contiguous instead: the regions end to end, tasks cut by bytes, no room anywhere.
 *
 * <p>The file: a {@link LayoutHeader} in the first {@value #HEADER_BYTES} bytes of chunk 0, the
 * packed chunks, the other bytes, then the trailer: this layout ({@link PackedTrailer}: the
 * pattern, chunk size, original length, and per task its first region and first chunk, per
 * chunk its bytes used). The layout thus lives in the data file and goes wherever it goes.
 *
 * <p>Readers need no index of the regions: a task's regions are placed again by replaying its
 * first fit; the bytes of no region are found by their rank among them, from the chunks'
 * used bytes (16 bytes a chunk, 24 a task, in memory). Immutable.
 */
public final class PackedLayout implements RestructuredLayout {
  /** Format and placement version; a reader refuses others. */
  public static final int VERSION = 2;
  /** The format version of a container of many files ({@link Members}), else as version 2. */
  public static final int CONTAINER = 4;

  /** Zeros first fit may add before the layout is made contiguous instead: 1% of the original. */
  static final int MAX_PADDING_PERCENT = 1;

  private final AccessPattern pattern;
  private final Members members; // a container's, else null
  private final long chunk;
  private final long logicalLength;
  private final Packing packing;
  private final boolean contiguous;
  private final long[] taskFrom; // first region of each task
  private final TaskPartition tasks; // the same, as tasks of the pattern's regions
  private final long[] taskBin; // first chunk of each task
  private final long[] binUsed; // bytes used in each chunk, the header in chunk 0 included
  private final long[] holesBefore; // room in the chunks before each chunk (the last excepted)
  private final long interiorHoles;
  private final long rest; // original bytes of no region
  private final long tailStart;
  private final long dataLength;
  private final byte[] trailer;
  private final int trailerCrc;

  /**
   * The layout of a file of {@code logicalLength} bytes ({@code members} end to end, for a
   * container) whose regions of {@code pattern} are packed into chunks of {@code chunk} bytes as
   * {@code packing} says: as {@link #plan} packs them, or as a trailer holds them.
   */
  PackedLayout(AccessPattern pattern, Members members, long chunk, long logicalLength,
      Packing packing) {
    this.pattern = pattern;
    this.members = members;
    this.chunk = chunk;
    this.logicalLength = logicalLength;
    this.packing = packing;
    this.contiguous = packing.contiguous;
    long[] taskFrom = packing.taskFrom;
    long[] taskBin = packing.taskBin;
    long[] binUsed = packing.binUsed;
    this.taskFrom = taskFrom;
    long[] bounds = Arrays.copyOf(taskFrom, taskFrom.length + 1);
    bounds[taskFrom.length] = pattern.regionCount();
    tasks = TaskPartition.ofBounds(pattern, bounds);
    this.taskBin = taskBin;
    this.binUsed = binUsed;
    int bins = binUsed.length;
    holesBefore = new long[bins];
    for (int b = 1; b < bins; b++) {
      holesBefore[b] = holesBefore[b - 1] + chunk - binUsed[b - 1];
    }
    interiorHoles = holesBefore[bins - 1];
    rest = logicalLength - pattern.totalBytes();
    tailStart = (bins - 1) * chunk + binUsed[bins - 1];
    dataLength = tailStart + Math.max(0, rest - interiorHoles);
    trailer = PackedTrailer.write(pattern, members, chunk, logicalLength, packing);
    trailerCrc = RestructuredLayout.crc(trailer);
  }

  /**
   * Plans the layout of a file of {@code logicalLength} bytes for {@code pattern}: tasks of at
   * most {@code chunksPerTask} chunks of {@code chunk} bytes each (a task whose first region
   * needs more gets what it needs).
   *
   * @throws IllegalArgumentException for a chunk no larger than the header, regions past the
   *     file's end, or overlapping regions (an overlapped byte cannot be in two places)
   */
  public static PackedLayout plan(AccessPattern pattern, long chunk, long logicalLength,
      long chunksPerTask) {
    return plan(pattern, null, chunk, logicalLength, chunksPerTask);
  }

  /**
   * Plans a container of {@code members} (format version {@value #CONTAINER}): the original is
   * the members end to end, and {@code pattern} part {@code i} is member {@code i}'s regions,
   * so that first fit packs the regions of many files into shared chunks (thesis §4.4.3).
   *
   * @throws IllegalArgumentException as {@link #plan(AccessPattern, long, long, long)}, and for
   *     a part that is not its member's (another start, past its end)
   */
  public static PackedLayout container(ConcatenatedPattern pattern, Members members, long chunk,
      long chunksPerTask) {
    members.checkParts(pattern);
    return plan(pattern, members, chunk, members.totalLength(), chunksPerTask);
  }

  private static PackedLayout plan(AccessPattern pattern, Members members, long chunk,
      long logicalLength, long chunksPerTask) {
    if (chunk <= HEADER_BYTES) {
      throw new IllegalArgumentException("the chunk size (" + chunk + ") must be more than the "
          + HEADER_BYTES + "-byte header");
    }
    if (chunksPerTask < 1) {
      throw new IllegalArgumentException("chunks per task must be >= 1, got " + chunksPerTask);
    }
    if (pattern.end() > logicalLength) {
      throw new IllegalArgumentException("the pattern reads up to byte " + pattern.end()
          + ", past the file's " + logicalLength);
    }
    if (!pattern.disjoint()) {
      throw new IllegalArgumentException("regions of " + pattern + " overlap: a restructured "
          + "file holds each byte once");
    }
    PackedLayout firstFit = new PackedLayout(pattern, members, chunk, logicalLength,
        Packing.firstFit(pattern, chunk, chunksPerTask));
    return firstFit.zeros() * 100 <= logicalLength * MAX_PADDING_PERCENT ? firstFit
        : new PackedLayout(pattern, members, chunk, logicalLength,
            Packing.contiguous(pattern, chunk, chunksPerTask));
  }

  public AccessPattern pattern() {
    return pattern;
  }

  @Override
  public long chunkSize() {
    return chunk;
  }

  @Override
  public long logicalLength() {
    return logicalLength;
  }

  @Override
  public long dataLength() {
    return dataLength;
  }

  @Override
  public int trailerLength() {
    return trailer.length;
  }

  /** Zero bytes the file holds: room in chunks that no original byte was left to fill. */
  public long zeros() {
    return Math.max(0, interiorHoles - rest);
  }

  @Override
  public TaskPartition tasks() {
    return tasks;
  }

  /** The regions task {@code t} packs are {@code [taskFrom[t], taskTo(t))} of the pattern. */
  private long taskTo(int t) {
    return t + 1 < taskFrom.length ? taskFrom[t + 1] : pattern.regionCount();
  }

  @Override
  public long taskFirstChunk(int t) {
    return taskBin[t];
  }

  @Override
  public long taskChunks(int t) {
    return packing.chunks(t);
  }

  /** Whether the regions lie end to end (first fit would have padded too much). */
  @Override
  public boolean contiguous() {
    return contiguous;
  }

  @Override
  public long taskStart(int t) {
    return contiguous ? HEADER_BYTES + pattern.bytesBefore(taskFrom[t])
        : taskBin[t] * chunk + (taskBin[t] == 0 ? HEADER_BYTES : 0);
  }

  @Override
  public long taskEnd(int t) {
    return contiguous ? HEADER_BYTES + pattern.bytesBefore(taskTo(t))
        : Math.min((taskBin[t] + taskChunks(t)) * chunk, dataLength);
  }

  @Override
  public boolean packs(AccessPattern regions) {
    return AccessPattern.sameRegions(regions, pattern);
  }

  @Override
  public String restructuredFor() {
    return members == null ? "the pattern " + pattern
        : "the regions of its members, " + members + ", packed together";
  }

  @Override
  public Members members() {
    return members;
  }

  /** The task that packs region {@code k}. */
  public int taskOfRegion(long k) {
    return floor(taskFrom, k);
  }

  /** Chunks the packed regions use. */
  public int chunks() {
    return binUsed.length;
  }

  @Override
  public int version() {
    return members == null ? VERSION : CONTAINER;
  }

  @Override
  public byte[] trailer() {
    return trailer.clone();
  }

  @Override
  public int trailerCrc() {
    return trailerCrc;
  }

  private static int floor(long[] sorted, long key) {
    int i = Arrays.binarySearch(sorted, key);
    return i >= 0 ? i : -i - 2;
  }

  /**
   * The runs of the physical file in {@code [from, to)}, in physical order: header, regions,
   * the other bytes, zeros, trailer. What a writer writes.
   */
  @Override
  public SegmentCursor physical(long from, long to) {
    if (from < 0 || from > to || to > physicalLength()) {
      throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of a "
          + physicalLength() + "-byte file");
    }
    return new PhysicalCursor(from, to);
  }

  /**
   * The original bytes {@code [from, to)}, in original order, each run with where it is in the
   * physical file. What a reader of the original reads; {@link LogicalCursor#seek} moves it on
   * to a later range at the cost of the regions between.
   */
  @Override
  public LogicalCursor logical(long from, long to) {
    checkLogical(from, to);
    return new Cursor(from, to);
  }

  private void checkLogical(long from, long to) {
    if (from < 0 || from > to || to > logicalLength) {
      throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of a "
          + logicalLength + "-byte original");
    }
  }

  /** Length of region {@code k}. */
  private long regionLength(long k) {
    return pattern.bytesBefore(k + 1) - pattern.bytesBefore(k);
  }

  /** The original's bytes of no region, from a rank among them on: runs in original order. */
  private final class RestRuns {
    private long x; // the original offset of the current rank
    private RegionCursor ahead; // positioned on the next region
    private boolean more;

    /** Positions at the {@code r}-th byte of no region ({@code r < rest}). */
    void seek(long r) {
      long lo = 0;
      long hi = pattern.regionCount(); // the regions with at most r such bytes before them
      while (lo < hi) {
        long mid = (lo + hi) >>> 1;
        if (pattern.offsetOf(mid) - pattern.bytesBefore(mid) <= r) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      x = r + pattern.bytesBefore(lo);
      ahead = pattern.cursor(lo, pattern.regionCount());
      more = ahead.next();
    }

    /** Bytes of the current run, from the current position. */
    long run() {
      return (more ? ahead.offset() : logicalLength) - x;
    }

    long offset() {
      return x;
    }

    void advance(long n) {
      x += n;
      while (more && x == ahead.offset()) {
        x += ahead.length();
        more = ahead.next();
      }
    }
  }

  /**
   * Where the {@code r}-th byte of no region is in the physical file; {@code room[0]} is set to
   * how many bytes of its run follow there (the rest of its chunk's room, or no bound in the
   * tail).
   */
  private long restAt(long r, long[] room) {
    if (r < interiorHoles) {
      int lo = 0;
      int hi = binUsed.length - 1; // the chunks with room before the last
      while (lo < hi) { // the first chunk with more room before it than r
        int mid = (lo + hi) >>> 1;
        if (holesBefore[mid] <= r) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      int b = lo - 1; // the last chunk with at most r bytes of room before it: r is in its room
      long into = r - holesBefore[b];
      room[0] = chunk - binUsed[b] - into;
      return b * chunk + binUsed[b] + into;
    }
    room[0] = Long.MAX_VALUE;
    return tailStart + (r - interiorHoles);
  }

  private final class PhysicalCursor extends Runs {
    private final long to;
    private long pos;
    // the chunk being walked and its stage: 0 header, 1 regions, 2 room or tail
    private long bin = -1;
    private int stage;
    private RegionCursor regions;
    private TaskPlacer placer;
    private RestRuns restRuns;
    private long restRank = -1; // the rank restRuns stands at

    PhysicalCursor(long from, long to) {
      this.pos = from;
      this.to = to;
    }

    @Override
    public boolean next() {
      while (pos < to) {
        if (pos >= dataLength) {
          return emit(Segment.Kind.TRAILER, -1, to - pos);
        }
        long b = Math.min(pos / chunk, binUsed.length - 1);
        if (b != bin) {
          bin = b;
          stage = 0;
        }
        long binStart = b * chunk;
        if (stage == 0) {
          if (pos < HEADER_BYTES) {
            return emit(Segment.Kind.HEADER, -1, Math.min(HEADER_BYTES, to) - pos);
          }
          if (contiguous) { // the regions from the one that holds the chunk's first byte
            long i = pattern.regionOfByte(Math.max(0, binStart - HEADER_BYTES));
            regions = pattern.cursor(i, pattern.regionCount());
            placer = TaskPlacer.contiguous(HEADER_BYTES + pattern.bytesBefore(i));
          } else {
            int t = floor(taskBin, b);
            regions = pattern.cursor(taskFrom[t], taskTo(t));
            placer = placer(t);
          }
          stage = 1;
        }
        if (stage == 1) {
          long binEnd = binStart + chunk;
          while (regions.next()) {
            long at = placer.place(regions.length());
            if (contiguous && at >= binEnd) {
              break; // the rest lie in later chunks
            }
            long s = Math.max(Math.max(at, binStart), pos);
            long e = Math.min(Math.min(at + regions.length(), binEnd), to);
            if (s < e) {
              return emit(Segment.Kind.REGION, regions.offset() + (s - at), e - s);
            }
          }
          stage = 2;
          regions = null;
          placer = null;
        }
        long roomStart = binStart + binUsed[(int) b];
        long roomEnd = b < binUsed.length - 1 ? binStart + chunk : dataLength;
        if (pos < roomStart) {
          throw new IllegalStateException("a layout whose chunk " + b + " has unplaced bytes");
        }
        long r = (b < binUsed.length - 1 ? holesBefore[(int) b] : interiorHoles)
            + (pos - roomStart);
        long end = Math.min(roomEnd, to);
        if (r >= rest) {
          return emit(Segment.Kind.ZEROS, -1, end - pos);
        }
        if (restRuns == null || restRank != r) {
          restRuns = new RestRuns();
          restRuns.seek(r);
        }
        long n = Math.min(Math.min(end - pos, restRuns.run()), rest - r);
        long at = restRuns.offset();
        restRuns.advance(n);
        restRank = r + n;
        return emit(Segment.Kind.REST, at, n);
      }
      return false;
    }

    private boolean emit(Segment.Kind k, long logicalAt, long n) {
      kind = k;
      logical = logicalAt;
      physical = pos;
      length = n;
      pos += n;
      return true;
    }

  }

  /** Runs of the original's bytes in original order, with their physical places. */
  private final class Cursor extends Runs implements LogicalCursor {
    private long to;
    private long x;
    private RegionCursor regions; // on the current or next region
    private boolean more;
    private long regionIndex; // of the region the cursor is on
    private long regionAt; // its physical offset
    private int task = -1;
    private TaskPlacer placer;
    private final long[] room = new long[1];

    Cursor(long from, long to) {
      start(from, to);
    }

    /**
     * Moves on to {@code [from, to)}: from the current place on, if {@code from} is in the
     * same task and not behind, else from the task's start.
     */
    @Override
    public void seek(long from, long to) {
      checkLogical(from, to);
      long i = regionAt(from);
      if (i >= pattern.regionCount() || !more || i < regionIndex || taskOfRegion(i) != task) {
        start(from, to);
        return;
      }
      while (regionIndex < i) {
        nextRegion();
      }
      this.x = from;
      this.to = to;
    }

    /** The region holding {@code x}, or the first after it. */
    private long regionAt(long x) {
      long i = pattern.firstAtOrAfter(x);
      if (i > 0 && pattern.offsetOf(i - 1) + regionLength(i - 1) > x) {
        i--; // inside region i - 1
      }
      return i;
    }

    private void start(long from, long to) {
      this.x = from;
      this.to = to;
      long i = regionAt(from);
      regionIndex = i;
      more = false;
      if (i < pattern.regionCount()) {
        task = taskOfRegion(i);
        if (contiguous) {
          placer = TaskPlacer.contiguous(HEADER_BYTES + pattern.bytesBefore(i));
        } else {
          placer = placer(task);
          RegionCursor replay = pattern.cursor(taskFrom[task], i);
          while (replay.next()) {
            placer.place(replay.length());
          }
        }
        regions = pattern.cursor(i, pattern.regionCount());
        more = regions.next();
        regionAt = placer.place(regions.length());
      }
    }

    private void nextRegion() {
      more = regions.next();
      regionIndex++;
      if (more) {
        if (regionIndex == taskTo(task)) {
          task++;
          placer = placer(task);
        }
        regionAt = placer.place(regions.length());
      }
    }

    @Override
    public boolean next() {
      if (x >= to) {
        return false;
      }
      logical = x;
      if (more && x >= regions.offset()) { // within the current region
        long end = Math.min(regions.offset() + regions.length(), to);
        kind = Segment.Kind.REGION;
        physical = regionAt + (x - regions.offset());
        length = end - x;
        x = end;
        if (x == regions.offset() + regions.length()) {
          nextRegion();
        }
        return true;
      }
      long gapEnd = Math.min(more ? regions.offset() : logicalLength, to);
      long rank = x - pattern.bytesBefore(regionIndex);
      kind = Segment.Kind.REST;
      physical = restAt(rank, room);
      length = Math.min(gapEnd - x, room[0]);
      x += length;
      return true;
    }

  }

  /**
   * Checks the stored task table against first fit replayed over every region (a walk over the
   * whole pattern: for tests and tools, not for readers).
   *
   * @throws IllegalStateException naming the first task that differs
   */
  public void checkPlacement() {
    packing.check(pattern, chunk);
  }

  @Override
  public String toString() {
    return "layout(v" + version() + (members == null ? "" : ", " + members)
        + (contiguous ? ", contiguous, " : ", first fit, ") + pattern
        + ", " + taskFrom.length + " tasks, " + chunks() + " chunks of " + chunk + ", "
        + logicalLength + " -> " + physicalLength() + " bytes)";
  }
}
