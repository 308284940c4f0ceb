package org.opass.mrap.copy.mapred;

import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.TaskID;
import org.opass.mrap.copy.Parts;
import org.opass.mrap.layout.LayoutHeader;
import org.opass.mrap.layout.RestructuredLayout;

/**
 * What a copy job's client, writers and committer hand each other as files in the copy's
 * hidden work folder: the destination's layout (client to writers), each chunk's part and
 * each writer's CRCs (writers to committer) in the parts folder, and beside the joined file
 * why the committer could not publish it (committer to client).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class WorkFiles {
  private static final String LAYOUT = "layout";
  private static final String CRCS = "crcs-";

  private WorkFiles() {
  }

  /** Leaves the destination's layout in the parts folder, for every writer. */
  public static void writeLayout(FileSystem fs, Path parts, RestructuredLayout layout)
      throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(parts, LAYOUT), false)) {
      out.write(layout.header());
      out.write(layout.trailer());
    }
  }

  /** The destination's layout, as the client left it in the parts folder; null for plain. */
  static RestructuredLayout readLayout(FileSystem fs, Path parts) throws IOException {
    Path file = new Path(parts, LAYOUT);
    if (!fs.exists(file)) {
      return null;
    }
    try (FSDataInputStream in = fs.open(file)) {
      byte[] header = new byte[LayoutHeader.BYTES];
      in.readFully(header);
      LayoutHeader h = LayoutHeader.parse(header, header.length, file.toString());
      byte[] trailer = new byte[h.trailerLength()];
      in.readFully(trailer);
      return RestructuredLayout.read(h, trailer, file.toString());
    }
  }

  /** Where chunk {@code c}'s part is published (attempts write under their own names). */
  static Path part(Path parts, int c) {
    return Parts.part(parts, c);
  }

  /** Where a writer task publishes the CRCs of the chunks it wrote. */
  static Path crcs(Path parts, TaskID task) {
    return new Path(parts, CRCS + task);
  }

  /**
   * The writers' CRC files.
   *
   * @throws java.io.FileNotFoundException if the parts folder is gone
   */
  static FileStatus[] listCrcs(FileSystem fs, Path parts) throws IOException {
    return fs.listStatus(parts, p -> p.getName().startsWith(CRCS));
  }

  /** Where the committer leaves why it could not publish (a hidden leftover, as the rest). */
  public static Path failureNote(Path temp) {
    return temp.suffix(".failure");
  }
}
