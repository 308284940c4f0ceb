package org.opass.mrap.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternCodec;

/**
 * The regions of one file one map task reads: a pattern (a slice of the job's pattern, or a
 * tile), where its first byte falls in the logical stream of all the job's regions of that
 * file, and the hosts that hold most of its bytes.
 */
public final class AccessSplit extends InputSplit implements Writable {
  private Path path;
  private AccessPattern pattern;
  private long logicalStart;
  private long blockSize;
  private String[] hosts = new String[0];

  /** For Hadoop's deserialization. */
  public AccessSplit() {
  }

  public AccessSplit(Path path, AccessPattern pattern, long logicalStart, long blockSize,
      String[] hosts) {
    this.path = path;
    this.pattern = pattern;
    this.logicalStart = logicalStart;
    this.blockSize = blockSize;
    this.hosts = hosts.clone();
  }

  public Path path() {
    return path;
  }

  public AccessPattern pattern() {
    return pattern;
  }

  /** Logical offset of this split's first region: the bytes of the file's regions before it. */
  public long logicalStart() {
    return logicalStart;
  }

  /** The file's block size, so that reads can be joined within a block only. */
  public long blockSize() {
    return blockSize;
  }

  /** Bytes of interest in this split. */
  @Override
  public long getLength() {
    return pattern.totalBytes();
  }

  @Override
  public String[] getLocations() {
    return hosts.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, path.toString());
    out.writeLong(logicalStart);
    out.writeLong(blockSize);
    PatternCodec.write(out, pattern);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    path = new Path(Text.readString(in));
    logicalStart = in.readLong();
    blockSize = in.readLong();
    pattern = PatternCodec.read(in);
    hosts = new String[0]; // locations matter for scheduling only, as for FileSplit
  }

  @Override
  public String toString() {
    return path + " " + pattern + " @" + logicalStart;
  }
}
