package org.opass.mrap.mapreduce.index;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * A group of files whose headers one index task reads, each as it was listed (path, length,
 * modification time: what its entry binds to), on the host holding their first blocks.
 */
public final class FileGroupSplit extends InputSplit implements Writable {
  private List<FileStatus> files = new ArrayList<>();
  private String host; // null: no host holds them all

  public FileGroupSplit() {
  }

  FileGroupSplit(List<FileStatus> files, String host) {
    this.files = new ArrayList<>(files);
    this.host = host;
  }

  /** The files, as listed. */
  public List<FileStatus> files() {
    return files;
  }

  @Override
  public long getLength() {
    return files.size();
  }

  @Override
  public String[] getLocations() {
    return host == null ? new String[0] : new String[] {host};
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, host == null ? "" : host);
    WritableUtils.writeVInt(out, files.size());
    for (FileStatus f : files) {
      Text.writeString(out, f.getPath().toString());
      WritableUtils.writeVLong(out, f.getLen());
      WritableUtils.writeVLong(out, f.getModificationTime());
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    String h = Text.readString(in);
    host = h.isEmpty() ? null : h;
    int n = WritableUtils.readVInt(in);
    files = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Path p = new Path(Text.readString(in));
      long len = WritableUtils.readVLong(in);
      long mtime = WritableUtils.readVLong(in);
      files.add(new FileStatus(len, false, 0, 0, mtime, p));
    }
  }

  @Override
  public String toString() {
    return files.size() + " files on " + host;
  }
}
