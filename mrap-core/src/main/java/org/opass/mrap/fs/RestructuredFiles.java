package org.opass.mrap.fs;

import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.layout.LayoutHeader;
import org.opass.mrap.layout.Members;
import org.opass.mrap.layout.RestructuredLayout;

/**
 * Restructured files in a file system. A restructured file carries its layout: a header in its
 * first bytes and the layout after its data ({@link RestructuredLayout}), so whatever moves or
 * copies the file moves or copies the layout, and a file put in its place has none. A reader
 * looks at a file's first bytes to tell which it is, and checks that the file still has the
 * length its header records (an appended or truncated file is refused, naming it).
 */
public final class RestructuredFiles {
  /** The identity of a plain file. */
  public static final long PLAIN = -1;

  /** Files inspected at once when a job names many. */
  private static final int INSPECTORS = 8;

  private RestructuredFiles() {
  }

  /** What MRAP's readers make of a file: plain, or restructured with its layout. */
  public static final class Inspected {
    private final FileStatus status;
    private final RestructuredLayout layout;

    Inspected(FileStatus status, RestructuredLayout layout) {
      this.status = status;
      this.layout = layout;
    }

    public FileStatus status() {
      return status;
    }

    /** The layout, or null for a plain file. */
    public RestructuredLayout layout() {
      return layout;
    }

    /** The original's length: the file's own for a plain file. */
    public long logicalLength() {
      return layout != null ? layout.logicalLength() : status.getLen();
    }

    /** What a split records to find the same file at task time: its layout's CRC, -1 if plain. */
    public long identity() {
      return layout != null ? RestructuredFiles.identity(layout.trailerCrc()) : PLAIN;
    }
  }

  /** {@code status} known to be a plain file (an index says so) without reading it. */
  public static Inspected plain(FileStatus status) {
    return new Inspected(status, null);
  }

  /** The layout of {@code file}, or null when it is a plain file. */
  public static RestructuredLayout layoutOf(FileSystem fs, Path file) throws IOException {
    return inspect(fs, fs.getFileStatus(file)).layout();
  }

  /**
   * Reads a file's first bytes and, if it is restructured, its layout.
   *
   * @throws IOException naming the file if it starts like a restructured file but its header
   *     or layout is damaged, or its length is no longer the one its header records
   */
  public static Inspected inspect(FileSystem fs, FileStatus status) throws IOException {
    try (FSDataInputStream in = fs.open(status.getPath())) {
      return inspect(in, status, null);
    }
  }

  /**
   * {@link #inspect} through an open stream; {@code head}, when not null, is the file's first
   * bytes, already read.
   */
  public static Inspected inspect(FSDataInputStream in, FileStatus status, byte[] head)
      throws IOException {
    Path path = status.getPath();
    LayoutHeader header = header(in, status, head);
    if (header == null) {
      return new Inspected(status, null);
    }
    byte[] trailer = new byte[header.trailerLength()];
    try {
      in.readFully(header.dataLength(), trailer);
    } catch (EOFException e) {
      throw new IOException(path + ": its MRAP layout is cut short", e);
    }
    return new Inspected(status, RestructuredLayout.read(header, trailer, path.toString()));
  }

  /** The file's header, checked against its length; null for a plain file. */
  private static LayoutHeader header(FSDataInputStream in, FileStatus status, byte[] head)
      throws IOException {
    if (status.getLen() < 16) {
      return null;
    }
    Path path = status.getPath();
    byte[] first = new byte[(int) Math.min(LayoutHeader.BYTES, status.getLen())];
    if (head != null && head.length >= first.length) {
      System.arraycopy(head, 0, first, 0, first.length);
    } else {
      in.readFully(0, first);
    }
    if (!LayoutHeader.looksLikeOne(first, first.length)) {
      return null;
    }
    LayoutHeader header = LayoutHeader.parse(first, first.length, path.toString());
    if (header.fileLength() != status.getLen()) {
      throw new IOException(path + " is an MRAP restructured file of " + header.fileLength()
          + " bytes, but now holds " + status.getLen() + ": it was "
          + (status.getLen() > header.fileLength() ? "appended to" : "truncated")
          + " since it was restructured, and its layout no longer describes it (restore it, "
          + "or restructure the original again)");
    }
    return header;
  }

  /** {@link #inspect}s every file, several at a time, in the files' order. */
  public static List<Inspected> inspectAll(Configuration conf, List<FileStatus> files)
      throws IOException {
    return InParallel.map(files, INSPECTORS, "first bytes",
        f -> inspect(f.getPath().getFileSystem(conf), f));
  }

  /** A layout's CRC as a split records it: unsigned, apart from {@link #PLAIN}. */
  private static long identity(int trailerCrc) {
    return trailerCrc & 0xffffffffL;
  }

  /**
   * At task time: checks that {@code path} is still the file its split was made from (its
   * length, and its layout's CRC or that it has none), before a byte is read as data.
   *
   * @throws IOException naming the file and what changed since the job was submitted
   */
  public static RestructuredLayout checkSame(FileSystem fs, Path path, long length, long identity,
      boolean wantLayout) throws IOException {
    FileStatus now = fs.getFileStatus(path);
    if (now.getLen() != length) {
      throw new IOException(path + " changed since the job was submitted: it held " + length
          + " bytes, now " + now.getLen());
    }
    RestructuredLayout layout = null;
    long found;
    if (wantLayout) {
      layout = inspect(fs, now).layout();
      found = layout == null ? PLAIN : identity(layout.trailerCrc());
    } else {
      try (FSDataInputStream in = fs.open(path)) {
        LayoutHeader header = header(in, now, null);
        found = header == null ? PLAIN : identity(header.trailerCrc());
      }
    }
    if (found != identity) {
      throw new IOException(path + " was replaced since the job was submitted: it was "
          + (identity == PLAIN ? "a plain file" : "restructured") + ", now it is "
          + (found == PLAIN ? "a plain file" : "restructured for another layout"));
    }
    return layout;
  }

  /**
   * The refusal of a job that reads {@code file} for other regions than it was restructured
   * for: names both, and the ways on (read it as it was restructured, through its layout, or
   * restructure it again).
   *
   * @param jobReads what the job reads, as the refusal names it
   * @param indexKey the job's key that reads a restructured file through its layout when set
   *     to {@code index}
   */
  public static String otherRegionsRefusal(Path file, RestructuredLayout layout, String jobReads,
      String indexKey) {
    return file + " was restructured for " + layout.restructuredFor() + ", and this job reads "
        + jobReads + ": read it as it was restructured, set " + indexKey + "=index to read it "
        + "through the stored layout (slower), or restructure it again for this job";
  }

  /**
   * The refusal of a container ({@code mrap-copy -pack}) where a file of its own is needed:
   * names it, its members and why, and how to copy them out.
   *
   * @param why what a container cannot be or give here
   */
  public static String containerRefusal(Path file, Members members, String why) {
    return file + " is a container of " + members + " packed by mrap-copy -pack: " + why
        + "; copy its members out first (mrap-copy " + file + " FOLDER)";
  }
}
