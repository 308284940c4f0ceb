package org.opass.mrap.copy;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.mapreduce.LogicalReads;
import org.opass.mrap.mapreduce.RestructuredFiles;

/**
 * A file to copy, as its original bytes: a plain file's own, or a restructured file's read
 * through the layout it carries (so copying a restructured file out, or restructuring it again,
 * starts from the original).
 */
final class SourceFile {
  private final FileSystem fs;
  private final FileStatus status;
  private final RestructuredLayout layout;

  private SourceFile(FileSystem fs, FileStatus status, RestructuredLayout layout) {
    this.fs = fs;
    this.status = status;
    this.layout = layout;
  }

  /**
   * @throws CopyException (a usage error) for a missing source or a folder
   * @throws IOException naming the file for a restructured file whose layout is damaged or no
   *     longer describes it
   */
  static SourceFile of(Configuration conf, Path src) throws IOException {
    FileSystem fs = src.getFileSystem(conf);
    FileStatus status;
    try {
      status = fs.getFileStatus(src);
    } catch (FileNotFoundException e) {
      throw new CopyException(true, "no such source: " + src);
    }
    if (status.isDirectory()) {
      throw new CopyException(true, src + " is a directory: name its files");
    }
    return new SourceFile(fs, status, RestructuredFiles.inspect(fs, status).layout());
  }

  FileSystem fs() {
    return fs;
  }

  FileStatus status() {
    return status;
  }

  Path path() {
    return status.getPath();
  }

  /** The layout it carries, or null for a plain file. */
  RestructuredLayout layout() {
    return layout;
  }

  /** Length of the original. */
  long length() {
    return layout != null ? layout.logicalLength() : status.getLen();
  }

  /** Reads of the original's bytes. Not thread-safe. */
  Reader open() throws IOException {
    return new Reader(fs.open(status.getPath()));
  }

  final class Reader implements Closeable {
    private final FSDataInputStream in;
    private final LogicalReads original;
    private long reads;

    Reader(FSDataInputStream in) {
      this.in = in;
      this.original = layout == null ? null : new LogicalReads(in, layout, 1 << 20);
    }

    /** Reads original bytes {@code [from, from + len)} into {@code buf} at {@code off}. */
    void read(long from, byte[] buf, int off, int len) throws IOException {
      reads++;
      if (original == null) {
        in.readFully(from, buf, off, len);
      } else {
        original.read(from, buf, off, len);
      }
    }

    /** Reads asked of it so far. */
    long reads() {
      return reads;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
