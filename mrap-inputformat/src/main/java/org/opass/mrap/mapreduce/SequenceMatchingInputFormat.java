package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Writable;
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
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.read.SideKey;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.MrapConf;

/**
 * MRAP's paired input (thesis §4.3.1, the SequenceMatching class): each map task gets pieces of
 * input A ({@code splitSizeA} bytes each) together with pieces of input B ({@code splitSizeB}
 * bytes each), so a matching job (read mapping, joins of two data sets) reads both in one map
 * phase instead of a preparation job and a join job.
 *
 * <p>Each input is one or more files or folders, cut into pieces by its own format's
 * {@code getSplits} (pieces of its split size, {@value #A_SPLIT_BYTES} or
 * {@value #B_SPLIT_BYTES}; whole files where the format cannot split them: compressed text,
 * FASTA, BAM-like formats), empty pieces skipped, in path order. Modes ({@value #MODE}):
 * <ul>
 *   <li>{@code one-to-one}: task i gets A piece i and B piece i (both inputs must cut into as
 *   many pieces);</li>
 *   <li>{@code one-to-all}: task i gets A piece i and all of B (B small enough to read by every
 *   task, as a map-side join's small side); B's pieces are listed once, in the job's folder,
 *   not in every split;</li>
 *   <li>{@code all-pairs}: a task per (A piece, B piece), every A piece meets every B piece.</li>
 * </ul>
 * Records come from each input's own format ({@value #FORMAT}, default {@code TextInputFormat};
 * any {@code FileInputFormat}); the key is a {@link SideKey} (A or B, piece, the format's own
 * key), the value the format's value. <b>A task's B records come before its A records</b>, so a
 * mapper can hold B and stream A.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
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
  /** Every setting under {@code mrap.match.}; another name there is refused. */
  public static final List<String> KEYS = Arrays.asList(A_PATHS, B_PATHS, A_SPLIT_BYTES,
      B_SPLIT_BYTES, MODE, FORMAT, A_FORMAT, B_FORMAT, MAX_TASKS);

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

  static FileInputFormat<?, ?> format(Configuration conf, String sideKey)
      throws InvalidJobConfException {
    String key = conf.get(sideKey) != null ? sideKey : FORMAT;
    String name = conf.getTrimmed(key, TextInputFormat.class.getName());
    try {
      Class<?> c = conf.getClassByName(name);
      if (!FileInputFormat.class.isAssignableFrom(c)) {
        throw new InvalidJobConfException(key + "=" + name + " is not a FileInputFormat");
      }
      return (FileInputFormat<?, ?>) ReflectionUtils.newInstance(c, conf);
    } catch (ClassNotFoundException e) {
      throw new InvalidJobConfException(key + "=" + name + " is not on the job's classpath");
    }
  }

  @Override
  public List<InputSplit> getSplits(JobContext job) throws IOException {
    try {
      return splits(job);
    } catch (InvalidSettingsException e) {
      throw AccessInputFormat.refused(e);
    }
  }

  private List<InputSplit> splits(JobContext job) throws IOException {
    Configuration conf = job.getConfiguration();
    MrapConf.checkKeys(conf, "mrap.match.", KEYS);
    Mode mode = mode(conf);
    Pieces a = pieces(conf, A_PATHS, A_SPLIT_BYTES, format(conf, A_FORMAT));
    Pieces b = pieces(conf, B_PATHS, B_SPLIT_BYTES, format(conf, B_FORMAT));
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
          splits.add(pair(a, new int[] {i}, b, new int[] {i}, null, null));
        }
        break;
      case ONE_TO_ALL: {
        int[] all = new int[b.size()];
        Arrays.setAll(all, k -> k);
        // B once, in the job's folder, when the job has one (a job submission); each split
        // names it instead of carrying every piece of B
        String jobDir = conf.get("mapreduce.job.dir");
        Path bList = jobDir == null ? null : new Path(jobDir, "mrap-match-b.pieces");
        if (bList != null) {
          PairSplit.writePieces(bList.getFileSystem(conf), bList, b.splits);
        }
        Map<String, Long> bHosts = b.hostBytes(all);
        for (int i = 0; i < a.size(); i++) {
          splits.add(pair(a, new int[] {i}, b, all, bList, bHosts));
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
            splits.add(pair(a, new int[] {i}, b, new int[] {j}, null, null));
          }
        }
      }
    }
    return splits;
  }

  /**
   * A task's split: its pieces of A and B, and the hosts holding most of their bytes
   * ({@code bHosts}: what each host holds of the B pieces, when the caller has it already).
   */
  private static PairSplit pair(Pieces a, int[] ai, Pieces b, int[] bi, Path bList,
      Map<String, Long> bHosts) throws IOException {
    Map<String, Long> bytes = new HashMap<>(bHosts != null ? bHosts : b.hostBytes(bi));
    a.hostBytes(ai).forEach((h, n) -> bytes.merge(h, n, Long::sum));
    String[] hosts = bytes.entrySet().stream()
        .sorted((x, y) -> y.getValue().equals(x.getValue()) ? x.getKey().compareTo(y.getKey())
            : Long.compare(y.getValue(), x.getValue()))
        .limit(3).map(Map.Entry::getKey).toArray(String[]::new);
    return bList == null ? new PairSplit(a.get(ai), ai, b.get(bi), bi, hosts)
        : PairSplit.withListedB(a.get(ai), ai, bList, bi.length, hosts);
  }

  /** An input's pieces: the file ranges its own format cuts it into. */
  private static final class Pieces {
    final List<FileSplit> splits = new ArrayList<>();

    int size() {
      return splits.size();
    }

    List<FileSplit> get(int[] idx) {
      List<FileSplit> out = new ArrayList<>(idx.length);
      for (int i : idx) {
        out.add(splits.get(i));
      }
      return out;
    }

    /** What each host holds of the pieces {@code idx} (each piece's hosts, as cut). */
    Map<String, Long> hostBytes(int[] idx) throws IOException {
      Map<String, Long> bytes = new HashMap<>();
      for (int i : idx) {
        FileSplit s = splits.get(i);
        for (String h : s.getLocations()) {
          bytes.merge(h, s.getLength(), Long::sum);
        }
      }
      return bytes;
    }
  }

  /**
   * Cuts an input as its own format does ({@code getSplits}, pieces of {@code bytesKey} bytes
   * when set, else its defaults: whole files where it cannot split them), skipping empty
   * pieces, in path order. A restructured file (its bytes not in their original order) is
   * refused by name.
   */
  @SuppressWarnings("rawtypes")
  private static Pieces pieces(Configuration conf, String pathsKey, String bytesKey,
      FileInputFormat<?, ?> format) throws IOException {
    String raw = conf.getTrimmed(pathsKey);
    if (raw == null || raw.isEmpty()) {
      throw new InvalidJobConfException(pathsKey + " is not set: name the input's files or "
          + "folders (comma-separated)");
    }
    long perPiece = MrapConf.bytes(conf, bytesKey, 0);
    Job side = Job.getInstance(new Configuration(conf));
    Configuration sc = side.getConfiguration();
    if (perPiece > 0) {
      sc.setLong(FileInputFormat.SPLIT_MINSIZE, perPiece);
      sc.setLong(FileInputFormat.SPLIT_MAXSIZE, perPiece);
    }
    List<Path> paths = new ArrayList<>();
    for (String p : raw.split(",")) {
      if (!p.trim().isEmpty()) {
        paths.add(new Path(p.trim()));
      }
    }
    FileInputFormat.setInputPaths(side, paths.toArray(new Path[0]));
    List<InputSplit> cut;
    try {
      cut = format.getSplits(side);
    } catch (org.apache.hadoop.mapreduce.lib.input.InvalidInputException e) {
      throw new InvalidJobConfException(pathsKey + ": " + MrapConf.firstLine(e.getMessage()));
    }
    Pieces out = new Pieces();
    Map<Path, Boolean> checked = new HashMap<>();
    for (InputSplit s : cut) {
      if (!(s instanceof FileSplit)) {
        throw new InvalidJobConfException(pathsKey + ": its format, "
            + format.getClass().getName() + ", cuts it into " + s.getClass().getName()
            + " splits, not file ranges (FileSplit)");
      }
      FileSplit f = (FileSplit) s;
      if (f.getLength() == 0) {
        continue;
      }
      if (checked.putIfAbsent(f.getPath(), Boolean.TRUE) == null) {
        FileSystem fs = f.getPath().getFileSystem(conf);
        if (RestructuredFiles.inspect(fs, fs.getFileStatus(f.getPath())).layout() != null) {
          throw new InvalidJobConfException(pathsKey + ": " + f.getPath() + " is an MRAP "
              + "restructured file, its bytes out of their original order: match its "
              + "original (copy it back out with mrap-copy), or read it with AccessInputFormat");
        }
      }
      out.splits.add(f);
    }
    out.splits.sort((x, y) -> x.getPath().equals(y.getPath())
        ? Long.compare(x.getStart(), y.getStart()) : x.getPath().compareTo(y.getPath()));
    if (out.size() == 0) {
      throw new InvalidJobConfException(pathsKey + "=" + raw + " holds no data: "
          + (cut.isEmpty() ? "no files" : "only empty files"));
    }
    return out;
  }

  @Override
  public RecordReader<SideKey, Writable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new MatchRecordReader();
  }
}
