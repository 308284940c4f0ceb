package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opass.tools.cluster.TestFiles.randomBytes;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.copy.CopyOptions;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.copy.RestructuringCopy;
import org.opass.mrap.settings.MrapConf;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * {@code mrap-copy}'s parallel mode on the LocalJobRunner against the emulated cluster's HDFS:
 * chunk writers chosen by aggregator selection write whole-block parts, joined by
 * {@code concat}. Byte-exact round trips, chunk-aligned blocks, the automatic choice of mode,
 * and copies stopped by an interrupt, a failed writer task and a dying DataNode. DataNodes
 * write at 2 MiB/s, so that a copy is still running when the test acts on it.
 */
class MrapParallelCopyTest {
  private static final int BLOCK = 256 * 1024;
  private static final long WRITE_BANDWIDTH = 2L << 20;
  private static EmulatedCluster cluster;

  @TempDir
  static File local;

  @BeforeAll
  static void start() throws Exception {
    cluster = newCluster("shared");
  }

  private static EmulatedCluster newCluster(String name) throws Exception {
    return EmulatedCluster.builder().dataNodes(4).racks(2).blockSize(BLOCK)
        .writeBandwidthPerDataNode(WRITE_BANDWIDTH)
        .baseDir(new File("target/e2e/mrap-parallel-copy/" + name)).start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Path put(EmulatedCluster c, String path, byte[] data) throws IOException {
    Path p = new Path(path);
    try (FSDataOutputStream out = c.offClusterFileSystem().create(p, true, 4096, (short) 2,
        BLOCK)) {
      out.write(data);
    }
    return p;
  }

  static byte[] readAll(FileSystem fs, Path p) throws IOException {
    byte[] out = new byte[(int) fs.getFileStatus(p).getLen()];
    try (FSDataInputStream in = fs.open(p)) {
      IOUtils.readFully(in, out, 0, out.length);
    }
    return out;
  }

  private static void assertNoLeftovers(FileSystem fs, Path dir) throws IOException {
    for (FileStatus st : fs.listStatus(dir)) {
      assertFalse(st.getPath().getName().contains(".mrap-copy"), "left over: " + st.getPath());
    }
  }

  private static Configuration conf(EmulatedCluster c, String name) {
    Configuration conf = AccessJobTest.jobConf(c, "parallel-copy-" + name);
    conf.setLong("dfs.blocksize", BLOCK);
    conf.setInt("dfs.replication", 2);
    return conf;
  }

  private static CopyOptions parallel(Configuration patternConf) throws Exception {
    CopyOptions.Builder b = CopyOptions.builder().mode(CopyOptions.Mode.PARALLEL);
    if (patternConf != null) {
      b.pattern(MrapConf.pattern(patternConf));
    }
    return b.build();
  }

  private static int runTool(Configuration conf, String... args) throws Exception {
    PrintStream old = System.out;
    try {
      System.setOut(new PrintStream(new ByteArrayOutputStream(), true));
      return ToolRunner.run(conf, new MrapCopy(), args);
    } finally {
      System.setOut(old);
    }
  }

  @Test
  void restructuredInParallelFromHdfsTheCopyIsByteExactAndChunkAligned() throws Exception {
    FileSystem fs = cluster.miniCluster().getFileSystem();
    byte[] data = randomBytes((3 << 20) + 12_345, 21);
    put(cluster, "/pc/particles", data);
    File pattern = new File(local, "pattern.xml");
    Files.writeString(pattern.toPath(), "<configuration>"
        + "<property><name>strided.region_size</name><value>3000</value></property>"
        + "<property><name>strided.region_spacing</name><value>9000</value></property>"
        + "<property><name>strided.start</name><value>777</value></property>"
        + "<property><name>strided.region_count</name><value>250</value></property>"
        + "</configuration>");
    Configuration conf = conf(cluster, "restructured");
    assertEquals(0, runTool(conf, "-mode", "parallel", "-pattern", pattern.getPath(),
        "/pc/particles", "/pc/restructured"));
    Path dst = new Path("/pc/restructured");
    assertArrayEquals(data, MrapReads.original(fs, dst));
    MrapReads.assertChunkAligned(fs, dst);
    assertEquals(BLOCK, fs.getFileStatus(dst).getBlockSize());
    assertEquals(2, fs.getFileStatus(dst).getReplication());
    assertNoLeftovers(fs, new Path("/pc"));
    // copied back out plainly, in parallel too, beside a reading key a site may set for every
    // job (it leaves the copy plain): the original bytes
    Configuration site = new Configuration(conf);
    site.set("mrap.science.decode", "false");
    assertEquals(0, runTool(site, "-mode", "parallel", "/pc/restructured", "/pc/back"));
    assertArrayEquals(data, readAll(fs, new Path("/pc/back")));
    MrapReads.assertChunkAligned(fs, new Path("/pc/back"));
  }

  @Test
  void aLocalSourceIsSharedAmongWritersAndAutoPicksByWhereAndHowMuch() throws Exception {
    FileSystem fs = cluster.miniCluster().getFileSystem();
    byte[] data = randomBytes((2 << 20) + 99, 22);
    File src = new File(local, "plain");
    Files.write(src.toPath(), data);
    Configuration conf = conf(cluster, "local");
    conf.setInt("mrap.copy.writers", 3);
    RestructuringCopy.Result r = RestructuringCopy.copy(conf, new Path(src.toURI()),
        new Path("/pc/from-local"), parallel(null), null);
    assertTrue(r.parallel());
    assertArrayEquals(data, readAll(fs, new Path("/pc/from-local")));
    MrapReads.assertChunkAligned(fs, new Path("/pc/from-local"));

    conf.set(RestructuringCopy.PARALLEL_BYTES, "1m");
    CopyOptions auto = CopyOptions.builder().build();
    assertFalse(RestructuringCopy.copy(conf, new Path(src.toURI()), new Path("/pc/auto-local"),
        auto, null).parallel(), "a local source is read here");
    put(cluster, "/pc/auto-src", data);
    assertTrue(RestructuringCopy.copy(conf, new Path("/pc/auto-src"),
        new Path("/pc/auto-big"), auto, null).parallel(), "2 MiB from HDFS, over 1m");
    conf.set(RestructuringCopy.PARALLEL_BYTES, "4m");
    assertFalse(RestructuringCopy.copy(conf, new Path("/pc/auto-src"),
        new Path("/pc/auto-small"), auto, null).parallel(), "2 MiB, under 4m");
    for (String p : new String[] {"/pc/auto-local", "/pc/auto-big", "/pc/auto-small"}) {
      assertArrayEquals(data, readAll(fs, new Path(p)), p);
    }
  }

  @Test
  void anInterruptedParallelCopyLeavesNothingAndARerunSucceeds() throws Exception {
    FileSystem fs = cluster.miniCluster().getFileSystem();
    byte[] data = randomBytes(6 << 20, 23);
    Path src = put(cluster, "/pi/src", data);
    Path dst = new Path("/pi/dst");
    Configuration conf = conf(cluster, "interrupted");
    Thread self = Thread.currentThread();
    AtomicBoolean partsSeen = new AtomicBoolean();
    // interrupted once the writers are writing
    assertThrows(InterruptedIOException.class, () -> RestructuringCopy.copy(conf, src, dst,
        parallel(null), (bytes, total) -> {
          try {
            if (partsWritten(fs, new Path("/pi")) > 0) {
              partsSeen.set(true);
              self.interrupt();
            }
          } catch (IOException e) {
            throw new AssertionError(e);
          }
        }));
    Thread.interrupted();
    assertTrue(partsSeen.get(), "stopped mid-way, with parts written");
    assertFalse(fs.exists(dst));
    assertNoLeftovers(fs, new Path("/pi"));
    RestructuringCopy.copy(conf, src, dst, parallel(null), null);
    assertArrayEquals(data, readAll(fs, dst));
    assertNoLeftovers(fs, new Path("/pi"));
  }

  /** Files in the parts folders of copies into {@code dir}. */
  private static int partsWritten(FileSystem fs, Path dir) throws IOException {
    int n = 0;
    for (Path parts : partsFolders(fs, dir)) {
      n += fs.listStatus(parts, p -> p.getName().contains("part-")).length;
    }
    return n;
  }

  /** The parts folders of the copies under way into {@code dir} (in their work folders). */
  private static List<Path> partsFolders(FileSystem fs, Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    for (FileStatus work : fs.listStatus(dir, p -> p.getName().endsWith(".mrap-copy"))) {
      for (FileStatus st : fs.listStatus(work.getPath(), p -> p.getName().endsWith(".parts"))) {
        out.add(st.getPath());
      }
    }
    return out;
  }

  @Test
  void aFailedWriterTaskFailsTheCopyWithNothingPublishedAndARerunSucceeds() throws Exception {
    FileSystem fs = cluster.miniCluster().getFileSystem();
    byte[] data = randomBytes(6 << 20, 24);
    Path src = put(cluster, "/pf/src", data);
    Path dst = new Path("/pf/dst");
    Configuration conf = conf(cluster, "failed");
    AtomicBoolean blocked = new AtomicBoolean();
    // a folder in the way of the last chunk's part: its writer's publishing rename fails
    IOException e = assertThrows(IOException.class, () -> RestructuringCopy.copy(conf, src,
        dst, parallel(null), (bytes, total) -> {
          if (blocked.get()) {
            return;
          }
          try {
            for (Path parts : partsFolders(fs, new Path("/pf"))) {
              blocked.set(fs.mkdirs(new Path(parts, String.format("part-%08d/in-the-way",
                  data.length / BLOCK - 1))));
            }
          } catch (IOException ex) {
            throw new AssertionError(ex);
          }
        }));
    assertTrue(blocked.get());
    assertTrue(e.getMessage().contains("the copy job") && e.getMessage().contains("failed"),
        e.getMessage());
    assertFalse(fs.exists(dst));
    assertNoLeftovers(fs, new Path("/pf"));
    RestructuringCopy.copy(conf, src, dst, parallel(null), null);
    assertArrayEquals(data, readAll(fs, dst));
    MrapReads.assertChunkAligned(fs, dst);
  }

  @Test
  void aDataNodeDyingMidCopyLosesNothing() throws Exception {
    try (EmulatedCluster c = newCluster("dying")) {
      FileSystem fs = c.miniCluster().getFileSystem();
      byte[] data = randomBytes(6 << 20, 25);
      Path src = put(c, "/pd/src", data);
      Path dst = new Path("/pd/dst");
      Configuration conf = conf(c, "dying");
      AtomicBoolean stopped = new AtomicBoolean();
      // a DataNode holding source replicas and in write pipelines stops while parts are written
      RestructuringCopy.Result r = RestructuringCopy.copy(conf, src, dst, parallel(null),
          (bytes, total) -> {
            try {
              if (!stopped.get() && partsWritten(fs, new Path("/pd")) > 0) {
                stopped.set(c.miniCluster().stopDataNode(3) != null);
              }
            } catch (IOException e) {
              throw new AssertionError(e);
            }
          });
      assertTrue(stopped.get(), "the DataNode stopped during the copy");
      assertTrue(r.parallel());
      assertArrayEquals(data, readAll(fs, dst));
      MrapReads.assertChunkAligned(fs, dst);
      assertNoLeftovers(fs, new Path("/pd"));
    }
  }
}
