package org.opass.mrap.fs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathFilter;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The input files a read names, listed as MapReduce's {@code FileInputFormat} lists a job's
 * inputs by default, for engines that have no InputFormat: each path a glob; a folder stands for
 * what it holds (one level); names starting with {@code _} or {@code .} left out; a path that
 * matches nothing refused by name, every such path in one message. For a kind whose data are
 * stores of objects (Zarr), the stores the paths name ({@link HdfsStore#stores}).
 */
public final class InputFiles {
  private static final PathFilter VISIBLE = p -> {
    String name = p.getName();
    return !name.startsWith("_") && !name.startsWith(".");
  };

  private InputFiles() {
  }

  /** @throws IOException naming every path that does not exist or matches no file */
  public static List<FileStatus> list(Configuration conf, List<String> paths)
      throws IOException {
    String kind = conf.getTrimmed(org.opass.mrap.pattern.PatternConfig.KIND, "");
    for (org.opass.mrap.science.ScienceFiles.Kind k
        : org.opass.mrap.science.ScienceFiles.Kind.values()) {
      if (k.key().equalsIgnoreCase(kind) && org.opass.mrap.science.ScienceFiles.stores(k)) {
        Path[] in = new Path[paths.size()];
        for (int i = 0; i < in.length; i++) {
          in[i] = new Path(paths.get(i));
        }
        return HdfsStore.stores(conf, in);
      }
    }
    List<FileStatus> out = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (String name : paths) {
      Path p = new Path(name);
      FileSystem fs = p.getFileSystem(conf);
      FileStatus[] matches = fs.globStatus(fs.makeQualified(p), VISIBLE);
      if (matches == null) {
        errors.add("Input path does not exist: " + fs.makeQualified(p));
      } else if (matches.length == 0) {
        errors.add("Input Pattern " + fs.makeQualified(p) + " matches 0 files");
      }
      for (FileStatus m : matches == null ? new FileStatus[0] : matches) {
        if (!m.isDirectory()) {
          out.add(m);
          continue;
        }
        for (RemoteIterator<? extends FileStatus> it = fs.listLocatedStatus(m.getPath());
            it.hasNext(); ) {
          FileStatus child = it.next();
          if (VISIBLE.accept(child.getPath())) {
            out.add(child);
          }
        }
      }
    }
    if (!errors.isEmpty()) {
      throw new IOException(String.join("\n", errors));
    }
    return out;
  }
}
