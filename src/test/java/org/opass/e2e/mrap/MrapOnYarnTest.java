package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.e2e.cluster.MiniYarn;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.examples.ExtractRegions;
import org.opass.mrap.examples.JoinOnKey;
import org.opass.mrap.mapreduce.SequenceMatchingInputFormat;
import org.opass.mrap.pattern.PatternConfig;

/**
 * Both MRAP InputFormats and {@code mrap-copy}'s parallel mode in real job submissions to YARN
 * ({@code MiniMRYarnCluster}): the splits are serialized into the job's split file, read back
 * by the ApplicationMaster and the tasks, and run in containers of their own.
 */
class MrapOnYarnTest {
  private static final int NODE_MANAGERS = 2;
  private static MiniDFSCluster dfs;
  private static MiniMRYarnCluster yarn;
  private static Configuration conf;

  @BeforeAll
  static void start() throws Exception {
    Configuration base = new Configuration();
    base.setLong("dfs.namenode.fs-limits.min-block-size", 64 * 1024);
    dfs = new MiniDFSCluster.Builder(base, new File("target/e2e/mrap-yarn/dfs"))
        .numDataNodes(3).build();
    dfs.waitActive();
    Configuration y = new Configuration(dfs.getConfiguration(0));
    y.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
    yarn = MiniYarn.start(y, "mrap-yarn", NODE_MANAGERS);
    conf = new Configuration(yarn.getConfig());
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (yarn != null) {
      MiniYarn.stop(yarn, NODE_MANAGERS);
    }
    if (dfs != null) {
      dfs.shutdown(true);
    }
  }

  @Test
  void accessInputFormatRunsOnYarn() throws Exception {
    byte[] data = new byte[3 << 20];
    new Random(9).nextBytes(data);
    FileSystem fs = dfs.getFileSystem();
    try (FSDataOutputStream out = fs.create(new Path("/yarn/data"), true, 4096, (short) 2,
        1 << 20)) {
      out.write(data);
    }
    Configuration job = new Configuration(conf);
    job.set(PatternConfig.STRIDED_SIZE, "64k");
    job.set(PatternConfig.STRIDED_SPACING, "256k");
    job.set(PatternConfig.STRIDED_COUNT, "9");
    job.set(PatternConfig.STRIDED_START, "4097");
    assertEquals(0, ToolRunner.run(job, new ExtractRegions(),
        new String[] {"/yarn/data", "/yarn/regions"}));
    Map<Long, byte[]> records = AccessJobTest.read(new Path("/yarn/regions"), job);
    assertEquals(9, records.size());
    for (int k = 0; k < 9; k++) {
      int offset = 4097 + k * 320 * 1024;
      assertArrayEquals(Arrays.copyOfRange(data, offset, offset + 65536),
          records.get(k * 65536L), "region " + k);
    }
  }

  @Test
  void sequenceMatchingRunsOnYarn() throws Exception {
    FileSystem fs = dfs.getFileSystem();
    Set<String> expected = new HashSet<>();
    Random rnd = new Random(10);
    StringBuilder a = new StringBuilder();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      int k = rnd.nextInt(500);
      a.append("k").append(k).append("\tread").append(i).append('\n');
      if (i < 500) {
        b.append("k").append(i).append("\tref").append(i).append('\n');
      }
    }
    for (String line : a.toString().split("\n")) {
      String[] f = line.split("\t");
      expected.add(f[0] + "\t" + f[1] + "\tref" + f[0].substring(1));
    }
    write(fs, "/yarn/a", a.toString());
    write(fs, "/yarn/b", b.toString());
    Configuration job = new Configuration(conf);
    job.set(SequenceMatchingInputFormat.A_SPLIT_BYTES, "16k"); // several tasks
    assertEquals(0, ToolRunner.run(job, new JoinOnKey(),
        new String[] {"/yarn/a", "/yarn/b", "/yarn/joined"}));
    Set<String> got = new HashSet<>();
    for (FileStatus part : fs.listStatus(new Path("/yarn/joined"),
        p -> p.getName().startsWith("part-"))) {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(part.getPath()),
          StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          got.add(line);
        }
      }
    }
    assertEquals(expected, got);
  }

  @Test
  void aParallelCopyRunsOnYarn() throws Exception {
    byte[] data = new byte[(3 << 20) + 5000];
    new Random(11).nextBytes(data);
    FileSystem fs = dfs.getFileSystem();
    try (FSDataOutputStream out = fs.create(new Path("/yarn/copy-src"), true, 4096, (short) 2,
        256 * 1024)) {
      out.write(data);
    }
    Configuration job = new Configuration(conf);
    job.set(PatternConfig.STRIDED_SIZE, "10000");
    job.set(PatternConfig.STRIDED_SPACING, "30000");
    job.set(PatternConfig.STRIDED_COUNT, "70");
    assertEquals(0, ToolRunner.run(job, new MrapCopy(), new String[] {"-D",
        "dfs.blocksize=256k", "-mode", "parallel", "/yarn/copy-src", "/yarn/copy"}));
    Path copy = new Path("/yarn/copy");
    assertEquals(256 * 1024, fs.getFileStatus(copy).getBlockSize());
    assertArrayEquals(data, MrapParallelCopyTest.logical(fs, copy));
    MrapParallelCopyTest.assertChunkAligned(fs, copy);
  }

  private static void write(FileSystem fs, String path, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(path))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
