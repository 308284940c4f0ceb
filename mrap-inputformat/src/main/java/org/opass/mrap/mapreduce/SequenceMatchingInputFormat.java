package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.apache.hadoop.io.compress.SplittableCompressionCodec;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * MRAP's paired input (thesis §4.3.1, the SequenceMatching class): each map task gets pieces of
 * input A ({@code splitSizeA} bytes each) together with pieces of input B ({@code splitSizeB}
 * bytes each), so a matching job (read mapping, joins of two data sets) reads both in one map
 * phase instead of a preparation job and a join job.
 *
 * <p>Each input is one or more files or folders; each file is cut into pieces of its split
 * size (whole, if compressed without a splittable codec), in path order. Modes
 * ({@value #MODE}):
 * <ul>
 *   <li>{@code one-to-one}: task i gets A piece i and B piece i (both inputs must cut into as
 *   many pieces);</li>
 *   <li>{@code one-to-all}: task i gets A piece i and all of B (B small enough to read by every
 *   task, as a map-side join's small side);</li>
 *   <li>{@code all-pairs}: a task per (A piece, B piece), every A piece meets every B piece.</li>
 * </ul>
 * Records come from each input's own format ({@value #FORMAT}, default {@code TextInputFormat};
 * any {@code FileInputFormat}); the key is a {@link SideKey} (A or B, piece, the format's own
 * key), the value the format's value. <b>A task's B records come before its A records</b>, so a
 * mapper can hold B and stream A.
 */
public class SequenceMatchingInputFormat extends InputFormat<SideKey, Writable> {
  public static final String A_PATHS = "mrap.match.a.paths";
  public static final String B_PATHS = "mrap.match.b.paths";
  /** Bytes per piece of A (k, m, g suffixes); default each file's block size. */
  public static final String A_SPLIT_BYTES = "mrap.match.a.split.bytes";
  public static final String B_SPLIT_BYTES = "mrap.match.b.split.bytes";
  /** {@code one-to-one}, {@code one-to-all} (default) or {@code all-pairs}. */
  public static final String MODE = "mrap.match.mode";
  /** The {@code FileInputFormat} that reads records of both inputs. */
  public static final String FORMAT = "mrap.match.format";
  /** Overrides {@value #FORMAT} for input A. */
  public static final String A_FORMAT = "mrap.match.a.format";
  /** Overrides {@value #FORMAT} for input B. */
  public static final String B_FORMAT = "mrap.match.b.format";
  /** Most tasks {@code all-pairs} may make (a bound on the split list held at submission). */
  public static final String MAX_TASKS = "mrap.match.max.tasks";
  public static final int MAX_TASKS_DEFAULT = 100_000;

  /** How pieces of A and B are paired into tasks. */
  public enum Mode {
    ONE_TO_ONE, ONE_TO_ALL, ALL_PAIRS;

    String key() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  public static void setInputs(Job job, Path[] a, Path[] b) {
    job.getConfiguration().set(A_PATHS, join(a));
    job.getConfiguration().set(B_PATHS, join(b));
  }

  public static void setSplitBytes(Job job, long a, long b) {
    job.getConfiguration().setLong(A_SPLIT_BYTES, a);
    job.getConfiguration().setLong(B_SPLIT_BYTES, b);
  }

  public static void setMode(Job job, Mode mode) {
    job.getConfiguration().set(MODE, mode.key());
  }

  @SuppressWarnings("rawtypes")
  public static void setFormat(Job job, Class<? extends FileInputFormat> format) {
    job.getConfiguration().setClass(FORMAT, format, FileInputFormat.class);
  }

  private static String join(Path[] paths) {
    StringBuilder b = new StringBuilder();
    for (Path p : paths) {
      b.append(b.length() == 0 ? "" : ",").append(p);
    }
    return b.toString();
  }

  static Mode mode(Configuration conf) throws InvalidJobConfException {
    String raw = conf.getTrimmed(MODE, Mode.ONE_TO_ALL.key());
    for (Mode m : Mode.values()) {
      if (m.key().equals(raw)) {
        return m;
      }
    }
    throw new InvalidJobConfException(MODE + "=" + raw + " must be one-to-one, one-to-all or "
        + "all-pairs");
  }

  @SuppressWarnings("rawtypes")
  static FileInputFormat format(Configuration conf, String sideKey)
      throws InvalidJobConfException {
    String key = conf.get(sideKey) != null ? sideKey : FORMAT;
    String name = conf.getTrimmed(key, TextInputFormat.class.getName());
    try {
      Class<?> c = conf.getClassByName(name);
      if (!FileInputFormat.class.isAssignableFrom(c)) {
        throw new InvalidJobConfException(key + "=" + name + " is not a FileInputFormat");
      }
      return (FileInputFormat) ReflectionUtils.newInstance(c, conf);
    } catch (ClassNotFoundException e) {
      throw new InvalidJobConfException(key + "=" + name + " is not on the job's classpath");
    }
  }

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    Mode mode = mode(conf);
    format(conf, A_FORMAT);
    format(conf, B_FORMAT);
    Pieces a = pieces(conf, A_PATHS, A_SPLIT_BYTES);
    Pieces b = pieces(conf, B_PATHS, B_SPLIT_BYTES);
    List<InputSplit> splits = new ArrayList<>();
    switch (mode) {
      case ONE_TO_ONE:
        if (a.size() != b.size()) {
          throw new InvalidJobConfException("one-to-one needs as many pieces of A as of B: A ("
              + A_PATHS + ") cuts into " + a.size() + " with " + A_SPLIT_BYTES + "="
              + conf.get(A_SPLIT_BYTES, "its block size") + ", B into " + b.size() + " with "
              + B_SPLIT_BYTES + "=" + conf.get(B_SPLIT_BYTES, "its block size"));
        }
        for (int i = 0; i < a.size(); i++) {
          splits.add(pair(a, new int[] {i}, b, new int[] {i}));
        }
        break;
      case ONE_TO_ALL: {
        int[] all = new int[b.size()];
        Arrays.setAll(all, k -> k);
        for (int i = 0; i < a.size(); i++) {
          splits.add(pair(a, new int[] {i}, b, all));
        }
        break;
      }
      default: {
        int max = conf.getInt(MAX_TASKS, MAX_TASKS_DEFAULT);
        if ((long) a.size() * b.size() > max) {
          throw new InvalidJobConfException("all-pairs of " + a.size() + " pieces of A and "
              + b.size() + " of B makes " + (long) a.size() * b.size() + " tasks, more than "
              + MAX_TASKS + "=" + max + "; raise " + A_SPLIT_BYTES + " or " + B_SPLIT_BYTES);
        }
        for (int i = 0; i < a.size(); i++) {
          for (int j = 0; j < b.size(); j++) {
            splits.add(pair(a, new int[] {i}, b, new int[] {j}));
          }
        }
      }
    }
    return splits;
  }

  private static PairSplit pair(Pieces a, int[] ai, Pieces b, int[] bi) {
    Map<String, Long> bytes = new HashMap<>();
    List<FileSplit> as = a.collect(ai, bytes);
    List<FileSplit> bs = b.collect(bi, bytes);
    String[] hosts = bytes.entrySet().stream()
        .sorted((x, y) -> y.getValue().equals(x.getValue()) ? x.getKey().compareTo(y.getKey())
            : Long.compare(y.getValue(), x.getValue()))
        .limit(3).map(Map.Entry::getKey).toArray(String[]::new);
    return new PairSplit(as, ai, bs, bi, hosts);
  }

  /** An input's pieces, with the bytes each host holds of each. */
  private static final class Pieces {
    final List<FileSplit> splits = new ArrayList<>();
    final List<Map<String, Long>> hostBytes = new ArrayList<>();

    int size() {
      return splits.size();
    }

    List<FileSplit> collect(int[] idx, Map<String, Long> bytes) {
      List<FileSplit> out = new ArrayList<>(idx.length);
      for (int i : idx) {
        out.add(splits.get(i));
        hostBytes.get(i).forEach((h, n) -> bytes.merge(h, n, Long::sum));
      }
      return out;
    }
  }

  private static Pieces pieces(Configuration conf, String pathsKey, String bytesKey)
      throws IOException {
    String raw = conf.getTrimmed(pathsKey);
    if (raw == null || raw.isEmpty()) {
      throw new InvalidJobConfException(pathsKey + " is not set: name the input's files or "
          + "folders (comma-separated)");
    }
    long perPiece = MrapConf.bytes(conf, bytesKey, 0);
    CompressionCodecFactory codecs = new CompressionCodecFactory(conf);
    Pieces out = new Pieces();
    for (String p : raw.split(",")) {
      Path path = new Path(p.trim());
      FileSystem fs = path.getFileSystem(conf);
      FileStatus[] matched = fs.globStatus(path);
      if (matched == null || matched.length == 0) {
        throw new InvalidJobConfException(pathsKey + ": " + path + " does not exist");
      }
      List<FileStatus> files = new ArrayList<>();
      for (FileStatus st : matched) {
        if (st.isDirectory()) {
          for (FileStatus child : fs.listStatus(st.getPath(), q -> !q.getName().startsWith("_")
              && !q.getName().startsWith("."))) {
            if (child.isFile()) {
              files.add(child);
            }
          }
        } else {
          files.add(st);
        }
      }
      files.sort((x, y) -> x.getPath().compareTo(y.getPath()));
      for (FileStatus f : files) {
        CompressionCodec codec = codecs.getCodec(f.getPath());
        boolean splittable = codec == null || codec instanceof SplittableCompressionCodec;
        long size = perPiece > 0 ? perPiece : Math.max(1, f.getBlockSize());
        long len = f.getLen();
        BlockLocation[] blocks = fs.getFileBlockLocations(f, 0, len);
        for (long off = 0; off < len || (off == 0 && len == 0); off += size) {
          long pieceLen = splittable ? Math.min(size, len - off) : len;
          Map<String, Long> held = new HashMap<>();
          for (BlockLocation blk : blocks) {
            long overlap = Math.min(off + pieceLen, blk.getOffset() + blk.getLength())
                - Math.max(off, blk.getOffset());
            if (overlap > 0) {
              for (String h : blk.getHosts()) {
                held.merge(h, overlap, Long::sum);
              }
            }
          }
          out.splits.add(new FileSplit(f.getPath(), off, pieceLen,
              held.keySet().toArray(new String[0])));
          out.hostBytes.add(held);
          if (!splittable || len == 0) {
            break;
          }
        }
      }
    }
    if (out.size() == 0) {
      throw new InvalidJobConfException(pathsKey + "=" + raw + " holds no files");
    }
    return out;
  }

  @Override
  public RecordReader<SideKey, Writable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new MatchRecordReader();
  }
}
