package org.opass.mrap.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternCodec;

/**
 * The regions of one file one map task reads: one or more parts, each a pattern (a slice of the
 * job's pattern, or a tile) with the logical offset of its first region (the bytes of the
 * file's regions before it), and the hosts to run on. A virtual split has several parts: the
 * regions of the chunks its host holds.
 */
public final class AccessSplit extends InputSplit implements Writable {
  private Path path;
  private long blockSize;
  private List<AccessPattern> parts = new ArrayList<>();
  private long[] logicalStarts = new long[0];
  private String[] hosts = new String[0];

  /** For Hadoop's deserialization. */
  public AccessSplit() {
  }

  public AccessSplit(Path path, AccessPattern pattern, long logicalStart, long blockSize,
      String[] hosts) {
    this(path, Collections.singletonList(pattern), new long[] {logicalStart}, blockSize, hosts);
  }

  public AccessSplit(Path path, List<AccessPattern> parts, long[] logicalStarts, long blockSize,
      String[] hosts) {
    if (parts.isEmpty() || parts.size() != logicalStarts.length) {
      throw new IllegalArgumentException(parts.size() + " parts and " + logicalStarts.length
          + " logical starts");
    }
    this.path = path;
    this.parts = new ArrayList<>(parts);
    this.logicalStarts = logicalStarts.clone();
    this.blockSize = blockSize;
    this.hosts = hosts.clone();
  }

  public Path path() {
    return path;
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

  /** Bytes of interest in this split. */
  @Override
  public long getLength() {
    long n = 0;
    for (AccessPattern p : parts) {
      n += p.totalBytes();
    }
    return n;
  }

  @Override
  public String[] getLocations() {
    return hosts.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, path.toString());
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
    blockSize = in.readLong();
    int n = WritableUtils.readVInt(in);
    parts = new ArrayList<>(n);
    logicalStarts = new long[n];
    for (int k = 0; k < n; k++) {
      logicalStarts[k] = in.readLong();
      parts.add(PatternCodec.read(in));
    }
    hosts = new String[0]; // locations matter for scheduling only, as for FileSplit
  }

  @Override
  public String toString() {
    return path + " " + (parts.size() == 1 ? parts.get(0) + " @" + logicalStarts[0]
        : parts.size() + " parts");
  }
}
