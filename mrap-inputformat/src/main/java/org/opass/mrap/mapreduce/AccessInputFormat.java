package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.locality.SplitLocality;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.PatternException;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.StridedPattern;
import org.opass.mrap.pattern.TiledPattern;

/**
 * MRAP's non-contiguous input (thesis §4.3.1): each map task reads only the regions of its
 * files that the job's access pattern names ({@link PatternConfig}: strided, nested, subarray,
 * tiled, indexed), one record per region: the key is the region's logical offset (its place in
 * the file's regions laid end to end), the value its bytes. The pattern is checked against each
 * input file when the job is submitted.
 *
 * <p>Splits: a tiled pattern gives one split per tile; the other kinds are cut in file order,
 * by default into one split per block of the file (the regions starting in it: as many tasks as
 * a plain scan, each local to its block), or, when {@value #SPLIT_BYTES} is set, into splits
 * of about that many bytes of interest (fewer tasks for a sparse pattern). A split's regions
 * may span several chunks (HDFS blocks); {@value #CHUNKS} says how to place it (thesis
 * §4.3.3):
 * <ul>
 *   <li>{@code together} (default): the split stays as cut and prefers the hosts Algorithm
 *   4.3.2's weighted set cover prices cheapest (most of its bytes, the rest nearest by rack);</li>
 *   <li>{@code independent} (records may be processed in any grouping): virtual splits, the
 *   regions regrouped by the block they start in and the blocks by a host that holds them, so
 *   that every split is local to its host.</li>
 * </ul>
 *
 * <p>Reading: regions of one block whose gap is at most {@value #COALESCE_GAP} bytes (default
 * 64 KiB) are read with one positioned read, up to 8 MiB at once. That reads the gaps too (more
 * bytes from the DataNode) to save a round trip each; 0 reads exactly the regions.
 */
public class AccessInputFormat extends FileInputFormat<LongWritable, BytesWritable> {
  /** Bytes of interest per split (k, m, g suffixes); default: a split per block of the file. */
  public static final String SPLIT_BYTES = "mrap.access.split.bytes";
  /** Largest gap read through to join two regions in one read; 0 never joins. */
  public static final String COALESCE_GAP = "mrap.access.coalesce.gap";
  public static final long COALESCE_GAP_DEFAULT = 64 * 1024;
  /** {@code together} (default) or {@code independent}: how a split's chunks are placed. */
  public static final String CHUNKS = "mrap.access.chunks";
  /**
   * How a restructured input file (one with a stored layout, written by MRAP's copy) is read:
   * {@code stored} (default) requires the job's pattern to be the one it was restructured for
   * and reads each task's packed chunks contiguously; {@code index} reads any pattern through
   * the stored index (a few reads a region, and no locality).
   */
  public static final String RESTRUCTURED = "mrap.access.restructured";
  /** Cost of a byte from another rack, against 1 from the same rack, in Algorithm 4.3.2. */
  static final double OFF_RACK_COST = 2;
  /** Most bytes read at once when regions are joined. */
  static final int MAX_JOINED_READ = 8 << 20;
  /** A region is one record: at most what one byte array holds. */
  static final long MAX_REGION_BYTES = Integer.MAX_VALUE - 64;

  public static void setSplitBytes(Job job, long bytes) {
    job.getConfiguration().setLong(SPLIT_BYTES, bytes);
  }

  public static void setCoalesceGap(Job job, long bytes) {
    job.getConfiguration().setLong(COALESCE_GAP, bytes);
  }

  /** Whether the records of a split may be regrouped into virtual splits. */
  public static void setIndependentChunks(Job job, boolean independent) {
    job.getConfiguration().set(CHUNKS, independent ? "independent" : "together");
  }

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    PatternConfig pc = MrapConf.pattern(conf);
    long splitBytes = MrapConf.bytes(conf, SPLIT_BYTES, 0);
    MrapConf.bytes(conf, COALESCE_GAP, COALESCE_GAP_DEFAULT); // checked now, not in a task
    boolean independent = independent(conf, pc);
    List<InputSplit> splits = new ArrayList<>();
    String restructured = conf.getTrimmed(RESTRUCTURED, "stored");
    if (!restructured.equals("stored") && !restructured.equals("index")) {
      throw new InvalidJobConfException(RESTRUCTURED + "=" + restructured + " must be stored "
          + "or index");
    }
    for (FileStatus file : listStatus(job)) {
      Path path = file.getPath();
      FileSystem fs = path.getFileSystem(conf);
      RestructuredLayout layout = RestructuredFiles.layoutOf(fs, path);
      long logicalLength = layout != null ? layout.logicalLength() : file.getLen();
      try {
        pc.checkWithin(logicalLength, path.toString());
      } catch (PatternException e) {
        throw MrapConf.invalid(e);
      }
      Blocks blocks = new Blocks(fs.getFileBlockLocations(file, 0, file.getLen()));
      long perSplit = splitBytes; // 0: cut at block boundaries
      if (layout != null && restructured.equals("stored")) {
        if (pc.pattern() == null || !pc.pattern().equals(layout.pattern())) {
          throw new InvalidJobConfException(path + " was restructured for the pattern "
              + layout.pattern() + ", and this job reads " + pc + ": run it with the stored "
              + "pattern, set " + RESTRUCTURED + "=index to read it through the stored index "
              + "(slower), or restructure the file again for this pattern");
        }
        packed(layout, path, file, blocks, splits);
      } else if (layout != null) {
        List<InputSplit> logicalSplits = pc.tiles() != null ? tileSplits(pc, path, file, blocks)
            : plainSplits(pc, perSplit, path, file, blocks);
        for (InputSplit s : logicalSplits) {
          AccessSplit a = (AccessSplit) s;
          splits.add(AccessSplit.throughIndex(path, a.parts().get(0), a.logicalStart(0),
              file.getBlockSize()));
        }
      } else if (pc.tiles() != null) {
        splits.addAll(tileSplits(pc, path, file, blocks));
      } else if (independent) {
        virtual(pc, path, file, blocks, perSplit, splits);
      } else {
        splits.addAll(plainSplits(pc, perSplit, path, file, blocks));
      }
    }
    return splits;
  }

  private static List<InputSplit> tileSplits(PatternConfig pc, Path path, FileStatus file,
      Blocks blocks) throws IOException {
    List<InputSplit> out = new ArrayList<>();
    TiledPattern tiles = pc.tiles();
    long logical = 0;
    for (long t = 0; t < tiles.tileCount(); t++) {
      AccessPattern tile = tiles.tile(t);
      out.add(new AccessSplit(path, tile, logical, file.getBlockSize(), blocks.ranked(tile)));
      logical += tile.totalBytes();
    }
    return out;
  }

  /** One split per task of a restructured file, each reading its packed chunks. */
  private static void packed(RestructuredLayout layout, Path path, FileStatus file,
      Blocks blocks, List<InputSplit> out) throws IOException {
    long logical = 0;
    for (int t = 0; t < layout.tasks(); t++) {
      AccessPattern task = layout.pattern().slice(layout.taskFrom(t), layout.taskTo(t));
      long start = layout.taskStart(t);
      long end = Math.min(layout.taskEnd(t), file.getLen());
      String[] hosts = end > start
          ? blocks.ranked(StridedPattern.vector(start, end - start, 0, 1)) : new String[0];
      out.add(AccessSplit.packed(path, task, logical, layout.chunkSize(), layout.taskStart(t),
          file.getBlockSize(), hosts));
      logical += task.totalBytes();
    }
  }

  private static boolean independent(Configuration conf, PatternConfig pc)
      throws InvalidJobConfException {
    String mode = conf.getTrimmed(CHUNKS, "together");
    if (!mode.equals("together") && !mode.equals("independent")) {
      throw new InvalidJobConfException(CHUNKS + "=" + mode + " must be together or "
          + "independent");
    }
    if (mode.equals("independent") && pc.tiles() != null) {
      throw new InvalidJobConfException(CHUNKS + "=independent does not apply to tiles (a "
          + "tile is one task's unit): use together");
    }
    return mode.equals("independent");
  }

  private static void checkRegion(PatternConfig pc, long length) throws InvalidJobConfException {
    if (length > MAX_REGION_BYTES) {
      throw MrapConf.invalid(new PatternException(pc.kind().equals("strided")
          ? PatternConfig.STRIDED_SIZE : PatternConfig.KIND, "a region of " + length
          + " bytes is more than one record can hold (" + MAX_REGION_BYTES + ")"));
    }
  }

  /**
   * Cuts the pattern into runs of regions in file order: of about {@code perSplit} bytes of
   * interest, or, for {@code perSplit} 0, of the regions starting in one block.
   */
  private static List<InputSplit> plainSplits(PatternConfig pc, long perSplit, Path path,
      FileStatus file, Blocks blocks) throws IOException {
    List<InputSplit> out = new ArrayList<>();
    AccessPattern p = pc.pattern();
    RegionCursor c = p.cursor();
    RegionCursor ahead = p.cursor(); // one region ahead, to see where the next one starts
    ahead.next();
    long from = 0;
    long index = 0;
    long bytes = 0;
    long logical = 0;
    while (c.next()) {
      checkRegion(pc, c.length());
      bytes += c.length();
      index++;
      boolean last = !ahead.next();
      boolean cut = perSplit > 0 ? bytes >= perSplit
          : last || blocks.indexOf(ahead.offset()) != blocks.indexOf(c.offset());
      if (cut || last) {
        AccessPattern part = p.slice(from, index);
        out.add(new AccessSplit(path, part, logical, file.getBlockSize(), blocks.ranked(part)));
        logical += bytes;
        from = index;
        bytes = 0;
      }
    }
    return out;
  }

  /**
   * Virtual splits: the regions grouped by the block their first byte is in (chunk), chunks
   * regrouped by a host that holds them ({@link SplitLocality#virtualSplits}); each group is a
   * split of that host's chunks, adjacent chunks joined into one part.
   */
  private static void virtual(PatternConfig pc, Path path, FileStatus file, Blocks blocks,
      long perSplit, List<InputSplit> out) throws IOException {
    AccessPattern p = pc.pattern();
    List<long[]> chunks = new ArrayList<>(); // from, to (region indices), logical start, bytes
    List<Integer> blockOf = new ArrayList<>();
    RegionCursor c = p.cursor();
    long index = 0;
    long logical = 0;
    while (c.next()) {
      checkRegion(pc, c.length());
      int b = blocks.indexOf(c.offset());
      if (blockOf.isEmpty() || blockOf.get(blockOf.size() - 1) != b) {
        chunks.add(new long[] {index, index, logical, 0});
        blockOf.add(b);
      }
      long[] chunk = chunks.get(chunks.size() - 1);
      chunk[1] = index + 1;
      chunk[3] += c.length();
      index++;
      logical += c.length();
    }
    List<SplitLocality.Piece> pieces = new ArrayList<>(chunks.size());
    for (int k = 0; k < chunks.size(); k++) {
      pieces.add(new SplitLocality.Piece(chunks.get(k)[3], blocks.hosts(blockOf.get(k))));
    }
    long target = perSplit > 0 ? perSplit : Math.max(1, file.getBlockSize());
    for (SplitLocality.Group g : SplitLocality.virtualSplits(pieces, target)) {
      List<AccessPattern> parts = new ArrayList<>();
      List<Long> starts = new ArrayList<>();
      long partFrom = -1;
      long partTo = -1;
      for (int k : g.chunks()) {
        long[] chunk = chunks.get(k);
        if (chunk[0] != partTo) { // not adjacent to the part so far: start a new part
          if (partFrom >= 0) {
            parts.add(p.slice(partFrom, partTo));
          }
          partFrom = chunk[0];
          starts.add(chunk[2]);
        }
        partTo = chunk[1];
      }
      parts.add(p.slice(partFrom, partTo));
      long[] logicalStarts = new long[starts.size()];
      for (int k = 0; k < logicalStarts.length; k++) {
        logicalStarts[k] = starts.get(k);
      }
      out.add(new AccessSplit(path, parts, logicalStarts, file.getBlockSize(),
          g.host() == null ? new String[0] : new String[] {g.host()}));
    }
  }

  /** A file's blocks: which block holds an offset, and the hosts (and racks) of each. */
  static final class Blocks {
    private final BlockLocation[] blocks;
    private final long[] starts;
    private final Map<String, String> rackOf = new HashMap<>();

    Blocks(BlockLocation[] blocks) throws IOException {
      this.blocks = blocks;
      starts = new long[blocks.length];
      for (int b = 0; b < blocks.length; b++) {
        starts[b] = blocks[b].getOffset();
        String[] hosts = blocks[b].getHosts();
        String[] paths = blocks[b].getTopologyPaths();
        for (int h = 0; h < hosts.length; h++) {
          String topology = h < paths.length ? paths[h] : "";
          int slash = topology.lastIndexOf('/');
          rackOf.put(hosts[h], slash > 0 ? topology.substring(0, slash) : "");
        }
      }
    }

    int indexOf(long offset) {
      int b = Arrays.binarySearch(starts, offset);
      return b >= 0 ? b : Math.max(0, -b - 2);
    }

    List<String> hosts(int b) throws IOException {
      return b < blocks.length ? Arrays.asList(blocks[b].getHosts()) : List.of();
    }

    /**
     * The hosts holding the pattern's bytes, cheapest first by Algorithm 4.3.2's price with
     * racks (at most three: what a scheduler looks at).
     */
    String[] ranked(AccessPattern p) throws IOException {
      if (blocks.length == 0) {
        return new String[0];
      }
      long[] bytes = new long[blocks.length];
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
      List<SplitLocality.Piece> pieces = new ArrayList<>();
      for (int b = 0; b < blocks.length; b++) {
        if (bytes[b] > 0) {
          pieces.add(new SplitLocality.Piece(bytes[b], hosts(b)));
        }
      }
      return SplitLocality.rank(pieces, h -> rackOf.getOrDefault(h, ""), OFF_RACK_COST)
          .stream().limit(3).map(SplitLocality.HostPrice::host).toArray(String[]::new);
    }
  }

  @Override
  public RecordReader<LongWritable, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new AccessRecordReader();
  }
}
