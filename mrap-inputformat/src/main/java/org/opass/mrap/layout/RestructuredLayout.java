package org.opass.mrap.layout;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternCodec;
import org.opass.mrap.pattern.RegionCursor;

/**
 * How a restructured file (written by MRAP's copy) lays out its original bytes (thesis §4.3.2,
 * Algorithm 4.3.1): the regions each map task of a pattern reads are packed, task by task, into
 * whole chunks of the new file by first fit, so that a task reads a few contiguous chunks
 * instead of regions scattered over many; every other byte of the original fills the space
 * left in those chunks and then follows; a region larger than a chunk starts a chunk of its
 * own and spans what it needs. The file keeps every original byte (only their order changes),
 * so its logical view is the original file.
 *
 * <p>Stored next to the data ({@link #write}, versioned): the pattern, the task table (which
 * regions each task packs), the chunk size and the two lengths. The logical-to-physical index
 * is the deterministic placement of version {@value #VERSION} below, recomputed by readers from
 * those values ({@link #place} for one task, {@link #segments} for the whole file), with each
 * task's first physical byte stored to check it.
 */
public final class RestructuredLayout {
  /** Format and placement version; a reader refuses others. */
  public static final int VERSION = 1;
  private static final long MAGIC = 0x4d5241504c41594fL; // "MRAPLAYO"

  private final AccessPattern pattern;
  private final long[] taskBounds; // task t packs regions [taskBounds[t], taskBounds[t + 1])
  private final long chunkSize;
  private final long logicalLength;
  private final long[] taskStart; // physical offset of task t's first chunk
  private final long packedEnd; // end of the last task's chunks
  private final long physicalLength;

  private RestructuredLayout(AccessPattern pattern, long[] taskBounds, long chunkSize,
      long logicalLength, long[] taskStart, long packedEnd, long physicalLength) {
    this.pattern = pattern;
    this.taskBounds = taskBounds;
    this.chunkSize = chunkSize;
    this.logicalLength = logicalLength;
    this.taskStart = taskStart;
    this.packedEnd = packedEnd;
    this.physicalLength = physicalLength;
  }

  /**
   * Plans the layout of a file of {@code logicalLength} bytes whose {@code pattern} is read by
   * tasks that each take the regions {@code [taskBounds[t], taskBounds[t + 1])}.
   *
   * @throws IllegalArgumentException for bounds that do not cover the pattern in order, regions
   *     past the file's end, or overlapping regions (an overlapped byte cannot be in two places)
   */
  public static RestructuredLayout plan(AccessPattern pattern, long[] taskBounds,
      long chunkSize, long logicalLength) {
    if (chunkSize < 1) {
      throw new IllegalArgumentException("chunk size must be >= 1, got " + chunkSize);
    }
    if (taskBounds.length < 2 || taskBounds[0] != 0
        || taskBounds[taskBounds.length - 1] != pattern.regionCount()) {
      throw new IllegalArgumentException("task bounds must run from 0 to the pattern's "
          + pattern.regionCount() + " regions, got " + Arrays.toString(taskBounds));
    }
    for (int t = 1; t < taskBounds.length; t++) {
      if (taskBounds[t] < taskBounds[t - 1]) {
        throw new IllegalArgumentException("task bounds must not decrease: "
            + Arrays.toString(taskBounds));
      }
    }
    if (pattern.end() > logicalLength) {
      throw new IllegalArgumentException("the pattern reads up to byte " + pattern.end()
          + ", past the file's " + logicalLength);
    }
    long prevEnd = -1;
    RegionCursor c = pattern.cursor();
    while (c.next()) {
      if (c.offset() < prevEnd) {
        throw new IllegalArgumentException("regions overlap at byte " + c.offset()
            + ": a restructured file holds each byte once");
      }
      prevEnd = c.offset() + c.length();
    }
    int tasks = taskBounds.length - 1;
    long[] starts = new long[tasks];
    long end = 0;
    for (int t = 0; t < tasks; t++) {
      starts[t] = end;
      end = packTask(pattern, taskBounds[t], taskBounds[t + 1], chunkSize, end, null, null);
    }
    long holes = end - pattern.totalBytes();
    long rest = logicalLength - pattern.totalBytes(); // bytes of no region
    long physical = end + Math.max(0, rest - holes);
    return new RestructuredLayout(pattern, taskBounds.clone(), chunkSize, logicalLength, starts,
        end, physical);
  }

  /**
   * First fit of one task's regions into fresh chunks from {@code start} (a chunk boundary):
   * each region goes to the first of the task's chunks with room, else to a new one; a region
   * longer than a chunk starts a new chunk and spans as many as it needs, the last one's room
   * staying open. Fills {@code physical} (per region) and {@code used} (per chunk) if given.
   *
   * @return the end of the task's chunks (a chunk boundary, or {@code start} for no region)
   */
  private static long packTask(AccessPattern p, long from, long to, long chunk, long start,
      long[] physical, List<long[]> used) {
    List<long[]> chunks = used != null ? used : new ArrayList<>(); // {start, used bytes}
    long next = start; // first byte of the next fresh chunk
    RegionCursor c = p.cursor(from, to);
    int i = 0;
    while (c.next()) {
      long len = c.length();
      long at = -1;
      if (len <= chunk) {
        for (long[] ch : chunks) {
          if (chunk - ch[1] >= len) {
            at = ch[0] + ch[1];
            ch[1] += len;
            break;
          }
        }
      }
      if (at < 0) {
        at = next;
        long spanned = (len + chunk - 1) / chunk;
        for (long k = 0; k < spanned - 1; k++) {
          chunks.add(new long[] {next + k * chunk, chunk});
        }
        long lastUsed = len - (spanned - 1) * chunk;
        chunks.add(new long[] {next + (spanned - 1) * chunk, lastUsed});
        next += spanned * chunk;
      }
      if (physical != null) {
        physical[i] = at;
      }
      i++;
    }
    return next;
  }

  public AccessPattern pattern() {
    return pattern;
  }

  public int tasks() {
    return taskBounds.length - 1;
  }

  /** The regions task {@code t} packs: {@code [from, to)} of the pattern. */
  public long taskFrom(int t) {
    return taskBounds[t];
  }

  public long taskTo(int t) {
    return taskBounds[t + 1];
  }

  /** Physical offset of task {@code t}'s first chunk. */
  public long taskStart(int t) {
    return taskStart[t];
  }

  /** One past task {@code t}'s last chunk. */
  public long taskEnd(int t) {
    return t + 1 < tasks() ? taskStart[t + 1] : packedEnd;
  }

  public long chunkSize() {
    return chunkSize;
  }

  /** Length of the original file. */
  public long logicalLength() {
    return logicalLength;
  }

  /** Length of the restructured file: the original's, plus zeros where holes outnumber the
   * bytes of no region. */
  public long physicalLength() {
    return physicalLength;
  }

  /** Physical offset of each of task {@code t}'s regions, in region order. */
  public long[] place(int t) {
    long[] out = new long[(int) (taskBounds[t + 1] - taskBounds[t])];
    packTask(pattern, taskBounds[t], taskBounds[t + 1], chunkSize, taskStart[t], out, null);
    return out;
  }

  /**
   * Physical offsets of one task's regions (all of {@code taskRegions}, in region order) packed
   * from {@code taskStart}: what {@link #place} gives, from the task's own regions only, so a
   * map task needs no more than its split.
   */
  public static long[] place(AccessPattern taskRegions, long chunkSize, long taskStart) {
    long[] out = new long[(int) taskRegions.regionCount()];
    packTask(taskRegions, 0, taskRegions.regionCount(), chunkSize, taskStart, out, null);
    return out;
  }

  /**
   * The whole logical-to-physical index, sorted by logical offset: {@code {logical, physical,
   * length}} per segment (each region, and the pieces the bytes of no region were cut into to
   * fill the holes and follow the packed chunks). Memory: a few longs per region.
   */
  public List<long[]> segments() {
    List<long[]> out = new ArrayList<>();
    List<long[]> holes = new ArrayList<>(); // {physical, length}, in physical order
    for (int t = 0; t < tasks(); t++) {
      long[] physical = new long[(int) (taskBounds[t + 1] - taskBounds[t])];
      List<long[]> used = new ArrayList<>();
      packTask(pattern, taskBounds[t], taskBounds[t + 1], chunkSize, taskStart[t], physical,
          used);
      RegionCursor c = pattern.cursor(taskBounds[t], taskBounds[t + 1]);
      for (int i = 0; c.next(); i++) {
        out.add(new long[] {c.offset(), physical[i], c.length()});
      }
      for (long[] ch : used) {
        if (ch[1] < chunkSize) {
          holes.add(new long[] {ch[0] + ch[1], chunkSize - ch[1]});
        }
      }
    }
    holes.sort((a, b) -> Long.compare(a[0], b[0]));
    // the bytes of no region, in logical order, fill the holes, then follow packedEnd
    int h = 0;
    long holeUsed = 0;
    long tail = packedEnd;
    long logical = 0;
    RegionCursor c = pattern.cursor();
    boolean more = c.next();
    while (logical < logicalLength) {
      long gapEnd = more ? c.offset() : logicalLength;
      while (logical < gapEnd) {
        long len;
        long phys;
        if (h < holes.size()) {
          long[] hole = holes.get(h);
          len = Math.min(gapEnd - logical, hole[1] - holeUsed);
          phys = hole[0] + holeUsed;
          holeUsed += len;
          if (holeUsed == hole[1]) {
            h++;
            holeUsed = 0;
          }
        } else {
          len = gapEnd - logical;
          phys = tail;
          tail += len;
        }
        out.add(new long[] {logical, phys, len});
        logical += len;
      }
      if (more) {
        logical = c.offset() + c.length();
        more = c.next();
      }
    }
    out.sort((a, b) -> Long.compare(a[0], b[0]));
    return out;
  }

  /** Writes the layout (the sidecar file's content). */
  public void write(DataOutput out) throws IOException {
    out.writeLong(MAGIC);
    out.writeInt(VERSION);
    PatternCodec.write(out, pattern);
    out.writeLong(chunkSize);
    out.writeLong(logicalLength);
    out.writeLong(physicalLength);
    out.writeInt(tasks());
    for (int t = 0; t < tasks(); t++) {
      out.writeLong(taskBounds[t + 1]);
      out.writeLong(taskStart[t]);
    }
  }

  /**
   * Reads a layout written by {@link #write}.
   *
   * @throws IOException naming what does not match: not a layout, another version, or values
   *     that disagree with the placement recomputed from them
   */
  public static RestructuredLayout read(DataInput in, String source) throws IOException {
    if (in.readLong() != MAGIC) {
      throw new IOException(source + " is not an MRAP layout file");
    }
    int version = in.readInt();
    if (version != VERSION) {
      throw new IOException(source + " is an MRAP layout of version " + version + "; this "
          + "release reads version " + VERSION);
    }
    AccessPattern pattern = PatternCodec.read(in);
    long chunk = in.readLong();
    long logical = in.readLong();
    long physical = in.readLong();
    int tasks = in.readInt();
    if (tasks < 1) {
      throw new IOException(source + ": corrupt layout (" + tasks + " tasks)");
    }
    long[] bounds = new long[tasks + 1];
    long[] starts = new long[tasks];
    for (int t = 0; t < tasks; t++) {
      bounds[t + 1] = in.readLong();
      starts[t] = in.readLong();
    }
    RestructuredLayout planned;
    try {
      planned = plan(pattern, bounds, chunk, logical);
    } catch (IllegalArgumentException e) {
      throw new IOException(source + ": corrupt layout (" + e.getMessage() + ")", e);
    }
    if (planned.physicalLength != physical || !Arrays.equals(planned.taskStart, starts)) {
      throw new IOException(source + ": the stored placement does not match version "
          + VERSION + "'s (written by another release?)");
    }
    return planned;
  }

  @Override
  public String toString() {
    return "layout(v" + VERSION + ", " + pattern + ", " + tasks() + " tasks, chunk " + chunkSize
        + ", " + logicalLength + " -> " + physicalLength + " bytes)";
  }
}
