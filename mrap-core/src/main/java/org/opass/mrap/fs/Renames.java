package org.opass.mrap.fs;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/** Publishing by rename: the one step that makes a written file or folder visible. */
public final class Renames {
  private Renames() {
  }

  /**
   * Renames {@code from} to {@code to} in one step, replacing a file at {@code to} in the same
   * step if {@code overwrite} (a folder cannot be replaced so).
   *
   * @throws org.apache.hadoop.fs.FileAlreadyExistsException if {@code to} exists and may not be
   *     replaced
   */
  public static void rename(Configuration conf, FileSystem fs, Path from, Path to,
      boolean overwrite) throws IOException {
    Options.Rename how = overwrite ? Options.Rename.OVERWRITE : Options.Rename.NONE;
    if (fs instanceof DistributedFileSystem) {
      ((DistributedFileSystem) fs).rename(from, to, how);
    } else {
      FileContext.getFileContext(fs.getUri(), conf).rename(from, to, how);
    }
  }
}
