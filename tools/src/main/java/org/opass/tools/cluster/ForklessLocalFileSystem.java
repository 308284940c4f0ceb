package org.opass.tools.cluster;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The local file system, unchecksummed, without its permission calls: with no native Hadoop
 * library (as here), Hadoop's local file system forks {@code chmod} for every file it creates
 * and {@code ls} for every status it lists, and thousands of small cases spend their time
 * forking. Files and folders are the machine's, their permissions its defaults. For tests that
 * run thousands of local cases; HDFS is what the cluster tests use.
 */
public class ForklessLocalFileSystem extends RawLocalFileSystem {
  private static final Configuration LOCAL = new Configuration(); // Hadoop's defaults, once

  static {
    LOCAL.set("fs.defaultFS", "file:///");
    LOCAL.set("fs.file.impl", ForklessLocalFileSystem.class.getName());
    LOCAL.setBoolean("fs.file.impl.disable.cache", true); // not the cached file:// of others
  }

  /** A fresh configuration (Hadoop's defaults, parsed once) whose file:// is this class. */
  public static Configuration conf() {
    return new Configuration(LOCAL);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    File file = pathToFile(f);
    if (!file.exists()) {
      throw new FileNotFoundException("File " + f + " does not exist");
    }
    return status(file, makeQualified(f));
  }

  private FileStatus status(File file, Path qualified) {
    return new FileStatus(file.isDirectory() ? 0 : file.length(), file.isDirectory(), 1,
        getDefaultBlockSize(qualified), file.lastModified(), qualified);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    File dir = pathToFile(f);
    if (!dir.exists()) {
      throw new FileNotFoundException("File " + f + " does not exist");
    }
    if (!dir.isDirectory()) {
      return new FileStatus[] {getFileStatus(f)};
    }
    String[] names = dir.list();
    if (names == null) {
      throw new IOException("cannot list " + f);
    }
    FileStatus[] out = new FileStatus[names.length];
    for (int i = 0; i < names.length; i++) {
      out[i] = status(new File(dir, names[i]), makeQualified(new Path(f, names[i])));
    }
    return out;
  }

  @Override
  public void setPermission(Path p, FsPermission permission) {
    // the machine's default: no chmod forked
  }

  @Override
  public void setOwner(Path p, String username, String groupname) {
    // the machine's default: no chown forked
  }
}
