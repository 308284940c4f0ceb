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
import org.opass.mrap.science.Slab;
import org.opass.mrap.science.Variable;
import org.opass.mrap.science.VariableCodec;

/**
 * What one {@link VariableInputFormat} task reads: parts of one or more files (the thesis's
 * ADAT case: a task reads a set of files), each the regions of a block or of adjacent blocks,
 * with the variable as that file's header describes it (only the chunks the part reads), and
 * the host that holds them all.
 */
public final class VariableSplit extends InputSplit implements Writable {
  /** A part of one file. */
  public static final class Part {
    final Path path;
    final long fileLength;
    final long blockSize;
    final AccessPattern regions;
    final Variable variable;
    final Slab slab;

    Part(Path path, long fileLength, long blockSize, AccessPattern regions, Variable variable,
        Slab slab) {
      this.path = path;
      this.fileLength = fileLength;
      this.blockSize = blockSize;
      this.regions = regions;
      this.variable = variable;
      this.slab = slab;
    }

    public Path path() {
      return path;
    }

    public AccessPattern regions() {
      return regions;
    }

    public Variable variable() {
      return variable;
    }
  }

  private List<Part> parts = new ArrayList<>();
  private String[] hosts = new String[0];

  public VariableSplit() {
  }

  VariableSplit(List<Part> parts, String[] hosts) {
    this.parts = new ArrayList<>(parts);
    this.hosts = hosts.clone();
  }

  public List<Part> parts() {
    return Collections.unmodifiableList(parts);
  }

  /** Bytes the task reads from the files. */
  @Override
  public long getLength() {
    long n = 0;
    for (Part p : parts) {
      n += p.regions.totalBytes();
    }
    return n;
  }

  @Override
  public String[] getLocations() {
    return hosts.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeVInt(out, hosts.length);
    for (String h : hosts) {
      Text.writeString(out, h);
    }
    WritableUtils.writeVInt(out, parts.size());
    for (Part p : parts) {
      Text.writeString(out, p.path.toString());
      out.writeLong(p.fileLength);
      out.writeLong(p.blockSize);
      PatternCodec.write(out, p.regions);
      VariableCodec.write(out, p.variable, p.variable.chunks(), p.slab);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    hosts = new String[WritableUtils.readVInt(in)];
    for (int i = 0; i < hosts.length; i++) {
      hosts[i] = Text.readString(in);
    }
    int n = WritableUtils.readVInt(in);
    parts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Path path = new Path(Text.readString(in));
      long length = in.readLong();
      long blockSize = in.readLong();
      AccessPattern regions = PatternCodec.read(in);
      VariableCodec.Read v = VariableCodec.read(in);
      parts.add(new Part(path, length, blockSize, regions, v.variable, v.slab));
    }
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Part p : parts) {
      b.append(b.length() == 0 ? "" : ", ").append(p.path.getName()).append(' ')
          .append(p.regions.regionCount()).append(" regions");
    }
    return b + " on " + java.util.Arrays.toString(hosts);
  }
}
