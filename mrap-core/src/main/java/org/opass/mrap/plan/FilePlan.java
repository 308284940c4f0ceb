package org.opass.mrap.plan;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.opass.mrap.cf.Coordinates;
import org.opass.mrap.cf.Selection;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;
import org.opass.mrap.fs.FileBlocks;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.pattern.TiledPattern;

/**
 * One input file's variable and the plan of its slab, and what reading its header cost; for a
 * container ({@code mrap-copy -pack}), one of its members'. Made by {@link VariablePlanner}.
 */
public final class FilePlan {
  private final RestructuredFiles.Inspected file;
  private final String name; // the file as keys name it: its path, or container/member
  private final long start; // where it starts in its container's original, else 0
  private final Variable variable;
  private final Coordinates coordinates;
  private final Selection.Resolved selected; // with a selection by value, else null
  private final long headerReads;
  private final long headerNanos;
  private final SlabPlan plan; // null: a selection picks nothing in this file
  private final TiledPattern tiles; // with mrap.science.tile, else null
  private final List<Variable> readWith; // read with the variable, on its grid
  private final BlockLocation[] blocks; // a store's, at its chunks' addresses; else null

  /** What a file's header said before its slab is planned (and a plan that reads nothing). */
  private FilePlan(Source source, Variable variable, Coordinates coordinates,
      Selection.Resolved selected, long headerReads, long headerNanos) {
    this.file = source.file;
    this.name = source.name;
    this.start = source.start;
    this.variable = variable;
    this.coordinates = coordinates;
    this.selected = selected;
    this.headerReads = headerReads;
    this.headerNanos = headerNanos;
    this.plan = null;
    this.tiles = null;
    this.readWith = List.of();
    this.blocks = null;
  }

  private FilePlan(FilePlan header, SlabPlan plan, TiledPattern tiles, List<Variable> readWith) {
    this.file = header.file;
    this.name = header.name;
    this.start = header.start;
    this.variable = header.variable;
    this.coordinates = header.coordinates;
    this.selected = header.selected;
    this.headerReads = header.headerReads;
    this.headerNanos = header.headerNanos;
    this.plan = plan;
    this.tiles = tiles;
    this.readWith = List.copyOf(readWith);
    this.blocks = header.blocks;
  }

  private FilePlan(FilePlan p, FileStatus asFile, BlockLocation[] blocks, long headerReads) {
    this.file = RestructuredFiles.plain(asFile);
    this.name = p.name;
    this.start = p.start;
    this.variable = p.variable;
    this.coordinates = p.coordinates;
    this.selected = p.selected;
    this.headerReads = headerReads;
    this.headerNanos = p.headerNanos;
    this.plan = p.plan;
    this.tiles = p.tiles;
    this.readWith = p.readWith;
    this.blocks = blocks;
  }

  /**
   * This plan of a store's variable, the store seen as one file of its chunks' addresses
   * ({@code asFile}) whose blocks are {@code blocks}; its metadata cost {@code headerReads}.
   */
  FilePlan inStore(FileStatus asFile, BlockLocation[] blocks, long headerReads) {
    return new FilePlan(this, asFile, blocks, headerReads);
  }

  /** The blocks of the file, or of a store's chunks at their addresses. */
  public FileBlocks blocks(Configuration conf) throws IOException {
    return blocks != null ? new FileBlocks(blocks) : new FileBlocks(status(), conf);
  }

  /** Where a plan's variable lies: a file as read, or a member of a container. */
  static final class Source {
    final RestructuredFiles.Inspected file;
    final String name;
    final long start;

    /** {@code name}: the file as keys name it; {@code start}: in its container's original. */
    Source(RestructuredFiles.Inspected file, String name, long start) {
      this.file = file;
      this.name = name;
      this.start = start;
    }
  }

  /**
   * The plan of a file whose header was read ({@code headerReads} positioned reads in {@code
   * headerNanos}), before its slab is planned: it reads nothing ({@link #selectsNothing}).
   */
  static FilePlan header(Source source, Variable variable, Coordinates coordinates,
      Selection.Resolved selected, long headerReads, long headerNanos) {
    return new FilePlan(source, variable, coordinates, selected, headerReads, headerNanos);
  }

  /**
   * The plan of a file a selection by value surely misses, as a series index says of its
   * coordinates' extremes ({@code extremes}: those of the dimension it misses) without its
   * header or entry read: it reads nothing, and has no variable.
   */
  static FilePlan missed(Source source, Coordinates extremes, long nanos) {
    return new FilePlan(source, null, extremes, Selection.Resolved.nothing(), 0, nanos);
  }

  /** This file's slab planned ({@code tiles} too, with mrap.science.tile), read with others. */
  FilePlan planned(SlabPlan slab, TiledPattern tiles, List<Variable> readWith) {
    return new FilePlan(this, slab, tiles, readWith);
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

  /**
   * The variable, as the file's header describes it; null for a file a series index shows a
   * selection misses ({@link #selectsNothing}), whose entry was not read.
   */
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
    return new FilePlan(this, null, null, List.of());
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
