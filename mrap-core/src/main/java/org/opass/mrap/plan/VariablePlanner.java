package org.opass.mrap.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.opass.mrap.layout.Members;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.pattern.TiledPattern;
import org.opass.mrap.read.InParallel;
import org.opass.mrap.read.LogicalReads;
import org.opass.mrap.read.RestructuredFiles;
import org.opass.mrap.science.Positioned;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.science.ScienceFormatException;
import org.opass.mrap.science.Slab;
import org.opass.mrap.science.SlabPlan;
import org.opass.mrap.science.Variable;
import org.opass.mrap.science.VariableTiles;

/**
 * A variable's slab (or tiles) over files, planned: each file's header read with a few
 * positioned reads (eight files at a time; a restructured file's through its layout, a
 * container's members one after another), the variable found by name and its slab turned into
 * byte regions ({@link SlabPlan}). What every engine plans a read of scientific variables
 * with: {@code VariableInputFormat}, {@code mrap-copy} and the Spark source.
 */
public final class VariablePlanner {
  /** Headers read at once. */
  static final int HEADER_READERS = 8;

  private final Configuration conf;
  private final ScienceFiles.Kind kind;
  private final String variable;
  private final String slab; // null: the whole variable
  private final String tile; // null: a slab
  private final long recordBytes;

  /** @throws InvalidSettingsException naming the setting at fault, before any file is read */
  public VariablePlanner(Configuration conf) throws InvalidSettingsException {
    this.conf = conf;
    this.kind = VariableSettings.check(conf);
    this.variable = MrapConf.get(conf, VariableSettings.VARIABLE).trim();
    this.slab = MrapConf.get(conf, VariableSettings.SLAB);
    this.tile = MrapConf.get(conf, VariableSettings.TILE);
    this.recordBytes = AccessSettings.recordBytes(conf);
  }

  /**
   * The plans of {@code files}: a plan a file, or a container's members' in order.
   *
   * @throws InvalidSettingsException naming the key, the file and why, for a variable or slab
   *     that a file cannot serve
   */
  public static List<FilePlan> plan(Configuration conf, List<FileStatus> files)
      throws IOException {
    List<FilePlan> all = new ArrayList<>();
    for (List<FilePlan> one : new VariablePlanner(conf).planByFile(files)) {
      all.addAll(one);
    }
    return all;
  }

  /** The plans of each of {@code files}, in order: one, or a container's members'. */
  public List<List<FilePlan>> planByFile(List<FileStatus> files) throws IOException {
    return InParallel.map(files, HEADER_READERS, "headers", this::planFile);
  }

  /** Bytes {@code [start, start + length)} of a restructured file's original, as a file. */
  private static Positioned stretch(LogicalReads original, long start, long length) {
    return new Positioned() {
      @Override
      public long length() {
        return length;
      }

      @Override
      protected int readAt(long pos, byte[] b, int off, int len) throws IOException {
        if (pos >= length) {
          return -1;
        }
        int n = (int) Math.min(len, length - pos);
        original.read(start + pos, b, off, n);
        return n;
      }
    };
  }

  private List<FilePlan> planFile(FileStatus f) throws IOException {
    long t0 = System.nanoTime();
    FileSystem fs = f.getPath().getFileSystem(conf);
    String name = f.getPath().toString();
    try (FSDataInputStream in = fs.open(f.getPath())) {
      Positioned plain = new Positioned() {
        @Override
        public long length() {
          return f.getLen();
        }

        @Override
        protected int readAt(long pos, byte[] b, int off, int len) throws IOException {
          return in.read(pos, b, off, len);
        }
      };
      // one read of the front tells a restructured file, and holds most headers
      byte[] head = plain.keepHead(ScienceFiles.HEAD);
      RestructuredFiles.Inspected inspected = RestructuredFiles.inspect(in, f, head);
      RestructuredLayout layout = inspected.layout();
      if (layout == null) {
        return List.of(planVariable(plain, inspected, name, 0, 0, t0));
      }
      // a restructured file's header is read at its original offsets, through its layout
      LogicalReads original = new LogicalReads(in, layout, 64 * 1024);
      Members members = layout.members();
      if (members == null) {
        return List.of(planVariable(stretch(original, 0, layout.logicalLength()), inspected,
            name, 0, plain.reads(), t0));
      }
      List<FilePlan> out = new ArrayList<>();
      for (int i = 0; i < members.count(); i++) { // a container: each member's header
        out.add(planVariable(stretch(original, members.start(i), members.length(i)), inspected,
            name + "/" + members.name(i), members.start(i), i == 0 ? plain.reads() : 0,
            i == 0 ? t0 : System.nanoTime()));
      }
      return out;
    }
  }

  /** The plan of one file's (or member's) variable, from its header read through {@code file}. */
  private FilePlan planVariable(Positioned file, RestructuredFiles.Inspected inspected,
      String name, long start, long readsBefore, long t0) throws IOException {
    Variable v;
    try {
      v = ScienceFiles.variable(file, name, kind, variable);
    } catch (ScienceFormatException e) {
      throw new InvalidSettingsException(VariableSettings.VARIABLE + "=" + variable + ": "
          + e.getMessage(), e);
    }
    Slab s;
    try {
      s = Slab.parse(slab, v.shape());
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new InvalidSettingsException(VariableSettings.SLAB + "=" + slab + " does not fit "
          + name + "'s " + v + ": " + e.getMessage(), e);
    }
    TiledPattern tiles = null;
    if (tile != null) {
      try {
        tiles = VariableTiles.of(v, tile);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new InvalidSettingsException(VariableSettings.TILE + "=" + tile + ": "
            + e.getMessage(), e);
      }
    }
    SlabPlan plan;
    try {
      plan = SlabPlan.of(v, s, recordBytes);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new InvalidSettingsException(VariableSettings.VARIABLE + "=" + variable + ": "
          + name + ": " + v + " cannot be planned: " + e.getMessage(), e);
    }
    return new FilePlan(inspected, name, start, plan, tiles, readsBefore + file.reads(),
        System.nanoTime() - t0);
  }
}
