package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.opass.mrap.array.Slab;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.mapreduce.VariableRecordReader;
import org.opass.mrap.mapreduce.VariableSplit;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.task.VariableTask;
import org.opass.tools.mrap.OriginalBytes;
import org.opass.tools.mrap.Splits;

/**
 * Reads a file the way a job with {@link AccessInputFormat} does, without a job: the splits from
 * {@code getSplits}, each serialized and read back as a task gets it, then its record reader.
 * Small results only (every record in memory).
 */
public final class MrapReads {
  private MrapReads() {
  }

  /** One record: its key (logical offset) and bytes. */
  public static final class Rec {
    public final long key;
    public final byte[] value;

    Rec(long key, byte[] value) {
      this.key = key;
      this.value = value;
    }
  }

  /** What one split gave its task: its records, and the positioned reads they took. */
  public static final class Task {
    public final List<Rec> records = new ArrayList<>();
    public long reads;
  }

  /** Every record of {@code input} under the pattern in {@code conf}, by key. */
  public static List<Rec> records(Configuration conf, Path input)
      throws IOException, InterruptedException {
    return all(tasks(conf, input));
  }

  /** What each split of {@code input} under the pattern in {@code conf} gives, in order. */
  public static List<Task> tasks(Configuration conf, Path input)
      throws IOException, InterruptedException {
    Job job = Job.getInstance(conf);
    FileInputFormat.setInputPaths(job, input);
    AccessInputFormat format = new AccessInputFormat();
    List<Task> out = new ArrayList<>();
    for (InputSplit s : format.getSplits(job)) {
      InputSplit copy = reserialized(s);
      TaskCounters counters = new TaskCounters();
      TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(job.getConfiguration(),
          new TaskAttemptID(), counters);
      Task t = new Task();
      try (RecordReader<LongWritable, BytesWritable> r = format.createRecordReader(copy, ctx)) {
        r.initialize(copy, ctx);
        while (r.nextKeyValue()) {
          t.records.add(new Rec(r.getCurrentKey().get(), r.getCurrentValue().copyBytes()));
        }
      }
      t.reads = counters.get(MrapCounter.READ_CALLS);
      out.add(t);
    }
    return out;
  }

  /** The tasks' records together, by key. */
  public static List<Rec> all(List<Task> tasks) {
    List<Rec> out = new ArrayList<>();
    tasks.forEach(t -> out.addAll(t.records));
    out.sort((a, b) -> Long.compare(a.key, b.key));
    return out;
  }

  static InputSplit reserialized(InputSplit s) throws IOException {
    return Splits.reserialized(s);
  }

  /**
   * The records the vector pattern ({@code start}, {@code size}, {@code spacing},
   * {@code count}) names in {@code data}, worked out by hand: the oracle.
   */
  public static List<Rec> stridedOracle(byte[] data, long start, int size, long spacing,
      int count) {
    List<Rec> out = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      int offset = Math.toIntExact(start + k * (size + spacing));
      byte[] b = new byte[size];
      System.arraycopy(data, offset, b, 0, size);
      out.add(new Rec((long) k * size, b));
    }
    return out;
  }

  /** The original bytes of a file: through its layout when it is restructured. */
  public static byte[] original(FileSystem fs, Path p) throws IOException {
    return OriginalBytes.of(fs, p);
  }

  /**
   * The records a reader gives for these regions of {@code data}: each region in pieces of at
   * most {@code recordBytes}, keyed by logical offset (the regions laid end to end).
   */
  public static List<Rec> expected(byte[] data, List<long[]> regions, long recordBytes) {
    List<Rec> out = new ArrayList<>();
    long key = 0;
    for (long[] r : regions) {
      for (long done = 0; done < r[1]; ) {
        int n = (int) Math.min(recordBytes, r[1] - done);
        byte[] b = new byte[n];
        System.arraycopy(data, (int) (r[0] + done), b, 0, n);
        out.add(new Rec(key, b));
        key += n;
        done += n;
      }
    }
    return out;
  }

  /** Whether two record lists are the same keys and bytes; a message naming the first difference
   * otherwise, null if equal. */
  public static String difference(List<Rec> expected, List<Rec> got) {
    if (expected.size() != got.size()) {
      return expected.size() + " records expected, " + got.size() + " read";
    }
    int wrong = 0;
    String first = null;
    for (int i = 0; i < expected.size(); i++) {
      Rec e = expected.get(i);
      Rec g = got.get(i);
      if (e.key != g.key || !java.util.Arrays.equals(e.value, g.value)) {
        wrong++;
        if (first == null) {
          first = "record " + i + " (key " + g.key + ", expected key " + e.key + ")";
        }
      }
    }
    return wrong == 0 ? null : wrong + " of " + expected.size() + " records wrong, first "
        + first;
  }

  /** Every (key, value) of the job's SequenceFile outputs. */
  public static Map<Long, byte[]> jobOutput(Path out, Configuration conf) throws IOException {
    Map<Long, byte[]> records = new TreeMap<>();
    FileSystem fs = out.getFileSystem(conf);
    for (FileStatus part : fs.listStatus(out, p -> p.getName().startsWith("part-"))) {
      try (SequenceFile.Reader r = new SequenceFile.Reader(conf,
          SequenceFile.Reader.file(part.getPath()))) {
        LongWritable key = new LongWritable();
        BytesWritable value = new BytesWritable();
        while (r.next(key, value)) {
          records.put(key.get(), value.copyBytes());
        }
      }
    }
    return records;
  }

  /** Every block but the last is a whole chunk: the parts were joined on chunk boundaries. */
  public static void assertChunkAligned(FileSystem fs, Path p) throws IOException {
    FileStatus st = fs.getFileStatus(p);
    long block = st.getBlockSize();
    BlockLocation[] blocks = fs.getFileBlockLocations(st, 0, st.getLen());
    assertEquals((st.getLen() + block - 1) / block, blocks.length);
    for (int b = 0; b < blocks.length; b++) {
      assertEquals(b * block, blocks[b].getOffset(), "block " + b);
    }
  }

  /**
   * A {@link VariableInputFormat} job's splits of {@code input} read by hand, each (not
   * serialized) by its record reader: the parts into {@code parts}, every piece into its file's assembled slab (keyed as
   * records name files), the readers' counters into {@code counters}.
   */
  public static void variableSlabs(Configuration conf, Path input, List<VariableTask.Part> parts,
      Map<String, Fixtures.Assembled> byFile, TaskCounters counters) throws Exception {
    Job job = Job.getInstance(conf);
    FileInputFormat.addInputPath(job, input);
    for (InputSplit s : new VariableInputFormat().getSplits(job)) {
      VariableSplit split = (VariableSplit) s;
      parts.addAll(split.task().parts());
      try (VariableRecordReader r = new VariableRecordReader()) {
        r.initialize(split, new TaskAttemptContextImpl(conf, new TaskAttemptID(), counters));
        while (r.nextKeyValue()) {
          ArrayPiece v = r.getCurrentValue();
          byte[] b = new byte[v.elements() * v.type().size()];
          v.buffer().get(b);
          Fixtures.Assembled a = byFile.computeIfAbsent(r.getCurrentKey().file(),
              f -> new Fixtures.Assembled(Slab.parse(conf.get(VariableInputFormat.SLAB),
                  split.task().parts().get(0).variable().shape()), v.type()));
          a.put(r.getCurrentKey().origin(), v.shape(), v.step(), b, 0, v.type(), v.order());
        }
      }
    }
  }
}
