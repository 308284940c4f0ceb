package org.opass.mrap.copy;

import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.LongConsumer;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.mapreduce.RestructuredFiles;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternException;
import org.opass.mrap.pattern.RegionCursor;

/**
 * Copies one file into a file system, plainly or restructured for an access pattern (MRAP
 * thesis §4.3.2, {@link RestructuredLayout}): the regions each map task of the pattern reads
 * packed into whole chunks, every other byte kept, the layout stored beside the data.
 *
 * <p>Nothing is half-made: the data and the layout are written under hidden temporary names in
 * the destination's folder, checked, and only then renamed into place, the data last (the
 * commit point); a copy that stops at any point leaves no destination, and the next copy to
 * the same destination removes what it left. Checked: the destination's CRC32C (HDFS's
 * composite CRC, read from its block checksums, or a re-read elsewhere) against the bytes
 * written, and, where the source's file system gives one, the source's against the copied
 * bytes in original order.
 */
public final class RestructuringCopy {
  private static final Logger LOG = LoggerFactory.getLogger(RestructuringCopy.class);
  private static final int BUFFER = 1 << 20;
  private static final String TEMP_MARK = ".mrap-copy-";
  /** From this size on, {@link CopyOptions.Mode#AUTO} copies with a MapReduce job. */
  public static final String PARALLEL_BYTES = "mrap.copy.parallel.bytes";

  private RestructuringCopy() {
  }

  /** Reports how far a copy has got. */
  public interface Progress {
    void copied(long bytes, long total);
  }

  /** What a copy did. */
  public static final class Result {
    private final Path destination;
    private final long bytes;
    private final RestructuredLayout layout;
    private final int crc;
    private final boolean parallel;

    Result(Path destination, long bytes, RestructuredLayout layout, int crc,
        boolean parallel) {
      this.destination = destination;
      this.bytes = bytes;
      this.layout = layout;
      this.crc = crc;
      this.parallel = parallel;
    }

    /** Whether a MapReduce job of chunk writers wrote it. */
    public boolean parallel() {
      return parallel;
    }

    public Path destination() {
      return destination;
    }

    /** Bytes written to the destination. */
    public long bytes() {
      return bytes;
    }

    /** The layout written, or null for a plain copy. */
    public RestructuredLayout layout() {
      return layout;
    }

    /** CRC32C of the original bytes in their original order. */
    public int crc() {
      return crc;
    }
  }

  /**
   * Copies {@code src} to {@code dst} (a file name; its folder must exist or is created).
   *
   * @throws CopyException naming the problem ({@link CopyException#usage()} for what was asked)
   */
  public static Result copy(Configuration conf, Path src, Path dst, CopyOptions options,
      Progress progress) throws IOException {
    FileSystem srcFs = src.getFileSystem(conf);
    FileSystem dstFs = dst.getFileSystem(conf);
    FileStatus source;
    try {
      source = srcFs.getFileStatus(src);
    } catch (FileNotFoundException e) {
      throw new CopyException(true, "no such source: " + src);
    }
    if (source.isDirectory()) {
      throw new CopyException(true, src + " is a directory: name its files");
    }
    if (dstFs.exists(dst) && !options.overwrite()) {
      throw new CopyException(true, dst + " exists: remove it, name another destination, or "
          + "overwrite it (-overwrite)");
    }
    // a restructured source is copied as its original bytes, read through its index
    RestructuredLayout from = RestructuredFiles.layoutOf(srcFs, src);
    long length = from != null ? from.logicalLength() : source.getLen();
    long blockSize = conf.getLongBytes("dfs.blocksize", dstFs.getDefaultBlockSize(dst));
    RestructuredLayout layout = null;
    if (options.pattern() != null) {
      try {
        options.pattern().checkWithin(length, src.toString());
        AccessPattern p = options.pattern().pattern();
        layout = RestructuredLayout.plan(p, taskBounds(p, options.taskBytes() > 0
            ? options.taskBytes() : blockSize), blockSize, length);
      } catch (PatternException e) {
        throw new CopyException(true, e.getMessage(), e);
      } catch (IllegalArgumentException e) {
        throw new CopyException(true, "cannot restructure " + src + " for "
            + options.pattern() + ": " + e.getMessage(), e);
      }
    }
    long physicalLength = layout != null ? layout.physicalLength() : length;
    boolean parallel = parallel(options.mode(), conf, srcFs, dstFs, physicalLength);
    Path parent = dst.getParent();
    if (parent != null && !dstFs.exists(parent)) {
      dstFs.mkdirs(parent);
    }
    removeLeftovers(dstFs, dst);
    String tag = TEMP_MARK + UUID.randomUUID();
    Path tempData = new Path(parent, "." + dst.getName() + tag);
    Path tempLayout = new Path(parent, "." + dst.getName() + tag + ".layout");
    Path parts = new Path(parent, "." + dst.getName() + tag + ".parts");
    boolean done = false;
    try {
      List<long[]> segments = reads(layout != null ? layout.segments()
          : List.of(new long[] {0, 0, length}), from);
      int written;
      int logical;
      if (parallel) {
        int[] crcs = ParallelCopy.write(conf, src, source, dstFs, parts, tempData, blockSize,
            segments, physicalLength, progress);
        written = crcs[0];
        logical = crcs[1];
      } else {
        int[] crcs = new int[segments.size()];
        written = write(conf, srcFs, src, dstFs, tempData, blockSize, segments,
            physicalLength, crcs, progress);
        logical = compose(segments, crcs);
      }
      long wrote = System.nanoTime();
      if (options.verify()) {
        verify(conf, dstFs, tempData, written, physicalLength, dst);
        if (from == null) { // a restructured source's checksum covers its own layout's bytes
          verifySource(conf, srcFs, src, logical, length);
        }
      }
      if (layout != null) {
        try (DataOutputStream out = dstFs.create(tempLayout, true)) {
          layout.write(out);
        }
      }
      if (options.overwrite() && dstFs.exists(dst)) {
        dstFs.delete(dst, false);
        dstFs.delete(RestructuredFiles.layoutPath(dst), false);
      }
      // the layout first, then the data: the data's rename is the commit
      if (layout != null && !dstFs.rename(tempLayout, RestructuredFiles.layoutPath(dst))) {
        throw new CopyException(false, "could not move the layout to "
            + RestructuredFiles.layoutPath(dst));
      }
      if (!dstFs.rename(tempData, dst)) {
        throw new CopyException(false, "could not move the copy to " + dst + " (did another "
            + "copy create it meanwhile?)");
      }
      done = true;
      LOG.info("{} -> {}: {} bytes{}, checked and published in {} ms", src, dst,
          physicalLength, parallel ? " in parallel" : "", (System.nanoTime() - wrote) / 1_000_000);
      return new Result(dst, physicalLength, layout, logical, parallel);
    } finally {
      // an interrupted thread's RPCs fail at once: clean up first, then keep the interrupt
      boolean interrupted = Thread.interrupted();
      quietDelete(dstFs, parts);
      if (!done) {
        quietDelete(dstFs, tempData);
        quietDelete(dstFs, tempLayout);
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Whether to copy with a MapReduce job: asked for, or, by default, a file of at least
   * {@value #PARALLEL_BYTES} bytes from a cluster file system into HDFS (a local source is on
   * this machine only, where the cluster's tasks cannot read it).
   */
  static boolean parallel(CopyOptions.Mode mode, Configuration conf, FileSystem srcFs,
      FileSystem dstFs, long physicalLength) throws CopyException {
    boolean intoHdfs = "hdfs".equals(dstFs.getScheme());
    if (mode == CopyOptions.Mode.SINGLE) {
      return false;
    }
    if (mode == CopyOptions.Mode.PARALLEL) {
      if (!intoHdfs) {
        throw new CopyException(true, "-mode parallel joins its parts with HDFS's concat: "
            + "copy into hdfs://, or use -mode single");
      }
      return physicalLength > 0; // concat refuses empty parts; nothing to share out anyway
    }
    long threshold = conf.getLongBytes(PARALLEL_BYTES, 1L << 30);
    return intoHdfs && !"file".equals(srcFs.getScheme()) && physicalLength > 0
        && physicalLength >= threshold;
  }

  /**
   * Region index bounds of the tasks: consecutive regions, about {@code perTask} bytes of
   * interest each.
   */
  static long[] taskBounds(AccessPattern p, long perTask) {
    List<Long> bounds = new ArrayList<>();
    bounds.add(0L);
    RegionCursor c = p.cursor();
    long bytes = 0;
    long index = 0;
    while (c.next()) {
      bytes += c.length();
      index++;
      if (bytes >= perTask && index < p.regionCount()) {
        bounds.add(index);
        bytes = 0;
      }
    }
    bounds.add(p.regionCount());
    long[] out = new long[bounds.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = bounds.get(i);
    }
    return out;
  }

  /**
   * What to read for each segment, in logical order: {@code {logical, physical, length, source
   * offset}}; through the source's own index when it is restructured (split where its
   * segments split).
   */
  static List<long[]> reads(List<long[]> segments, RestructuredLayout from) {
    List<long[]> out = new ArrayList<>(segments.size());
    if (from == null) {
      for (long[] s : segments) {
        out.add(new long[] {s[0], s[1], s[2], s[0]});
      }
      return out;
    }
    List<long[]> index = from.segments();
    long[] starts = new long[index.size()];
    for (int i = 0; i < starts.length; i++) {
      starts[i] = index.get(i)[0];
    }
    for (long[] s : segments) {
      long logical = s[0];
      long physical = s[1];
      long left = s[2];
      int i = java.util.Arrays.binarySearch(starts, logical);
      i = i >= 0 ? i : -i - 2;
      while (left > 0) {
        long[] f = index.get(i++);
        long into = logical - f[0];
        long n = Math.min(left, f[2] - into);
        out.add(new long[] {logical, physical, n, f[1] + into});
        logical += n;
        physical += n;
        left -= n;
      }
    }
    return out;
  }

  /** Writes the segments in physical order; returns the CRC32C of all bytes written. */
  private static int write(Configuration conf, FileSystem srcFs, Path src, FileSystem dstFs,
      Path temp, long blockSize, List<long[]> segments, long physicalLength, int[] crcs,
      Progress progress) throws IOException {
    Integer[] order = new Integer[segments.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> Long.compare(segments.get(a)[1],
        segments.get(b)[1]));
    byte[] buf = new byte[BUFFER];
    CRC32C all = new CRC32C();
    long[] pos = {0};
    // this copy's settings, not those of whichever client the file system cache returned
    short replication = (short) conf.getInt("dfs.replication",
        dstFs.getDefaultReplication(temp));
    FsPermission permission = FsPermission.getFileDefault().applyUMask(
        FsPermission.getUMask(conf));
    try (FSDataInputStream in = srcFs.open(src);
        FSDataOutputStream out = dstFs.create(temp, permission, true, BUFFER, replication,
            blockSize, null)) {
      for (int i : order) {
        long[] s = segments.get(i);
        pos[0] = zeros(out, all, pos[0], s[1], buf);
        crcs[i] = copyRange(in, s[3], s[2], out, all, buf, n -> {
          pos[0] += n;
          if (progress != null) {
            progress.copied(pos[0], physicalLength);
          }
        });
      }
      zeros(out, all, pos[0], physicalLength, buf);
    }
    return (int) all.getValue();
  }

  /**
   * Copies {@code length} bytes of {@code in} from {@code from} to {@code out}, adding them to
   * {@code all}; returns their own CRC32C. Stops on an interrupt.
   */
  static int copyRange(FSDataInputStream in, long from, long length, FSDataOutputStream out,
      CRC32C all, byte[] buf, LongConsumer copied) throws IOException {
    CRC32C one = new CRC32C();
    for (long done = 0; done < length; ) {
      if (Thread.interrupted()) {
        throw new InterruptedIOException("interrupted while copying");
      }
      int n = (int) Math.min(buf.length, length - done);
      in.readFully(from + done, buf, 0, n);
      out.write(buf, 0, n);
      all.update(buf, 0, n);
      one.update(buf, 0, n);
      done += n;
      copied.accept(n);
    }
    return (int) one.getValue();
  }

  /** Writes zeros from {@code pos} up to {@code to} (holes no byte of the original filled). */
  static long zeros(FSDataOutputStream out, CRC32C crc, long pos, long to, byte[] buf)
      throws IOException {
    if (pos >= to) {
      return pos;
    }
    java.util.Arrays.fill(buf, (byte) 0);
    while (pos < to) {
      int n = (int) Math.min(buf.length, to - pos);
      out.write(buf, 0, n);
      crc.update(buf, 0, n);
      pos += n;
    }
    return pos;
  }

  /** The CRC32C of the original bytes in original order, from the segments' CRCs. */
  private static int compose(List<long[]> segments, int[] crcs) {
    int crc = 0;
    for (int i = 0; i < crcs.length; i++) {
      crc = i == 0 ? crcs[0] : Crc32c.compose(crc, crcs[i], segments.get(i)[2]);
    }
    return crc;
  }

  private static void verify(Configuration conf, FileSystem fs, Path temp, int written,
      long length, Path dst) throws IOException {
    Integer stored = compositeCrc(conf, fs, temp);
    if (stored == null) {
      stored = reread(fs, temp);
    }
    if (length > 0 && stored != written) {
      throw new CopyException(false, "the copy to " + dst + " does not hold the bytes sent "
          + "(CRC32C " + Integer.toHexString(stored) + " against "
          + Integer.toHexString(written) + "); nothing was published");
    }
  }

  private static void verifySource(Configuration conf, FileSystem fs, Path src, int logical,
      long length) throws IOException {
    Integer stored = compositeCrc(conf, fs, src);
    if (length > 0 && stored != null && stored != logical) {
      throw new CopyException(false, "the bytes read from " + src + " do not match its "
          + "checksum (CRC32C " + Integer.toHexString(logical) + " against "
          + Integer.toHexString(stored) + "): was it changed during the copy?");
    }
  }

  /**
   * CRC32C of a whole file: HDFS's composite CRC where the file system gives one (computed by
   * the DataNodes from their block checksums, no data read), else read and computed here.
   */
  public static int crcOf(Configuration conf, Path p) throws IOException {
    FileSystem fs = p.getFileSystem(conf);
    Integer stored = compositeCrc(conf, fs, p);
    return stored != null ? stored : reread(fs, p);
  }

  /** The file's whole-file CRC32C as HDFS computes it from its block checksums, or null. */
  private static Integer compositeCrc(Configuration conf, FileSystem fs, Path p)
      throws IOException {
    if (!"hdfs".equals(fs.getScheme())) {
      return null;
    }
    Configuration c = new Configuration(conf);
    c.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    try (FileSystem composite = FileSystem.newInstance(p.toUri(), c)) {
      FileChecksum sum = composite.getFileChecksum(p);
      if (!(sum instanceof CompositeCrcFileChecksum)
          || !sum.getAlgorithmName().endsWith("CRC32C")) {
        return null; // another checksum type: re-read instead
      }
      return ByteBuffer.wrap(sum.getBytes()).getInt(); // big-endian, as HDFS writes it
    }
  }

  private static int reread(FileSystem fs, Path p) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buf = new byte[BUFFER];
    try (FSDataInputStream in = fs.open(p)) {
      for (int n = in.read(buf); n > 0; n = in.read(buf)) {
        crc.update(buf, 0, n);
      }
    }
    return (int) crc.getValue();
  }

  /** Removes what earlier copies to {@code dst} that stopped half-way left behind. */
  private static void removeLeftovers(FileSystem fs, Path dst) throws IOException {
    Path parent = dst.getParent();
    String prefix = "." + dst.getName() + TEMP_MARK;
    for (FileStatus st : fs.listStatus(parent, p -> p.getName().startsWith(prefix))) {
      fs.delete(st.getPath(), true);
    }
  }

  private static void quietDelete(FileSystem fs, Path p) {
    try {
      fs.delete(p, true);
    } catch (IOException e) {
      // best effort: the next copy to this destination removes it
    }
  }
}
