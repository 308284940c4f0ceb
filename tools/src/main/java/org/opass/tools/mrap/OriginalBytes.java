package org.opass.tools.mrap;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.layout.SegmentCursor;
import org.opass.tools.cluster.TestFiles;

/** A file's original bytes, read through its layout where a restructuring copy wrote it. */
public final class OriginalBytes {
  private OriginalBytes() {
  }

  /** The original bytes of a file: through its layout when it is restructured. */
  public static byte[] of(FileSystem fs, Path p) throws IOException {
    byte[] physical = TestFiles.read(fs, p);
    RestructuredLayout layout = RestructuredFiles.layoutOf(fs, p);
    if (layout == null) {
      return physical;
    }
    byte[] out = new byte[Math.toIntExact(layout.logicalLength())];
    SegmentCursor c = layout.logical(0, layout.logicalLength());
    while (c.next()) {
      System.arraycopy(physical, (int) c.physical(), out, (int) c.logical(), (int) c.length());
    }
    return out;
  }

  /** The CRC32C of a file's original bytes, read through its layout when it has one. */
  public static int crc(FileSystem fs, Path p) throws IOException {
    RestructuredLayout layout = RestructuredFiles.layoutOf(fs, p);
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    byte[] buf = new byte[1 << 20];
    try (FSDataInputStream in = fs.open(p)) {
      if (layout == null) {
        for (int n = in.read(buf); n > 0; n = in.read(buf)) {
          crc.update(buf, 0, n);
        }
      } else {
        SegmentCursor c = layout.logical(0, layout.logicalLength());
        while (c.next()) {
          for (long done = 0; done < c.length(); ) {
            int n = (int) Math.min(buf.length, c.length() - done);
            in.readFully(c.physical() + done, buf, 0, n);
            crc.update(buf, 0, n);
            done += n;
          }
        }
      }
    }
    return (int) crc.getValue();
  }
}
