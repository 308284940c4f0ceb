package org.opass.mrap.plan;

import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.opass.mrap.cf.Coordinates;
import org.opass.mrap.cf.Selection;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;
import org.opass.mrap.pattern.TiledPattern;
import org.opass.mrap.read.RestructuredFiles;

/**
 * One input file's variable and the plan of its slab, and what reading its header cost; for a
 * container ({@code mrap-copy -pack}), one of its members'. Made by {@link VariablePlanner}.
 */
public final class FilePlan {
  private final RestructuredFiles.Inspected file;
  private final String name; // the file as keys name it: its path, or container/member
  private final long start; // where it starts in its container's original, else 0
  private final SlabPlan plan;
  private final TiledPattern tiles; // with mrap.science.tile, else null
  private final long headerReads;
  private final long headerNanos;
  private final Coordinates coordinates;
  private final Variable variable;
  private final Selection.Resolved selected; // with a selection by value, else null
  private final List<Variable> readWith; // read with the variable, on its grid

  FilePlan(RestructuredFiles.Inspected file, String name, long start, Variable variable,
      SlabPlan plan, TiledPattern tiles, Coordinates coordinates, Selection.Resolved selected,
      long headerReads, long headerNanos) {
    this(file, name, start, variable, plan, tiles, coordinates, selected, headerReads,
        headerNanos, List.of());
  }

  FilePlan(RestructuredFiles.Inspected file, String name, long start, Variable variable,
      SlabPlan plan, TiledPattern tiles, Coordinates coordinates, Selection.Resolved selected,
      long headerReads, long headerNanos, List<Variable> readWith) {
    this.readWith = List.copyOf(readWith);
    this.file = file;
    this.selected = selected;
    this.variable = variable;
    this.coordinates = coordinates;
    this.name = name;
    this.start = start;
    this.plan = plan;
    this.tiles = tiles;
    this.headerReads = headerReads;
    this.headerNanos = headerNanos;
  }

  /** The file as read: its status and, if {@code mrap-copy} restructured it, its layout. */
  public RestructuredFiles.Inspected file() {
    return file;
  }

  /** The file (for a member, its container). */
  public FileStatus status() {
    return file.status();
  }

  /** The file as keys name it: its path, or {@code container/member}. */
  public String name() {
    return name;
  }

  /** Where the file starts in its container's original; 0 for a file of its own. */
  public long start() {
    return start;
  }

  /** The member of a container this plan is of, or null for a file of its own. */
  public String member() {
    return file.layout() != null && file.layout().members() != null
        ? name.substring(name.lastIndexOf('/') + 1) : null;
  }

  /** The variable, as the file's header describes it. */
  public Variable variable() {
    return variable;
  }

  /**
   * The variables read with {@link #variable} on its grid (same dimensions and shape), each
   * with its whole chunk index; empty but for {@link VariablePlanner#readingWith}.
   */
  public List<Variable> readWith() {
    return readWith;
  }

  /** The plan of the slab; null where a selection by value picks nothing in this file. */
  public SlabPlan plan() {
    return plan;
  }

  /** What a selection by value picks in this file, or null where the read is by index. */
  public Selection.Resolved selected() {
    return selected;
  }

  /** This file, read for nothing: a selection picks nothing in it. */
  FilePlan selectingNothing() {
    return new FilePlan(file, name, start, variable, null, null, coordinates, selected,
        headerReads, headerNanos);
  }

  /** Whether a selection by value picks nothing in this file: it is not read. */
  public boolean selectsNothing() {
    return plan == null;
  }

  /** The coordinates of the variable's dimensions over the slab's indices. */
  public Coordinates coordinates() {
    return coordinates;
  }

  /** The variable's tiles in this file, or null when the read is of a slab. */
  public TiledPattern tiles() {
    return tiles;
  }

  /** Positioned reads the header took. */
  public long headerReads() {
    return headerReads;
  }

  public long headerNanos() {
    return headerNanos;
  }
}
