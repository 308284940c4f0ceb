package org.opass.mrap.layout;

import java.io.IOException;
import java.util.zip.CRC32C;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.TaskPartition;
import org.opass.mrap.pattern.TiledPattern;

/**
 * How a restructured file (written by MRAP's copy) holds its original's bytes, as the file
 * records it: a {@link LayoutHeader} in its first {@value #HEADER_BYTES} bytes and this layout
 * (the trailer) after its data, so that it goes wherever the file goes. Two kinds:
 * <ul>
 *   <li>{@link PackedLayout} (format version 2): the regions of a pattern packed per task into
 *   chunks by first fit (thesis §4.3.2), or end to end;</li>
 *   <li>{@link TiledLayout} (format version 3): an array re-laid tile by tile, each tile
 *   contiguous, every other byte in place;</li>
 *   <li>a container (format version 4): a {@link PackedLayout} whose original is several
 *   files end to end ({@link #members()}), their regions packed into shared chunks.</li>
 * </ul>
 * A layout's tasks ({@link #tasks}) are what a job that reads the file as it was restructured
 * runs: task {@code t} reads {@code [taskStart(t), taskEnd(t))}, where its regions lie as its
 * {@link #placer} puts them. Immutable.
 */
public interface RestructuredLayout {
  /** Bytes of the header at the start of the file. */
  int HEADER_BYTES = LayoutHeader.BYTES;

  /** Length of the original file. */
  long logicalLength();

  /** Where the data ends and the trailer starts. */
  long dataLength();

  /** Length of the restructured file: header, data and trailer. */
  default long physicalLength() {
    return dataLength() + trailerLength();
  }

  /** Bytes of the trailer. */
  int trailerLength();

  /** The chunk size the file was written with (its block size). */
  long chunkSize();

  /** The format version the header records: which kind of layout the trailer holds. */
  int version();

  /** The header: the file's first bytes. */
  default byte[] header() {
    return new LayoutHeader(version(), dataLength(), trailerLength(), trailerCrc(),
        logicalLength(), physicalLength()).bytes();
  }

  /** The trailer: this layout, as the file ends with it. */
  byte[] trailer();

  /** CRC32C of the trailer: what the header records, and a split checks. */
  int trailerCrc();

  /**
   * The runs of the physical file in {@code [from, to)}, in physical order: header, the
   * original's bytes, zeros, trailer. What a writer writes.
   */
  SegmentCursor physical(long from, long to);

  /**
   * The original bytes {@code [from, to)}, in original order, each run with where it is in the
   * physical file. What a reader of the original reads.
   */
  LogicalCursor logical(long from, long to);

  /** Runs of the original's bytes in original order, with their physical places. */
  interface LogicalCursor extends SegmentCursor {
    /** Moves on to {@code [from, to)}: cheaply when it is a little further on. */
    void seek(long from, long to);
  }

  /**
   * The tasks of a job that reads the file as it was restructured: how many, the regions of
   * the original each reads, and the logical offset of each one's first region (the key of its
   * first record). Where those regions lie in the file is the layout's to say: the methods
   * below, by task number.
   */
  TaskPartition tasks();

  /** Where task {@code t}'s bytes start in the file. */
  long taskStart(int t);

  /** Where they end: what it reads is {@code [taskStart, taskEnd)}. */
  long taskEnd(int t);

  /** Whether every task's regions lie end to end from its {@link #taskStart}. */
  boolean contiguous();

  /** The first chunk of task {@code t}. */
  long taskFirstChunk(int t);

  /** The chunks of task {@code t}. */
  long taskChunks(int t);

  /**
   * Whether task {@code t}'s regions lie end to end from {@link #taskStart}: every task of a
   * contiguous layout, and a task of one chunk (first fit fills a single chunk in order).
   */
  default boolean endToEnd(int t) {
    return contiguous() || taskChunks(t) == 1;
  }

  /** A placer that replays where task {@code t}'s regions lie, region by region. */
  default TaskPlacer placer(int t) {
    return endToEnd(t) ? TaskPlacer.contiguous(taskStart(t))
        : new TaskPlacer(chunkSize(), HEADER_BYTES, taskFirstChunk(t), taskChunks(t));
  }

  /** Whether the file was restructured for exactly these regions (read as they were packed). */
  default boolean packs(AccessPattern regions) {
    return false;
  }

  /** Whether the file was restructured for exactly these tiles. */
  default boolean packs(TiledPattern tiles) {
    return false;
  }

  /**
   * The files a container holds ({@code mrap-copy -pack}): its original is they end to end.
   * Null for a restructured file of one original.
   */
  default Members members() {
    return null;
  }

  /** What the file was restructured for, as a refusal names it. */
  String restructuredFor();

  /**
   * For a writer: the original's bytes worth reading at once with the region run at
   * {@code logical}, because the runs written after it come from them (a tile-major layout's
   * neighbouring tiles); null to read runs as they come.
   */
  default AccessPattern readTogether(long logical) {
    return null;
  }

  /** CRC32C of a trailer: what the header records of it. */
  static int crc(byte[] trailer) {
    CRC32C crc = new CRC32C();
    crc.update(trailer);
    return (int) crc.getValue();
  }

  /**
   * Reads the layout of a restructured file from its header and trailer.
   *
   * @throws IOException naming {@code source} and what does not hold: the trailer's CRC, its
   *     format, or a table that does not add up
   */
  static RestructuredLayout read(LayoutHeader header, byte[] trailer, String source)
      throws IOException {
    if (trailer.length != header.trailerLength() || crc(trailer) != header.trailerCrc()) {
      throw new IOException(source + ": its MRAP layout (the trailer) does not match its "
          + "header: the file is damaged");
    }
    RestructuredLayout layout = header.version() == TiledLayout.VERSION
        ? TiledLayout.read(trailer, source) : PackedTrailer.read(trailer, source);
    if (layout.version() != header.version()) {
      throw new IOException(source + ": its MRAP layout is of format " + layout.version()
          + ", its header says " + header.version() + ": the file is damaged");
    }
    if (layout.dataLength() != header.dataLength()
        || layout.logicalLength() != header.logicalLength()) {
      throw new IOException(source + ": its MRAP layout places " + layout.dataLength()
          + " bytes of data, its header says " + header.dataLength());
    }
    return layout;
  }
}
