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
import org.opass.mrap.array.Slab;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.cf.Coordinates;
import org.opass.mrap.format.UnwrittenChunks;
import org.opass.mrap.format.Variable;
import org.opass.mrap.pattern.AccessPattern;

/**
 * What one task of a read of scientific variables reads: parts of one or more files (the thesis's ADAT
 * case: a task reads a set of files), each the regions of a block or of adjacent blocks, with the
 * variable as that file's header describes it (only the chunks the part reads), and the host that
 * holds them all. A part of a container ({@code mrap-copy -pack}) reads the regions of several of
 * its members, packed together, and names each. A part records its file's modification time too:
 * the header it was planned from must still be the file's when the task reads it (another file of
 * the same length put in its place would otherwise be read through the old header).
 */
public final class VariableTask extends ReadTask {
  /**
   * A file whose variable a part reads: the file itself, or a member of a container packed by
   * {@code mrap-copy -pack} (its original the members end to end), with the variable as its
   * header describes it.
   */
  public static final class Member {
    final String file;
    final long start;
    final Variable variable;
    final Slab slab;
    final UnwrittenChunks unwritten; // chunks never written this part gives as fill values
    final Coordinates coordinates;
    final List<Variable> readWith; // on the same grid, only their chunks in this part's box
    private CfDecoding decoding; // made on first use, in the task

    /**
     * The file {@code file} (for a member, {@code container/member}) starting at {@code start}
     * of its container's original (0 for a file of its own), its {@code variable} with only the
     * chunks the part reads, the {@code slab} the read selects, the chunks never written whose
     * fill values the part gives, and the coordinates over the part's indices.
     */
    public Member(String file, long start, Variable variable, Slab slab,
        UnwrittenChunks unwritten, Coordinates coordinates) {
      this.file = file;
      this.start = start;
      this.variable = variable;
      this.slab = slab;
      this.unwritten = unwritten;
      this.coordinates = coordinates;
      this.readWith = List.of();
    }

    private Member(Member m, List<Variable> readWith) {
      this.file = m.file;
      this.start = m.start;
      this.variable = m.variable;
      this.slab = m.slab;
      this.unwritten = m.unwritten;
      this.coordinates = m.coordinates;
      this.readWith = List.copyOf(readWith);
    }

    /**
     * This member also reading {@code variables} on its grid, each with only its chunks in the
     * part's box.
     */
    public Member readingWith(List<Variable> variables) {
      return new Member(this, variables);
    }

    /** The coordinates of the variable's dimensions over the slab's indices in this file. */
    public Coordinates coordinates() {
      return coordinates;
    }

    /**
     * How this file's values decode ({@code netcdf}: read as NetCDF, with netCDF's default fill
     * values).
     */
    public CfDecoding decoding(boolean netcdf) {
      if (decoding == null) {
        decoding = CfDecoding.of(variable, netcdf);
      }
      return decoding;
    }

    /**
     * The variables read with {@link #variable} on its grid (same dimensions and shape), each
     * with only its chunks that this part's box holds; empty for a read of one variable.
     */
    public List<Variable> readWith() {
      return readWith;
    }

    /** The file, as record keys name it ({@code container/member} for a member). */
    public String file() {
      return file;
    }

    /** Where the file starts in its container's original (0 for a file of its own). */
    public long start() {
      return start;
    }

    public Variable variable() {
      return variable;
    }

    /** The slab of the variable the read selects in this file. */
    public Slab slab() {
      return slab;
    }

    /** Chunks never written whose fill values this part gives. */
    public UnwrittenChunks unwritten() {
      return unwritten;
    }
  }

  /**
   * A part of one file: its regions, as a {@link RegionTask}, and the files they
   * belong to (one, or the members of a container whose regions the part reads), in order; or,
   * for files whose slab selects only chunks never written, no regions: their members' fill
   * values only.
   */
  public static final class Part {
    final Path path;
    final RegionTask regions; // null: nothing to read, only fill values
    final long modificationTime;
    final List<Member> members;

    /** The regions of one file, and the files (members) they belong to, in order. */
    public Part(RegionTask regions, long modificationTime, List<Member> members) {
      this(regions.path(), regions, modificationTime, members);
    }

    /** A part that reads nothing: its members' chunks never written, as fill values. */
    public static Part fillOnly(Path path, long modificationTime, List<Member> members) {
      return new Part(path, null, modificationTime, members);
    }

    private Part(Path path, RegionTask regions, long modificationTime, List<Member> members) {
      this.path = path;
      this.regions = regions;
      this.modificationTime = modificationTime;
      this.members = new ArrayList<>(members);
    }

    public Path path() {
      return path;
    }

    /**
     * The regions of the original file this part reads (in a restructured file, a task's); null
     * for a part of fill values only.
     */
    public AccessPattern regions() {
      return regions == null ? null : regions.parts().get(0);
    }

    /**
     * How the file holds them: in place, packed by a restructuring copy, or anywhere in it; null
     * for a part of fill values only.
     */
    public RegionTask.Layout layout() {
      return regions == null ? null : regions.layout();
    }

    /** The files whose regions it reads, by where they start. */
    public List<Member> members() {
      return Collections.unmodifiableList(members);
    }

    /** The variable of its (first) file. */
    public Variable variable() {
      return members.get(0).variable;
    }

    /** The file's modification time when the read was planned. */
    public long modificationTime() {
      return modificationTime;
    }

    /** The regions as a task of their file reads them; null for a part of fill values only. */
    public RegionTask task() {
      return regions;
    }

    /** The member holding original byte {@code offset}. */
    public Member memberAt(long offset) {
      return members.get(lastAtOrBefore(members, m -> m.start, offset));
    }
  }

  /** The last of {@code items}, in order of {@code start}, that starts at or before {@code at}. */
  public static <T> int lastAtOrBefore(List<T> items, java.util.function.ToLongFunction<T> start,
      long at) {
    int lo = 0;
    int hi = items.size() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (start.applyAsLong(items.get(mid)) <= at) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  private List<Part> parts = new ArrayList<>();

  /** For deserialization ({@link #readFields}). */
  public VariableTask() {
  }

  public VariableTask(List<Part> parts, String[] hosts) {
    super(hosts);
    this.parts = new ArrayList<>(parts);
  }

  public List<Part> parts() {
    return Collections.unmodifiableList(parts);
  }

  @Override
  public long length() {
    long n = 0;
    for (Part p : parts) {
      n += p.regions == null ? 0 : p.regions.length();
    }
    return n;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    WritableUtils.writeVInt(out, parts.size());
    for (Part p : parts) {
      out.writeBoolean(p.regions != null);
      if (p.regions != null) {
        p.regions.write(out);
      } else {
        Text.writeString(out, p.path.toString());
      }
      out.writeLong(p.modificationTime);
      WritableUtils.writeVInt(out, p.members.size());
      for (Member m : p.members) {
        Text.writeString(out, m.file);
        WritableUtils.writeVLong(out, m.start);
        VariableCodec.write(out, m.variable, m.variable.chunks(), m.slab);
        VariableCodec.write(out, m.unwritten);
        m.coordinates.write(out);
        WritableUtils.writeVInt(out, m.readWith.size());
        for (Variable w : m.readWith) {
          VariableCodec.write(out, w, w.chunks(), m.slab);
        }
      }
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    forgetHosts();
    int n = WritableUtils.readVInt(in);
    parts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      RegionTask regions = null;
      Path path;
      if (in.readBoolean()) {
        regions = new RegionTask();
        regions.readFields(in);
        path = regions.path();
      } else {
        path = new Path(Text.readString(in));
      }
      long modified = in.readLong();
      int count = WritableUtils.readVInt(in);
      List<Member> members = new ArrayList<>(count);
      for (int j = 0; j < count; j++) {
        String file = Text.readString(in);
        long start = WritableUtils.readVLong(in);
        VariableCodec.Read v = VariableCodec.read(in);
        UnwrittenChunks unwritten = VariableCodec.readUnwritten(in);
        Coordinates coordinates = Coordinates.read(in);
        int with = WritableUtils.readVInt(in);
        List<Variable> readWith = new ArrayList<>(with);
        for (int k = 0; k < with; k++) {
          readWith.add(VariableCodec.read(in).variable);
        }
        members.add(new Member(file, start, v.variable, v.slab, unwritten, coordinates)
            .readingWith(readWith));
      }
      parts.add(new Part(path, regions, modified, members));
    }
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (Part p : parts) {
      b.append(b.length() == 0 ? "" : ", ").append(p.path().getName()).append(' ')
          .append(p.regions == null ? "fill values" : p.regions.regionCount() + " regions");
    }
    return b + " on " + java.util.Arrays.toString(hosts());
  }
}
