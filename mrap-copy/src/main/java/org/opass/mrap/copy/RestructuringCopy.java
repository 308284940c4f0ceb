package org.opass.mrap.copy;

import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
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
import org.apache.hadoop.util.CrcUtil;
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
  private static final int BUFFER = 1 << 20;
  private static final String TEMP_MARK = ".mrap-copy-";

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

    Result(Path destination, long bytes, RestructuredLayout layout, int crc) {
      this.destination = destination;
      this.bytes = bytes;
      this.layout = layout;
      this.crc = crc;
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
    long length = source.getLen();
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
    Path parent = dst.getParent();
    if (parent != null && !dstFs.exists(parent)) {
      dstFs.mkdirs(parent);
    }
    removeLeftovers(dstFs, dst);
    String tag = TEMP_MARK + UUID.randomUUID();
    Path tempData = new Path(parent, "." + dst.getName() + tag);
    Path tempLayout = new Path(parent, "." + dst.getName() + tag + ".layout");
    boolean done = false;
    try {
      List<long[]> segments = layout != null ? layout.segments()
          : List.of(new long[] {0, 0, length});
      long physicalLength = layout != null ? layout.physicalLength() : length;
      int[] crcs = new int[segments.size()];
      int written = write(conf, srcFs, src, dstFs, tempData, blockSize, segments,
          physicalLength, crcs, progress);
      int logical = compose(segments, crcs);
      if (options.verify()) {
        verify(conf, dstFs, tempData, written, physicalLength, dst);
        verifySource(conf, srcFs, src, logical, length);
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
      return new Result(dst, physicalLength, layout, logical);
    } finally {
      if (!done) {
        quietDelete(dstFs, tempData);
        quietDelete(dstFs, tempLayout);
      }
    }
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
    CRC32C one = new CRC32C();
    long pos = 0;
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
        pos = zeros(out, all, pos, s[1], buf);
        one.reset();
        for (long done = 0; done < s[2]; ) {
          if (Thread.interrupted()) {
            throw new InterruptedIOException("the copy of " + src + " was interrupted");
          }
          int n = (int) Math.min(buf.length, s[2] - done);
          in.readFully(s[0] + done, buf, 0, n);
          out.write(buf, 0, n);
          all.update(buf, 0, n);
          one.update(buf, 0, n);
          done += n;
          pos += n;
          if (progress != null) {
            progress.copied(pos, physicalLength);
          }
        }
        crcs[i] = (int) one.getValue();
      }
      zeros(out, all, pos, physicalLength, buf);
    }
    return (int) all.getValue();
  }

  /** Writes zeros from {@code pos} up to {@code to} (holes no byte of the original filled). */
  private static long zeros(FSDataOutputStream out, CRC32C crc, long pos, long to, byte[] buf)
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
      crc = i == 0 ? crcs[0] : CrcUtil.compose(crc, crcs[i], segments.get(i)[2],
          CrcUtil.CASTAGNOLI_POLYNOMIAL);
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
      return CrcUtil.readInt(sum.getBytes(), 0);
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
      fs.delete(st.getPath(), false);
    }
  }

  private static void quietDelete(FileSystem fs, Path p) {
    try {
      fs.delete(p, false);
    } catch (IOException e) {
      // best effort: the next copy to this destination removes it
    }
  }
}
