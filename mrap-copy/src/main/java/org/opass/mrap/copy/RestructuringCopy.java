package org.opass.mrap.copy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.Members;
import org.opass.mrap.layout.PackedLayout;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.layout.TiledLayout;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.ConcatenatedPattern;
import org.opass.mrap.pattern.PatternException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies one file into a file system, plainly or restructured for an access pattern (MRAP
 * thesis §4.3.2, {@link RestructuredLayout}): the regions each map task of the pattern reads
 * packed into whole chunks by first fit, every other byte kept, the layout written into the
 * file itself (a header in its first bytes, the layout after its data), so that it goes
 * wherever the file goes.
 *
 * <p>As DistCp does: everything is checked before anything is written (a bad setting or
 * pattern, a missing source, an existing destination: usage errors naming them); the copy is
 * written under a hidden name in the destination's folder (by this process, or by a MapReduce
 * job of chunk writers whose committer joins the parts), checked (the destination's CRC32C
 * against the bytes sent, the source's against the bytes read), and published in one rename
 * that also replaces an existing destination when asked: at every moment the destination is
 * the old file or the new one. A copy that stops leaves at most a hidden folder beside the
 * destination ({@code .<name>.mrap-copy}), which the next copy to that destination removes, and
 * no folder it made. One copy at a time to a destination.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class RestructuringCopy {
  private static final Logger LOG = LoggerFactory.getLogger(RestructuringCopy.class);
  private static final String WORK = ".mrap-copy";
  /** From this size on, {@link CopyOptions.Mode#AUTO} copies with a MapReduce job. */
  public static final String PARALLEL_BYTES = CopySettings.PARALLEL_BYTES;

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
    private final boolean parallel;

    Result(Path destination, long bytes, RestructuredLayout layout, boolean parallel) {
      this.destination = destination;
      this.bytes = bytes;
      this.layout = layout;
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
  }

  /**
   * Copies {@code src} to {@code dst} (a file name; its folder is made if missing).
   *
   * @throws CopyException naming the problem ({@link CopyException#usage()} for what was asked)
   */
  public static Result copy(Configuration conf, Path src, Path dst, CopyOptions options,
      Progress progress) throws IOException {
    SourceFile source = SourceFile.of(conf, src);
    if (source.members() != null) {
      throw new CopyException(true, RestructuredFiles.containerRefusal(src,
          source.layout().members(), "a restructuring copy copies one file"));
    }
    return copy(conf, source, dst, options, progress);
  }

  /** Copies a file, or a container's member, to {@code dst}. */
  static Result copy(Configuration conf, SourceFile source, Path dst, CopyOptions options,
      Progress progress) throws IOException {
    CopySettings settings = settings(conf, dst, options);
    RestructuredLayout layout = options.pattern() == null ? null
        : plan(options, source, settings.blockSize);
    return write(conf, new CopyWork(source, layout, dst, settings, options), progress);
  }

  /**
   * Packs files into one container at {@code dst} (thesis §4.4.3): its original is the files
   * end to end, and the regions of each file's pattern ({@code patterns}, one a file, at its
   * own offsets) are packed into shared chunks, a task of {@code -task-bytes} (a chunk by
   * default) holding the regions of as many files as fit. Written by one stream.
   *
   * @throws CopyException naming the problem ({@link CopyException#usage()} for what was asked)
   */
  static Result pack(Configuration conf, List<SourceFile> files, List<AccessPattern> patterns,
      Path dst, CopyOptions options, Progress progress) throws IOException {
    CopySettings settings = settings(conf, dst, options);
    List<String> names = new ArrayList<>();
    long[] lengths = new long[files.size()];
    for (int i = 0; i < files.size(); i++) {
      names.add(files.get(i).name());
      lengths[i] = files.get(i).length();
    }
    RestructuredLayout layout;
    try {
      Members members = Members.of(names, lengths);
      long[] starts = new long[members.count()]; // each file's pattern where its member starts
      Arrays.setAll(starts, members::start);
      layout = PackedLayout.container(ConcatenatedPattern.of(starts,
          patterns.toArray(new AccessPattern[0])), members, settings.blockSize,
          chunksPerTask(options, settings.blockSize));
    } catch (IllegalArgumentException e) {
      throw new CopyException(true, "cannot pack " + files.size() + " files into " + dst
          + ": " + e.getMessage(), e);
    }
    return write(conf, new CopyWork(SourceFile.concatenation(files), layout, dst, settings,
        options), progress);
  }

  private static CopySettings settings(Configuration conf, Path dst, CopyOptions options)
      throws IOException {
    FileSystem dstFs = dst.getFileSystem(conf);
    dst = dstFs.makeQualified(dst);
    CopySettings settings = CopySettings.of(conf, dstFs, dst);
    try {
      FileStatus existing = dstFs.getFileStatus(dst);
      if (existing.isDirectory()) {
        throw new CopyException(true, dst + " is a folder: name the file to copy into");
      }
      if (!options.overwrite()) {
        throw new CopyException(true, dst + " exists: remove it, name another destination, "
            + "or overwrite it (-overwrite)");
      }
    } catch (FileNotFoundException fresh) {
      // the usual case
    }
    return settings;
  }

  /** Writes the copy {@code asked}: its source to its destination, as its layout says. */
  private static Result write(Configuration conf, CopyWork asked, Progress progress)
      throws IOException {
    SourceFile source = asked.source;
    RestructuredLayout layout = asked.layout;
    CopySettings settings = asked.settings;
    CopyOptions options = asked.options;
    FileSystem dstFs = asked.dst.getFileSystem(conf);
    Path dst = dstFs.makeQualified(asked.dst);
    long physicalLength = asked.physicalLength;
    boolean parallel = parallel(options.mode(), settings, source, dstFs, physicalLength);
    boolean threaded = !parallel && threaded(options.mode(), settings, dstFs, physicalLength);
    List<Path> made = mkdirs(dstFs, dst.getParent());
    // this copy's work lives in a hidden folder of the destination's own, which the next copy
    // to the destination removes whatever a copy that died left in it
    Path work = new Path(dst.getParent(), "." + dst.getName() + WORK);
    Publisher.quietDelete(dstFs, work);
    String tag = UUID.randomUUID().toString();
    Path temp = new Path(work, tag);
    Path parts = new Path(work, tag + ".parts");
    boolean done = false;
    try {
      long t0 = System.nanoTime();
      if (parallel) {
        ParallelCopy.run(conf, asked.placed(dst, temp, parts), progress);
      } else if (threaded) {
        ThreadedCopy.run(conf, asked.placed(dst, temp, parts), progress);
      } else {
        PhysicalWriter.Sums sums;
        try (SourceFile.Reader in = source.open();
            FSDataOutputStream out = dstFs.create(temp, settings.permission, true, 1 << 20,
                settings.replication, settings.blockSize, null)) {
          long[] pos = {0};
          sums = new PhysicalWriter(in, layout, source.length()).write(0, physicalLength, out,
              n -> {
                pos[0] += n;
                if (progress != null) {
                  progress.copied(pos[0], physicalLength);
                }
              });
        }
        if (options.verify()) {
          Publisher.verifyWritten(conf, dstFs, temp, physicalLength, sums.written, dst);
          Publisher.verifySource(conf, source, sums.original);
        }
        Publisher.publish(conf, dstFs, temp, dst, options.overwrite());
      }
      done = true;
      Publisher.quietDelete(dstFs, work);
      LOG.info("{} -> {}: {} bytes{} in {} ms", source, dst, physicalLength,
          parallel ? " by a copy job" : threaded ? " in streams side by side" : "",
          (System.nanoTime() - t0) / 1_000_000);
      return new Result(dst, physicalLength, layout, parallel);
    } finally {
      if (!done) {
        // an interrupted thread's RPCs fail at once: clean up first, then keep the interrupt
        boolean interrupted = Thread.interrupted();
        Publisher.quietDelete(dstFs, work);
        for (Path dir : made) { // deepest first; a folder someone else filled stays
          try {
            dstFs.delete(dir, false);
          } catch (IOException | RuntimeException notEmptyOrGone) {
            break;
          }
        }
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /**
   * The layout of the destination: tasks of {@code -task-bytes} (whole chunks; one chunk by
   * default) of the pattern's regions, or for tiles the array tile by tile.
   *
   * @throws CopyException (usage) for a pattern that does not fit the source or cannot be
   *     restructured, tasks smaller than a chunk, or a task size given for tiles
   */
  private static RestructuredLayout plan(CopyOptions options, SourceFile source, long chunk)
      throws CopyException {
    boolean tiles = options.pattern().tiles() != null;
    if (tiles && options.taskBytes() > 0) {
      throw new CopyException(true, "-task-bytes does not apply to tiles: a task of a file "
          + "stored tile by tile reads one tile");
    }
    long chunksPerTask = chunksPerTask(options, chunk);
    try {
      options.pattern().checkWithin(source.length(), source.toString());
      if (tiles) {
        return TiledLayout.plan(options.pattern().tiles(), chunk, source.length());
      }
      AccessPattern p = options.pattern().pattern();
      return PackedLayout.plan(p, chunk, source.length(), chunksPerTask);
    } catch (PatternException e) {
      throw new CopyException(true, e.getMessage(), e);
    } catch (IllegalArgumentException e) { // overlapping regions
      throw new CopyException(true, options.pattern().extentProperty() + ": cannot "
          + "restructure " + source + " for " + options.pattern() + ": "
          + e.getMessage(), e);
    }
  }

  /** Chunks a task of a restructured file reads: {@code -task-bytes} in whole chunks. */
  private static long chunksPerTask(CopyOptions options, long chunk) throws CopyException {
    long taskBytes = options.taskBytes() > 0 ? options.taskBytes() : chunk;
    if (taskBytes < chunk) {
      throw new CopyException(true, "-task-bytes " + taskBytes + " is less than a chunk ("
          + chunk + " bytes, dfs.blocksize): each task of a restructured file reads whole "
          + "chunks; for smaller tasks copy with a smaller -D dfs.blocksize");
    }
    return taskBytes / chunk;
  }

  /**
   * Whether to copy with a MapReduce job: asked for, or, by default, a file of at least
   * {@value CopySettings#PARALLEL_BYTES} bytes from a cluster file system into HDFS (a local
   * source is on this machine only, where the cluster's tasks cannot read it).
   */
  private static boolean parallel(CopyOptions.Mode mode, CopySettings settings,
      SourceFile source, FileSystem dstFs, long physicalLength) throws CopyException {
    boolean intoHdfs = "hdfs".equals(dstFs.getUri().getScheme());
    if (mode == CopyOptions.Mode.SINGLE || (mode == CopyOptions.Mode.AUTO && !source.whole())) {
      return false;
    }
    FileSystem srcFs = source.fs();
    if (mode == CopyOptions.Mode.PARALLEL) {
      if (!source.whole()) {
        throw new CopyException(true, "-mode parallel copies one whole file at a time, and "
            + source + " is not one (a container's member, or files packed together): leave "
            + "out -mode parallel");
      }
      if (!intoHdfs) {
        throw new CopyException(true, "-mode parallel joins its parts with HDFS's concat: "
            + "copy into hdfs://, or use -mode single");
      }
      return physicalLength > 0; // concat refuses empty parts; nothing to share out anyway
    }
    return intoHdfs && !"file".equals(srcFs.getUri().getScheme()) && physicalLength > 0
        && physicalLength >= settings.parallelBytes;
  }

  /**
   * Whether a copy from this process writes {@code mrap.copy.threads} streams side by side
   * ({@link ThreadedCopy}): by default, into HDFS (whose {@code concat} joins the parts) and
   * once the file has a second chunk; {@code -mode single} writes one stream.
   */
  private static boolean threaded(CopyOptions.Mode mode, CopySettings settings,
      FileSystem dstFs, long physicalLength) {
    return mode == CopyOptions.Mode.AUTO && settings.threads > 1
        && "hdfs".equals(dstFs.getUri().getScheme()) && physicalLength > settings.blockSize;
  }

  /** Makes {@code dir} and its missing parents; returns those it made, deepest first. */
  private static List<Path> mkdirs(FileSystem fs, Path dir) throws IOException {
    List<Path> missing = new ArrayList<>();
    for (Path d = dir; d != null && !fs.exists(d); d = d.getParent()) {
      missing.add(d);
    }
    if (!missing.isEmpty()) {
      fs.mkdirs(dir);
    }
    return missing;
  }

  /**
   * CRC32C of a whole file: HDFS's composite CRC where the file system gives one (computed by
   * the DataNodes from their block checksums, no data read), else read and computed here.
   */
  public static int crcOf(Configuration conf, Path p) throws IOException {
    return Publisher.crcOf(conf, p);
  }
}
