package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.layout.RestructuredLayout;

/**
 * Restructured files in a file system: the layout is stored next to the data, in
 * {@code .<name>.mrap-layout} (hidden from FileInputFormat listings), and a logical view reads
 * the original bytes through its index.
 */
public final class RestructuredFiles {
  private RestructuredFiles() {
  }

  /** Where the layout of {@code file} is stored. */
  public static Path layoutPath(Path file) {
    return new Path(file.getParent(), "." + file.getName() + ".mrap-layout");
  }

  /** The layout of {@code file}, or null when it is not a restructured file. */
  public static RestructuredLayout layoutOf(FileSystem fs, Path file) throws IOException {
    Path layout = layoutPath(file);
    if (!fs.exists(layout)) {
      return null;
    }
    try (FSDataInputStream in = fs.open(layout)) {
      return RestructuredLayout.read(in, layout.toString());
    }
  }

  /** Reads the original bytes of a restructured file through its index. */
  static final class LogicalView {
    private final long[] logical;
    private final long[] physical;
    private final long[] length;

    LogicalView(RestructuredLayout layout) {
      List<long[]> segments = layout.segments();
      logical = new long[segments.size()];
      physical = new long[segments.size()];
      length = new long[segments.size()];
      for (int i = 0; i < logical.length; i++) {
        logical[i] = segments.get(i)[0];
        physical[i] = segments.get(i)[1];
        length[i] = segments.get(i)[2];
      }
    }

    /** Reads original bytes {@code [pos, pos + len)} into {@code dst}; returns reads issued. */
    int read(FSDataInputStream in, long pos, byte[] dst, int off, int len) throws IOException {
      int s = java.util.Arrays.binarySearch(logical, pos);
      s = s >= 0 ? s : -s - 2;
      int reads = 0;
      while (len > 0) {
        long into = pos - logical[s];
        int n = (int) Math.min(len, length[s] - into);
        in.readFully(physical[s] + into, dst, off, n);
        reads++;
        pos += n;
        off += n;
        len -= n;
        s++;
      }
      return reads;
    }
  }
}
