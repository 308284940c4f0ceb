package org.apache.hadoop.hdfs.server.namenode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.util.Time;

/**
 * Rounds of Hadoop's own {@link NNThroughputBenchmark} against a running NameNode, one
 * operation at a time, so that two NameNodes can be timed in alternating rounds in one JVM
 * (test code; in Hadoop's package because the benchmark's operations are package-private).
 *
 * <p>Each round builds the benchmark's own operation ({@code OpenFileStats},
 * {@code CreateFileStats}) from the arguments its command line takes, points its client
 * protocol at the given file system's NameNode as its {@code -fs} mode does, and returns the
 * benchmark's own "Ops per sec". Two facts of the tool as shipped (3.3.6 to 3.5.0) shape
 * what is asked of it:
 * <ul>
 *   <li>{@code -op open} opens files its {@code create} step made empty, so no block is
 *       located and no replica sorted: {@link #open} runs it with {@code -useExisting} over
 *       files of one block written beforehand ({@link #openFileNames}).
 *   <li>{@code -op create} never calls {@code addBlock}, so no placement policy runs:
 *       {@link #createWithBlock} is the same operation with the file's first
 *       {@code addBlock} in the timed call; {@link #create} is the tool's own.
 * </ul>
 */
public final class NnThroughputRounds {
  /** What the tool's {@code create} step names its files. */
  private static final String FILE_PREFIX = "ThroughputBench";
  /** A round that has not finished by then has lost a thread to an error (see {@link #time}). */
  private static final long ROUND_TIMEOUT_SECONDS = 600;

  private final Configuration conf;
  private final String baseDirName;
  private final int threads;
  private final int blockSize;
  private final int filesPerDir;

  /**
   * @param conf a configuration for the tool (it sets a few keys on its copy)
   * @param baseDirName the tool's {@code -baseDirName}: its operations work under
   *     {@code baseDirName/<op>}
   */
  public NnThroughputRounds(Configuration conf, String baseDirName, int threads, int blockSize,
      int filesPerDir) {
    this.conf = new Configuration(conf);
    this.baseDirName = baseDirName;
    this.threads = threads;
    this.blockSize = blockSize;
    this.filesPerDir = filesPerDir;
  }

  /**
   * The files {@code -op open -useExisting -files n} opens, in order: write each (one block)
   * before {@link #open}.
   */
  public List<String> openFileNames(int files) {
    FileNameGenerator names = new FileNameGenerator(baseDirName + "/open", filesPerDir);
    List<String> out = new ArrayList<>(files);
    for (int i = 0; i < files; i++) {
      out.add(names.getNextFileName(FILE_PREFIX));
    }
    return out;
  }

  /** {@code -op open -useExisting}: getBlockLocations of each file's first block. */
  public double open(DistributedFileSystem fs, int files) throws IOException {
    NNThroughputBenchmark tool = new NNThroughputBenchmark(new Configuration(conf));
    return time(fs, tool.new OpenFileStats(args("open", files, "-useExisting")));
  }

  /** {@code -op create} as shipped: create calls, no block; the files are deleted after. */
  public double create(DistributedFileSystem fs, int files) throws IOException {
    NNThroughputBenchmark tool = new NNThroughputBenchmark(new Configuration(conf));
    NNThroughputBenchmark.CreateFileStats op = tool.new CreateFileStats(args("create", files));
    return timeAndDelete(fs, op);
  }

  /**
   * {@code -op create} with each file's first {@code addBlock} (the call a placement policy
   * serves) in the timed operation; the files are deleted after.
   */
  public double createWithBlock(DistributedFileSystem fs, int files) throws IOException {
    NNThroughputBenchmark tool = new NNThroughputBenchmark(new Configuration(conf));
    return timeAndDelete(fs, new CreateWithBlockStats(tool, args("create", files)));
  }

  private List<String> args(String op, int files, String... more) {
    List<String> a = new ArrayList<>(Arrays.asList("-op", op, "-threads",
        String.valueOf(threads), "-files", String.valueOf(files), "-blockSize",
        String.valueOf(blockSize), "-filesPerDir", String.valueOf(filesPerDir),
        "-baseDirName", baseDirName));
    a.addAll(Arrays.asList(more));
    return a;
  }

  private double timeAndDelete(DistributedFileSystem fs,
      NNThroughputBenchmark.OperationStatsBase op) throws IOException {
    try {
      return time(fs, op);
    } finally {
      fs.getClient().getNamenode().delete(op.getBaseDir(), true);
    }
  }

  /**
   * Runs the operation's own {@code benchmark()} with its client protocol on {@code fs}'s
   * NameNode. The tool waits for its threads in a loop that never ends if one of them failed
   * (it logs the error and stops), so a round that outlives {@link #ROUND_TIMEOUT_SECONDS}
   * is reported as failed.
   */
  private static double time(DistributedFileSystem fs,
      NNThroughputBenchmark.OperationStatsBase op) throws IOException {
    NNThroughputBenchmark.clientProto = fs.getClient().getNamenode();
    FutureTask<Void> round = new FutureTask<>(() -> {
      op.benchmark();
      return null;
    });
    Thread t = new Thread(round, "nnbench-" + op.getOpName());
    t.setDaemon(true);
    t.start();
    try {
      round.get(ROUND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IOException("NNThroughputBenchmark -op " + op.getOpName() + " did not finish "
          + "in " + ROUND_TIMEOUT_SECONDS + " s: one of its threads failed (see the log)", e);
    } catch (ExecutionException e) {
      throw new IOException("NNThroughputBenchmark -op " + op.getOpName() + " failed",
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    if (op.getNumOpsExecuted() != op.numOpsRequired) {
      throw new IOException("NNThroughputBenchmark -op " + op.getOpName() + " ran "
          + op.getNumOpsExecuted() + " of " + op.numOpsRequired + " operations");
    }
    return op.getOpsPerSecond();
  }

  /** The tool's create operation with the first block of each file allocated in it. */
  static final class CreateWithBlockStats extends NNThroughputBenchmark.CreateFileStats {
    CreateWithBlockStats(NNThroughputBenchmark tool, List<String> args) {
      tool.super(args);
    }

    @Override
    long executeOp(int daemonId, int inputIdx, String clientName) throws IOException {
      String src = fileNames[daemonId][inputIdx];
      long start = Time.now();
      HdfsFileStatus created = NNThroughputBenchmark.clientProto.create(src,
          FsPermission.getDefault(), clientName,
          new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)), true,
          replication, blockSize, CryptoProtocolVersion.supported(), null, null);
      NNThroughputBenchmark.clientProto.addBlock(src, clientName, null, null,
          created.getFileId(), null, null);
      return Time.now() - start;
    }
  }
}
