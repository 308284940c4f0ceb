package org.opass.mrap.copy;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.opass.mrap.layout.LayoutHeader;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.layout.SegmentCursor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parallel copy (CHAIO on HDFS), shaped as DistCp is: a plan (the destination's chunks
 * shared among writer tasks by {@link AggregatorSelection}: one writer per chunk, on a node that
 * holds the chunk's source bytes, spread evenly over nodes), a writer mapper (each task writes
 * its chunks as whole-block part files under its attempt's names), and an
 * {@link OutputCommitter} whose {@code commitJob} joins the parts with {@code concat}, checks
 * the result against the bytes sent and the source's checksum, and publishes it under its name
 * in one rename, and whose {@code abortJob} removes the parts. A MapReduce job (YARN on a
 * cluster, the LocalJobRunner here), no reduce.
 *
 * <p>Splits carry chunk numbers only; the destination's layout goes to the tasks once, as a
 * file in the hidden parts folder. On YARN the job publishes the copy even if the client that
 * submitted it is gone.
 */
final class ParallelCopy {
  private static final Logger LOG = LoggerFactory.getLogger(ParallelCopy.class);
  // the job's own settings (not user keys: outside mrap.copy.*)
  private static final String JOB = "mrap.copyjob.";
  private static final String SPLITS = JOB + "splits";
  private static final String SOURCE = JOB + "source";
  private static final String SOURCE_LENGTH = JOB + "source.length";
  private static final String SOURCE_PLAIN = JOB + "source.plain";
  private static final String PARTS = JOB + "parts";
  private static final String TEMP = JOB + "temp";
  private static final String DESTINATION = JOB + "destination";
  private static final String OVERWRITE = JOB + "overwrite";
  private static final String VERIFY = JOB + "verify";
  private static final String CHUNK = JOB + "chunk";
  private static final String LENGTH = JOB + "length";
  private static final String LOGICAL = JOB + "logical";
  private static final String REPLICATION = JOB + "replication";
  private static final String PERMISSION = JOB + "permission";
  private static final String LAYOUT_FILE = "layout";
  private static final String CRCS = "crcs-";
  private static final String LOCAL_TASKS = "mapreduce.local.map.tasks.maximum";

  private ParallelCopy() {
  }

  /**
   * Runs the copy job: on success the copy is checked and published as {@code dst}.
   *
   * @throws CopyException if the job fails (its committer removed the parts)
   */
  static void run(Configuration conf, SourceFile source, RestructuredLayout layout,
      long physicalLength, Path parts, Path temp, Path dst, CopySettings settings,
      CopyOptions options, RestructuringCopy.Progress progress) throws IOException {
    long t0 = System.nanoTime();
    FileSystem dstFs = dst.getFileSystem(conf);
    long chunk = settings.blockSize;
    int chunks = (int) Math.max(1, (physicalLength - 1) / chunk + 1);
    Assignment assignment = assign(conf, source, layout, chunks, chunk, physicalLength,
        settings.writers);
    dstFs.mkdirs(parts);
    if (layout != null) { // the destination's layout, for every writer
      try (FSDataOutputStream out = dstFs.create(new Path(parts, LAYOUT_FILE), false)) {
        out.write(layout.header());
        out.write(layout.trailer());
      }
    }
    List<List<Integer>> byWriter = new ArrayList<>();
    for (int w = 0; w < assignment.hosts.length; w++) {
      byWriter.add(new ArrayList<>());
    }
    for (int c = 0; c < chunks; c++) {
      byWriter.get(assignment.writerOf[c]).add(c);
    }
    File splits = File.createTempFile("mrap-copy-splits-", ".bin");
    Job job;
    try {
      int writers = 0;
      try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
          new FileOutputStream(splits)))) {
        for (int w = 0; w < byWriter.size(); w++) {
          if (!byWriter.get(w).isEmpty()) {
            out.writeBoolean(true);
            new ChunkSplit(assignment.hosts[w], byWriter.get(w).stream()
                .mapToInt(Integer::intValue).toArray(), chunk, physicalLength).write(out);
            writers++;
          }
        }
        out.writeBoolean(false);
      }
      job = Job.getInstance(conf, "mrap-copy " + source.path().getName());
      Configuration jc = job.getConfiguration();
      jc.set(SPLITS, splits.getAbsolutePath());
      // qualified: the tasks resolve paths in their own working folders
      jc.set(SOURCE, source.fs().makeQualified(source.path()).toString());
      jc.setLong(SOURCE_LENGTH, source.status().getLen());
      jc.setBoolean(SOURCE_PLAIN, source.layout() == null);
      jc.set(PARTS, dstFs.makeQualified(parts).toString());
      jc.set(TEMP, dstFs.makeQualified(temp).toString());
      jc.set(DESTINATION, dstFs.makeQualified(dst).toString());
      jc.setBoolean(OVERWRITE, options.overwrite());
      jc.setBoolean(VERIFY, options.verify());
      jc.setLong(CHUNK, chunk);
      jc.setLong(LENGTH, physicalLength);
      jc.setLong(LOGICAL, source.length());
      jc.setInt(REPLICATION, settings.replication);
      jc.setInt(PERMISSION, settings.permission.toShort());
      jc.setBoolean("mapreduce.map.speculative", false); // a chunk a writer
      // the tool's options were parsed by ToolRunner; a library caller has none
      jc.setBoolean("mapreduce.client.genericoptionsparser.used", true);
      job.setJarByClass(ParallelCopy.class);
      job.setInputFormatClass(ChunkInputFormat.class);
      job.setMapperClass(ChunkWriter.class);
      job.setNumReduceTasks(0);
      job.setOutputFormatClass(CopyOutputFormat.class);
      job.setOutputKeyClass(NullWritable.class);
      job.setOutputValueClass(NullWritable.class);
      if ("local".equals(conf.get("mapreduce.framework.name", "local"))
          && conf.get(LOCAL_TASKS) == null) {
        // the LocalJobRunner runs one map task at a time unless told: run the writers together
        jc.setInt(LOCAL_TASKS, Math.min(writers, 16));
      }
      try {
        job.submit(); // the splits are read from the local file here, in this process
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("the copy of " + source.path() + " was interrupted");
      } catch (ClassNotFoundException e) {
        throw new IOException(e);
      }
    } finally {
      splits.delete();
    }
    long submitted = System.nanoTime();
    try {
      while (!job.isComplete()) {
        if (progress != null) {
          progress.copied((long) (job.mapProgress() * physicalLength), physicalLength);
        }
        Thread.sleep(200);
      }
      if (!job.isSuccessful()) {
        throw new CopyException(false, "the copy job " + job.getJobID() + " failed: "
            + why(job, dstFs, temp));
      }
    } catch (InterruptedException e) {
      kill(job);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("the copy of " + source.path() + " was interrupted");
    }
    LOG.info("{}: {} chunks, {} writers; planned and submitted in {} ms, job {} ran, joined, "
        + "checked and published in {} ms", source.path(), chunks, assignment.hosts.length,
        (submitted - t0) / 1_000_000, job.getJobID(), (System.nanoTime() - submitted)
        / 1_000_000);
  }

  /** Why a job failed: its committer's own words, or a failed task's, or the job's. */
  private static String why(Job job, FileSystem fs, Path temp)
      throws IOException, InterruptedException {
    Path failure = failureFile(temp);
    try (FSDataInputStream in = fs.open(failure)) {
      return in.readUTF();
    } catch (IOException none) {
      // no word from the committer
    } finally {
      Publisher.quietDelete(fs, failure);
    }
    try {
      for (org.apache.hadoop.mapreduce.TaskCompletionEvent e : job.getTaskCompletionEvents(0,
          1000)) {
        if (e.getStatus() == org.apache.hadoop.mapreduce.TaskCompletionEvent.Status.FAILED) {
          String[] d = job.getTaskDiagnostics(e.getTaskAttemptId());
          if (d != null && d.length > 0) {
            return "task " + e.getTaskAttemptId() + ": " + d[0].split("\n", 2)[0];
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return job.getStatus().getFailureInfo();
  }

  /** Where the committer leaves why it could not publish (a hidden leftover, as the rest). */
  private static Path failureFile(Path temp) {
    return temp.suffix(".failure");
  }

  /** Kills the job and waits (a while) for its tasks to stop writing parts. */
  private static void kill(Job job) throws IOException {
    job.killJob();
    long deadline = System.nanoTime() + 30_000_000_000L;
    try {
      while (!job.isComplete() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
    } catch (InterruptedException again) {
      Thread.currentThread().interrupt();
    }
  }

  /** The writers (their hosts, "" for no preference) and the writer of each chunk. */
  static final class Assignment {
    final String[] hosts;
    final int[] writerOf;

    Assignment(String[] hosts, int[] writerOf) {
      this.hosts = hosts;
      this.writerOf = writerOf;
    }
  }

  /**
   * CHAIO's aggregator selection over the nodes holding a plain HDFS source's bytes (one writer
   * task each); any other source (local, shared, an object store, a restructured file) is
   * shared evenly among {@code writers} writers that may run anywhere.
   */
  static Assignment assign(Configuration conf, SourceFile source, RestructuredLayout layout,
      int chunks, long chunk, long physicalLength, int writers) throws IOException {
    if (!"hdfs".equals(source.fs().getUri().getScheme()) || source.layout() != null) {
      int n = Math.max(1, Math.min(chunks, writers));
      int[] writerOf = AggregatorSelection.select(n, new long[chunks][n]);
      String[] hosts = new String[n];
      Arrays.fill(hosts, "");
      return new Assignment(hosts, writerOf);
    }
    BlockLocation[] blocks = source.fs().getFileBlockLocations(source.status(), 0,
        source.status().getLen());
    long[] blockStarts = new long[blocks.length];
    for (int b = 0; b < blocks.length; b++) {
      blockStarts[b] = blocks[b].getOffset();
    }
    Map<String, Integer> nodeIndex = new LinkedHashMap<>();
    List<Map<Integer, Long>> held = new ArrayList<>(chunks);
    for (int c = 0; c < chunks; c++) {
      Map<Integer, Long> bytes = new HashMap<>();
      long lo = c * chunk;
      long hi = Math.min(physicalLength, lo + chunk);
      SegmentCursor pieces = layout != null ? layout.physical(lo, hi) : null;
      long from = lo;
      long to = hi;
      while (pieces == null || pieces.next()) {
        if (pieces != null) {
          if (pieces.logical() < 0) {
            continue;
          }
          from = pieces.logical();
          to = from + pieces.length();
        }
        int b = Arrays.binarySearch(blockStarts, from);
        for (b = b >= 0 ? b : Math.max(0, -b - 2); b < blocks.length
            && blocks[b].getOffset() < to; b++) {
          long overlap = Math.min(to, blocks[b].getOffset() + blocks[b].getLength())
              - Math.max(from, blocks[b].getOffset());
          if (overlap > 0) {
            for (String h : blocks[b].getHosts()) {
              nodeIndex.putIfAbsent(h, nodeIndex.size());
              bytes.merge(nodeIndex.get(h), overlap, Long::sum);
            }
          }
        }
        if (pieces == null) {
          break;
        }
      }
      held.add(bytes);
    }
    int nodes = Math.max(1, nodeIndex.size());
    long[][] served = new long[chunks][nodes];
    for (int c = 0; c < chunks; c++) {
      for (Map.Entry<Integer, Long> e : held.get(c).entrySet()) {
        served[c][e.getKey()] = e.getValue();
      }
    }
    int[] chosen = AggregatorSelection.select(nodes, served);
    String[] names = nodeIndex.isEmpty() ? new String[] {""}
        : nodeIndex.keySet().toArray(new String[0]);
    // only the nodes given a chunk become writers
    int[] renumber = new int[nodes];
    Arrays.fill(renumber, -1);
    List<String> hosts = new ArrayList<>();
    int[] writerOf = new int[chunks];
    for (int c = 0; c < chunks; c++) {
      if (renumber[chosen[c]] < 0) {
        renumber[chosen[c]] = hosts.size();
        hosts.add(names[chosen[c]]);
      }
      writerOf[c] = renumber[chosen[c]];
    }
    return new Assignment(hosts.toArray(new String[0]), writerOf);
  }

  /** Where chunk {@code c}'s part is published (attempts write under their own names). */
  static Path partFile(Path parts, int chunk) {
    return new Path(parts, String.format("part-%08d", chunk));
  }

  /** One writer task: its chunks. */
  public static final class ChunkSplit extends InputSplit implements Writable {
    private String host = "";
    private int[] chunks = new int[0];
    private long chunk;
    private long physicalLength;

    public ChunkSplit() {
    }

    ChunkSplit(String host, int[] chunks, long chunk, long physicalLength) {
      this.host = host;
      this.chunks = chunks;
      this.chunk = chunk;
      this.physicalLength = physicalLength;
    }

    /** Bytes this writer writes. */
    @Override
    public long getLength() {
      long n = 0;
      for (int c : chunks) {
        n += Math.min(chunk, physicalLength - (long) c * chunk);
      }
      return n;
    }

    @Override
    public String[] getLocations() {
      return host.isEmpty() ? new String[0] : new String[] {host};
    }

    @Override
    public void write(DataOutput out) throws IOException {
      Text.writeString(out, host);
      out.writeLong(chunk);
      out.writeLong(physicalLength);
      WritableUtils.writeVInt(out, chunks.length);
      for (int c : chunks) {
        WritableUtils.writeVInt(out, c);
      }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      host = Text.readString(in);
      chunk = in.readLong();
      physicalLength = in.readLong();
      chunks = new int[WritableUtils.readVInt(in)];
      for (int i = 0; i < chunks.length; i++) {
        chunks[i] = WritableUtils.readVInt(in);
      }
    }
  }

  /** The splits of the plan (read where the job is submitted); a record per chunk. */
  public static final class ChunkInputFormat extends InputFormat<IntWritable, NullWritable> {
    @Override
    public List<InputSplit> getSplits(JobContext context) throws IOException {
      List<InputSplit> out = new ArrayList<>();
      try (DataInputStream in = new DataInputStream(new BufferedInputStream(
          new FileInputStream(context.getConfiguration().get(SPLITS))))) {
        while (in.readBoolean()) {
          ChunkSplit split = new ChunkSplit();
          split.readFields(in);
          out.add(split);
        }
      }
      return out;
    }

    @Override
    public RecordReader<IntWritable, NullWritable> createRecordReader(InputSplit split,
        TaskAttemptContext context) {
      return new RecordReader<IntWritable, NullWritable>() {
        private int[] chunks;
        private int next;
        private final IntWritable key = new IntWritable();

        @Override
        public void initialize(InputSplit s, TaskAttemptContext ctx) {
          chunks = ((ChunkSplit) s).chunks;
        }

        @Override
        public boolean nextKeyValue() {
          if (next >= chunks.length) {
            return false;
          }
          key.set(chunks[next++]);
          return true;
        }

        @Override
        public IntWritable getCurrentKey() {
          return key;
        }

        @Override
        public NullWritable getCurrentValue() {
          return NullWritable.get();
        }

        @Override
        public float getProgress() {
          return chunks.length == 0 ? 1f : (float) next / chunks.length;
        }

        @Override
        public void close() {
        }
      };
    }
  }

  /** The destination's layout, as the client left it in the parts folder; null for plain. */
  private static RestructuredLayout layoutOf(FileSystem fs, Path parts) throws IOException {
    Path file = new Path(parts, LAYOUT_FILE);
    if (!fs.exists(file)) {
      return null;
    }
    try (FSDataInputStream in = fs.open(file)) {
      byte[] header = new byte[LayoutHeader.BYTES];
      in.readFully(header);
      LayoutHeader h = LayoutHeader.parse(header, header.length, file.toString());
      byte[] trailer = new byte[h.trailerLength()];
      in.readFully(trailer);
      return RestructuredLayout.read(h, trailer, file.toString());
    }
  }

  /**
   * Writes its chunks (key: chunk number) as whole-block part files, then the CRCs of what it
   * wrote: per chunk, of its bytes and of its part of the original.
   */
  public static final class ChunkWriter
      extends Mapper<IntWritable, NullWritable, NullWritable, NullWritable> {
    private SourceFile.Reader source;
    private PhysicalWriter writer;
    private FileSystem fs;
    private Path parts;
    private long chunk;
    private long length;
    private FsPermission permission;
    private short replication;
    private final ByteArrayOutputStream crcs = new ByteArrayOutputStream();
    private final DataOutputStream crcOut = new DataOutputStream(crcs);
    private int written;

    @Override
    protected void setup(Context ctx) throws IOException {
      Configuration conf = ctx.getConfiguration();
      SourceFile src = SourceFile.of(conf, new Path(conf.get(SOURCE)));
      if (src.status().getLen() != conf.getLong(SOURCE_LENGTH, -1)
          || (src.layout() == null) != conf.getBoolean(SOURCE_PLAIN, true)) {
        throw new IOException(src.path() + " changed since the copy was planned");
      }
      parts = new Path(conf.get(PARTS));
      fs = parts.getFileSystem(conf);
      chunk = conf.getLong(CHUNK, -1);
      length = conf.getLong(LENGTH, -1);
      permission = new FsPermission((short) conf.getInt(PERMISSION, 0644));
      replication = (short) conf.getInt(REPLICATION, 3);
      source = src.open();
      writer = new PhysicalWriter(source, layoutOf(fs, parts), conf.getLong(LOGICAL, -1));
    }

    @Override
    protected void map(IntWritable index, NullWritable none, Context ctx) throws IOException {
      int c = index.get();
      long lo = c * chunk;
      long hi = Math.min(length, lo + chunk);
      Path data = attemptFile(partFile(parts, c), ctx);
      PhysicalWriter.Sums sums;
      // not recursive: once the copy is given up and its parts folder removed, a writer still
      // running fails instead of making the folder again
      try (FSDataOutputStream out = fs.createNonRecursive(data, permission, true, 1 << 20,
          replication, chunk, null)) {
        sums = writer.write(lo, hi, out, n -> ctx.progress());
      }
      publish(fs, data, partFile(parts, c));
      crcOut.writeInt(c);
      crcOut.writeInt(sums.written);
      crcOut.writeInt(sums.original);
      written++;
    }

    @Override
    protected void cleanup(Context ctx) throws IOException {
      try {
        Path task = new Path(parts, CRCS + ctx.getTaskAttemptID().getTaskID());
        Path attempt = attemptFile(task, ctx);
        try (FSDataOutputStream out = fs.createNonRecursive(attempt, permission, true, 4096,
            replication, chunk, null)) {
          out.writeInt(written);
          crcs.writeTo(out);
        }
        publish(fs, attempt, task);
      } finally {
        source.close();
      }
    }

    /** A name of this attempt's own (hidden from the listing of published files). */
    private static Path attemptFile(Path published, Context ctx) {
      return new Path(published.getParent(), "_" + published.getName() + "."
          + ctx.getTaskAttemptID());
    }

    private static void publish(FileSystem fs, Path from, Path to) throws IOException {
      fs.delete(to, false);
      if (!fs.rename(from, to)) {
        throw new IOException("could not rename " + from + " to " + to);
      }
    }
  }

  /** No records to write: the copy's output is the file its committer publishes. */
  public static final class CopyOutputFormat extends OutputFormat<NullWritable, NullWritable> {
    @Override
    public RecordWriter<NullWritable, NullWritable> getRecordWriter(TaskAttemptContext ctx) {
      return new RecordWriter<NullWritable, NullWritable>() {
        @Override
        public void write(NullWritable key, NullWritable value) {
        }

        @Override
        public void close(TaskAttemptContext context) {
        }
      };
    }

    @Override
    public void checkOutputSpecs(JobContext context) {
    }

    @Override
    public OutputCommitter getOutputCommitter(TaskAttemptContext context) {
      return new CopyCommitter();
    }
  }

  /**
   * Joins, checks and publishes the copy when every writer is done ({@code commitJob}), or
   * removes the parts when the job is given up ({@code abortJob}); the writers publish their
   * own parts, so tasks have nothing to commit.
   */
  public static final class CopyCommitter extends OutputCommitter {
    @Override
    public void setupJob(JobContext context) {
    }

    @Override
    public void setupTask(TaskAttemptContext context) {
    }

    @Override
    public boolean needsTaskCommit(TaskAttemptContext context) {
      return false;
    }

    @Override
    public void commitTask(TaskAttemptContext context) {
    }

    @Override
    public void abortTask(TaskAttemptContext context) {
    }

    @Override
    public void commitJob(JobContext context) throws IOException {
      try {
        join(context.getConfiguration());
      } catch (IOException | RuntimeException e) {
        Configuration conf = context.getConfiguration();
        Path temp = new Path(conf.get(TEMP));
        try (FSDataOutputStream out = temp.getFileSystem(conf).create(failureFile(temp))) {
          out.writeUTF(String.valueOf(e.getMessage()));
        } catch (IOException | RuntimeException cannot) {
          // the client says the job failed, without this detail
        }
        throw e;
      }
    }

    private static void join(Configuration conf) throws IOException {
      Path parts = new Path(conf.get(PARTS));
      Path temp = new Path(conf.get(TEMP));
      Path dst = new Path(conf.get(DESTINATION));
      FileSystem fs = dst.getFileSystem(conf);
      long length = conf.getLong(LENGTH, -1);
      long chunk = conf.getLong(CHUNK, -1);
      int chunks = (int) Math.max(1, (length - 1) / chunk + 1);
      int[] chunkCrc = new int[chunks];
      boolean[] seen = new boolean[chunks];
      Crc32c.Accumulator original = new Crc32c.Accumulator(conf.getLong(LOGICAL, -1));
      for (FileStatus st : fs.listStatus(parts, p -> p.getName().startsWith(CRCS))) {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(
            fs.open(st.getPath())))) {
          for (int n = in.readInt(); n > 0; n--) {
            int c = in.readInt();
            if (c < 0 || c >= chunks || seen[c]) {
              throw new IOException("chunk " + c + " reported twice or out of range in "
                  + parts);
            }
            seen[c] = true;
            chunkCrc[c] = in.readInt();
            original.addValue(in.readInt());
          }
        }
      }
      int written = 0;
      Path[] rest = new Path[chunks - 1];
      for (int c = 0; c < chunks; c++) {
        if (!seen[c]) {
          throw new IOException("no writer reported chunk " + c + " in " + parts);
        }
        long len = Math.min(chunk, length - (long) c * chunk);
        written = c == 0 ? chunkCrc[0] : Crc32c.compose(written, chunkCrc[c], len);
        if (c > 0) {
          rest[c - 1] = partFile(parts, c);
        }
      }
      Path first = partFile(parts, 0);
      if (rest.length > 0) {
        fs.concat(first, rest);
      }
      if (!fs.rename(first, temp)) {
        throw new IOException("could not move the joined parts to " + temp);
      }
      if (conf.getBoolean(VERIFY, true)) {
        Publisher.verifyWritten(conf, fs, temp, length, written, dst);
        if (conf.getBoolean(SOURCE_PLAIN, true)) {
          Publisher.verifySource(conf, SourceFile.of(conf, new Path(conf.get(SOURCE))),
              original.value());
        }
      }
      Publisher.publish(conf, fs, temp, dst, conf.getBoolean(OVERWRITE, false));
      Publisher.quietDelete(fs, parts);
    }

    @Override
    public void abortJob(JobContext context, JobStatus.State state) throws IOException {
      Configuration conf = context.getConfiguration();
      Path parts = new Path(conf.get(PARTS));
      FileSystem fs = parts.getFileSystem(conf);
      Publisher.quietDelete(fs, parts);
      Publisher.quietDelete(fs, new Path(conf.get(TEMP)));
    }
  }
}
