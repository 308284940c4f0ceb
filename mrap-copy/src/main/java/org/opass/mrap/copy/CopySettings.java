package org.opass.mrap.copy;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.opass.conf.StrictConf;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.MrapConf;

/**
 * The Hadoop settings a copy writes with, read and checked before anything is written: the
 * destination's block size (the chunk size of a restructured file), replication and
 * permission, and the copy's own {@code mrap.copy.*} keys. A bad value is a usage error naming
 * the key.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
final class CopySettings {
  /** From this size on, {@link CopyOptions.Mode#AUTO} copies with a MapReduce job. */
  static final String PARALLEL_BYTES = "mrap.copy.parallel.bytes";
  /** Writer tasks for a source whose file system gives no block locations. */
  static final String WRITERS = "mrap.copy.writers";
  /** Streams side by side in a copy from this process into HDFS ({@link ThreadedCopy}). */
  static final String THREADS = "mrap.copy.threads";
  /** Every setting under {@code mrap.copy.}; another name there is refused. */
  static final List<String> KEYS = Arrays.asList(PARALLEL_BYTES, WRITERS, THREADS);
  /** The largest chunk a copy writes: far above any HDFS block, far below overflow. */
  static final long MAX_BLOCK_SIZE = 1L << 40;

  final long blockSize;
  final short replication;
  final FsPermission permission;
  final long parallelBytes;
  final int writers;
  final int threads;

  private CopySettings(long blockSize, short replication, FsPermission permission,
      long parallelBytes, int writers, int threads) {
    this.blockSize = blockSize;
    this.replication = replication;
    this.permission = permission;
    this.parallelBytes = parallelBytes;
    this.writers = writers;
    this.threads = threads;
  }

  /**
   * @throws CopyException (a usage error) naming the key of a bad value
   */
  static CopySettings of(Configuration conf, FileSystem dstFs, Path dst) throws IOException {
    try {
      MrapConf.checkKeys(conf, "mrap.copy.", KEYS);
      boolean hdfs = "hdfs".equals(dstFs.getUri().getScheme());
      long blockSize = MrapConf.bytes(conf, "dfs.blocksize", dstFs.getDefaultBlockSize(dst),
          RestructuredLayout.HEADER_BYTES + 1);
      if (blockSize > MAX_BLOCK_SIZE) {
        throw new CopyException(true, "dfs.blocksize=" + conf.get("dfs.blocksize") + " is more "
            + "than " + MAX_BLOCK_SIZE + " bytes");
      }
      long perChecksum = MrapConf.get(conf, "dfs.bytes-per-checksum") == null ? 512
          : wholeNumber(conf, "dfs.bytes-per-checksum", 1, Integer.MAX_VALUE);
      if (hdfs && blockSize % perChecksum != 0) {
        throw new CopyException(true, "dfs.blocksize=" + conf.get("dfs.blocksize") + " is not "
            + "a multiple of dfs.bytes-per-checksum (" + perChecksum + "), as HDFS needs");
      }
      long replication = dstFs.getDefaultReplication(dst);
      if (MrapConf.get(conf, "dfs.replication") != null) {
        replication = wholeNumber(conf, "dfs.replication", 1, Short.MAX_VALUE);
      }
      FsPermission permission;
      try {
        permission = FsPermission.getFileDefault().applyUMask(FsPermission.getUMask(conf));
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw new CopyException(true, "fs.permissions.umask-mode=" + StrictConf.shorten(
            conf.getRaw("fs.permissions.umask-mode")) + " is not a umask (octal, as 022, or "
            + "symbolic)");
      }
      long parallelBytes = MrapConf.bytes(conf, PARALLEL_BYTES, 1L << 30, 0);
      int writers = (int) (MrapConf.get(conf, WRITERS) == null ? 20
          : wholeNumber(conf, WRITERS, 1, 100_000));
      int threads = (int) (MrapConf.get(conf, THREADS) == null ? 4
          : wholeNumber(conf, THREADS, 1, 64));
      return new CopySettings(blockSize, (short) replication, permission, parallelBytes,
          writers, threads);
    } catch (InvalidSettingsException e) {
      throw new CopyException(true, e.getMessage(), e);
    }
  }

  private static long wholeNumber(Configuration conf, String key, long min, long max)
      throws InvalidSettingsException {
    return MrapConf.number(conf, key, min, max);
  }
}
