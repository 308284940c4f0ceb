package org.opass.mrap.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;

/** One matching task's input: pieces of input A and of input B, each a file range. */
public final class PairSplit extends InputSplit implements org.apache.hadoop.io.Writable {
  private List<FileSplit> a = new ArrayList<>();
  private List<FileSplit> b = new ArrayList<>();
  private int[] aIndex = new int[0];
  private int[] bIndex = new int[0];
  private String[] hosts = new String[0];

  public PairSplit() {
  }

  PairSplit(List<FileSplit> a, int[] aIndex, List<FileSplit> b, int[] bIndex, String[] hosts) {
    this.a = new ArrayList<>(a);
    this.b = new ArrayList<>(b);
    this.aIndex = aIndex.clone();
    this.bIndex = bIndex.clone();
    this.hosts = hosts.clone();
  }

  public List<FileSplit> a() {
    return Collections.unmodifiableList(a);
  }

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
    writeSide(out, b, bIndex);
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
    int nb = WritableUtils.readVInt(in);
    b = new ArrayList<>(nb);
    bIndex = new int[nb];
    readSide(in, b, bIndex);
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
    return "A" + a + " B" + b;
  }
}
