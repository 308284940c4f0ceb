package org.opass.mrap.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.science.Slab;
import org.opass.mrap.science.Variable;
import org.opass.mrap.science.VariableCodec;

/**
 * What one {@link VariableInputFormat} task reads: parts of one or more files (the thesis's
 * ADAT case: a task reads a set of files), each the regions of a block or of adjacent blocks,
 * with the variable as that file's header describes it (only the chunks the part reads), and
 * the host that holds them all. A part records its file's modification time too: the header it
 * was planned from must still be the file's when the task reads it (another file of the same
 * length put in its place would otherwise be read through the old header).
 */
public final class VariableSplit extends InputSplit implements Writable {
  /** A part of one file: its regions, as an {@link AccessSplit} reads them, and the variable. */
  public static final class Part {
    final AccessSplit regions;
    final long modificationTime;
    final Variable variable;
    final Slab slab;
    final long[][] unwritten; // chunks never written this part gives as fill values

    Part(AccessSplit regions, long modificationTime, Variable variable, Slab slab,
        long[][] unwritten) {
      this.regions = regions;
      this.modificationTime = modificationTime;
      this.variable = variable;
      this.slab = slab;
      this.unwritten = unwritten;
    }

    public Path path() {
      return regions.path();
    }

    /** The regions of the original file this part reads (in a restructured file, a task's). */
    public AccessPattern regions() {
      return regions.parts().get(0);
    }

    /** How the file holds them: in place, packed by a restructuring copy, or anywhere in it. */
    public AccessSplit.Layout layout() {
      return regions.layout();
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
      n += p.regions.getLength();
    }
    return n;
  }

  @Override
  public String[] getLocations() {
    return hosts.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeVInt(out, parts.size());
    for (Part p : parts) {
      p.regions.write(out);
      out.writeLong(p.modificationTime);
      VariableCodec.write(out, p.variable, p.variable.chunks(), p.slab);
      WritableUtils.writeVInt(out, p.unwritten.length);
      for (long[] origin : p.unwritten) {
        for (long o : origin) {
          WritableUtils.writeVLong(out, o);
        }
      }
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    hosts = new String[0]; // locations matter for scheduling only, as for FileSplit
    int n = WritableUtils.readVInt(in);
    parts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      AccessSplit regions = new AccessSplit();
      regions.readFields(in);
      long modified = in.readLong();
      VariableCodec.Read v = VariableCodec.read(in);
      long[][] unwritten = new long[WritableUtils.readVInt(in)][v.variable.rank()];
      for (long[] origin : unwritten) {
        for (int d = 0; d < origin.length; d++) {
          origin[d] = WritableUtils.readVLong(in);
        }
      }
      parts.add(new Part(regions, modified, v.variable, v.slab, unwritten));
    }
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Part p : parts) {
      b.append(b.length() == 0 ? "" : ", ").append(p.path().getName()).append(' ')
          .append(p.regions.regionCount()).append(" regions");
    }
    return b + " on " + java.util.Arrays.toString(hosts);
  }
}
