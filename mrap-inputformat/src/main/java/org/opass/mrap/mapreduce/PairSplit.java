package org.opass.mrap.mapreduce;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/**
 * One matching task's input: pieces of input A and of input B, each a file range. A
 * one-to-all task names the file that lists all of B's pieces (written once per job) instead
 * of carrying them, so the job's splits grow with A plus B, not A times B.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class PairSplit extends InputSplit implements org.apache.hadoop.io.Writable {
  private List<FileSplit> a = new ArrayList<>();
  private List<FileSplit> b = new ArrayList<>();
  private int[] aIndex = new int[0];
  private int[] bIndex = new int[0];
  private String bList = ""; // the file listing B's pieces, or "" when they are here
  private int bCount;
  private String[] hosts = new String[0];

  public PairSplit() {
  }

  PairSplit(List<FileSplit> a, int[] aIndex, List<FileSplit> b, int[] bIndex, String[] hosts) {
    this.a = new ArrayList<>(a);
    this.b = new ArrayList<>(b);
    this.aIndex = aIndex.clone();
    this.bIndex = bIndex.clone();
    this.bCount = b.size();
    this.hosts = hosts.clone();
  }

  /** A split whose B is every piece listed in {@code bList} (see {@link #writePieces}). */
  static PairSplit withListedB(List<FileSplit> a, int[] aIndex, Path bList, int bCount,
      String[] hosts) {
    PairSplit s = new PairSplit(a, aIndex, new ArrayList<>(), new int[0], hosts);
    s.bList = bList.toString();
    s.bCount = bCount;
    return s;
  }

  /** Writes every piece of an input, once, for the tasks to read. */
  static void writePieces(FileSystem fs, Path file, List<FileSplit> pieces) throws IOException {
    try (DataOutputStream out = fs.create(file, true)) {
      WritableUtils.writeVInt(out, pieces.size());
      for (FileSplit s : pieces) {
        s.write(out);
      }
    }
  }

  /** Reads B's pieces from the file a job listed them in, if this split names one. */
  void loadB(Configuration conf) throws IOException {
    if (bList.isEmpty() || !b.isEmpty()) {
      return;
    }
    Path file = new Path(bList);
    try (DataInputStream in = file.getFileSystem(conf).open(file)) {
      int n = WritableUtils.readVInt(in);
      if (n != bCount) {
        throw new IOException(file + " lists " + n + " pieces of B, the split expects "
            + bCount);
      }
      bIndex = new int[n];
      for (int k = 0; k < n; k++) {
        FileSplit s = new FileSplit();
        s.readFields(in);
        b.add(s);
        bIndex[k] = k;
      }
    }
  }

  public List<FileSplit> a() {
    return Collections.unmodifiableList(a);
  }

  /** B's pieces (for a split that names a list of them, once {@link #loadB} read it). */
  public List<FileSplit> b() {
    return Collections.unmodifiableList(b);
  }

  /** Index of the task's k-th A piece among all A pieces. */
  int aIndex(int k) {
    return aIndex[k];
  }

  int bIndex(int k) {
    return bIndex[k];
  }

  @Override
  public long getLength() {
    long n = 0;
    for (FileSplit s : a) {
      n += s.getLength();
    }
    for (FileSplit s : b) {
      n += s.getLength();
    }
    return n;
  }

  @Override
  public String[] getLocations() {
    return hosts.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    writeSide(out, a, aIndex);
    Text.writeString(out, bList);
    WritableUtils.writeVInt(out, bCount);
    if (bList.isEmpty()) {
      writeSide(out, b, bIndex);
    }
  }

  private static void writeSide(DataOutput out, List<FileSplit> pieces, int[] index)
      throws IOException {
    WritableUtils.writeVInt(out, pieces.size());
    for (int k = 0; k < pieces.size(); k++) {
      WritableUtils.writeVInt(out, index[k]);
      pieces.get(k).write(out);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    int na = WritableUtils.readVInt(in);
    a = new ArrayList<>(na);
    aIndex = new int[na];
    readSide(in, a, aIndex);
    bList = Text.readString(in);
    bCount = WritableUtils.readVInt(in);
    b = new ArrayList<>();
    bIndex = new int[0];
    if (bList.isEmpty()) {
      int nb = WritableUtils.readVInt(in);
      bIndex = new int[nb];
      readSide(in, b, bIndex);
    }
    hosts = new String[0];
  }

  private static void readSide(DataInput in, List<FileSplit> pieces, int[] index)
      throws IOException {
    for (int k = 0; k < index.length; k++) {
      index[k] = WritableUtils.readVInt(in);
      FileSplit s = new FileSplit();
      s.readFields(in);
      pieces.add(s);
    }
  }

  @Override
  public String toString() {
    return "A" + a + " B" + (bList.isEmpty() ? b.toString() : "(" + bCount + " pieces in "
        + bList + ")");
  }
}
