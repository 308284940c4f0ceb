package org.opass.tools.cluster;

import java.io.IOException;
import java.util.Random;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The data, writes and read-backs that the cluster tests share. */
public final class TestFiles {
  private TestFiles() {
  }

  /** {@code length} bytes from {@code new Random(seed)}. */
  public static byte[] randomBytes(long length, long seed) {
    byte[] bytes = new byte[Math.toIntExact(length)];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /** Writes {@code data} as {@code file} (overwriting) with the file system's block size. */
  public static void write(FileSystem fs, Path file, byte[] data, short replication)
      throws IOException {
    try (FSDataOutputStream out = fs.create(file, replication)) {
      out.write(data);
    }
  }

  /** Writes {@code data} as {@code file} (overwriting) with its own block size. */
  public static void write(FileSystem fs, Path file, byte[] data, short replication,
      long blockSize) throws IOException {
    try (FSDataOutputStream out = fs.create(file, true, 64 * 1024, replication, blockSize)) {
      out.write(data);
    }
  }

  /** The whole file, as long as its status says; fails if the file holds more. */
  public static byte[] read(FileSystem fs, Path file) throws IOException {
    byte[] bytes = new byte[Math.toIntExact(fs.getFileStatus(file).getLen())];
    try (FSDataInputStream in = fs.open(file)) {
      in.readFully(bytes);
      if (in.read() != -1) {
        throw new IOException(file + " is longer than its status says");
      }
    }
    return bytes;
  }
}
