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
import java.util.zip.CRC32C;
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
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parallel copy (CHAIO on HDFS): the destination's chunks are shared among writer tasks by
 * {@link AggregatorSelection} (one writer per chunk, on a node that holds the chunk's source
 * bytes, spread evenly over nodes); each writer task writes its chunks as whole-block part
 * files; the parts are joined with {@code concat} into one file. A MapReduce job (YARN on a
 * cluster, the LocalJobRunner here), one map task per writer, no reduce.
 *
 * <p>Each task's split carries its chunks' pieces, so the tasks read nothing but the source;
 * each writes its part files and one file of CRCs under its attempt's names and renames them
 * when done (a retried task never meets a file another attempt holds open). Everything lives in
 * a hidden parts folder beside the destination until {@link RestructuringCopy} publishes the
 * copy; a failed job leaves nothing the next copy does not remove.
 */
final class ParallelCopy {
  private static final Logger LOG = LoggerFactory.getLogger(ParallelCopy.class);
  /** The splits, in a local file the submitting client reads when the job asks for them. */
  static final String PLAN = "mrap.copy.parallel.plan";
  /** Writer tasks for a source whose file system gives no block locations. */
  static final String WRITERS = "mrap.copy.writers";
  private static final String LOCAL_TASKS = "mapreduce.local.map.tasks.maximum";

  private ParallelCopy() {
  }

  /**
   * Writes the physical file into {@code target} (in {@code parts}, a fresh folder).
   *
   * @return {CRC32C of the bytes written, CRC32C of the original bytes in original order}
   */
  static int[] write(Configuration conf, Path src, FileStatus source, FileSystem dstFs,
      Path parts, Path target, long blockSize, List<long[]> segments, long physicalLength,
      RestructuringCopy.Progress progress) throws IOException {
    long t0 = System.nanoTime();
    int chunks = (int) Math.max(1, (physicalLength + blockSize - 1) / blockSize);
    long[][] sorted = segments.toArray(new long[0][]);
    Arrays.sort(sorted, (x, y) -> Long.compare(x[1], y[1]));
    long[] firsts = firsts(sorted);
    Assignment assignment = assign(conf, src, source, sorted, firsts, chunks, blockSize,
        physicalLength);
    dstFs.mkdirs(parts);
    List<List<Integer>> byWriter = new ArrayList<>();
    for (int w = 0; w < assignment.hosts.length; w++) {
      byWriter.add(new ArrayList<>());
    }
    for (int c = 0; c < chunks; c++) {
      byWriter.get(assignment.writerOf[c]).add(c);
    }
    // qualified: the tasks resolve paths in their own working folders
    String from = src.getFileSystem(conf).makeQualified(src).toString();
    String into = dstFs.makeQualified(parts).toString();
    File plan = File.createTempFile("mrap-copy-plan-", ".bin");
    Job job;
    try {
      int writers = 0;
      try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(
          new FileOutputStream(plan)))) {
        for (int w = 0; w < byWriter.size(); w++) {
          if (byWriter.get(w).isEmpty()) {
            continue;
          }
          int[] mine = byWriter.get(w).stream().mapToInt(Integer::intValue).toArray();
          long[][][] pieces = new long[mine.length][][];
          for (int i = 0; i < mine.length; i++) {
            pieces[i] = piecesOf(sorted, firsts, mine[i], blockSize, physicalLength)
                .toArray(new long[0][]);
          }
          out.writeBoolean(true);
          new ChunkSplit(assignment.hosts[w], from, into, blockSize, physicalLength, mine,
              pieces).write(out);
          writers++;
        }
        out.writeBoolean(false);
      }
      job = Job.getInstance(conf, "mrap-copy " + src.getName());
      job.setJarByClass(ParallelCopy.class);
      job.getConfiguration().set(PLAN, plan.getAbsolutePath());
      job.getConfiguration().setBoolean("mapreduce.map.speculative", false); // a chunk a writer
      // the tool's options were parsed by ToolRunner; a library caller has none
      job.getConfiguration().setBoolean("mapreduce.client.genericoptionsparser.used", true);
      job.setInputFormatClass(ChunkInputFormat.class);
      job.setMapperClass(ChunkWriter.class);
      job.setNumReduceTasks(0);
      job.setOutputFormatClass(NullOutputFormat.class);
      job.setOutputKeyClass(NullWritable.class);
      job.setOutputValueClass(NullWritable.class);
      if ("local".equals(conf.get("mapreduce.framework.name", "local"))
          && conf.get(LOCAL_TASKS) == null) {
        // the LocalJobRunner runs one map task at a time unless told: run the writers together
        job.getConfiguration().setInt(LOCAL_TASKS, Math.min(writers, 16));
      }
      try {
        job.submit(); // the splits are read from the plan here, in this process
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("the copy of " + src + " was interrupted");
      } catch (ClassNotFoundException e) {
        throw new IOException(e);
      }
    } finally {
      plan.delete();
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
            + job.getStatus().getFailureInfo());
      }
    } catch (InterruptedException e) {
      kill(job);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("the copy of " + src + " was interrupted");
    }
    long ran = System.nanoTime();
    int[] crcs = join(dstFs, parts, target, chunks, blockSize, physicalLength);
    LOG.info("{}: {} chunks, {} writers; planned and submitted in {} ms, job {} ran {} ms, "
        + "joined in {} ms", src, chunks, assignment.hosts.length, (submitted - t0) / 1_000_000,
        job.getJobID(), (ran - submitted) / 1_000_000, (System.nanoTime() - ran) / 1_000_000);
    return crcs;
  }

  /**
   * Joins the parts into {@code target} and composes the CRCs the writers recorded: per chunk
   * (what they wrote) and per piece (the original bytes, in original order).
   */
  private static int[] join(FileSystem fs, Path parts, Path target, int chunks, long blockSize,
      long physicalLength) throws IOException {
    int[] chunkCrc = new int[chunks];
    boolean[] seen = new boolean[chunks];
    List<long[]> pieces = new ArrayList<>();
    for (FileStatus st : fs.listStatus(parts, p -> p.getName().startsWith(CRCS))) {
      try (DataInputStream in = new DataInputStream(new BufferedInputStream(
          fs.open(st.getPath())))) {
        for (int n = in.readInt(); n > 0; n--) {
          int c = in.readInt();
          if (seen[c]) {
            throw new IOException("two writers reported chunk " + c + " in " + parts);
          }
          seen[c] = true;
          chunkCrc[c] = in.readInt();
          for (int k = in.readInt(); k > 0; k--) {
            pieces.add(new long[] {in.readLong(), in.readLong(), in.readInt()});
          }
        }
      }
    }
    for (int c = 0; c < chunks; c++) {
      if (!seen[c]) {
        throw new IOException("no writer reported chunk " + c + " in " + parts);
      }
    }
    Path[] rest = new Path[chunks - 1];
    for (int c = 1; c < chunks; c++) {
      rest[c - 1] = partFile(parts, c);
    }
    Path first = partFile(parts, 0);
    if (rest.length > 0) {
      fs.concat(first, rest);
    }
    if (!fs.rename(first, target)) {
      throw new CopyException(false, "could not move the joined parts to " + target);
    }
    int written = 0;
    for (int c = 0; c < chunks; c++) {
      long len = Math.min(blockSize, physicalLength - (long) c * blockSize);
      written = c == 0 ? chunkCrc[0] : Crc32c.compose(written, chunkCrc[c], len);
    }
    pieces.sort((a, b) -> Long.compare(a[0], b[0]));
    int logical = 0;
    for (int k = 0; k < pieces.size(); k++) {
      long[] p = pieces.get(k);
      logical = k == 0 ? (int) p[2] : Crc32c.compose(logical, (int) p[2], p[1]);
    }
    return new int[] {written, logical};
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
   * CHAIO's aggregator selection over the nodes holding the source's bytes (one writer task
   * each); a source without DataNodes (a local or shared file system, an object store) is
   * shared evenly among {@value #WRITERS} writers that may run anywhere.
   */
  static Assignment assign(Configuration conf, Path src, FileStatus source, long[][] sorted,
      long[] firsts, int chunks, long blockSize, long physicalLength) throws IOException {
    FileSystem srcFs = src.getFileSystem(conf);
    if (!"hdfs".equals(srcFs.getScheme())) {
      int writers = Math.max(1, Math.min(chunks, conf.getInt(WRITERS, 20)));
      int[] writerOf = AggregatorSelection.select(writers, new long[chunks][writers]);
      String[] hosts = new String[writers];
      Arrays.fill(hosts, "");
      return new Assignment(hosts, writerOf);
    }
    BlockLocation[] blocks = srcFs.getFileBlockLocations(source, 0, source.getLen());
    long[] blockStarts = new long[blocks.length];
    for (int b = 0; b < blocks.length; b++) {
      blockStarts[b] = blocks[b].getOffset();
    }
    Map<String, Integer> nodeIndex = new LinkedHashMap<>();
    List<Map<Integer, Long>> held = new ArrayList<>();
    for (int c = 0; c < chunks; c++) {
      Map<Integer, Long> bytes = new HashMap<>();
      for (long[] piece : piecesOf(sorted, firsts, c, blockSize, physicalLength)) {
        int b = Arrays.binarySearch(blockStarts, piece[3]);
        for (b = b >= 0 ? b : Math.max(0, -b - 2); b < blocks.length
            && blocks[b].getOffset() < piece[3] + piece[2]; b++) {
          long overlap = Math.min(piece[3] + piece[2], blocks[b].getOffset()
              + blocks[b].getLength()) - Math.max(piece[3], blocks[b].getOffset());
          if (overlap > 0) {
            for (String h : blocks[b].getHosts()) {
              nodeIndex.putIfAbsent(h, nodeIndex.size());
              bytes.merge(nodeIndex.get(h), overlap, Long::sum);
            }
          }
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

  /** Name prefix of the writers' CRC files, one per task. */
  static final String CRCS = "crcs-";

  /**
   * The pieces of the segments (sorted by physical offset) in chunk c: {@code {logical,
   * physical, length, source offset}}.
   */
  static List<long[]> piecesOf(long[][] sorted, long[] firsts, int c, long blockSize,
      long physicalLength) {
    long lo = c * blockSize;
    long hi = Math.min(physicalLength, lo + blockSize);
    List<long[]> out = new ArrayList<>();
    int i = Arrays.binarySearch(firsts, lo);
    i = i >= 0 ? i : Math.max(0, -i - 2);
    for (; i < sorted.length && sorted[i][1] < hi; i++) {
      long[] s = sorted[i];
      long from = Math.max(lo, s[1]);
      long to = Math.min(hi, s[1] + s[2]);
      if (to > from) {
        out.add(new long[] {s[0] + (from - s[1]), from, to - from, s[3] + (from - s[1])});
      }
    }
    return out;
  }

  /** The physical offsets of the segments (sorted by them), for binary search. */
  static long[] firsts(long[][] sorted) {
    long[] f = new long[sorted.length];
    for (int i = 0; i < f.length; i++) {
      f[i] = sorted[i][1];
    }
    return f;
  }

  /** One writer task: its chunks, and the pieces of the segments each is made of. */
  public static final class ChunkSplit extends InputSplit implements Writable {
    private String host = "";
    private String source = "";
    private String parts = "";
    private long blockSize;
    private long physicalLength;
    private int[] chunks = new int[0];
    /** Per chunk: {logical, physical, length, source offset} per piece, physical order. */
    private long[][][] pieces = new long[0][][];

    public ChunkSplit() {
    }

    ChunkSplit(String host, String source, String parts, long blockSize, long physicalLength,
        int[] chunks, long[][][] pieces) {
      this.host = host;
      this.source = source;
      this.parts = parts;
      this.blockSize = blockSize;
      this.physicalLength = physicalLength;
      this.chunks = chunks;
      this.pieces = pieces;
    }

    /** Bytes this writer writes. */
    @Override
    public long getLength() {
      long n = 0;
      for (int c : chunks) {
        n += Math.min(blockSize, physicalLength - (long) c * blockSize);
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
      Text.writeString(out, source);
      Text.writeString(out, parts);
      out.writeLong(blockSize);
      out.writeLong(physicalLength);
      WritableUtils.writeVInt(out, chunks.length);
      for (int i = 0; i < chunks.length; i++) {
        WritableUtils.writeVInt(out, chunks[i]);
        WritableUtils.writeVInt(out, pieces[i].length);
        for (long[] p : pieces[i]) {
          for (long v : p) {
            WritableUtils.writeVLong(out, v);
          }
        }
      }
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      host = Text.readString(in);
      source = Text.readString(in);
      parts = Text.readString(in);
      blockSize = in.readLong();
      physicalLength = in.readLong();
      chunks = new int[WritableUtils.readVInt(in)];
      pieces = new long[chunks.length][][];
      for (int i = 0; i < chunks.length; i++) {
        chunks[i] = WritableUtils.readVInt(in);
        pieces[i] = new long[WritableUtils.readVInt(in)][4];
        for (long[] p : pieces[i]) {
          for (int k = 0; k < 4; k++) {
            p[k] = WritableUtils.readVLong(in);
          }
        }
      }
    }
  }

  /** The splits from the plan (read where the job is submitted); a record per chunk. */
  public static final class ChunkInputFormat extends InputFormat<IntWritable, NullWritable> {
    @Override
    public List<InputSplit> getSplits(JobContext context) throws IOException {
      List<InputSplit> out = new ArrayList<>();
      try (DataInputStream in = new DataInputStream(new BufferedInputStream(
          new FileInputStream(context.getConfiguration().get(PLAN))))) {
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
        private int chunks;
        private int next;
        private final IntWritable key = new IntWritable();

        @Override
        public void initialize(InputSplit s, TaskAttemptContext ctx) {
          chunks = ((ChunkSplit) s).chunks.length;
        }

        @Override
        public boolean nextKeyValue() {
          if (next >= chunks) {
            return false;
          }
          key.set(next++);
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
          return chunks == 0 ? 1f : (float) next / chunks;
        }

        @Override
        public void close() {
        }
      };
    }
  }

  /**
   * Writes its chunks as whole-block part files (key: the chunk's place in the split), then
   * the CRCs of what it wrote.
   */
  public static final class ChunkWriter
      extends Mapper<IntWritable, NullWritable, NullWritable, NullWritable> {
    private ChunkSplit split;
    private FSDataInputStream in;
    private FileSystem fs;
    private Path parts;
    private FsPermission permission;
    private short replication;
    private final byte[] buf = new byte[1 << 20];
    private final ByteArrayOutputStream crcs = new ByteArrayOutputStream();
    private final DataOutputStream crcOut = new DataOutputStream(crcs);
    private int written;

    @Override
    protected void setup(Context ctx) throws IOException {
      Configuration conf = ctx.getConfiguration();
      split = (ChunkSplit) ctx.getInputSplit();
      Path src = new Path(split.source);
      in = src.getFileSystem(conf).open(src);
      parts = new Path(split.parts);
      fs = parts.getFileSystem(conf);
      permission = FsPermission.getFileDefault().applyUMask(FsPermission.getUMask(conf));
      replication = (short) conf.getInt("dfs.replication", fs.getDefaultReplication(parts));
    }

    @Override
    protected void map(IntWritable index, NullWritable none, Context ctx) throws IOException {
      int c = split.chunks[index.get()];
      long[][] pieces = split.pieces[index.get()];
      long lo = (long) c * split.blockSize;
      long hi = Math.min(split.physicalLength, lo + split.blockSize);
      CRC32C all = new CRC32C();
      int[] pieceCrc = new int[pieces.length];
      Path data = attemptFile(partFile(parts, c), ctx);
      // not recursive: once the copy is given up and its parts folder removed, a writer still
      // running fails instead of making the folder again
      try (FSDataOutputStream out = fs.createNonRecursive(data, permission, true, buf.length,
          replication, split.blockSize, null)) {
        long pos = lo;
        for (int k = 0; k < pieces.length; k++) {
          long[] p = pieces[k];
          pos = RestructuringCopy.zeros(out, all, pos, p[1], buf);
          pieceCrc[k] = RestructuringCopy.copyRange(in, p[3], p[2], out, all, buf,
              n -> ctx.progress());
          pos += p[2];
        }
        RestructuringCopy.zeros(out, all, pos, hi, buf);
      }
      publish(fs, data, partFile(parts, c));
      crcOut.writeInt(c);
      crcOut.writeInt((int) all.getValue());
      crcOut.writeInt(pieces.length);
      for (int k = 0; k < pieces.length; k++) {
        crcOut.writeLong(pieces[k][0]);
        crcOut.writeLong(pieces[k][2]);
        crcOut.writeInt(pieceCrc[k]);
      }
      written++;
    }

    @Override
    protected void cleanup(Context ctx) throws IOException {
      try {
        Path task = new Path(parts, CRCS + ctx.getTaskAttemptID().getTaskID());
        Path attempt = attemptFile(task, ctx);
        try (FSDataOutputStream out = fs.createNonRecursive(attempt, permission, true, 4096,
            replication, split.blockSize, null)) {
          out.writeInt(written);
          crcs.writeTo(out);
        }
        publish(fs, attempt, task);
      } finally {
        in.close();
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
}
