package org.opass.mrap.mapreduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.read.SideKey;

/** {@link SequenceMatchingInputFormat} on Hadoop's local file system with text inputs. */
class SequenceMatchingInputFormatTest {
  @TempDir
  File tmp;
  private final List<String> aLines = new ArrayList<>();
  private final List<String> bLines = new ArrayList<>();
  private Path a;
  private Path b;

  @BeforeEach
  void inputs() throws Exception {
    Random rnd = new Random(11);
    a = new Path(new File(tmp, "reads").toURI());
    b = new Path(new File(tmp, "reference").toURI());
    write(new File(tmp, "reads"), "r", 3, 700, aLines, rnd);
    write(new File(tmp, "reference"), "ref", 2, 300, bLines, rnd);
  }

  private static void write(File dir, String name, int files, int lines, List<String> all,
      Random rnd) throws Exception {
    assertTrue(dir.mkdir());
    for (int f = 0; f < files; f++) {
      StringBuilder text = new StringBuilder();
      for (int l = 0; l < lines; l++) {
        String line = name + f + "-" + l + "-" + "ACGT".repeat(1 + rnd.nextInt(12));
        text.append(line).append('\n');
        all.add(line);
      }
      Files.write(new File(dir, "part-" + f + ".txt").toPath(),
          text.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  private Job job(SequenceMatchingInputFormat.Mode mode, long aBytes, long bBytes)
      throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "file:///");
    Job job = Job.getInstance(conf);
    SequenceMatchingInputFormat.setInputs(job, new Path[] {a}, new Path[] {b});
    SequenceMatchingInputFormat.setSplitBytes(job, aBytes, bBytes);
    SequenceMatchingInputFormat.setMode(job, mode);
    return job;
  }

  /** A task's records, as (side, line), through a serialized copy of its split. */
  private static List<String[]> read(Job job, InputSplit split) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ((PairSplit) split).write(new DataOutputStream(bytes));
    PairSplit copy = new PairSplit();
    copy.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(job.getConfiguration(),
        new TaskAttemptID(), new TaskCounters());
    List<String[]> out = new ArrayList<>();
    try (RecordReader<SideKey, Writable> r = new SequenceMatchingInputFormat()
        .createRecordReader(copy, ctx)) {
      r.initialize(copy, ctx);
      while (r.nextKeyValue()) {
        out.add(new String[] {r.getCurrentKey().side().name(),
            r.getCurrentValue().toString(), Integer.toString(r.getCurrentKey().piece())});
      }
      assertEquals(1f, r.getProgress(), 1e-6);
    }
    return out;
  }

  @Test
  void oneToAllGivesEachPieceOfAAllOfBFirst() throws Exception {
    Job job = job(SequenceMatchingInputFormat.Mode.ONE_TO_ALL, 5000, 4000);
    List<InputSplit> splits = new SequenceMatchingInputFormat().getSplits(job);
    assertTrue(splits.size() > 3, "A cut into pieces: " + splits.size());
    List<String> aSeen = new ArrayList<>();
    for (InputSplit s : splits) {
      List<String[]> recs = read(job, s);
      List<String> bSeen = new ArrayList<>();
      boolean inA = false;
      for (String[] r : recs) {
        if (r[0].equals("A")) {
          inA = true;
          aSeen.add(r[1]);
        } else {
          assertTrue(!inA, "B records come before A records");
          bSeen.add(r[1]);
        }
      }
      assertEquals(bLines, bSeen, "every task reads all of B, once");
    }
    assertEquals(aLines, aSeen, "every line of A in exactly one task, lines cut by no piece");
  }

  /** Pieces FileInputFormat cuts {@code length} bytes into at {@code size} (its 10% slop). */
  private static long formatPieces(long length, long size) {
    long n = 0;
    long rest = length;
    while ((double) rest / size > 1.1) {
      n++;
      rest -= size;
    }
    return rest > 0 ? n + 1 : n;
  }

  @Test
  void oneToOnePairsPiecesByIndexAndRefusesUnequalCounts() throws Exception {
    // 3 A files of 700 lines, 2 B files of 300 lines: one piece per file -> 3 vs 2 pieces
    Job unequal = job(SequenceMatchingInputFormat.Mode.ONE_TO_ONE, 1 << 30, 1 << 30);
    InvalidJobConfException e = assertThrows(InvalidJobConfException.class,
        () -> new SequenceMatchingInputFormat().getSplits(unequal));
    assertTrue(e.getMessage().contains("A (mrap.match.a.paths) cuts into 3")
        && e.getMessage().contains("B into 2"), e.getMessage());
    long l0 = new File(tmp, "reference/part-0.txt").length();
    long l1 = new File(tmp, "reference/part-1.txt").length();
    long size = 1;
    while (formatPieces(l0, size) + formatPieces(l1, size) != 3) {
      size++; // a piece size that cuts B into 3 pieces, as many as A has
    }
    Job job = job(SequenceMatchingInputFormat.Mode.ONE_TO_ONE, 1 << 30, size);
    List<InputSplit> splits = new SequenceMatchingInputFormat().getSplits(job);
    assertEquals(3, splits.size());
    for (int i = 0; i < 3; i++) {
      PairSplit p = (PairSplit) splits.get(i);
      assertEquals(1, p.a().size());
      assertEquals(1, p.b().size());
      for (String[] r : read(job, p)) {
        assertEquals(Integer.toString(i), r[2], "task " + i + " reads piece " + i + " of each");
      }
    }
  }

  @Test
  void allPairsMeetsEveryPieceWithEveryPiece() throws Exception {
    Job job = job(SequenceMatchingInputFormat.Mode.ALL_PAIRS, 20_000, 6_000);
    List<InputSplit> splits = new SequenceMatchingInputFormat().getSplits(job);
    Set<String> pairs = new HashSet<>();
    int na = 0;
    int nb = 0;
    for (InputSplit s : splits) {
      PairSplit p = (PairSplit) s;
      pairs.add(p.aIndex(0) + "/" + p.bIndex(0));
      na = Math.max(na, p.aIndex(0) + 1);
      nb = Math.max(nb, p.bIndex(0) + 1);
    }
    assertEquals(na * nb, splits.size());
    assertEquals(na * nb, pairs.size());
    job.getConfiguration().setInt(SequenceMatchingInputFormat.MAX_TASKS, na * nb - 1);
    assertTrue(assertThrows(InvalidJobConfException.class,
        () -> new SequenceMatchingInputFormat().getSplits(job)).getMessage()
        .contains("mrap.match.max.tasks=" + (na * nb - 1)));
  }

  @Test
  void badSettingsAreNamed() throws Exception {
    Job job = job(SequenceMatchingInputFormat.Mode.ONE_TO_ALL, 0, 0);
    job.getConfiguration().set(SequenceMatchingInputFormat.MODE, "many-to-some");
    assertTrue(assertThrows(InvalidJobConfException.class,
        () -> new SequenceMatchingInputFormat().getSplits(job)).getMessage()
        .startsWith("mrap.match.mode=many-to-some"));
    job.getConfiguration().unset(SequenceMatchingInputFormat.MODE);
    job.getConfiguration().set(SequenceMatchingInputFormat.B_FORMAT, "java.lang.String");
    assertTrue(assertThrows(InvalidJobConfException.class,
        () -> new SequenceMatchingInputFormat().getSplits(job)).getMessage()
        .startsWith("mrap.match.b.format=java.lang.String is not a FileInputFormat"));
    job.getConfiguration().unset(SequenceMatchingInputFormat.B_FORMAT);
    job.getConfiguration().set(SequenceMatchingInputFormat.B_PATHS, tmp + "/nothing-here");
    assertTrue(assertThrows(InvalidJobConfException.class,
        () -> new SequenceMatchingInputFormat().getSplits(job)).getMessage()
        .startsWith("mrap.match.b.paths: "));
    job.getConfiguration().unset(SequenceMatchingInputFormat.A_PATHS);
    assertTrue(assertThrows(InvalidJobConfException.class,
        () -> new SequenceMatchingInputFormat().getSplits(job)).getMessage()
        .startsWith("mrap.match.a.paths is not set"));
  }

  /** A text format that reads each file whole, as FASTA or BAM-like formats do. */
  public static final class WholeFileText
      extends org.apache.hadoop.mapreduce.lib.input.TextInputFormat {
    @Override
    protected boolean isSplitable(org.apache.hadoop.mapreduce.JobContext context, Path file) {
      return false;
    }
  }

  @Test
  void aFormatThatDoesNotSplitItsFilesKeepsThemWhole() throws Exception {
    Job job = job(SequenceMatchingInputFormat.Mode.ONE_TO_ALL, 8 * 1024, 0);
    job.getConfiguration().setClass(SequenceMatchingInputFormat.A_FORMAT, WholeFileText.class,
        org.apache.hadoop.mapreduce.lib.input.FileInputFormat.class);
    List<InputSplit> splits = new SequenceMatchingInputFormat().getSplits(job);
    assertEquals(3, splits.size(), "one piece per file of A, as its format's own getSplits");
    List<String> aSeen = new ArrayList<>();
    for (InputSplit s : splits) {
      for (String[] r : read(job, s)) {
        if (r[0].equals("A")) {
          aSeen.add(r[1]);
        }
      }
    }
    assertEquals(aLines, aSeen);
  }

  @Test
  void oneToAllDescribesBOnceNotOncePerTask() throws Exception {
    Job job = job(SequenceMatchingInputFormat.Mode.ONE_TO_ALL, 300, 300);
    // as JobSubmitter sets it before it asks for the splits
    job.getConfiguration().set("mapreduce.job.dir", new File(tmp, "staging").toURI().toString());
    List<InputSplit> splits = new SequenceMatchingInputFormat().getSplits(job);
    int bPieces = 0;
    long bytes = 0;
    for (InputSplit s : splits) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ((PairSplit) s).write(new DataOutputStream(out));
      bytes += out.size();
    }
    for (File f : new File(tmp, "reference").listFiles()) {
      bPieces += (int) ((f.length() + 299) / 300);
    }
    assertTrue(splits.size() > 100 && bPieces > 50, splits.size() + " A pieces, " + bPieces
        + " B pieces");
    assertTrue(bytes < 400L * (splits.size() + bPieces), "split metadata " + bytes
        + " bytes for " + splits.size() + " A pieces and " + bPieces + " B pieces");
    List<String> bSeen = new ArrayList<>();
    for (String[] r : read(job, splits.get(splits.size() / 2))) {
      if (r[0].equals("B")) {
        bSeen.add(r[1]);
      }
    }
    assertEquals(bLines, bSeen, "a task still reads all of B");
  }
}
