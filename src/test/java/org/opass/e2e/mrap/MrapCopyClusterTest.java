package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.copy.RestructuringCopy;
import org.opass.mrap.examples.ExtractRegions;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * {@code mrap-copy} into HDFS: a local file restructured for a strided pattern, then read by
 * {@code AccessInputFormat} with the same pattern, task by task from packed chunks; HDFS's
 * block size, replication and umask as asked; the composite-CRC check.
 */
class MrapCopyClusterTest {
  private static final int BLOCK = 256 * 1024;
  private static EmulatedCluster cluster;

  @TempDir
  static File local;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
  }

  @Test
  void aRestructuredCopyIsReadContiguouslyWithItsPattern() throws Exception {
    byte[] data = new byte[4 << 20];
    new Random(8).nextBytes(data);
    File src = new File(local, "particles");
    Files.write(src.toPath(), data);
    File pattern = new File(local, "pattern.xml");
    Files.writeString(pattern.toPath(), "<configuration>"
        + "<property><name>strided.region_size</name><value>4k</value></property>"
        + "<property><name>strided.region_spacing</name><value>16k</value></property>"
        + "<property><name>strided.region_count</name><value>204</value></property>"
        + "</configuration>");
    Configuration conf = AccessJobTest.jobConf(cluster, "copy");
    conf.set("dfs.replication", "2");
    conf.set("fs.permissions.umask-mode", "027");
    assertEquals(0, ToolRunner.run(conf, new MrapCopy(), new String[] {"-pattern",
        pattern.getPath(), src.toURI().toString(), "/mrap/particles"}));
    FileSystem fs = cluster.miniCluster().getFileSystem();
    FileStatus st = fs.getFileStatus(new Path("/mrap/particles"));
    assertEquals(2, st.getReplication());
    assertEquals(BLOCK, st.getBlockSize());
    assertEquals(new FsPermission((short) 0640), st.getPermission(), "umask 027 applied");
    assertTrue(RestructuredFiles.layoutOf(fs, new Path("/mrap/particles")) != null,
        "the copy carries its layout");

    // the job with the same pattern reads it from packed chunks
    conf.set(PatternConfig.STRIDED_SIZE, "4k");
    conf.set(PatternConfig.STRIDED_SPACING, "16k");
    conf.set(PatternConfig.STRIDED_COUNT, "204");
    assertEquals(0, ToolRunner.run(conf, new ExtractRegions(),
        new String[] {"/mrap/particles", "/mrap/particles-regions"}));
    Map<Long, byte[]> records = MrapReads.jobOutput(new Path("/mrap/particles-regions"), conf);
    assertEquals(204, records.size());
    for (int k = 0; k < 204; k++) {
      int offset = k * 20 * 1024;
      assertArrayEquals(Arrays.copyOfRange(data, offset, offset + 4096),
          records.get(k * 4096L), "region " + k);
    }

    // and copied back out plainly, then read through its index, it is the original
    byte[] physical = new byte[(int) st.getLen()];
    try (FSDataInputStream in = fs.open(new Path("/mrap/particles"))) {
      IOUtils.readFully(in, physical, 0, physical.length);
    }
    CRC32C crc = new CRC32C();
    crc.update(physical);
    assertEquals((int) crc.getValue(), RestructuringCopy.crcOf(conf,
        new Path("/mrap/particles")), "HDFS's composite CRC is the CRC32C of the bytes");
    Configuration composite = new Configuration(conf);
    composite.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    try (FileSystem c = FileSystem.newInstance(fs.getUri(), composite)) {
      assertTrue(c.getFileChecksum(new Path("/mrap/particles"))
          instanceof CompositeCrcFileChecksum, "the check reads HDFS's own checksums");
    }
    assertFalse(Arrays.equals(data, Arrays.copyOf(physical, data.length)), "restructured");
  }

  @Test
  void aPlainCopyFromHdfsToHdfsIsCheckedByCompositeCrc() throws Exception {
    byte[] data = new byte[(3 << 20) + 123];
    new Random(9).nextBytes(data);
    FileSystem fs = cluster.miniCluster().getFileSystem();
    try (var out = fs.create(new Path("/mrap/plain-src"))) {
      out.write(data);
    }
    Configuration conf = AccessJobTest.jobConf(cluster, "plain");
    PrintStream old = System.out;
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    int rc;
    try {
      System.setOut(new PrintStream(said, true));
      rc = ToolRunner.run(conf, new MrapCopy(), new String[] {"/mrap/plain-src",
          "/mrap/plain-dst"});
    } finally {
      System.setOut(old);
    }
    assertEquals(0, rc);
    assertTrue(said.toString().contains("/mrap/plain-dst"), said.toString());
    byte[] back = new byte[data.length];
    try (FSDataInputStream in = fs.open(new Path("/mrap/plain-dst"))) {
      IOUtils.readFully(in, back, 0, back.length);
    }
    assertArrayEquals(data, back);
    assertEquals(0, Arrays.stream(fs.listStatus(new Path("/mrap")))
        .filter(s -> s.getPath().getName().contains(".mrap-copy")).count(), "no leftovers");
  }

  /**
   * By default a copy from this process writes several streams side by side and joins them
   * ({@code mrap.copy.threads}): the file it publishes is byte for byte the one-stream copy's,
   * plain and restructured, with nothing left beside it.
   */
  @Test
  void aCopyInSeveralStreamsWritesTheBytesOfOneStream() throws Exception {
    byte[] data = new byte[(3 << 20) + 4567]; // 13 chunks, the last short
    new Random(10).nextBytes(data);
    File src = new File(local, "streams");
    Files.write(src.toPath(), data);
    Configuration conf = AccessJobTest.jobConf(cluster, "streams");
    conf.setInt("mrap.copy.threads", 3);
    FileSystem fs = cluster.miniCluster().getFileSystem();
    for (String[] pattern : new String[][] {{}, {"-D", PatternConfig.STRIDED_SIZE + "=4k",
        "-D", PatternConfig.STRIDED_SPACING + "=12k", "-D", PatternConfig.STRIDED_COUNT
        + "=150"}}) {
      String kind = pattern.length == 0 ? "plain" : "restructured";
      Path one = new Path("/mrap/streams/" + kind + "-single");
      Path many = new Path("/mrap/streams/" + kind);
      assertEquals(0, ToolRunner.run(conf, new MrapCopy(), concat(pattern, "-mode", "single",
          src.toURI().toString(), one.toString())));
      assertEquals(0, ToolRunner.run(conf, new MrapCopy(), concat(pattern,
          src.toURI().toString(), many.toString())));
      assertArrayEquals(read(fs, one), read(fs, many), kind);
      assertEquals(BLOCK, fs.getFileStatus(many).getBlockSize());
    }
    assertArrayEquals(data, read(fs, new Path("/mrap/streams/plain")));
    assertEquals(4, fs.listStatus(new Path("/mrap/streams")).length, "no leftovers");
  }

  /**
   * A copy in several streams that fails part-way (the folder's space quota runs out under
   * one of its writers) fails as a whole: exit 1, no destination, its parts removed.
   */
  @Test
  void aCopyInSeveralStreamsThatFailsLeavesNothing() throws Exception {
    byte[] data = new byte[3 << 20];
    new Random(11).nextBytes(data);
    File src = new File(local, "over-quota");
    Files.write(src.toPath(), data);
    Path dir = new Path("/mrap/quota");
    org.apache.hadoop.hdfs.DistributedFileSystem fs = cluster.miniCluster().getFileSystem();
    fs.mkdirs(dir);
    // room for 6 of the 12 chunks' blocks at replication 2
    fs.setQuota(dir, org.apache.hadoop.hdfs.protocol.HdfsConstants.QUOTA_DONT_SET,
        6L * BLOCK * 2);
    Configuration conf = AccessJobTest.jobConf(cluster, "over-quota");
    conf.set("dfs.replication", "2");
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    int rc = ToolRunner.run(conf, new MrapCopy(new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(said, true)), new String[] {src.toURI().toString(), dir + "/f"});
    assertEquals(1, rc, said.toString());
    assertTrue(said.toString().contains("quota"), said.toString());
    assertEquals(0, fs.listStatus(dir).length, "nothing left: " + Arrays.toString(
        fs.listStatus(dir)));
  }

  private static byte[] read(FileSystem fs, Path p) throws Exception {
    byte[] b = new byte[(int) fs.getFileStatus(p).getLen()];
    try (FSDataInputStream in = fs.open(p)) {
      IOUtils.readFully(in, b, 0, b.length);
    }
    return b;
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /**
   * Restructures {@code length} random bytes for the vector pattern with chunks of
   * {@code chunk} bytes, checks the regions read back, and returns the restructured file's
   * length over the original's.
   */
  private static double restructuredLengthRatio(String name, int length, long chunk, long start,
      int size, long spacing, int count) throws Exception {
    byte[] data = new byte[length];
    new Random(length).nextBytes(data);
    File src = new File(local, name);
    Files.write(src.toPath(), data);
    Configuration conf = AccessJobTest.jobConf(cluster, name);
    conf.setLong(PatternConfig.STRIDED_START, start);
    conf.setLong(PatternConfig.STRIDED_SIZE, size);
    conf.setLong(PatternConfig.STRIDED_SPACING, spacing);
    conf.setLong(PatternConfig.STRIDED_COUNT, count);
    Configuration copyConf = new Configuration(conf);
    copyConf.setLong("dfs.blocksize", chunk);
    Path dst = new Path("/mrap/length/" + name);
    assertEquals(0, ToolRunner.run(copyConf, new MrapCopy(), new String[] {"-mode", "single",
        src.toURI().toString(), dst.toString()}));
    assertEquals(null, MrapReads.difference(MrapReads.stridedOracle(data, start, size, spacing,
        count), MrapReads.records(conf, dst)), name);
    FileSystem fs = cluster.miniCluster().getFileSystem();
    return (double) fs.getFileStatus(dst).getLen() / length;
  }

  @Test
  void aFileSmallerThanAChunkIsNotPaddedToAWholeBlock() throws Exception {
    double ratio = restructuredLengthRatio("small", 1_100_000, 128L << 20, 7, 100, 400, 2000);
    assertTrue(ratio <= 1.01, "1.1 MB restructured with 128 MiB chunks: x" + ratio);
  }

  @Test
  void regionsThatDoNotDivideTheChunkArePackedAsFirstFitPacksThem() throws Exception {
    // ten 100,000-byte regions fill a 1 MiB chunk (the thesis's ten 6.3 MB regions in 64 MiB)
    double sparse = restructuredLengthRatio("sparse", 12_600_000, 1L << 20, 0, 100_000, 25_000,
        100);
    assertTrue(sparse <= 1.01, "80% of interest: x" + sparse);
    double dense = restructuredLengthRatio("dense", 4 << 20, 1L << 20, 0, 36, 1, 113_000);
    assertTrue(dense <= 1.01, "36-byte records, 97% of interest: x" + dense);
  }
}
