package org.opass.mrap.plan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.opass.mrap.array.Slab;
import org.opass.mrap.format.UnwrittenChunks;
import org.opass.mrap.format.Variable;
import org.opass.mrap.fs.FileBlocks;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.locality.SplitLocality;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.ConcatenatedPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.TaskPartition;
import org.opass.mrap.settings.AccessSettings;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.task.RegionTask;
import org.opass.mrap.task.VariableTask;

/**
 * The files' planned slabs laid out as tasks: each file's regions cut by block (a restructured
 * file's packed tasks, or its layout's chunks read through it), the parts of all files shared
 * out over the hosts that hold them ({@link SplitLocality#virtualSplits}), each part carrying
 * the files it reads with only their chunks in it, their coordinates over its indices and, for
 * a file's first part, the chunks never written as fill values; a task of fill values for each
 * file whose slab selects nothing stored.
 */
final class TaskLayout {
  private final Configuration conf;
  private final boolean stored;
  private final long splitBytes;
  private final List<String> readWith;

  /**
   * {@code conf}: the file systems'; restructured files read as {@code stored}; {@code
   * splitBytes} a task (0: the default); {@code readWith}: the variables read with the first.
   */
  TaskLayout(Configuration conf, AccessSettings access, List<String> readWith) {
    this.conf = conf;
    this.stored = access.readAsStored();
    this.splitBytes = access.splitBytes();
    this.readWith = readWith;
  }

  /**
   * The tasks of {@code byFile} ({@value AccessSettings#SPLIT_BYTES} bytes a task; by default
   * at most a block, and tasks enough for every host holding the data to have one).
   *
   * @throws InvalidSettingsException naming a file restructured for another slab, or for one
   *     variable where several are read together
   */
  List<VariableTask> tasks(List<List<FilePlan>> byFile) throws IOException {
    // each file's regions cut by block; the pieces of all files shared out over their hosts
    List<FileBlocks> blocks = new ArrayList<>(); // a NameNode call a file: once, for both lays
    for (List<FilePlan> one : byFile) {
      blocks.add(one.get(0).blocks(conf));
    }
    Layout l = layOut(byFile, blocks, Long.MAX_VALUE);
    // by default a task reads at most a block, and there are tasks enough for every host that
    // holds the data to have one: few small files make a task each, many share tasks
    long target = splitBytes > 0 ? splitBytes : Math.max(1, Math.min(l.blockSize,
        (l.total + l.hosts.size() - 1) / Math.max(1, l.hosts.size())));
    if (l.largest > target) { // a block's regions of more than a task: cut at region ends
      l = layOut(byFile, blocks, target);
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
      long cutBytes) throws IOException {
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
          FilePlan u = one.get(i);
          unread.add(new VariableTask.Member(u.name(), u.start(), u.plan().variable(),
              u.plan().slab(), u.plan().unwritten(), u.coordinates())
              .readingWith(readWithIn(u, u.plan().slab().bounds())));
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
          fp.start()) : fp.plan().slab().bounds();
      members.add(new VariableTask.Member(fp.name(), fp.start(), v, fp.plan().slab(), fills,
          fp.coordinates().window(box)).readingWith(readWithIn(fp, box)));
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
}
