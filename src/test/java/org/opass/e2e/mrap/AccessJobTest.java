package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.examples.ExtractRegions;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.mapreduce.AccessSplit;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * MRAP's example job ({@code ExtractRegions}, {@code AccessInputFormat}) as a real MapReduce
 * job on the LocalJobRunner against HDFS: the regions of a strided pattern, one fifth of a
 * file, come out byte for byte, and a bad pattern stops the job before it runs.
 */
class AccessJobTest {
  private static final int BLOCK = 64 * 1024;
  private static EmulatedCluster cluster;
  private static byte[] data;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    data = new byte[16 * BLOCK];
    new Random(5).nextBytes(data);
    try (FSDataOutputStream out = cluster.offClusterFileSystem().create(new Path("/mrap/data"),
        (short) 2)) {
      out.write(data);
    }
  }

  /** A LocalJobRunner configuration on the cluster's HDFS. */
  static Configuration jobConf(EmulatedCluster cluster, String name) {
    return jobConf(cluster.conf(), name);
  }

  /** A LocalJobRunner job's configuration on the cluster {@code clusterConf} names. */
  static Configuration jobConf(Configuration clusterConf, String name) {
    Configuration conf = new Configuration(clusterConf);
    File local = new File("target/e2e/mrap-jobs/" + name).getAbsoluteFile();
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.jobtracker.staging.root.dir", new File(local, "staging").getPath());
    conf.set("mapreduce.cluster.local.dir", new File(local, "local").getPath());
    return conf;
  }

  @Test
  void theExampleJobExtractsExactlyThePatternsRegions() throws Exception {
    Configuration conf = jobConf(cluster, "extract");
    conf.set(PatternConfig.STRIDED_SIZE, "4k");
    conf.set(PatternConfig.STRIDED_SPACING, "16k"); // a fifth of the file is of interest
    conf.set(PatternConfig.STRIDED_COUNT, "51");
    conf.set(PatternConfig.STRIDED_START, "1000"); // regions straddle block boundaries
    assertEquals(0, ToolRunner.run(conf, new ExtractRegions(),
        new String[] {"/mrap/data", "/mrap/out"}));
    assertTheRegions(MrapReads.jobOutput(new Path("/mrap/out"), conf));
  }

  /** The 51 regions of 4 KiB every 20 KiB from byte 1000, keyed by logical offset. */
  private static void assertTheRegions(Map<Long, byte[]> records) {
    assertEquals(51, records.size());
    for (int k = 0; k < 51; k++) {
      int offset = 1000 + k * 20 * 1024;
      assertArrayEquals(Arrays.copyOfRange(data, offset, offset + 4096),
          records.get(k * 4096L), "region " + k);
    }
  }

  @Test
  void aPatternPastTheEndStopsTheJobWithTheProperty() throws Exception {
    Configuration conf = jobConf(cluster, "too-long");
    conf.set(PatternConfig.STRIDED_SIZE, "4k");
    conf.set(PatternConfig.STRIDED_SPACING, "16k");
    conf.set(PatternConfig.STRIDED_COUNT, "60"); // runs past the file's 1 MiB
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    java.io.PrintStream old = System.err;
    int rc;
    try {
      System.setErr(new java.io.PrintStream(err, true));
      rc = ToolRunner.run(conf, new ExtractRegions(), new String[] {"/mrap/data", "/mrap/bad"});
    } finally {
      System.setErr(old);
    }
    assertEquals(2, rc, err.toString());
    assertTrue(err.toString().contains("strided.region_count: =60"), err.toString());
    assertFalse(cluster.miniCluster().getFileSystem().exists(new Path("/mrap/bad")),
        "nothing written");
  }

  @Test
  void virtualSplitsAreLocalToTheirHostAndLoseNoRegion() throws Exception {
    Configuration conf = jobConf(cluster, "virtual");
    conf.set(PatternConfig.STRIDED_SIZE, "4k");
    conf.set(PatternConfig.STRIDED_SPACING, "16k");
    conf.set(PatternConfig.STRIDED_COUNT, "51");
    conf.set(PatternConfig.STRIDED_START, "1000");
    conf.set(AccessInputFormat.CHUNKS, "independent");
    conf.set(AccessInputFormat.SPLIT_BYTES, "12k");
    Job job = Job.getInstance(conf);
    FileInputFormat.setInputPaths(job, new Path("/mrap/data"));
    BlockLocation[] blocks = cluster.miniCluster().getFileSystem().getFileBlockLocations(
        new Path("/mrap/data"), 0, data.length);
    int regions = 0;
    for (InputSplit s : new AccessInputFormat().getSplits(job)) {
      AccessSplit split = (AccessSplit) s;
      String host = split.getLocations()[0];
      for (AccessPattern part : split.task().parts()) {
        RegionCursor c = part.cursor();
        while (c.next()) {
          BlockLocation b = blocks[(int) (c.offset() / BLOCK)];
          assertTrue(Arrays.asList(b.getHosts()).contains(host), "the region at "
              + c.offset() + " starts in a block " + host + " holds");
          regions++;
        }
      }
    }
    assertEquals(51, regions);
    assertEquals(0, ToolRunner.run(conf, new ExtractRegions(),
        new String[] {"/mrap/data", "/mrap/out-virtual"}));
    assertTheRegions(MrapReads.jobOutput(new Path("/mrap/out-virtual"), conf));
  }
}
