package org.opass.mrap.copy;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.fs.LogicalReads;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.Members;
import org.opass.mrap.layout.RestructuredLayout;

/**
 * What a copy reads, as original bytes: a file (a plain file's own bytes, a restructured file's
 * read through the layout it carries, so copying a restructured file out or restructuring it
 * again starts from the original), a member of a container ({@link #members()}), or several
 * of those end to end, as {@code mrap-copy -pack} writes them into one container.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class SourceFile {
  /** Streams a pack's reader keeps open at once. */
  static final int OPEN_STREAMS = 16;

  /** A stretch of one file's original. */
  private static final class Piece {
    final FileSystem fs;
    final FileStatus status;
    final RestructuredLayout layout;
    final long offset; // in the file's original
    final long length;

    Piece(FileSystem fs, FileStatus status, RestructuredLayout layout, long offset,
        long length) {
      this.fs = fs;
      this.status = status;
      this.layout = layout;
      this.offset = offset;
      this.length = length;
    }

    boolean whole() {
      return offset == 0 && length == (layout != null ? layout.logicalLength()
          : status.getLen());
    }
  }

  private final List<Piece> pieces;
  private final long[] starts; // where each piece starts in this source; [n] is the length
  private final String name;
  private final String describe;

  private SourceFile(List<Piece> pieces, String name, String describe) {
    this.pieces = pieces;
    this.name = name;
    this.describe = describe;
    starts = new long[pieces.size() + 1];
    for (int i = 0; i < pieces.size(); i++) {
      starts[i + 1] = starts[i] + pieces.get(i).length;
    }
  }

  /**
   * A whole file.
   *
   * @throws CopyException (a usage error) for a missing source or a folder
   * @throws IOException naming the file for a restructured file whose layout is damaged or no
   *     longer describes it
   */
  public static SourceFile of(Configuration conf, Path src) throws IOException {
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
    RestructuredLayout layout = RestructuredFiles.inspect(fs, status).layout();
    long length = layout != null ? layout.logicalLength() : status.getLen();
    return new SourceFile(List.of(new Piece(fs, status, layout, 0, length)),
        status.getPath().getName(), status.getPath().toString());
  }

  /** Several sources end to end, as one original (a container's). */
  static SourceFile concatenation(List<SourceFile> sources) {
    List<Piece> all = new ArrayList<>();
    for (SourceFile s : sources) {
      all.addAll(s.pieces);
    }
    return new SourceFile(Collections.unmodifiableList(all), null, sources.size()
        + " files end to end");
  }

  /** A container's members, each a source of its own; null for any other file. */
  List<SourceFile> members() {
    Piece p = pieces.get(0);
    Members m = pieces.size() == 1 && p.whole() && p.layout != null ? p.layout.members() : null;
    if (m == null) {
      return null;
    }
    List<SourceFile> out = new ArrayList<>();
    for (int i = 0; i < m.count(); i++) {
      out.add(new SourceFile(List.of(new Piece(p.fs, p.status, p.layout, m.start(i),
          m.length(i))), m.name(i), p.status.getPath() + " (member " + m.name(i) + ")"));
    }
    return out;
  }

  /** Whether this is one whole file (not a member, not several). */
  boolean whole() {
    return pieces.size() == 1 && pieces.get(0).whole();
  }

  /** The file system of the (first) file. */
  FileSystem fs() {
    return pieces.get(0).fs;
  }

  /** The (first) file. */
  public FileStatus status() {
    return pieces.get(0).status;
  }

  public Path path() {
    return status().getPath();
  }

  /** The name a copy of it takes in a folder: the file's, or the member's; null for several. */
  String name() {
    return name;
  }

  /** The layout the (first) file carries, or null for a plain file. */
  public RestructuredLayout layout() {
    return pieces.get(0).layout;
  }

  /** Length of the original. */
  long length() {
    return starts[pieces.size()];
  }

  /**
   * The CRC32C of the original its file system gives without a read (HDFS), composed over the
   * files of a concatenation; null where a piece has none (another file system, a restructured
   * file, whose checksum covers its layout, or a member), or the files are on several.
   */
  Integer storedCrc(Configuration conf) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Piece p : pieces) {
      if (p.layout != null || !p.whole() || !p.fs.getUri().equals(fs().getUri())) {
        return null;
      }
      files.add(p.status.getPath());
    }
    int crc = 0;
    Integer[] each = Publisher.compositeCrcs(conf, fs(), files);
    for (int i = 0; i < each.length; i++) {
      if (each[i] == null) {
        return null;
      }
      crc = Crc32c.compose(crc, each[i], pieces.get(i).length);
    }
    return crc;
  }

  @Override
  public String toString() {
    return describe;
  }

  /** Reads of the original's bytes. Not thread-safe. */
  public Reader open() throws IOException {
    return new Reader();
  }

  public final class Reader implements Closeable {
    // the pieces' files open now, the least recently read dropped past OPEN_STREAMS
    private final Map<Integer, Open> open = new LinkedHashMap<Integer, Open>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Integer, Open> eldest) {
        if (size() > OPEN_STREAMS) {
          eldest.getValue().close();
          return true;
        }
        return false;
      }
    };
    private long reads;

    Reader() throws IOException {
      open(0); // a source that cannot be opened fails here, before anything is written
    }

    /** Reads original bytes {@code [from, from + len)} into {@code buf} at {@code off}. */
    void read(long from, byte[] buf, int off, int len) throws IOException {
      reads++;
      int i = java.util.Arrays.binarySearch(starts, 0, pieces.size(), from);
      i = i >= 0 ? i : -i - 2;
      while (len > 0) {
        while (starts[i + 1] <= from) { // skip empty pieces
          i++;
        }
        Piece p = pieces.get(i);
        int n = (int) Math.min(len, starts[i + 1] - from);
        open(i).read(p.offset + from - starts[i], buf, off, n);
        from += n;
        off += n;
        len -= n;
      }
    }

    private Open open(int i) throws IOException {
      Open o = open.get(i);
      if (o == null) {
        o = new Open(pieces.get(i));
        open.put(i, o);
      }
      return o;
    }

    /** Reads asked of it so far. */
    long reads() {
      return reads;
    }

    @Override
    public void close() throws IOException {
      for (Open o : open.values()) {
        o.close();
      }
      open.clear();
    }
  }

  /** One piece's file, open. */
  private static final class Open {
    private final FSDataInputStream in;
    private final LogicalReads original;

    Open(Piece p) throws IOException {
      in = p.fs.open(p.status.getPath());
      original = p.layout == null ? null : new LogicalReads(in, p.layout, 1 << 20);
    }

    void read(long from, byte[] buf, int off, int len) throws IOException {
      if (original == null) {
        in.readFully(from, buf, off, len);
      } else {
        original.read(from, buf, off, len);
      }
    }

    void close() {
      try {
        in.close();
      } catch (IOException ignored) {
        // read only: nothing is lost
      }
    }
  }
}
