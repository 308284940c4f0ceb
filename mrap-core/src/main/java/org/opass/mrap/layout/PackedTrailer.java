package org.opass.mrap.layout;

import static org.opass.mrap.layout.PackedLayout.CONTAINER;
import static org.opass.mrap.layout.PackedLayout.VERSION;
import static org.opass.mrap.layout.RestructuredLayout.HEADER_BYTES;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternCodec;

/**
 * The trailer of a {@link PackedLayout} (format versions {@value PackedLayout#VERSION} and
 * {@value PackedLayout#CONTAINER}): its magic and version, a container's {@link Members}, the
 * pattern, chunk size, original length and whether the regions lie end to end, then per task
 * its first region and first chunk (each as the step from the task before), per chunk its bytes
 * used. Reading it back checks every table against the others, so a damaged trailer is refused
 * by name, never read as a layout.
 */
final class PackedTrailer {
  private static final long MAGIC = 0x4d5241504c41594fL; // "MRAPLAYO"

  private PackedTrailer() {
  }

  /** The trailer of the layout of these tables (a container's when {@code members} is set). */
  static byte[] write(AccessPattern pattern, Members members, long chunk, long logicalLength,
      Packing packing) {
    boolean contiguous = packing.contiguous;
    long[] taskFrom = packing.taskFrom;
    long[] taskBin = packing.taskBin;
    long[] binUsed = packing.binUsed;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutput out = new DataOutputStream(bytes);
    try {
      out.writeLong(MAGIC);
      out.writeInt(members == null ? VERSION : CONTAINER);
      if (members != null) {
        members.write(out);
      }
      PatternCodec.write(out, pattern);
      out.writeLong(chunk);
      out.writeLong(logicalLength);
      out.writeBoolean(contiguous);
      Varint.write(out, taskFrom.length);
      for (int t = 0; t < taskFrom.length; t++) {
        Varint.write(out, taskFrom[t] - (t == 0 ? 0 : taskFrom[t - 1]));
        Varint.write(out, taskBin[t] - (t == 0 ? 0 : taskBin[t - 1]));
      }
      Varint.write(out, binUsed.length);
      for (long u : binUsed) {
        Varint.write(out, u);
      }
    } catch (IOException e) { // writing to memory
      throw new IllegalStateException(e);
    }
    return bytes.toByteArray();
  }

  /** Reads a version-2 or -4 trailer; {@link RestructuredLayout#read} checked its CRC. */
  static PackedLayout read(byte[] trailer, String source) throws IOException {
    try {
      return readTrailer(new DataInputStream(new ByteArrayInputStream(trailer)), source);
    } catch (EOFException e) {
      throw new IOException(source + ": its MRAP layout is cut short", e);
    }
  }

  private static PackedLayout readTrailer(DataInput in, String source) throws IOException {
    if (in.readLong() != MAGIC) {
      throw new IOException(source + ": not an MRAP layout");
    }
    int version = in.readInt();
    if (version != VERSION && version != CONTAINER) {
      throw new IOException(source + ": an MRAP layout of version " + version + "; this "
          + "release reads versions " + VERSION + " and " + CONTAINER + " here");
    }
    Members members = version == CONTAINER ? Members.read(in, source) : null;
    AccessPattern pattern = PatternCodec.read(in);
    long chunk = in.readLong();
    long logical = in.readLong();
    boolean contiguous = in.readBoolean();
    int tasks = count(Varint.read(in), Math.min(pattern.regionCount(), Integer.MAX_VALUE - 8),
        "tasks", source);
    long[] from = new long[tasks];
    long[] bins = new long[tasks];
    for (int t = 0; t < tasks; t++) {
      from[t] = (t == 0 ? 0 : from[t - 1]) + Varint.read(in);
      bins[t] = (t == 0 ? 0 : bins[t - 1]) + Varint.read(in);
    }
    int binCount = count(Varint.read(in), Integer.MAX_VALUE - 8, "chunks", source);
    long[] used = new long[binCount];
    long sum = 0;
    for (int b = 0; b < binCount; b++) {
      used[b] = Varint.read(in);
      sum += used[b];
      if (used[b] < 1 || used[b] > chunk) {
        throw corrupt(source, "chunk " + b + " uses " + used[b] + " bytes");
      }
    }
    if (chunk <= HEADER_BYTES || logical < pattern.end() || !pattern.disjoint()
        || from[0] != 0 || bins[0] != 0) {
      throw corrupt(source, "chunk " + chunk + ", original " + logical + " bytes, pattern "
          + pattern);
    }
    for (int t = 1; t < tasks; t++) {
      if (from[t] <= from[t - 1] || from[t] >= pattern.regionCount()
          || bins[t] < bins[t - 1] + (contiguous ? 0 : 1) || bins[t] >= binCount) {
        throw corrupt(source, "task " + t);
      }
    }
    if (sum != HEADER_BYTES + pattern.totalBytes()) {
      throw corrupt(source, "its chunks hold " + sum + " bytes, not the header and the "
          + pattern.totalBytes() + " bytes of the pattern");
    }
    if (members != null) {
      try {
        members.checkParts(pattern);
      } catch (IllegalArgumentException e) {
        throw corrupt(source, e.getMessage());
      }
      if (members.totalLength() != logical) {
        throw corrupt(source, "members of " + members.totalLength() + " bytes in an original "
            + "of " + logical);
      }
    }
    return new PackedLayout(pattern, members, chunk, logical,
        new Packing(contiguous, from, bins, used));
  }

  private static int count(long n, long max, String what, String source) throws IOException {
    if (n < 1 || n > max) {
      throw corrupt(source, n + " " + what);
    }
    return (int) n;
  }

  private static IOException corrupt(String source, String what) {
    return new IOException(source + ": a damaged MRAP layout (" + what + ")");
  }
}
