package org.opass.mrap.copy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.fs.Renames;

/**
 * The last step of every copy, in one process or in a copy job's committer: check the written
 * file against the bytes sent (HDFS's composite CRC, computed by the DataNodes from their block
 * checksums, no data read; a re-read elsewhere) and the bytes read against the source's own
 * checksum, then publish it under its name in one rename, replacing an existing destination in
 * the same rename when asked. Data and layout are one file, so the old destination or the new
 * one is there at every moment.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class Publisher {
  private Publisher() {
  }

  /**
   * @throws CopyException if the file does not hold the bytes sent
   */
  public static void verifyWritten(Configuration conf, FileSystem fs, Path temp, long length,
      int written, Path dst) throws IOException {
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

  /**
   * Checks the original bytes read against the source's checksum, where its file system gives
   * one without a read (HDFS; a concatenation's composed from its files').
   *
   * @throws CopyException if they differ
   */
  public static void verifySource(Configuration conf, SourceFile source, int original)
      throws IOException {
    Integer stored = source.length() > 0 ? source.storedCrc(conf) : null;
    if (stored != null && stored != original) {
      throw new CopyException(false, "the bytes read from " + source + " do not match the "
          + "checksum its file system holds (CRC32C " + Integer.toHexString(original) + " against "
          + Integer.toHexString(stored) + "): was it changed during the copy?");
    }
  }

  /**
   * Renames {@code temp} to {@code dst} in one step, replacing {@code dst} in the same step if
   * {@code overwrite}.
   *
   * @throws CopyException if {@code dst} appeared meanwhile (without {@code overwrite})
   */
  public static void publish(Configuration conf, FileSystem fs, Path temp, Path dst,
      boolean overwrite) throws IOException {
    try {
      Renames.rename(conf, fs, temp, dst, overwrite);
    } catch (FileAlreadyExistsException e) {
      throw new CopyException(false, "could not publish the copy as " + dst + ": "
          + e.getMessage() + " (did another copy create it meanwhile?)");
    }
  }

  /**
   * CRC32C of a whole file: HDFS's composite CRC where the file system gives one (computed by
   * the DataNodes from their block checksums, no data read), else read and computed here.
   */
  static int crcOf(Configuration conf, Path p) throws IOException {
    FileSystem fs = p.getFileSystem(conf);
    Integer stored = compositeCrc(conf, fs, p);
    return stored != null ? stored : reread(fs, p);
  }

  /** The file's whole-file CRC32C as HDFS computes it from its block checksums, or null. */
  static Integer compositeCrc(Configuration conf, FileSystem fs, Path p) throws IOException {
    return compositeCrcs(conf, fs, java.util.List.of(p))[0];
  }

  /**
   * {@link #compositeCrc} of several files of one file system, through one client; an entry
   * is null where the file system gives none.
   */
  static Integer[] compositeCrcs(Configuration conf, FileSystem fs, java.util.List<Path> files)
      throws IOException {
    Integer[] out = new Integer[files.size()];
    if (!"hdfs".equals(fs.getUri().getScheme())) {
      return out;
    }
    Configuration c = new Configuration(conf);
    c.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    try (FileSystem composite = FileSystem.newInstance(fs.getUri(), c)) {
      for (int i = 0; i < out.length; i++) {
        FileChecksum sum = composite.getFileChecksum(files.get(i));
        if (sum instanceof CompositeCrcFileChecksum
            && sum.getAlgorithmName().endsWith("CRC32C")) { // else another type: re-read
          out[i] = ByteBuffer.wrap(sum.getBytes()).getInt(); // big-endian, as HDFS writes it
        }
      }
    }
    return out;
  }

  private static int reread(FileSystem fs, Path p) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buf = new byte[1 << 20];
    try (FSDataInputStream in = fs.open(p)) {
      for (int n = in.read(buf); n > 0; n = in.read(buf)) {
        crc.update(buf, 0, n);
      }
    }
    return (int) crc.getValue();
  }

  /** Deletes {@code p}, quietly: the next copy to the destination removes what is left. */
  public static void quietDelete(FileSystem fs, Path p) {
    try {
      fs.delete(p, true);
    } catch (FileNotFoundException gone) {
      // nothing to do
    } catch (IOException | RuntimeException e) {
      // best effort: the next copy to this destination removes it
    }
  }
}
