package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.opass.mrap.layout.Members;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.locality.SplitLocality;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.ConcatenatedPattern;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.TaskPartition;
import org.opass.mrap.pattern.TiledPattern;
import org.opass.mrap.read.InParallel;
import org.opass.mrap.read.LogicalReads;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.read.RestructuredFiles;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.Positioned;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.science.ScienceFormatException;
import org.opass.mrap.science.Slab;
import org.opass.mrap.science.SlabPlan;
import org.opass.mrap.science.UnwrittenChunks;
import org.opass.mrap.science.Variable;
import org.opass.mrap.science.VariableTiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MRAP over scientific files: one variable of NetCDF or HDF5 files, by name, and a slab of it,
 * instead of byte offsets. At submission each input file's header is read with a few
 * positioned reads (eight files at a time), and the slab becomes MRAP's pattern model: the
 * runs of a contiguous or NetCDF-3 variable (record variables interleave, their outer stride
 * the record), or the chunks of a chunked one that hold a selected element. Records: key
 * {@link ArrayIndex} (file, array index of the first element), value {@link ArrayPiece} (the
 * elements, their shape, type and byte order); compressed chunks are decoded in the task.
 *
 * <table>
 *   <caption>Settings</caption>
 *   <tr><td>{@value #KIND}</td><td>{@code netcdf} (NetCDF-3 classic, 64-bit offset, CDF-5, and
 *   NetCDF-4) or {@code hdf5}</td></tr>
 *   <tr><td>{@value #VARIABLE}</td><td>the NetCDF variable ({@code group/name} in NetCDF-4) or
 *   HDF5 dataset path</td></tr>
 *   <tr><td>{@value #SLAB}</td><td>per dimension {@code start:stop[:stride]}, an index, or
 *   HDF5's {@code start/stride/count/block}, comma-separated; unset: the whole variable</td></tr>
 *   <tr><td>{@value #TILE}</td><td>instead of a slab: the whole variable cut into tiles, per
 *   dimension an extent or {@code *} (e.g. {@code *,30,30}: every time step over 30 x 30
 *   boxes), a task a tile of a file ({@link VariableTiles}: a variable stored as one
 *   array)</td></tr>
 * </table>
 * The files may differ in shape: an unset slab reads each whole, a set one must fit each (a
 * file it does not fit is named). Tasks: each file's regions are cut by block and the pieces
 * of all files shared out over the hosts that hold them ({@link SplitLocality#virtualSplits}),
 * {@value AccessInputFormat#SPLIT_BYTES} bytes a task (default: at most a block, and tasks
 * enough for every host holding the data to have one), so a task reads a set of small files,
 * or a block of a large one, on the host that holds them. The
 * {@code mrap.access.*} settings of {@link AccessInputFormat} apply (coalescing gap, record
 * bytes). A file restructured by {@code mrap-copy} for the same variable and slab is read
 * by its packed tasks, each contiguously; for another slab, {@value
 * AccessInputFormat#RESTRUCTURED}{@code =index} reads it through its layout, else it is
 * refused naming both.
 *
 * <p>Values are those netCDF-C and HDF5 read: chunks never written give the fill value (counted
 * by {@link MrapCounter#FILL_ELEMENTS}; a file whose slab selects nothing stored is a task of
 * fill values that reads nothing), and with {@code kind=netcdf} an HDF5 file is a NetCDF-4 file
 * in netCDF's shape (a variable as long as its unlimited dimension, its elements past its own
 * records the fill value).
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class VariableInputFormat extends FileInputFormat<ArrayIndex, ArrayPiece> {
  public static final String KIND = PatternConfig.KIND;
  public static final String VARIABLE = "mrap.science.variable";
  public static final String SLAB = "mrap.science.slab";
  /** Per dimension a tile extent or {@code *}: a task a tile instead of a slab. */
  public static final String TILE = "mrap.science.tile";
  /** Every setting under {@code mrap.science.}. */
  public static final List<String> KEYS = Arrays.asList(VARIABLE, SLAB, TILE);
  /** Headers read at once at submission. */
  static final int HEADER_READERS = 8;
  private static final Logger LOG = LoggerFactory.getLogger(VariableInputFormat.class);

  public static void setVariable(Job job, ScienceFiles.Kind kind, String variable, String slab) {
    job.getConfiguration().set(KIND, kind.key());
    job.getConfiguration().set(VARIABLE, variable);
    if (slab != null) {
      job.getConfiguration().set(SLAB, slab);
    }
  }

  /**
   * One input file's variable and the plan of its slab, and what reading its header cost; for
   * a container ({@code mrap-copy -pack}), one of its members'.
   */
  @InterfaceAudience.Private
  public static final class FilePlan {
    final RestructuredFiles.Inspected file;
    final FileStatus status;
    final String name; // the file as keys name it: its path, or container/member
    final long start; // where it starts in its container's original, else 0
    final SlabPlan plan;
    final TiledPattern tiles; // with mrap.science.tile, else null
    final long headerReads;
    final long headerNanos;

    FilePlan(RestructuredFiles.Inspected file, String name, long start, SlabPlan plan,
        TiledPattern tiles, long headerReads, long headerNanos) {
      this.file = file;
      this.status = file.status();
      this.name = name;
      this.start = start;
      this.plan = plan;
      this.tiles = tiles;
      this.headerReads = headerReads;
      this.headerNanos = headerNanos;
    }

    /** The file (for a member, its container). */
    public FileStatus status() {
      return status;
    }

    /** The member of a container this plan is of, or null for a file of its own. */
    public String member() {
      return file.layout() != null && file.layout().members() != null
          ? name.substring(name.lastIndexOf('/') + 1) : null;
    }

    public SlabPlan plan() {
      return plan;
    }

    /** The variable's tiles in this file, or null when the job reads a slab. */
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

  /** The job's kind, checked: a bad value or a byte-pattern key beside it names the key. */
  static ScienceFiles.Kind kind(Configuration conf) throws InvalidJobConfException {
    String k = MrapConf.get(conf, KIND);
    ScienceFiles.Kind kind = null;
    for (ScienceFiles.Kind c : ScienceFiles.Kind.values()) {
      if (k != null && c.key().equals(k.trim().toLowerCase(Locale.ROOT))) {
        kind = c;
      }
    }
    if (kind == null) {
      throw new InvalidJobConfException(KIND + (k == null ? " is not set" : "=" + k + " is not "
          + "a scientific format") + ": netcdf or hdf5 (byte patterns are read by "
          + "AccessInputFormat)");
    }
    for (Map.Entry<String, String> e : MrapConf.properties(conf, PatternConfig.PREFIXES)
        .entrySet()) {
      if (!e.getKey().equals(KIND)) {
        throw new InvalidJobConfException(e.getKey() + " does not apply to " + KIND + "="
            + kind.key() + ": name the variable (" + VARIABLE + ") and the slab (" + SLAB
            + ") instead of bytes");
      }
    }
    return kind;
  }

  /**
   * Checks the settings a job can check before it reads a file: the kind, the variable named,
   * no byte-pattern key, no unknown {@code mrap.science.} or {@code mrap.access.} key, the
   * record size.
   *
   * @throws InvalidJobConfException naming the key at fault
   */
  public static ScienceFiles.Kind checkSettings(Configuration conf)
      throws InvalidJobConfException {
    MrapConf.checkKeys(conf, "mrap.science.", KEYS);
    MrapConf.checkKeys(conf, "mrap.access.", AccessInputFormat.KEYS);
    ScienceFiles.Kind kind = kind(conf);
    String variable = MrapConf.get(conf, VARIABLE);
    if (variable == null || variable.trim().isEmpty()) {
      throw new InvalidJobConfException(VARIABLE + " is not set: name the NetCDF variable or "
          + "HDF5 dataset to read");
    }
    if (MrapConf.get(conf, SLAB) != null && MrapConf.get(conf, TILE) != null) {
      throw new InvalidJobConfException(SLAB + " and " + TILE + " are both set: a job reads a "
          + "slab, or the whole variable a tile a task");
    }
    long record = AccessInputFormat.recordBytes(conf);
    if (record % 8 != 0) {
      throw new InvalidJobConfException(AccessInputFormat.RECORD_BYTES + "=" + record + " must "
          + "be a multiple of 8, so that a record holds whole elements");
    }
    return kind;
  }

  /**
   * Reads every file's header (eight files at a time; a container's members one after
   * another) and plans its slab: a plan a file, or a container's members' in order.
   *
   * @throws InvalidJobConfException naming the key, the file and why, for a variable or slab
   *     that a file cannot serve
   */
  @InterfaceAudience.Private
  public static List<FilePlan> plan(Configuration conf, List<FileStatus> files)
      throws IOException {
    List<FilePlan> all = new ArrayList<>();
    for (List<FilePlan> one : plan(conf, checkSettings(conf), files)) {
      all.addAll(one);
    }
    return all;
  }

  private static List<List<FilePlan>> plan(Configuration conf, ScienceFiles.Kind kind,
      List<FileStatus> files) throws IOException {
    String variable = MrapConf.get(conf, VARIABLE);
    String slab = MrapConf.get(conf, SLAB);
    String tile = MrapConf.get(conf, TILE);
    long record = AccessInputFormat.recordBytes(conf);
    return InParallel.map(files, HEADER_READERS, "headers",
        f -> planOne(conf, f, kind, variable.trim(), slab, tile, record));
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

  private static List<FilePlan> planOne(Configuration conf, FileStatus f,
      ScienceFiles.Kind kind, String variable, String slabText, String tileText, long record)
      throws IOException {
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
        return List.of(planVariable(plain, inspected, name, 0, kind, variable, slabText,
            tileText, record, 0, t0));
      }
      // a restructured file's header is read at its original offsets, through its layout
      LogicalReads original = new LogicalReads(in, layout, 64 * 1024);
      Members members = layout.members();
      if (members == null) {
        return List.of(planVariable(stretch(original, 0, layout.logicalLength()), inspected,
            name, 0, kind, variable, slabText, tileText, record, plain.reads(), t0));
      }
      List<FilePlan> out = new ArrayList<>();
      for (int i = 0; i < members.count(); i++) { // a container: each member's header
        out.add(planVariable(stretch(original, members.start(i), members.length(i)), inspected,
            name + "/" + members.name(i), members.start(i), kind, variable, slabText, tileText,
            record, i == 0 ? plain.reads() : 0, i == 0 ? t0 : System.nanoTime()));
      }
      return out;
    }
  }

  /** The plan of one file's (or member's) variable, from its header read through {@code file}. */
  private static FilePlan planVariable(Positioned file, RestructuredFiles.Inspected inspected,
      String name, long start, ScienceFiles.Kind kind, String variable, String slabText,
      String tileText, long record, long readsBefore, long t0) throws IOException {
    Variable v;
    try {
      v = ScienceFiles.variable(file, name, kind, variable);
    } catch (ScienceFormatException e) {
      throw refusal(VARIABLE + "=" + variable + ": " + e.getMessage(), e);
    }
    Slab slab;
    try {
      slab = Slab.parse(slabText, v.shape());
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw refusal(SLAB + "=" + slabText + " does not fit " + name + "'s " + v + ": "
          + e.getMessage(), e);
    }
    TiledPattern tiles = null;
    if (tileText != null) {
      try {
        tiles = VariableTiles.of(v, tileText);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw refusal(TILE + "=" + tileText + ": " + e.getMessage(), e);
      }
    }
    SlabPlan plan;
    try {
      plan = SlabPlan.of(v, slab, record);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw refusal(VARIABLE + "=" + variable + ": " + name + ": " + v + " cannot be planned: "
          + e.getMessage(), e);
    }
    return new FilePlan(inspected, name, start, plan, tiles, readsBefore + file.reads(),
        System.nanoTime() - t0);
  }

  /** A refusal of the job's settings for a file, its cause kept. */
  private static InvalidJobConfException refusal(String message, Throwable cause) {
    InvalidJobConfException e = new InvalidJobConfException(message);
    e.initCause(cause);
    return e;
  }

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    ScienceFiles.Kind kind = checkSettings(conf);
    long splitBytes = MrapConf.bytes(conf, AccessInputFormat.SPLIT_BYTES, 0);
    MrapConf.bytes(conf, AccessInputFormat.COALESCE_GAP, AccessInputFormat.COALESCE_GAP_DEFAULT);
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus f : listStatus(job)) {
      if (f.getLen() > 0) {
        files.add(f);
      }
    }
    if (files.isEmpty()) {
      throw new InvalidJobConfException("no input file holds any bytes, so none holds "
          + conf.get(VARIABLE));
    }
    long t0 = System.nanoTime();
    List<List<FilePlan>> byFile = plan(conf, kind, files);
    long reads = 0;
    int headers = 0;
    for (List<FilePlan> one : byFile) {
      for (FilePlan p : one) {
        reads += p.headerReads;
        headers++;
      }
    }
    LOG.info("read {} headers in {} ms, {} positioned reads", headers,
        (System.nanoTime() - t0) / 1_000_000, reads);
    boolean stored = MrapConf.choice(conf, AccessInputFormat.RESTRUCTURED, "stored", "index")
        .equals("stored");
    if (byFile.get(0).get(0).tiles != null) {
      return tileSplits(conf, byFile, stored);
    }
    // each file's regions cut by block; the pieces of all files shared out over their hosts
    List<VariableSplit.Part> parts = new ArrayList<>();
    List<VariableSplit.Part> fillOnly = new ArrayList<>(); // files with nothing stored to read
    List<SplitLocality.Piece> pieces = new ArrayList<>();
    long blockSize = 0;
    long total = 0;
    java.util.Set<String> hosts = new java.util.HashSet<>();
    for (List<FilePlan> one : byFile) {
      FilePlan fp = one.get(0);
      AccessInputFormat.Blocks blocks = new AccessInputFormat.Blocks(fp.status, conf);
      AccessPattern p = pattern(one);
      RestructuredLayout layout = fp.file.layout();
      boolean[] started = new boolean[one.size()]; // whose first part has been made
      if (p == null) {
        // every value the slab selects in this file is the fill value: nothing to read
      } else if (layout != null && layout.packs(p)) {
        for (int t = 0; t < layout.tasks().tasks(); t++) { // packed for this slab: a task's chunks
          AccessSplit packed = AccessSplit.packed(fp.file, t, new String[0]);
          parts.add(part(one, packed, started));
          List<String> holders = blocks.hosts(blocks.indexOf(layout.taskStart(t)));
          pieces.add(new SplitLocality.Piece(packed.getLength(), holders));
          hosts.addAll(holders);
          total += packed.getLength();
        }
      } else if (layout != null && stored) {
        throw new InvalidJobConfException(RestructuredFiles.otherRegionsRefusal(
            fp.status.getPath(), layout, "the slab " + p + " of " + fp.plan.variable(),
            AccessInputFormat.RESTRUCTURED));
      } else if (layout != null) { // through the layout: no locality
        TaskPartition byBytes = TaskPartition.byBytes(p, Math.max(1, layout.chunkSize()));
        for (int k = 0; k < byBytes.tasks(); k++) {
          AccessSplit through = AccessSplit.throughIndex(fp.file, byBytes.task(k),
              byBytes.logicalStart(k));
          parts.add(part(one, through, started));
          pieces.add(new SplitLocality.Piece(through.getLength(), List.of()));
          total += through.getLength();
        }
      } else {
        TaskPartition byBlock = TaskPartition.byBlocks(p, blocks.starts);
        for (int k = 0; k < byBlock.tasks(); k++) {
          AccessPattern regions = byBlock.task(k);
          parts.add(part(one, new AccessSplit(fp.status.getPath(), fp.status.getLen(), regions,
              byBlock.logicalStart(k), fp.status.getBlockSize(), new String[0]), started));
          List<String> holders = blocks.hosts(blocks.indexOf(regions.offsetOf(0)));
          pieces.add(new SplitLocality.Piece(regions.totalBytes(), holders));
          hosts.addAll(holders);
          total += regions.totalBytes();
        }
      }
      List<VariableSplit.Member> unread = new ArrayList<>();
      for (int i = 0; i < one.size(); i++) { // members no part reads: their fill values
        if (!started[i] && !one.get(i).plan.unwritten().isEmpty()) {
          unread.add(new VariableSplit.Member(one.get(i).name, one.get(i).start,
              one.get(i).plan.variable(), one.get(i).plan.slab(), one.get(i).plan.unwritten()));
        }
      }
      if (!unread.isEmpty()) {
        fillOnly.add(VariableSplit.Part.fillOnly(fp.status.getPath(),
            fp.status.getModificationTime(), unread));
      }
      blockSize = Math.max(blockSize, fp.status.getBlockSize());
    }
    // by default a task reads at most a block, and there are tasks enough for every host that
    // holds the data to have one: few small files make a task each, many share tasks
    long target = splitBytes > 0 ? splitBytes
        : Math.max(1, Math.min(blockSize, (total + hosts.size() - 1) / Math.max(1, hosts.size())));
    List<InputSplit> splits = new ArrayList<>();
    for (SplitLocality.Group g : SplitLocality.virtualSplits(pieces, target)) {
      List<VariableSplit.Part> mine = new ArrayList<>();
      for (int i : g.chunks()) {
        mine.add(parts.get(i));
      }
      splits.add(new VariableSplit(mine, g.host() == null ? new String[0]
          : new String[] {g.host()}));
    }
    for (VariableSplit.Part f : fillOnly) { // a task each: they read nothing, anywhere
      splits.add(new VariableSplit(List.of(f), new String[0]));
    }
    return splits;
  }

  /**
   * A split a tile of each file, on the hosts of the block it starts in: in place, packed by a
   * copy restructured for these tiles (one read), or through another layout when asked.
   */
  private static List<InputSplit> tileSplits(Configuration conf, List<List<FilePlan>> byFile,
      boolean stored) throws IOException {
    List<InputSplit> splits = new ArrayList<>();
    for (List<FilePlan> one : byFile) {
      FilePlan fp = one.get(0);
      AccessInputFormat.Blocks blocks = new AccessInputFormat.Blocks(fp.status, conf);
      RestructuredLayout layout = fp.file.layout();
      if (layout != null && layout.members() != null) {
        throw new InvalidJobConfException(TILE + "=" + conf.get(TILE) + ": "
            + RestructuredFiles.containerRefusal(fp.status.getPath(), layout.members(),
            "tiles are read from files of their own"));
      }
      if (layout != null && !layout.packs(fp.tiles) && stored) {
        throw new InvalidJobConfException(RestructuredFiles.otherRegionsRefusal(
            fp.status.getPath(), layout, fp.plan.variable().name() + " in the tiles " + fp.tiles,
            AccessInputFormat.RESTRUCTURED));
      }
      if (fp.tiles.tileCount() > Integer.MAX_VALUE - 8) {
        throw new InvalidJobConfException(TILE + "=" + conf.get(TILE) + ": "
            + fp.tiles.tileCount() + " tiles in " + fp.status.getPath() + ", more tasks than "
            + "a job holds");
      }
      for (int t = 0; t < fp.tiles.tileCount(); t++) {
        AccessPattern tile = fp.tiles.tile(t);
        long key = fp.tiles.bytesBeforeTile(t);
        AccessSplit regions;
        String[] hosts;
        if (layout != null && layout.packs(fp.tiles)) {
          hosts = blocks.rankedTask(layout, t);
          regions = AccessSplit.packed(fp.file, t, hosts);
        } else if (layout != null) {
          hosts = new String[0];
          regions = AccessSplit.throughIndex(fp.file, tile, key);
        } else {
          hosts = blocks.ranked(tile);
          regions = new AccessSplit(fp.status.getPath(), fp.status.getLen(), tile, key,
              fp.status.getBlockSize(), hosts);
        }
        splits.add(new VariableSplit(List.of(new VariableSplit.Part(regions,
            fp.status.getModificationTime(), List.of(new VariableSplit.Member(fp.name, 0,
            fp.plan.variable(), VariableTiles.slab(fp.tiles, t), UnwrittenChunks.none(fp.plan.variable().rank()))))), hosts));
      }
    }
    return splits;
  }

  /**
   * The regions of a file's slab: a container's, each member's at its start; null where none
   * of them selects a chunk ever written.
   */
  private static AccessPattern pattern(List<FilePlan> one) {
    if (one.size() == 1 && one.get(0).start == 0 && one.get(0).member() == null) {
      return one.get(0).plan.pattern();
    }
    List<Long> starts = new ArrayList<>();
    List<AccessPattern> parts = new ArrayList<>();
    for (FilePlan fp : one) {
      if (fp.plan.pattern() != null) {
        starts.add(fp.start);
        parts.add(fp.plan.pattern());
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
  private static VariableSplit.Part part(List<FilePlan> one, AccessSplit regions,
      boolean[] started) {
    AccessPattern mine = regions.parts().get(0);
    long n = mine.regionCount();
    List<VariableSplit.Member> members = new ArrayList<>();
    // the files of its first and last regions, and all between (each has regions): no walk
    for (int i = fileAt(one, mine.offsetOf(0)); i <= fileAt(one, mine.offsetOf(n - 1)); i++) {
      FilePlan fp = one.get(i);
      Variable v = fp.plan.variable();
      if (v.chunked()) { // only the chunks this part reads: its regions in this file
        Variable.Chunks all = fp.plan.chunks();
        long from = mine.firstAtOrAfter(fp.start);
        long to = i + 1 < one.size() ? mine.firstAtOrAfter(one.get(i + 1).start) : n;
        int[] keep = new int[(int) (to - from)];
        RegionCursor c = mine.cursor(from, to);
        for (int k = 0; c.next(); k++) {
          keep[k] = all.at(c.offset() - fp.start);
        }
        Arrays.sort(keep);
        v = v.withChunks(all.subset(keep));
      }
      members.add(new VariableSplit.Member(fp.name, fp.start, v, fp.plan.slab(),
          started[i] ? UnwrittenChunks.none(v.rank()) : fp.plan.unwritten()));
      started[i] = true;
    }
    return new VariableSplit.Part(regions, one.get(0).status.getModificationTime(), members);
  }

  /** The file (of a container's members, by where they start) holding original byte at. */
  private static int fileAt(List<FilePlan> one, long at) {
    return VariableSplit.lastAtOrBefore(one, fp -> fp.start, at);
  }

  @Override
  public RecordReader<ArrayIndex, ArrayPiece> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new VariableRecordReader();
  }
}
