package org.opass.mrap.pattern;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A compact, versioned binary form of a pattern, for input splits and stored layouts. A slice
 * of a strided or subarray pattern is written as the pattern and the index range (a few dozen
 * bytes however many regions it has); a slice of an indexed pattern as its own regions only.
 */
public final class PatternCodec {
  /** Format version written first; readers refuse versions they do not know. */
  public static final int VERSION = 1;

  private static final int STRIDED = 1;
  private static final int SUBARRAY = 2;
  private static final int INDEXED = 3;
  private static final int SLICE = 4;
  private static final int CONCATENATED = 5;
  /** Most parts a concatenated pattern holds when read: a bound on a damaged count. */
  private static final int MAX_PARTS = 1 << 24;

  private PatternCodec() {
  }

  public static void write(DataOutput out, AccessPattern p) throws IOException {
    out.writeByte(VERSION);
    body(out, p);
  }

  private static void body(DataOutput out, AccessPattern p) throws IOException {
    if (p instanceof PatternSlice && !(((PatternSlice) p).whole() instanceof IndexedPattern)) {
      PatternSlice s = (PatternSlice) p;
      out.writeByte(SLICE);
      out.writeLong(s.from());
      out.writeLong(s.to());
      body(out, s.whole());
    } else if (p instanceof ConcatenatedPattern) {
      ConcatenatedPattern c = (ConcatenatedPattern) p;
      out.writeByte(CONCATENATED);
      out.writeInt(c.partCount());
      for (int i = 0; i < c.partCount(); i++) {
        out.writeLong(c.start(i));
        body(out, c.part(i));
      }
    } else if (p instanceof StridedPattern) {
      StridedPattern s = (StridedPattern) p;
      out.writeByte(STRIDED);
      out.writeLong(s.start());
      out.writeLong(s.size());
      out.writeInt(s.levels());
      for (int i = 0; i < s.levels(); i++) {
        out.writeLong(s.count(i));
        out.writeLong(s.spacing(i));
      }
    } else if (p instanceof SubarrayPattern) {
      SubarrayPattern s = (SubarrayPattern) p;
      out.writeByte(SUBARRAY);
      out.writeLong(s.base());
      out.writeLong(s.elementSize());
      longs(out, s.shape());
      longs(out, s.origin());
      longs(out, s.extent());
    } else {
      // indexed, or a slice of one: its own regions
      long n = p.regionCount();
      if (n > Integer.MAX_VALUE) {
        throw new IOException("an indexed pattern of " + n + " regions is too large to write");
      }
      out.writeByte(INDEXED);
      out.writeInt((int) n);
      RegionCursor c = p.cursor();
      while (c.next()) {
        out.writeLong(c.offset());
        out.writeLong(c.length());
      }
    }
  }

  private static void longs(DataOutput out, long[] v) throws IOException {
    out.writeInt(v.length);
    for (long x : v) {
      out.writeLong(x);
    }
  }

  private static long[] longs(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > 64) {
      throw new IOException("corrupt pattern: " + n + " dimensions");
    }
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      v[i] = in.readLong();
    }
    return v;
  }

  /**
   * @throws IOException for a version this code does not know, or a corrupt pattern
   */
  public static AccessPattern read(DataInput in) throws IOException {
    int version = in.readUnsignedByte();
    if (version != VERSION) {
      throw new IOException("pattern format version " + version + " is not " + VERSION
          + " (written by another release of mrap-inputformat?)");
    }
    try {
      return body(in);
    } catch (IllegalArgumentException e) {
      throw new IOException("corrupt pattern: " + e.getMessage(), e);
    }
  }

  private static AccessPattern body(DataInput in) throws IOException {
    int kind = in.readUnsignedByte();
    switch (kind) {
      case SLICE: {
        long from = in.readLong();
        long to = in.readLong();
        return body(in).slice(from, to);
      }
      case STRIDED: {
        long start = in.readLong();
        long size = in.readLong();
        int levels = in.readInt();
        if (levels < 1 || levels > 64) {
          throw new IOException("corrupt pattern: " + levels + " levels");
        }
        long[] counts = new long[levels];
        long[] spacings = new long[levels];
        for (int i = 0; i < levels; i++) {
          counts[i] = in.readLong();
          spacings[i] = in.readLong();
        }
        return StridedPattern.nested(start, size, spacings, counts);
      }
      case SUBARRAY: {
        long base = in.readLong();
        long element = in.readLong();
        long[] shape = longs(in);
        long[] origin = longs(in);
        long[] extent = longs(in);
        return SubarrayPattern.of(base, shape, element, origin, extent);
      }
      case CONCATENATED: {
        int n = in.readInt();
        if (n < 1 || n > MAX_PARTS) {
          throw new IOException("corrupt pattern: " + n + " parts");
        }
        long[] starts = new long[n];
        AccessPattern[] parts = new AccessPattern[n];
        for (int i = 0; i < n; i++) {
          starts[i] = in.readLong();
          parts[i] = body(in);
        }
        return ConcatenatedPattern.of(starts, parts);
      }
      case INDEXED: {
        int n = in.readInt();
        if (n < 1) {
          throw new IOException("corrupt pattern: " + n + " regions");
        }
        long[] o = new long[n];
        long[] l = new long[n];
        for (int i = 0; i < n; i++) {
          o[i] = in.readLong();
          l[i] = in.readLong();
        }
        return IndexedPattern.of(o, l);
      }
      default:
        throw new IOException("corrupt pattern: kind " + kind);
    }
  }
}
