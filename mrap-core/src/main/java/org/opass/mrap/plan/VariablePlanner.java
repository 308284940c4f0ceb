package org.opass.mrap.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.opass.mrap.array.Slab;
import org.opass.mrap.cf.Coordinates;
import org.opass.mrap.cf.Selection;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.UnwrittenChunks;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableTiles;
import org.opass.mrap.format.VariableValues;
import org.opass.mrap.layout.Members;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.locality.SplitLocality;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.ConcatenatedPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.TaskPartition;
import org.opass.mrap.pattern.TiledPattern;
import org.opass.mrap.read.InParallel;
import org.opass.mrap.read.LogicalReads;
import org.opass.mrap.read.RestructuredFiles;
import org.opass.mrap.science.ScienceFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A variable's slab (or tiles) over files, planned: each file's header read with a few
 * positioned reads (eight files at a time; a restructured file's through its layout, a
 * container's members one after another), the variable found by name and its slab turned into
 * byte regions ({@link SlabPlan}). What every engine plans a read of scientific variables
 * with: {@code VariableInputFormat}, {@code mrap-copy} and the Spark source.
 */
public final class VariablePlanner {
  private static final Logger LOG = LoggerFactory.getLogger(VariablePlanner.class);
  /** Headers read at once. */
  static final int HEADER_READERS = 8;

  private final Configuration conf;
  private final ScienceFiles.Kind kind;
  private final String variable;
  private final String slab; // null: the whole variable
  private final String tile; // null: a slab
  private final Selection select; // null: by index
  private final long recordBytes;
  private final List<String> readWith; // variables read with it, on its grid
  private int skippedFiles;
  private final java.util.concurrent.atomic.AtomicBoolean warned =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** @throws InvalidSettingsException naming the setting at fault, before any file is read */
  public VariablePlanner(Configuration conf) throws InvalidSettingsException {
    this(conf, List.of());
  }

  /**
   * A planner whose tasks also read, for each part of the grid, the variables {@code readWith}
   * ({@link VariableTask.Member#readWith}): variables with the same dimensions and shape as
   * {@value VariableSettings#VARIABLE} in every file, read from files in place.
   *
   * @throws InvalidSettingsException naming the setting at fault, before any file is read
   */
  public VariablePlanner(Configuration conf, List<String> readWith)
      throws InvalidSettingsException {
    this.readWith = List.copyOf(readWith);
    this.conf = conf;
    this.kind = VariableSettings.check(conf);
    this.variable = MrapConf.get(conf, VariableSettings.VARIABLE).trim();
    this.slab = MrapConf.get(conf, VariableSettings.SLAB);
    this.tile = MrapConf.get(conf, VariableSettings.TILE);
    this.select = VariableSettings.selection(conf);
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

  /**
   * The plans of each of {@code files}, those a selection of one value picks nothing in once
   * the whole series is seen (its nearest element lies in another file) marked so.
   */
  private List<List<FilePlan>> nearestOverFiles(List<List<FilePlan>> byFile) {
    if (select == null) {
      return byFile;
    }
    List<Selection.Resolved> all = new ArrayList<>();
    for (List<FilePlan> one : byFile) {
      for (FilePlan fp : one) {
        all.add(fp.selected());
      }
    }
    boolean[] keep = Selection.nearestOf(all);
    List<List<FilePlan>> out = new ArrayList<>();
    int k = 0;
    for (List<FilePlan> one : byFile) {
      List<FilePlan> marked = new ArrayList<>();
      for (FilePlan fp : one) {
        marked.add(keep[k++] || fp.selectsNothing() ? fp : fp.selectingNothing());
      }
      out.add(marked);
    }
    return out;
  }

  /**
   * The plans of each of {@code files}, in order: one, or a container's members'. With a
   * selection by value, a file (or member) it picks nothing in has a plan that {@link
   * FilePlan#selectsNothing selects nothing}.
   */
  public List<List<FilePlan>> planByFile(List<FileStatus> files) throws IOException {
    return nearestOverFiles(InParallel.map(files, HEADER_READERS, "headers", this::planFile));
  }

  /**
   * {@code byFile} without the files (and members) a selection picks nothing in.
   *
   * @throws NothingSelectedException naming the selection where it picks nothing in any file
   */
  private List<List<FilePlan>> selected(List<List<FilePlan>> byFile) throws IOException {
    if (select == null) {
      return byFile;
    }
    List<List<FilePlan>> out = new ArrayList<>();
    int members = 0;
    int skipped = 0;
    for (List<FilePlan> one : byFile) {
      List<FilePlan> kept = new ArrayList<>();
      for (FilePlan fp : one) {
        members++;
        if (fp.selectsNothing()) {
          skipped++;
        } else {
          kept.add(fp);
        }
      }
      if (!kept.isEmpty()) {
        out.add(kept);
      }
    }
    skippedFiles = skipped;
    if (out.isEmpty()) {
      throw new NothingSelectedException(VariableSettings.SELECT + "=" + select + " selects "
          + "nothing in any of the " + members + " files (" + byFile.get(0).get(0).name()
          + "'s coordinates: " + byFile.get(0).get(0).coordinates() + ")");
    }
    if (skipped > 0) {
      LOG.info("{}={}: skipped {} of {} files, in which it selects nothing",
          VariableSettings.SELECT, select, skipped, members);
    }
    return out;
  }

  /**
   * The plans of the files (and members) of {@code files} that the selection by value picks
   * something in; all of them without one.
   *
   * @throws NothingSelectedException where the selection picks nothing in any file
   */
  public List<FilePlan> selectedPlans(List<FileStatus> files) throws IOException {
    List<FilePlan> out = new ArrayList<>();
    for (List<FilePlan> one : selected(planByFile(files))) {
      out.addAll(one);
    }
    return out;
  }

  /**
   * Files (and members of containers) the last {@link #tasks} skipped: a selection by value
   * picks nothing in them.
   */
  public int skippedFiles() {
    return skippedFiles;
  }

  /**
   * The tasks of the read over {@code listed} (files of no bytes skipped): each file's regions
   * cut by block and the pieces of all files shared out over the hosts that hold them ({@link
   * SplitLocality#virtualSplits}), {@value AccessSettings#SPLIT_BYTES} bytes a task (default: at
   * most a block, and tasks enough for every host holding the data to have one); a task a tile
   * of a file with {@value VariableSettings#TILE}; a restructured file's packed tasks, each read
   * contiguously; a task of fill values for each file whose slab selects nothing stored.
   *
   * @throws InvalidSettingsException naming the key, the file and why, for a variable, slab or
   *     tile that a file cannot serve, or a file restructured for another slab
   */
  public List<VariableTask> tasks(List<FileStatus> listed) throws IOException {
    long splitBytes = MrapConf.bytes(conf, AccessSettings.SPLIT_BYTES, 0);
    MrapConf.bytes(conf, AccessSettings.COALESCE_GAP, AccessSettings.COALESCE_GAP_DEFAULT);
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus f : listed) {
      if (f.getLen() > 0) {
        files.add(f);
      }
    }
    if (files.isEmpty()) {
      throw new InvalidSettingsException("no input file holds any bytes, so none holds "
          + conf.get(VariableSettings.VARIABLE));
    }
    long t0 = System.nanoTime();
    List<List<FilePlan>> all = planByFile(files);
    long reads = 0;
    int headers = 0;
    for (List<FilePlan> one : all) {
      for (FilePlan p : one) {
        reads += p.headerReads();
        headers++;
      }
    }
    LOG.info("read {} headers in {} ms, {} positioned reads", headers,
        (System.nanoTime() - t0) / 1_000_000, reads);
    List<List<FilePlan>> byFile = selected(all);
    boolean stored = AccessSettings.readAsStored(conf);
    if (byFile.get(0).get(0).tiles() != null) {
      return tileTasks(byFile, stored);
    }
    // each file's regions cut by block; the pieces of all files shared out over their hosts
    List<FileBlocks> blocks = new ArrayList<>(); // a NameNode call a file: once, for both lays
    for (List<FilePlan> one : byFile) {
      blocks.add(new FileBlocks(one.get(0).status(), conf));
    }
    Layout l = layOut(byFile, blocks, stored, Long.MAX_VALUE);
    // by default a task reads at most a block, and there are tasks enough for every host that
    // holds the data to have one: few small files make a task each, many share tasks
    long target = splitBytes > 0 ? splitBytes : Math.max(1, Math.min(l.blockSize,
        (l.total + l.hosts.size() - 1) / Math.max(1, l.hosts.size())));
    if (l.largest > target) { // a block's regions of more than a task: cut at region ends
      l = layOut(byFile, blocks, stored, target);
    }
    List<VariableTask.Part> parts = l.parts;
    List<VariableTask.Part> fillOnly = l.fillOnly;
    List<SplitLocality.Piece> pieces = l.pieces;
    List<VariableTask> out = new ArrayList<>();
    for (SplitLocality.Group g : SplitLocality.virtualSplits(pieces, target)) {
      List<VariableTask.Part> mine = new ArrayList<>();
      for (int i : g.chunks()) {
        mine.add(parts.get(i));
      }
      out.add(new VariableTask(mine, g.host() == null ? new String[0]
          : new String[] {g.host()}));
    }
    for (VariableTask.Part f : fillOnly) { // a task each: they read nothing, anywhere
      out.add(new VariableTask(List.of(f), new String[0]));
    }
    return out;
  }

  /** What {@link #tasks} shares out: the parts of the files, as pieces with their hosts. */
  private static final class Layout {
    final List<VariableTask.Part> parts = new ArrayList<>();
    final List<VariableTask.Part> fillOnly = new ArrayList<>(); // files with nothing stored
    final List<SplitLocality.Piece> pieces = new ArrayList<>();
    final Set<String> hosts = new HashSet<>();
    long blockSize;
    long total;
    long largest; // the most bytes of one file's block
  }

  /**
   * Each file's regions as parts: a restructured file's packed tasks, a task of its layout's
   * chunk size read through it, or a file's regions cut by block and, within a block, into
   * parts of at most {@code cutBytes} (at region ends); {@code fileBlocks}: each file's blocks.
   */
  private Layout layOut(List<List<FilePlan>> byFile, List<FileBlocks> fileBlocks,
      boolean stored, long cutBytes) throws IOException {
    Layout l = new Layout();
    List<VariableTask.Part> parts = l.parts;
    List<VariableTask.Part> fillOnly = l.fillOnly;
    List<SplitLocality.Piece> pieces = l.pieces;
    Set<String> hosts = l.hosts;
    long total = 0;
    long blockSize = 0;
    for (int f = 0; f < byFile.size(); f++) {
      List<FilePlan> one = byFile.get(f);
      FilePlan fp = one.get(0);
      FileBlocks blocks = fileBlocks.get(f);
      AccessPattern p = pattern(one);
      RestructuredLayout layout = fp.file().layout();
      boolean[] started = new boolean[one.size()]; // whose first part has been made
      if (layout != null && !readWith.isEmpty()) {
        throw new InvalidSettingsException(fp.status().getPath() + " is restructured by "
            + "mrap-copy for " + fp.variable().name() + " alone: variables are read together ("
            + fp.variable().name() + ", " + String.join(", ", readWith) + ") from files in "
            + "place; read the original files, or one variable from this copy");
      }
      if (p == null) {
        // every value the slab selects in this file is the fill value: nothing to read
      } else if (layout != null && layout.packs(p)) {
        // packed for this slab: a task's chunks
        for (int t = 0; t < layout.tasks().tasks(); t++) {
          RegionTask packed = RegionTask.packed(fp.file(), t, new String[0]);
          parts.add(part(one, packed, started));
          List<String> holders = blocks.hosts(blocks.indexOf(layout.taskStart(t)));
          pieces.add(new SplitLocality.Piece(packed.length(), holders));
          hosts.addAll(holders);
          total += packed.length();
        }
      } else if (layout != null && stored) {
        throw new InvalidSettingsException(RestructuredFiles.otherRegionsRefusal(
            fp.status().getPath(), layout, "the slab " + p + " of " + fp.plan().variable(),
            AccessSettings.RESTRUCTURED));
      } else if (layout != null) { // through the layout: no locality
        TaskPartition byBytes = TaskPartition.byBytes(p, Math.max(1, layout.chunkSize()));
        for (int k = 0; k < byBytes.tasks(); k++) {
          RegionTask through = RegionTask.throughIndex(fp.file(), byBytes.task(k),
              byBytes.logicalStart(k));
          parts.add(part(one, through, started));
          pieces.add(new SplitLocality.Piece(through.length(), List.of()));
          total += through.length();
        }
      } else {
        TaskPartition byBlock = TaskPartition.byBlocks(p, blocks.starts());
        for (int k = 0; k < byBlock.tasks(); k++) {
          AccessPattern block = byBlock.task(k);
          List<String> holders = blocks.hosts(blocks.indexOf(block.offsetOf(0)));
          hosts.addAll(holders);
          l.largest = Math.max(l.largest, block.totalBytes());
          TaskPartition cut = block.totalBytes() > cutBytes ? TaskPartition.byBytes(block,
              cutBytes) : TaskPartition.ofBounds(block, new long[] {0, block.regionCount()});
          for (int j = 0; j < cut.tasks(); j++) {
            AccessPattern regions = cut.task(j);
            parts.add(part(one, new RegionTask(fp.status().getPath(), fp.status().getLen(),
                regions, byBlock.logicalStart(k) + cut.logicalStart(j),
                fp.status().getBlockSize(), new String[0]), started));
            pieces.add(new SplitLocality.Piece(regions.totalBytes(), holders));
            total += regions.totalBytes();
          }
        }
      }
      List<VariableTask.Member> unread = new ArrayList<>();
      for (int i = 0; i < one.size(); i++) { // members no part reads: their fill values
        if (!started[i] && !one.get(i).plan().unwritten().isEmpty()) {
          unread.add(new VariableTask.Member(one.get(i).name(), one.get(i).start(),
              one.get(i).plan().variable(), one.get(i).plan().slab(),
              one.get(i).plan().unwritten(), one.get(i).coordinates(),
              readWithIn(one.get(i), bounds(one.get(i).plan().slab()))));
        }
      }
      if (!unread.isEmpty()) {
        fillOnly.add(VariableTask.Part.fillOnly(fp.status().getPath(),
            fp.status().getModificationTime(), unread));
      }
      blockSize = Math.max(blockSize, fp.status().getBlockSize());
    }
    l.total = total;
    l.blockSize = blockSize;
    return l;
  }

  /**
   * A task a tile of each file, on the hosts of the block it starts in: in place, packed by a
   * copy restructured for these tiles (one read), or through another layout when asked.
   */
  private List<VariableTask> tileTasks(List<List<FilePlan>> byFile, boolean stored)
      throws IOException {
    List<VariableTask> out = new ArrayList<>();
    for (List<FilePlan> one : byFile) {
      FilePlan fp = one.get(0);
      FileBlocks blocks = new FileBlocks(fp.status(), conf);
      RestructuredLayout layout = fp.file().layout();
      if (!readWith.isEmpty()) {
        throw new InvalidSettingsException(VariableSettings.TILE + "=" + conf.get(
            VariableSettings.TILE) + ": tiles are read one variable at a time; read "
            + String.join(", ", readWith) + " apart");
      }
      if (layout != null && layout.members() != null) {
        throw new InvalidSettingsException(VariableSettings.TILE + "=" + conf.get(VariableSettings.TILE) + ": "
            + RestructuredFiles.containerRefusal(fp.status().getPath(), layout.members(),
            "tiles are read from files of their own"));
      }
      if (layout != null && !layout.packs(fp.tiles()) && stored) {
        throw new InvalidSettingsException(RestructuredFiles.otherRegionsRefusal(
            fp.status().getPath(), layout, fp.plan().variable().name() + " in the tiles "
            + fp.tiles(), AccessSettings.RESTRUCTURED));
      }
      if (fp.tiles().tileCount() > Integer.MAX_VALUE - 8) {
        throw new InvalidSettingsException(VariableSettings.TILE + "=" + conf.get(VariableSettings.TILE) + ": "
            + fp.tiles().tileCount() + " tiles in " + fp.status().getPath() + ", more tasks than "
            + "a job holds");
      }
      for (int t = 0; t < fp.tiles().tileCount(); t++) {
        AccessPattern tile = fp.tiles().tile(t);
        long key = fp.tiles().bytesBeforeTile(t);
        RegionTask regions;
        String[] hosts;
        if (layout != null && layout.packs(fp.tiles())) {
          hosts = blocks.rankedTask(layout, t);
          regions = RegionTask.packed(fp.file(), t, hosts);
        } else if (layout != null) {
          hosts = new String[0];
          regions = RegionTask.throughIndex(fp.file(), tile, key);
        } else {
          hosts = blocks.ranked(tile);
          regions = new RegionTask(fp.status().getPath(), fp.status().getLen(), tile, key,
              fp.status().getBlockSize(), hosts);
        }
        out.add(new VariableTask(List.of(new VariableTask.Part(regions,
            fp.status().getModificationTime(), List.of(new VariableTask.Member(fp.name(), 0,
            fp.plan().variable(), VariableTiles.slab(fp.tiles(), t),
            UnwrittenChunks.none(fp.plan().variable().rank()),
            fp.coordinates().window(bounds(VariableTiles.slab(fp.tiles(), t))))))), hosts));
      }
    }
    return out;
  }

  /**
   * The regions of a file's slab: a container's, each member's at its start; null where none
   * of them selects a chunk ever written.
   */
  private static AccessPattern pattern(List<FilePlan> one) {
    if (one.size() == 1 && one.get(0).start() == 0 && one.get(0).member() == null) {
      return one.get(0).plan().pattern();
    }
    List<Long> starts = new ArrayList<>();
    List<AccessPattern> parts = new ArrayList<>();
    for (FilePlan fp : one) {
      if (fp.plan().pattern() != null) {
        starts.add(fp.start());
        parts.add(fp.plan().pattern());
      }
    }
    if (parts.isEmpty()) {
      return null;
    }
    long[] s = new long[starts.size()];
    for (int i = 0; i < s.length; i++) {
      s[i] = starts.get(i);
    }
    return ConcatenatedPattern.of(s, parts.toArray(new AccessPattern[0]));
  }

  /**
   * A file's regions for one task, with the files (a container's members) they belong to, each
   * with only the chunks they are; a file's first part also gives its chunks never written,
   * as fill values.
   */
  private static VariableTask.Part part(List<FilePlan> one, RegionTask regions,
      boolean[] started) {
    AccessPattern mine = regions.parts().get(0);
    long n = mine.regionCount();
    List<VariableTask.Member> members = new ArrayList<>();
    // the files of its first and last regions, and all between (each has regions): no walk
    for (int i = fileAt(one, mine.offsetOf(0)); i <= fileAt(one, mine.offsetOf(n - 1)); i++) {
      FilePlan fp = one.get(i);
      Variable v = fp.plan().variable();
      long from = mine.firstAtOrAfter(fp.start());
      long to = i + 1 < one.size() ? mine.firstAtOrAfter(one.get(i + 1).start()) : n;
      if (v.chunked()) { // only the chunks this part reads: its regions in this file
        Variable.Chunks all = fp.plan().chunks();
        int[] keep = new int[(int) (to - from)];
        RegionCursor c = mine.cursor(from, to);
        for (int k = 0; c.next(); k++) {
          keep[k] = all.at(c.offset() - fp.start());
        }
        Arrays.sort(keep);
        v = v.withChunks(all.subset(keep));
      }
      UnwrittenChunks fills = started[i] ? UnwrittenChunks.none(v.rank()) : fp.plan().unwritten();
      // the coordinates of the indices this part's regions hold (all, where it gives fills)
      long[][] box = fills.isEmpty() ? indexBounds(v, fp.plan().slab(), mine, from, to,
          fp.start()) : bounds(fp.plan().slab());
      members.add(new VariableTask.Member(fp.name(), fp.start(), v, fp.plan().slab(), fills,
          fp.coordinates().window(box), readWithIn(fp, box)));
      started[i] = true;
    }
    return new VariableTask.Part(regions, one.get(0).status().getModificationTime(), members);
  }

  /**
   * The variables read with a file's, each with only its chunks that meet {@code box} (first
   * and last index per dimension).
   */
  private static List<Variable> readWithIn(FilePlan fp, long[][] box) {
    List<Variable> out = new ArrayList<>();
    for (Variable w : fp.readWith()) {
      if (!w.chunked()) {
        out.add(w);
        continue;
      }
      Variable.Chunks all = w.chunks();
      int[] cs = w.chunkShape();
      int[] keep = new int[all.count()];
      int n = 0;
      for (int i = 0; i < all.count(); i++) {
        long[] o = all.origin(i);
        boolean meets = true;
        for (int d = 0; meets && d < o.length; d++) {
          meets = o[d] <= box[1][d] && o[d] + cs[d] - 1 >= box[0][d];
        }
        if (meets) {
          keep[n++] = i;
        }
      }
      out.add(w.withChunks(all.subset(Arrays.copyOf(keep, n))));
    }
    return out;
  }

  /** A slab's first and last index per dimension. */
  private static long[][] bounds(Slab s) {
    long[][] b = new long[2][s.rank()];
    for (int d = 0; d < s.rank(); d++) {
      b[0][d] = s.start(d);
      b[1][d] = s.lastIndex(d);
    }
    return b;
  }

  /**
   * Per dimension the first and last index of the slab that regions {@code [from, to)} of
   * {@code regions} (a file's, from {@code start}) can hold: the chunks' boxes of a chunked
   * variable ({@code v} holds only those), the first dimension's span of a strided one.
   */
  private static long[][] indexBounds(Variable v, Slab slab, AccessPattern regions, long from,
      long to, long start) {
    int r = v.rank();
    long[] lo = new long[r];
    long[] hi = new long[r];
    for (int d = 0; d < r; d++) {
      lo[d] = slab.start(d);
      hi[d] = slab.lastIndex(d);
    }
    if (v.chunked()) {
      Variable.Chunks c = v.chunks();
      int[] cs = v.chunkShape();
      long[] min = new long[r];
      long[] max = new long[r];
      Arrays.fill(min, Long.MAX_VALUE);
      Arrays.fill(max, Long.MIN_VALUE);
      for (int i = 0; i < c.count(); i++) {
        long[] o = c.origin(i);
        for (int d = 0; d < r; d++) {
          min[d] = Math.min(min[d], o[d]);
          max[d] = Math.max(max[d], o[d] + cs[d] - 1);
        }
      }
      for (int d = 0; c.count() > 0 && d < r; d++) {
        lo[d] = Math.max(lo[d], min[d]);
        hi[d] = Math.min(hi[d], max[d]);
      }
    } else if (to > from) {
      long stride = v.byteStrides()[0];
      long first = (regions.offsetOf(from) - start - v.base()) / stride;
      RegionCursor last = regions.cursor(to - 1, to);
      last.next();
      long end = (last.offset() + last.length() - 1 - start - v.base()) / stride;
      lo[0] = Math.max(lo[0], first);
      hi[0] = Math.min(hi[0], end);
    }
    for (int d = 0; d < r; d++) {
      if (hi[d] < lo[d]) { // nothing of the slab: keep the slab's own
        lo[d] = slab.start(d);
        hi[d] = slab.lastIndex(d);
      }
    }
    return new long[][] {lo, hi};
  }

  /** The file (of a container's members, by where they start) holding original byte at. */
  private static int fileAt(List<FilePlan> one, long at) {
    return VariableTask.lastAtOrBefore(one, FilePlan::start, at);
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
      Positioned plain = HeaderCache.of(in, f); // a file planned before: no read again
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

  /**
   * The plan of one file's (or member's) variable, from its header read through {@code file}.
   * With a selection by value, the variable's chunk index is read only once the file's
   * coordinates show the selection picks something in it.
   */
  private FilePlan planVariable(Positioned file, RestructuredFiles.Inspected inspected,
      String name, long start, long readsBefore, long t0) throws IOException {
    Variable v;
    List<Coordinates.Axis> axes;
    List<Variable> with;
    Slab s;
    Selection.Resolved selected = null;
    try (ScienceFile sf = ScienceFiles.open(file, name, kind)) {
      v = select == null ? sf.variable(variable) : sf.describe(variable);
      if (select != null) {
        checkSelected(sf, v, name);
      }
      axes = axes(sf, file, v, name);
      if (select != null) {
        try {
          selected = select.resolve(v.shape(), axes);
        } catch (IllegalArgumentException e) {
          throw new InvalidSettingsException(VariableSettings.SELECT + "=" + select + ": "
              + name + ": " + e.getMessage(), e);
        }
        if (selected.slab() == null) {
          return new FilePlan(inspected, name, start, v, null, null, new Coordinates(axes),
              selected, readsBefore + file.reads(), System.nanoTime() - t0);
        }
        v = sf.variable(variable); // now its chunks
      }
      with = readWith(sf, v, name);
    } catch (ScienceFormatException e) {
      throw new InvalidSettingsException(VariableSettings.VARIABLE + "=" + variable + ": "
          + e.getMessage(), e);
    }
    if (selected != null) {
      s = selected.slab();
    } else {
      try {
        s = Slab.parse(slab, v.shape());
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new InvalidSettingsException(VariableSettings.SLAB + "=" + slab + " does not fit "
            + name + "'s " + v + ": " + e.getMessage(), e);
      }
    }
    Coordinates coordinates = new Coordinates(axes).window(bounds(s));
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
    return new FilePlan(inspected, name, start, v, plan, tiles, coordinates, selected,
        readsBefore + file.reads(), System.nanoTime() - t0, with);
  }

  /**
   * The variables read with {@code v}, their chunk indexes read.
   *
   * @throws InvalidSettingsException naming the file and the variable that is missing or lies
   *     on another grid than {@code v}
   */
  private List<Variable> readWith(ScienceFile sf, Variable v, String name) throws IOException {
    List<Variable> out = new ArrayList<>();
    for (String w : readWith) {
      Variable other;
      try {
        other = sf.variable(w);
      } catch (ScienceFormatException e) {
        throw new InvalidSettingsException(name + ": " + w + ", read with " + v.name() + ": "
            + e.getMessage(), e);
      }
      if (!other.dimensions().equals(v.dimensions())
          || !Arrays.equals(other.shape(), v.shape())) {
        throw new InvalidSettingsException(name + ": " + w + " lies on "
            + grid(other) + ", " + v.name() + " on " + grid(v) + ": variables read together "
            + "share their dimensions; read " + w + " apart");
      }
      out.add(other);
    }
    return out;
  }

  private static String grid(Variable v) {
    StringBuilder b = new StringBuilder("(");
    for (int d = 0; d < v.rank(); d++) {
      b.append(d == 0 ? "" : ", ").append(v.dimensions().size() > d ? v.dimensions().get(d)
          : "?").append('=').append(v.shape()[d]);
    }
    return b.append(')').toString();
  }

  /**
   * Refuses, naming them, the dimensions of the selection that {@code v} does not have: a 2-D
   * (curvilinear) coordinate, or a name that is no dimension of it.
   */
  private void checkSelected(ScienceFile sf, Variable v, String name) throws IOException {
    for (String dim : select.dimensions()) {
      if (v.dimensions().contains(dim)) {
        continue;
      }
      Variable other = null;
      try {
        other = sf.variable(dim);
      } catch (ScienceFormatException e) {
        // no variable of that name either
      }
      if (other != null && other.rank() > 1) {
        throw new InvalidSettingsException(VariableSettings.SELECT + "=" + select + ": " + name
            + ": " + dim + " is a " + other.rank() + "-D (curvilinear) coordinate "
            + other.dimensions() + "; selection by value reads 1-D coordinates only (select its "
            + "grid's dimensions by index with " + VariableSettings.SLAB + ")");
      }
      throw new InvalidSettingsException(VariableSettings.SELECT + "=" + select + ": " + name
          + ": " + v.name() + " has no dimension " + dim + "; its dimensions: "
          + String.join(", ", v.dimensions()));
    }
  }

  /**
   * Each dimension's coordinate values, read whole: those of its 1-D coordinate variable, none
   * where it has none. A coordinate that cannot be carried (over {@link
   * VariableValues#MAX_ELEMENTS} elements, or a time in a calendar not read) is refused where
   * the selection names it, else left out (too long) or carried as plain numbers, logged once.
   */
  private List<Coordinates.Axis> axes(ScienceFile sf, Positioned file, Variable v, String name)
      throws IOException {
    List<Coordinates.Axis> out = new ArrayList<>();
    for (int d = 0; d < v.rank(); d++) {
      String dim = v.dimensions().get(d);
      boolean selected = select != null && select.dimensions().contains(dim);
      Variable c = dim.isEmpty() ? null : sf.coordinate(v, d);
      if (c == null || c.rank() != 1) {
        out.add(Coordinates.Axis.none(dim));
        continue;
      }
      if (c.shape()[0] > VariableValues.MAX_ELEMENTS) {
        String why = "the coordinate " + dim + " has " + c.shape()[0] + " values, more than "
            + VariableValues.MAX_ELEMENTS + " a read carries";
        if (selected) {
          throw new InvalidSettingsException(VariableSettings.SELECT + "=" + select + ": "
              + name + ": " + why);
        }
        warnOnce(name, why + ": records give its indices");
        out.add(Coordinates.Axis.none(dim));
        continue;
      }
      double[] values = VariableValues.read(file, c);
      Attributes a = c.attributes();
      try {
        out.add(new Coordinates.Axis(dim, 0, values, a.text("units"), a.text("calendar"),
            a.text("standard_name")));
      } catch (IllegalArgumentException e) {
        if (selected) {
          throw new InvalidSettingsException(VariableSettings.SELECT + "=" + select + ": "
              + name + ": " + e.getMessage(), e);
        }
        warnOnce(name, e.getMessage() + ": its values are carried as plain numbers");
        out.add(new Coordinates.Axis(dim, 0, values, null, null, a.text("standard_name")));
      }
    }
    return out;
  }

  /** Logs the first of a read's warnings about its coordinates (a series has many files). */
  private void warnOnce(String file, String what) {
    if (warned.compareAndSet(false, true)) {
      LOG.warn("{}: {} (said once for this read)", file, what);
    }
  }
}
