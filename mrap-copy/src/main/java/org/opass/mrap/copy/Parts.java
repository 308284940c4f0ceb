package org.opass.mrap.copy;

import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A copy written in parts: chunk {@code c} of the destination is a file of its own in the parts
 * folder, a whole number of blocks but for the last, and the parts are joined into one file by
 * HDFS's {@code concat}, which keeps every block where it was written. The copy job's
 * committer and the threaded copy of one process ({@link ThreadedCopy}) join them alike.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class Parts {
  private Parts() {
  }

  /** Where chunk {@code c}'s part is published. */
  public static Path part(Path parts, int c) {
    return new Path(parts, String.format("part-%08d", c));
  }

  /**
   * Joins the parts of all {@code chunkCrc.length} chunks of a {@code length}-byte file into
   * {@code temp}, in order.
   *
   * @param chunkCrc the CRC32C of each chunk's bytes, as its writer sent them
   * @return the CRC32C of the joined file's bytes, composed from the chunks'
   */
  public static int join(FileSystem fs, Path parts, Path temp, long chunk, long length,
      int[] chunkCrc) throws IOException {
    int chunks = chunkCrc.length;
    int written = 0;
    Path[] rest = new Path[chunks - 1];
    for (int c = 0; c < chunks; c++) {
      long len = Math.min(chunk, length - (long) c * chunk);
      written = c == 0 ? chunkCrc[0] : Crc32c.compose(written, chunkCrc[c], len);
      if (c > 0) {
        rest[c - 1] = part(parts, c);
      }
    }
    Path first = part(parts, 0);
    if (rest.length > 0) {
      fs.concat(first, rest);
    }
    if (!fs.rename(first, temp)) {
      throw new IOException("could not move the joined parts to " + temp);
    }
    return written;
  }
}
