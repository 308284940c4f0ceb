package org.opass.mrap.plan;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.opass.mrap.format.ObjectStore;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.fs.HdfsStore;
import org.opass.mrap.index.ReferenceStore;
import org.opass.mrap.science.ScienceFiles;

/**
 * An input of a kind whose data are stores ({@link ScienceFiles#stores}: Zarr) opened as the
 * planner and the Spark source open it: a folder is a store; a file, a reference set of one
 * (a series index's {@code refs.json}, a store packed by {@code mrap-copy -pack}), its objects
 * read as the URIs it names, and any other name beside it. Close it when done.
 */
public final class StoreInput implements Closeable {
  /** Most bytes of a reference set read as a store. */
  static final int MAX_REFERENCES = 256 << 20;

  private final HdfsStore files;
  private final ScienceFile file;

  private StoreInput(HdfsStore files, ScienceFile file) {
    this.files = files;
    this.file = file;
  }

  /**
   * Opens {@code input} as a store of {@code kind}.
   *
   * @throws org.opass.mrap.format.ScienceFormatException naming the input where it is not a
   *     store of that kind
   */
  public static StoreInput open(Configuration conf, FileStatus input, ScienceFiles.Kind kind)
      throws IOException {
    String name = input.getPath().toString();
    HdfsStore files = new HdfsStore(conf, input.isDirectory() ? input.getPath()
        : input.getPath().getParent());
    try {
      ObjectStore store = input.isDirectory() ? files : ReferenceStore.of(name,
          files.get(input.getPath().getName(), MAX_REFERENCES), files);
      return new StoreInput(files, ScienceFiles.open(store, kind));
    } catch (IOException | RuntimeException e) {
      files.close();
      throw e;
    }
  }

  /** The store's variables. */
  public ScienceFile file() {
    return file;
  }

  /** The store's objects, in HDFS: their blocks, and the reads made. */
  public HdfsStore files() {
    return files;
  }

  @Override
  public void close() {
    file.close();
    files.close();
  }
}
