package org.opass.mrap.fs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.locality.SplitLocality;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.StridedPattern;

/** A file's blocks: which block holds an offset, and the hosts (and racks) of each. */
public final class FileBlocks {
  /** Cost of a byte from another rack, against 1 from the same rack, in Algorithm 4.3.2. */
  static final double OFF_RACK_COST = 2;

  private final BlockLocation[] blocks;
  private final long[] starts;
  private final Map<String, String> rackOf = new HashMap<>();

  public FileBlocks(FileStatus file, Configuration conf) throws IOException {
    this(file instanceof LocatedFileStatus ? ((LocatedFileStatus) file).getBlockLocations()
        : file.getPath().getFileSystem(conf).getFileBlockLocations(file, 0, file.getLen()));
  }

  public FileBlocks(BlockLocation[] blocks) throws IOException {
    this.blocks = blocks == null || blocks.length == 0 ? new BlockLocation[0] : blocks;
    starts = new long[Math.max(1, this.blocks.length)];
    for (int b = 0; b < this.blocks.length; b++) {
      starts[b] = this.blocks[b].getOffset();
      String[] hosts = this.blocks[b].getHosts();
      String[] paths = this.blocks[b].getTopologyPaths();
      for (int h = 0; h < hosts.length; h++) {
        String topology = h < paths.length ? paths[h] : "";
        int slash = topology.lastIndexOf('/');
        rackOf.put(hosts[h], slash > 0 ? topology.substring(0, slash) : "");
      }
    }
  }

  /** The block that holds {@code offset}. */
  public int indexOf(long offset) {
    int b = Arrays.binarySearch(starts, offset);
    return b >= 0 ? b : Math.max(0, -b - 2);
  }

  /** The hosts of block {@code b}. */
  public List<String> hosts(int b) throws IOException {
    return b < blocks.length ? Arrays.asList(blocks[b].getHosts()) : List.of();
  }

  /** The hosts for a packed task of a restructured file: those of its bytes, ranked. */
  public String[] rankedTask(RestructuredLayout layout, int t) throws IOException {
    long start = layout.taskStart(t);
    return ranked(StridedPattern.vector(start, layout.taskEnd(t) - start, 0, 1));
  }

  /**
   * The hosts for a split of these regions, by Algorithm 4.3.2: the primary, then the
   * secondaries that supply what it lacks, then other holders cheapest first (at most three:
   * what a scheduler looks at). The bytes per block are looked up, not walked, for a pattern
   * whose regions do not overlap.
   */
  public String[] ranked(AccessPattern p) throws IOException {
    if (blocks.length == 0 || p.regionCount() == 0) {
      return new String[0];
    }
    long[] bytes = new long[blocks.length];
    if (p.disjoint()) {
      int first = indexOf(p.offsetOf(0));
      for (int b = first; b < blocks.length && blocks[b].getOffset() < p.end(); b++) {
        long lo = blocks[b].getOffset();
        bytes[b] = p.bytesBelow(lo + blocks[b].getLength()) - p.bytesBelow(lo);
      }
    } else {
      RegionCursor c = p.cursor();
      while (c.next()) {
        long off = c.offset();
        long end = off + c.length();
        for (int b = indexOf(off); b < blocks.length && blocks[b].getOffset() < end; b++) {
          long overlap = Math.min(end, blocks[b].getOffset() + blocks[b].getLength())
              - Math.max(off, blocks[b].getOffset());
          bytes[b] += Math.max(0, overlap);
        }
      }
    }
    List<SplitLocality.Piece> pieces = new ArrayList<>();
    for (int b = 0; b < blocks.length; b++) {
      if (bytes[b] > 0) {
        pieces.add(new SplitLocality.Piece(bytes[b], hosts(b)));
      }
    }
    java.util.function.Function<String, String> racks = h -> rackOf.getOrDefault(h, "");
    // the cover's primary first; then the next cheapest hosts, where a task that cannot run
    // on the primary keeps the most of its bytes (the cover's secondaries hold only what the
    // primary lacks; HDFS serves that from the nearest replica, on the primary's rack where
    // the cover found one)
    java.util.Set<String> hosts = new java.util.LinkedHashSet<>();
    String primary = SplitLocality.cover(pieces, racks, OFF_RACK_COST).primary();
    if (primary != null) {
      hosts.add(primary);
    }
    for (SplitLocality.HostPrice h : SplitLocality.rank(pieces, racks, OFF_RACK_COST)) {
      hosts.add(h.host());
    }
    return hosts.stream().limit(3).toArray(String[]::new);
  }

  /** Where each block starts in the file (one start, 0, for a file of no blocks). */
  public long[] starts() {
    return starts.clone();
  }
}
