package org.opass.mrap.task;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.layout.TaskPlacer;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternCodec;

/**
 * The regions of one file one task reads: one or more parts, each a pattern (a slice of the
 * read's pattern, or a tile) with the logical offset of its first region (the bytes of the
 * file's regions before it), and the hosts to run on. A virtual split has several parts: the
 * regions of the chunks its host holds. {@code AccessInputFormat}'s split and a Spark
 * partition each carry one, in this form ({@link #write}) on the wire.
 *
 * <p>It records the file as it was when the read was planned (its length, and its layout's
 * CRC or that it was plain), and the reader refuses a file that is no longer that one.
 */
public final class RegionTask extends ReadTask {
  /** How the task's file holds its regions. */
  public enum Layout {
    /** At their own offsets (a plain file). */
    PLAIN,
    /** Packed into the task's chunks of a restructured file (read contiguously). */
    PACKED,
    /** Anywhere in a restructured file: read through its stored layout. */
    THROUGH_INDEX
  }

  private Path path;
  private Layout layout = Layout.PLAIN;
  private long fileLength;
  private long identity = RestructuredFiles.PLAIN;
  private long chunkSize;
  private long firstChunk;
  private long chunks;
  private long contiguousStart = -1;
  private long blockSize;
  private List<AccessPattern> parts = new ArrayList<>();
  private long[] logicalStarts = new long[0];

  /** For Hadoop's deserialization. */
  public RegionTask() {
  }

  /** A task of a plain file of {@code fileLength} bytes. */
  public RegionTask(Path path, long fileLength, AccessPattern pattern, long logicalStart,
      long blockSize, String[] hosts) {
    this(path, fileLength, Collections.singletonList(pattern), new long[] {logicalStart},
        blockSize, hosts);
  }

  /** A task of a plain file of {@code fileLength} bytes. */
  public RegionTask(Path path, long fileLength, List<AccessPattern> parts,
      long[] logicalStarts, long blockSize, String[] hosts) {
    super(hosts);
    if (parts.isEmpty() || parts.size() != logicalStarts.length) {
      throw new IllegalArgumentException(parts.size() + " parts and " + logicalStarts.length
          + " logical starts");
    }
    this.path = path;
    this.fileLength = fileLength;
    this.parts = new ArrayList<>(parts);
    this.logicalStarts = logicalStarts.clone();
    this.blockSize = blockSize;
  }

  /**
   * Task {@code t} of a restructured file, read contiguously: its regions were
   * packed by first fit into its chunks, or lie end to end from its start.
   */
  public static RegionTask packed(RestructuredFiles.Inspected file, int t, String[] hosts) {
    RestructuredLayout layout = file.layout();
    RegionTask s = new RegionTask(file.status().getPath(), file.status().getLen(),
        layout.tasks().task(t), layout.tasks().logicalStart(t), file.status().getBlockSize(),
        hosts);
    s.layout = Layout.PACKED;
    s.identity = file.identity();
    s.chunkSize = layout.chunkSize();
    s.firstChunk = layout.taskFirstChunk(t);
    s.chunks = layout.taskChunks(t);
    s.contiguousStart = layout.endToEnd(t) ? layout.taskStart(t) : -1;
    return s;
  }

  /**
   * For {@link Layout#PACKED}: where the task's bytes end when its regions lie end to end (a
   * tile, a contiguous layout's task), else -1.
   */
  public long contiguousEnd() {
    return contiguousStart >= 0 ? contiguousStart + length() : -1;
  }

  /** For {@link Layout#PACKED}: the placer that puts the task's regions where they lie. */
  public TaskPlacer placer() {
    return contiguousStart >= 0 ? TaskPlacer.contiguous(contiguousStart)
        : new TaskPlacer(chunkSize, RestructuredLayout.HEADER_BYTES, firstChunk, chunks);
  }

  /** A task of a restructured file read through its layout (a pattern it was not packed for). */
  public static RegionTask throughIndex(RestructuredFiles.Inspected file, AccessPattern part,
      long logicalStart) {
    RegionTask s = new RegionTask(file.status().getPath(), file.status().getLen(), part,
        logicalStart, file.status().getBlockSize(), new String[0]);
    s.layout = Layout.THROUGH_INDEX;
    s.identity = file.identity();
    return s;
  }

  public Path path() {
    return path;
  }

  public Layout layout() {
    return layout;
  }

  /** The file's length when the job was submitted. */
  public long fileLength() {
    return fileLength;
  }

  /** The file's layout's CRC then, or -1 for a plain file. */
  public long identity() {
    return identity;
  }

  /** For {@link Layout#PACKED}: the restructured file's chunk size. */
  public long chunkSize() {
    return chunkSize;
  }

  /** For {@link Layout#PACKED}: the task's first chunk. */
  public long firstChunk() {
    return firstChunk;
  }

  /** For {@link Layout#PACKED}: the task's chunks. */
  public long chunks() {
    return chunks;
  }

  public List<AccessPattern> parts() {
    return Collections.unmodifiableList(parts);
  }

  /** Logical offset of part {@code k}'s first region. */
  public long logicalStart(int k) {
    return logicalStarts[k];
  }

  /** The file's block size, so that reads can be joined within a block only. */
  public long blockSize() {
    return blockSize;
  }

  /** Regions in all parts. */
  public long regionCount() {
    long n = 0;
    for (AccessPattern p : parts) {
      n += p.regionCount();
    }
    return n;
  }

  @Override
  public long length() {
    long n = 0;
    for (AccessPattern p : parts) {
      n += p.totalBytes();
    }
    return n;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, path.toString());
    out.writeByte(layout.ordinal());
    out.writeLong(fileLength);
    out.writeLong(identity);
    out.writeLong(chunkSize);
    out.writeLong(firstChunk);
    out.writeLong(chunks);
    out.writeLong(contiguousStart);
    out.writeLong(blockSize);
    WritableUtils.writeVInt(out, parts.size());
    for (int k = 0; k < parts.size(); k++) {
      out.writeLong(logicalStarts[k]);
      PatternCodec.write(out, parts.get(k));
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    path = new Path(Text.readString(in));
    int kind = in.readUnsignedByte();
    if (kind >= Layout.values().length) {
      throw new IOException("corrupt task: layout " + kind);
    }
    layout = Layout.values()[kind];
    fileLength = in.readLong();
    identity = in.readLong();
    chunkSize = in.readLong();
    firstChunk = in.readLong();
    chunks = in.readLong();
    contiguousStart = in.readLong();
    blockSize = in.readLong();
    int n = WritableUtils.readVInt(in);
    parts = new ArrayList<>(n);
    logicalStarts = new long[n];
    for (int k = 0; k < n; k++) {
      logicalStarts[k] = in.readLong();
      parts.add(PatternCodec.read(in));
    }
    forgetHosts();
  }

  @Override
  public String toString() {
    return path + " " + (parts.size() == 1 ? parts.get(0) + " @" + logicalStarts[0]
        : parts.size() + " parts");
  }
}
