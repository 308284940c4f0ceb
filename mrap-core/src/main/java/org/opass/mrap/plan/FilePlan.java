package org.opass.mrap.plan;

import org.apache.hadoop.fs.FileStatus;
import org.opass.mrap.read.RestructuredFiles;
import org.opass.mrap.science.SlabPlan;
import org.opass.mrap.pattern.TiledPattern;

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

  FilePlan(RestructuredFiles.Inspected file, String name, long start, SlabPlan plan,
      TiledPattern tiles, long headerReads, long headerNanos) {
    this.file = file;
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

  public SlabPlan plan() {
    return plan;
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
