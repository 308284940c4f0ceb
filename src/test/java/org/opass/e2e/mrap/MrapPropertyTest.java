package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.SeededCases;
import org.opass.mrap.copy.CopyOptions;
import org.opass.mrap.copy.RestructuringCopy;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.pattern.NaivePatterns;
import org.opass.mrap.settings.MrapConf;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.ForklessLocalFileSystem;
import org.opass.tools.cluster.TestFiles;

/**
 * MRAP against a naive oracle ({@link NaivePatterns}: the regions worked out from the keys by
 * loops, no pattern class) on random files and random patterns of every kind: vector, nested,
 * by gaps and by strides, subarray, tiled, indexed (overlapping too); random block sizes (so
 * regions cross blocks), split sizes, joined reads, virtual splits, and records cut small (as a
 * region above 2 GiB is cut). Each case reads the file as a job's tasks would; where the
 * pattern can be restructured it copies the file restructured (random chunk and task sizes) and
 * reads that copy with its pattern, with another pattern through its layout, and copies it
 * back out. The records must be the oracle's, key for key and byte for byte. Then the same on
 * HDFS with the copy job of chunk writers.
 */
class MrapPropertyTest {
  /** Cases read plain; one in {@value #RESTRUCTURED_EVERY} is restructured and read again. */
  private static final int CASES = SeededCases.of(2000);
  private static final int RESTRUCTURED_EVERY = 5;

  @TempDir
  File tmp;

  /**
   * The local file system with no checksum layer (its positioned reads go 512 bytes at a time)
   * and no forked chmod and ls ({@link ForklessLocalFileSystem}).
   */
  private static Configuration localConf(Random rnd) {
    Configuration conf = ForklessLocalFileSystem.conf();
    conf.setLong("fs.local.block.size", 512L << rnd.nextInt(8));
    return conf;
  }

  private static Configuration with(Configuration base, Map<String, String> keys) {
    Configuration c = new Configuration(base);
    keys.forEach(c::set);
    return c;
  }

  private static void assertReads(byte[] original, Map<String, String> keys, long recordBytes,
      Configuration conf, Path file, String what) throws Exception {
    List<MrapReads.Rec> expected = MrapReads.expected(original,
        NaivePatterns.regions(keys), recordBytes);
    assertEquals(null, MrapReads.difference(expected, MrapReads.records(conf, file)), what);
  }

  @Test
  void everyPatternReadsAsTheOracleSaysPlainAndRestructured() throws Exception {
    Random rnd = new Random(2211);
    int restructured = 0;
    for (int c = 0; c < CASES; c++) {
      int length = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 400_000 : 60_000);
      byte[] data = TestFiles.randomBytes(length, c);
      File local = new File(tmp, "f" + c);
      Files.write(local.toPath(), data);
      Path file = new Path(local.toURI());
      Configuration conf = localConf(rnd);
      boolean restructure = c % RESTRUCTURED_EVERY == 0;
      Map<String, String> keys = NaivePatterns.random(rnd, length, restructure);
      long recordBytes = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(700) : 64L << 20;
      Configuration read = with(conf, keys);
      read.setLong(AccessInputFormat.RECORD_BYTES, recordBytes);
      if (rnd.nextBoolean()) {
        read.setLong(AccessInputFormat.SPLIT_BYTES, 1 + rnd.nextInt(50_000));
      }
      read.setLong(AccessInputFormat.COALESCE_GAP, new long[] {0, 100, 1 << 20}[rnd.nextInt(3)]);
      if (rnd.nextInt(3) == 0 && !"tiled".equals(keys.get("mrap.pattern.kind"))) {
        read.set(AccessInputFormat.CHUNKS, "independent");
      }
      String what = "case " + c + " " + keys;
      assertReads(data, keys, recordBytes, read, file, what + " (plain)");
      if (!restructure) {
        local.delete();
        continue;
      }
      // restructured: random chunks, tasks of one or more chunks
      long chunk = 65 + rnd.nextInt(rnd.nextBoolean() ? 1000 : 40_000);
      Configuration copy = with(conf, keys);
      copy.setLong("dfs.blocksize", chunk);
      Path dst = new Path(new File(tmp, "r" + c).toURI());
      RestructuringCopy.copy(copy, file, dst, CopyOptions.builder()
          .pattern(MrapConf.pattern(copy)).taskBytes(chunk * (1 + rnd.nextInt(3)))
          .mode(CopyOptions.Mode.SINGLE).build(), null);
      restructured++;
      assertReads(data, keys, recordBytes, read, dst, what + " (restructured, chunk " + chunk
          + ")");
      Map<String, String> other = NaivePatterns.random(rnd, length, false);
      Configuration index = with(conf, other);
      index.set(AccessInputFormat.RESTRUCTURED, "index");
      index.setLong(AccessInputFormat.COALESCE_GAP, rnd.nextBoolean() ? 0 : 4096);
      assertReads(data, other, 64L << 20, index, dst, what + " read as " + other);
      Path back = new Path(new File(tmp, "b" + c).toURI());
      RestructuringCopy.copy(conf, dst, back, CopyOptions.builder()
          .mode(CopyOptions.Mode.SINGLE).build(), null);
      assertArrayEquals(data, Files.readAllBytes(new File(tmp, "b" + c).toPath()),
          what + " copied back out");
      for (String name : new String[] {"f", "r", "b"}) {
        new File(tmp, name + c).delete();
      }
    }
    assertEquals(CASES / RESTRUCTURED_EVERY, restructured);
  }

  @Test
  void theCopyJobOfChunkWritersMatchesTheOracleOnHdfs() throws Exception {
    Random rnd = new Random(2212);
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(4).racks(2)
        .blockSize(64 * 1024).baseDir(new File("target/e2e/mrap-property")).start()) {
      FileSystem fs = cluster.miniCluster().getFileSystem();
      for (int c = 0; c < 8; c++) {
        int length = 100_000 + rnd.nextInt(400_000);
        byte[] data = TestFiles.randomBytes(length, c);
        Path src = new Path("/property/src" + c);
        TestFiles.write(fs, src, data, (short) 2);
        Map<String, String> keys = NaivePatterns.random(rnd, length, true);
        Configuration conf = with(AccessJobTest.jobConf(cluster, "property"), keys);
        long chunk = 64 * 1024 * (1 + rnd.nextInt(2));
        conf.setLong("dfs.blocksize", chunk);
        Path dst = new Path("/property/dst" + c);
        RestructuringCopy.copy(conf, src, dst, CopyOptions.builder()
            .pattern(MrapConf.pattern(conf)).mode(CopyOptions.Mode.PARALLEL).build(), null);
        assertReads(data, keys, 64L << 20, conf, dst, "case " + c + " " + keys);
        assertArrayEquals(data, MrapReads.original(fs, dst), "case " + c);
        List<String> names = new ArrayList<>();
        for (var st : fs.listStatus(new Path("/property"))) {
          names.add(st.getPath().getName());
        }
        assertTrue(names.stream().noneMatch(n -> n.startsWith(".")), "nothing left: " + names);
      }
    }
  }
}
