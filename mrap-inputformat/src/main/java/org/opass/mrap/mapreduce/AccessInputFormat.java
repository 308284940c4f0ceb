package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
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
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.StridedPattern;
import org.opass.mrap.pattern.TaskPartition;
import org.opass.mrap.read.RestructuredFiles;

/**
 * MRAP's non-contiguous input (thesis §4.3.1): each map task reads only the regions of its
 * files that the job's access pattern names ({@link PatternConfig}: strided, nested, subarray,
 * tiled, indexed), one record per region: the key is the region's logical offset (its place in
 * the file's regions laid end to end), the value its bytes. A region longer than
 * {@value #RECORD_BYTES} (default 64 MiB) comes as several records, keyed by their own logical
 * offsets. The pattern is checked against every input file when the job is submitted; empty
 * files are skipped.
 *
 * <p>Splits: a tiled pattern gives one split per tile; the other kinds are cut in file order,
 * by default into one split per block of the file (the regions starting in it: as many tasks as
 * a plain scan, each local to its block), or, when {@value #SPLIT_BYTES} is set, into splits
 * of about that many bytes of interest (fewer tasks for a sparse pattern). Cutting looks the
 * cuts up in the pattern; it never walks its regions. A split's regions may span several
 * chunks (HDFS blocks); {@value #CHUNKS} says how to place it (thesis §4.3.3):
 * <ul>
 *   <li>{@code together} (default): the split stays as cut and prefers the primary host of
 *   Algorithm 4.3.2's weighted set cover, then the next cheapest hosts;</li>
 *   <li>{@code independent} (records may be processed in any grouping): virtual splits, the
 *   regions regrouped by the block they start in and the blocks by a host that holds them, so
 *   that every split is local to its host.</li>
 * </ul>
 *
 * <p>A restructured file (written by {@code mrap-copy}, carrying its layout) is read as
 * {@value #RESTRUCTURED} says: {@code stored} (default) refuses a pattern other than the one
 * it was restructured for, naming both, and gives a split per packed task (per tile, for a
 * file stored tile by tile: one read each); {@code index} reads any pattern through the
 * layout.
 *
 * <p>Reading: regions of one block whose gap is at most {@value #COALESCE_GAP} bytes (default
 * 64 KiB) are read with one positioned read, up to 8 MiB at once. That reads the gaps too (more
 * bytes from the DataNode) to save a round trip each; 0 reads exactly the regions.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class AccessInputFormat extends FileInputFormat<LongWritable, BytesWritable> {
  /** Bytes of interest per split (k, m, g suffixes); default: a split per block of the file. */
  public static final String SPLIT_BYTES = "mrap.access.split.bytes";
  /** Largest gap read through to join two regions in one read; 0 never joins. */
  public static final String COALESCE_GAP = "mrap.access.coalesce.gap";
  public static final long COALESCE_GAP_DEFAULT = 64 * 1024;
  /** Most bytes in one record: a longer region comes as several records. */
  public static final String RECORD_BYTES = "mrap.access.record.bytes";
  public static final long RECORD_BYTES_DEFAULT = 64L << 20;
  /** {@code together} (default) or {@code independent}: how a split's chunks are placed. */
  public static final String CHUNKS = "mrap.access.chunks";
  /**
   * How a restructured input file (one written by MRAP's copy) is read: {@code stored}
   * (default) requires the job's pattern to be the one it was restructured for and reads each
   * task's packed chunks contiguously; {@code index} reads any pattern through the stored
   * layout (a few reads a region, and no locality).
   */
  public static final String RESTRUCTURED = "mrap.access.restructured";
  /** Every setting under {@code mrap.access.}; another name there is refused. */
  public static final List<String> KEYS = Arrays.asList(SPLIT_BYTES, COALESCE_GAP,
      RECORD_BYTES, CHUNKS, RESTRUCTURED);
  /** Cost of a byte from another rack, against 1 from the same rack, in Algorithm 4.3.2. */
  static final double OFF_RACK_COST = 2;
  /** Most bytes read at once when regions are joined. */
  static final int MAX_JOINED_READ = 8 << 20;
  /** Most bytes one record can hold: what one byte array holds. */
  static final long MAX_RECORD_BYTES = Integer.MAX_VALUE - 64;
  /** Input files whose misfit a refusal lists one by one. */
  private static final int LISTED = 10;

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

  /** The most bytes of one record (a longer region is several); a bad value names the key. */
  public static long recordBytes(Configuration conf) throws InvalidJobConfException {
    long n = MrapConf.bytes(conf, RECORD_BYTES, RECORD_BYTES_DEFAULT, 1);
    if (n > MAX_RECORD_BYTES) {
      throw new InvalidJobConfException(RECORD_BYTES + "=" + conf.get(RECORD_BYTES) + " is "
          + "more than one record can hold (" + MAX_RECORD_BYTES + " bytes)");
    }
    return n;
  }

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    MrapConf.checkKeys(conf, "mrap.access.", KEYS);
    PatternConfig pc = MrapConf.pattern(conf);
    long splitBytes = MrapConf.bytes(conf, SPLIT_BYTES, 0);
    MrapConf.bytes(conf, COALESCE_GAP, COALESCE_GAP_DEFAULT); // checked now, not in a task
    recordBytes(conf);
    boolean independent = MrapConf.choice(conf, CHUNKS, "together", "independent")
        .equals("independent");
    if (independent && pc.tiles() != null) {
      throw new InvalidJobConfException(CHUNKS + "=independent does not apply to tiles (a "
          + "tile is one task's unit): use together");
    }
    boolean stored = MrapConf.choice(conf, RESTRUCTURED, "stored", "index").equals("stored");
    List<FileStatus> listed = listStatus(job);
    List<RestructuredFiles.Inspected> files = new ArrayList<>();
    List<String> misfits = new ArrayList<>();
    List<String> empty = new ArrayList<>();
    for (RestructuredFiles.Inspected f : RestructuredFiles.inspectAll(conf, listed)) {
      if (f.layout() != null && f.layout().members() != null) {
        throw new InvalidJobConfException(RestructuredFiles.containerRefusal(
            f.status().getPath(), f.layout().members(), "its records would not say which file "
            + "they came from (VariableInputFormat reads its members' variable in place)"));
      }
      if (f.logicalLength() == 0) {
        empty.add(f.status().getPath().toString());
      } else if (pc.end() > f.logicalLength()) {
        misfits.add(f.status().getPath() + " (" + f.logicalLength() + " bytes)");
      } else {
        files.add(f);
      }
    }
    if (!misfits.isEmpty()) {
      throw new InvalidJobConfException(pc.extentProperty() + ": " + pc.misfit(listOf(misfits)));
    }
    if (files.isEmpty() && !empty.isEmpty()) {
      throw new InvalidJobConfException("every input file is empty, so none holds the "
          + "pattern's regions: " + listOf(empty));
    }
    List<InputSplit> splits = new ArrayList<>();
    for (RestructuredFiles.Inspected file : files) {
      if (file.layout() != null && stored) {
        if (!(pc.tiles() != null ? file.layout().packs(pc.tiles())
            : file.layout().packs(pc.pattern()))) {
          throw new InvalidJobConfException(RestructuredFiles.otherRegionsRefusal(
              file.status().getPath(), file.layout(), pc.toString(), RESTRUCTURED));
        }
        packed(file, conf, splits);
      } else if (file.layout() != null) {
        RestructuredLayout layout = file.layout();
        TaskPartition tasks = partition(pc, splitBytes, chunkStarts(layout));
        for (int t = 0; t < tasks.tasks(); t++) {
          splits.add(AccessSplit.throughIndex(file, tasks.task(t), tasks.logicalStart(t)));
        }
      } else {
        Blocks blocks = new Blocks(file.status(), conf);
        if (independent) {
          virtual(pc.pattern(), file.status(), blocks, splitBytes, splits);
        } else {
          TaskPartition tasks = partition(pc, splitBytes, blocks.starts);
          for (int t = 0; t < tasks.tasks(); t++) {
            AccessPattern part = tasks.task(t);
            splits.add(new AccessSplit(file.status().getPath(), file.status().getLen(), part,
                tasks.logicalStart(t), file.status().getBlockSize(), blocks.ranked(part)));
          }
        }
      }
    }
    return splits;
  }

  /**
   * The tasks of one file: a tile each, about {@code splitBytes} of interest each, or the
   * regions starting in each block.
   *
   * @throws InvalidJobConfException naming the key when that makes more tasks than a job holds
   */
  private static TaskPartition partition(PatternConfig pc, long splitBytes, long[] blockStarts)
      throws InvalidJobConfException {
    try {
      return pc.tiles() != null ? TaskPartition.ofTiles(pc.tiles())
          : splitBytes > 0 ? TaskPartition.byBytes(pc.pattern(), splitBytes)
          : TaskPartition.byBlocks(pc.pattern(), blockStarts);
    } catch (IllegalArgumentException e) {
      throw new InvalidJobConfException((pc.tiles() != null ? PatternConfig.TILE_SHAPE
          : SPLIT_BYTES) + ": " + e.getMessage());
    }
  }

  private static String listOf(List<String> items) {
    String s = String.join(", ", items.subList(0, Math.min(LISTED, items.size())));
    return items.size() > LISTED ? s + " and " + (items.size() - LISTED) + " more" : s;
  }

  /** The chunk boundaries of a restructured file's original, to cut its logical view by. */
  private static long[] chunkStarts(RestructuredLayout layout) {
    long n = (layout.logicalLength() - 1) / layout.chunkSize() + 1;
    long[] starts = new long[(int) Math.min(n, Integer.MAX_VALUE - 8)];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = i * layout.chunkSize();
    }
    return starts;
  }

  /** One split per task of a restructured file, each reading its packed chunks. */
  private static void packed(RestructuredFiles.Inspected file, Configuration conf,
      List<InputSplit> out) throws IOException {
    RestructuredLayout layout = file.layout();
    Blocks blocks = new Blocks(file.status(), conf);
    for (int t = 0; t < layout.tasks().tasks(); t++) {
      out.add(AccessSplit.packed(file, t, blocks.rankedTask(layout, t)));
    }
  }

  /**
   * Virtual splits: the regions grouped by the block their first byte is in (chunk), chunks
   * regrouped by a host that holds them ({@link SplitLocality#virtualSplits}); each group is a
   * split of that host's chunks, adjacent chunks joined into one part.
   */
  private static void virtual(AccessPattern p, FileStatus file, Blocks blocks, long perSplit,
      List<InputSplit> out) throws IOException {
    TaskPartition byBlock = TaskPartition.byBlocks(p, blocks.starts);
    List<SplitLocality.Piece> pieces = new ArrayList<>(byBlock.tasks());
    for (int k = 0; k < byBlock.tasks(); k++) {
      AccessPattern chunk = byBlock.task(k);
      pieces.add(new SplitLocality.Piece(chunk.totalBytes(),
          blocks.hosts(blocks.indexOf(chunk.offsetOf(0)))));
    }
    long target = perSplit > 0 ? perSplit : Math.max(1, file.getBlockSize());
    for (SplitLocality.Group g : SplitLocality.virtualSplits(pieces, target)) {
      List<AccessPattern> parts = new ArrayList<>();
      List<Long> starts = new ArrayList<>();
      int[] ks = g.chunks();
      for (int i = 0; i < ks.length; i++) {
        int first = ks[i];
        while (i + 1 < ks.length && ks[i + 1] == ks[i] + 1) {
          i++; // adjacent chunks: one part
        }
        long to = ks[i] + 1 < byBlock.tasks() ? byBlock.regionFrom(ks[i] + 1)
            : p.regionCount();
        parts.add(p.slice(byBlock.regionFrom(first), to));
        starts.add(byBlock.logicalStart(first));
      }
      long[] logicalStarts = new long[starts.size()];
      for (int k = 0; k < logicalStarts.length; k++) {
        logicalStarts[k] = starts.get(k);
      }
      out.add(new AccessSplit(file.getPath(), file.getLen(), parts, logicalStarts,
          file.getBlockSize(), g.host() == null ? new String[0] : new String[] {g.host()}));
    }
  }

  /** A file's blocks: which block holds an offset, and the hosts (and racks) of each. */
  static final class Blocks {
    private final BlockLocation[] blocks;
    final long[] starts;
    private final Map<String, String> rackOf = new HashMap<>();

    Blocks(FileStatus file, Configuration conf) throws IOException {
      this(file instanceof LocatedFileStatus ? ((LocatedFileStatus) file).getBlockLocations()
          : file.getPath().getFileSystem(conf).getFileBlockLocations(file, 0, file.getLen()));
    }

    Blocks(BlockLocation[] blocks) throws IOException {
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

    int indexOf(long offset) {
      int b = Arrays.binarySearch(starts, offset);
      return b >= 0 ? b : Math.max(0, -b - 2);
    }

    List<String> hosts(int b) throws IOException {
      return b < blocks.length ? Arrays.asList(blocks[b].getHosts()) : List.of();
    }

    /** The hosts for a packed task of a restructured file: those of its bytes, ranked. */
    String[] rankedTask(RestructuredLayout layout, int t) throws IOException {
      long start = layout.taskStart(t);
      return ranked(StridedPattern.vector(start, layout.taskEnd(t) - start, 0, 1));
    }

    /**
     * The hosts for a split of these regions, by Algorithm 4.3.2: the primary, then the
     * secondaries that supply what it lacks, then other holders cheapest first (at most three:
     * what a scheduler looks at). The bytes per block are looked up, not walked, for a pattern
     * whose regions do not overlap.
     */
    String[] ranked(AccessPattern p) throws IOException {
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
  }

  @Override
  public RecordReader<LongWritable, BytesWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new AccessRecordReader();
  }
}
