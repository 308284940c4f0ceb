package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.mapreduce.VariableRecordReader;
import org.opass.mrap.mapreduce.VariableSplit;
import org.opass.mrap.plan.CfOracleTest;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.task.RegionTask;
import org.opass.mrap.task.VariableTask;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Selection by coordinate values and CF decoding on HDFS, against what netCDF4-python and
 * xarray read (science/cf, files written by netCDF-C and h5py): every case through
 * VariableInputFormat's splits (virtual splits over 64 KiB blocks, each split written and read
 * back as a task gets it), only the chunks holding selected elements read; selections through
 * copies {@code mrap-copy} restructured for them (read by their packed tasks) and through a
 * container ({@code -pack}) of a series whose files have different scale factors.
 */
class CfSelectionTest {
  private static final int BLOCK = 64 * 1024;
  private static EmulatedCluster cluster;
  private static FileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = cluster.offClusterFileSystem();
    java.util.Set<String> files = new java.util.TreeSet<>();
    for (JsonNode c : CfOracleTest.expected().get("cases")) {
      c.get("files").forEach(f -> files.add(f.asText()));
    }
    for (String f : files) { // from the classpath: mrap-core's test jar
      try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(new Path("/cf/" + f))) {
        out.write(org.opass.mrap.science.Fixtures.bytes("cf/" + f));
      }
    }
  }

  private static Map<String, JsonNode> cases() throws IOException {
    Map<String, JsonNode> out = new HashMap<>();
    for (JsonNode c : CfOracleTest.expected().get("cases")) {
      out.put(c.get("name").asText(), c);
    }
    return out;
  }

  /** The case's job configuration on the cluster. */
  private static Configuration conf(JsonNode c) {
    Configuration conf = AccessJobTest.jobConf(cluster, c.get("name").asText());
    CfOracleTest.conf(c).forEach(e -> conf.set(e.getKey(), e.getValue()));
    return conf;
  }

  /** Every split of the job over {@code inputs}, read as its task reads it, into {@code r}. */
  private static Map<MrapCounter, Long> read(Configuration conf, CfOracleTest.Result r,
      List<RegionTask.Layout> layouts, String... inputs) throws Exception {
    Job job = Job.getInstance(conf);
    for (String in : inputs) {
      FileInputFormat.addInputPath(job, new Path(in));
    }
    Map<MrapCounter, Long> counted = new HashMap<>();
    for (InputSplit s : new VariableInputFormat().getSplits(job)) {
      VariableSplit split = (VariableSplit) MrapReads.reserialized(s);
      for (VariableTask.Part p : split.task().parts()) {
        layouts.add(p.layout());
      }
      TaskCounters counters = new TaskCounters();
      try (VariableRecordReader reader = new VariableRecordReader()) {
        reader.initialize(split, new TaskAttemptContextImpl(conf, new TaskAttemptID(),
            counters));
        while (reader.nextKeyValue()) {
          r.put(reader.getCurrentKey().file(), reader.getCurrentKey().origin(),
              reader.getCurrentValue());
        }
      }
      for (MrapCounter m : MrapCounter.values()) {
        counted.merge(m, counters.get(m), Long::sum);
      }
    }
    return counted;
  }

  @Test
  void everyCaseThroughVariableInputFormatOnHdfs() throws Exception {
    long wholeChunks = 0;
    long boxChunks = 0;
    for (JsonNode c : cases().values()) {
      String name = c.get("name").asText();
      List<String> inputs = new ArrayList<>();
      for (JsonNode f : c.get("files")) {
        inputs.add("/cf/" + f.asText());
      }
      CfOracleTest.Result r = new CfOracleTest.Result(c);
      Map<MrapCounter, Long> n = read(conf(c), r, new ArrayList<>(),
          inputs.toArray(new String[0]));
      r.check(name);
      if (name.equals("era5_t2m_whole")) {
        wholeChunks = n.get(MrapCounter.BYTES_OF_INTEREST);
      } else if (name.equals("era5_box")) {
        boxChunks = n.get(MrapCounter.BYTES_OF_INTEREST);
      }
      if (c.get("decode").asBoolean() && c.has("masked")) {
        assertEquals(c.get("masked").asLong(), n.get(MrapCounter.MISSING_ELEMENTS),
            name + ": elements counted missing");
      }
    }
    // the box's chunks only: those the oracle's index box touches (3 x 1 x 2 of 4 x 3 x 3)
    assertEquals(chunkBytes(cases().get("era5_box")), boxChunks, "era5_box's chunks");
    assertTrue(boxChunks * 5 < wholeChunks, boxChunks + " of " + wholeChunks);
  }

  /** The stored bytes of the chunks of the case's file that hold an element of its box. */
  private static long chunkBytes(JsonNode c) throws IOException {
    java.nio.file.Path f = java.nio.file.Files.createTempFile("cf", ".nc");
    java.nio.file.Files.write(f, org.opass.mrap.science.Fixtures.bytes("cf/"
        + c.get("files").get(0).asText()));
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(f)) {
      org.opass.mrap.format.Variable v = org.opass.mrap.science.ScienceFiles.variable(
          org.opass.mrap.format.Positioned.of(ch), f.toString(),
          org.opass.mrap.science.ScienceFiles.Kind.NETCDF, c.get("variable").asText());
      JsonNode box = c.get("index_slabs").get(0);
      int[] cs = v.chunkShape();
      long bytes = 0;
      for (int i = 0; i < v.chunks().count(); i++) {
        long[] o = v.chunks().origin(i);
        boolean in = true;
        for (int d = 0; d < o.length; d++) {
          long lo = box.get(d).get(0).get(0).asLong();
          long hi = box.get(d).get(0).get(1).asLong();
          in &= o[d] <= hi && o[d] + cs[d] - 1 >= lo;
        }
        bytes += in ? v.chunks().size(i) : 0;
      }
      return bytes;
    } finally {
      java.nio.file.Files.delete(f);
    }
  }

  @Test
  void selectionsThroughCopiesRestructuredForThem() throws Exception {
    Map<String, JsonNode> all = cases();
    for (String name : new String[] {"era5_box", "era5_wrap_small", "scales_box",
        "cmip_series_box"}) {
      JsonNode c = all.get(name);
      Configuration conf = conf(c);
      List<String> sources = new ArrayList<>();
      for (int i = 0; i < c.get("files").size(); i++) {
        if (!c.get("index_slabs").get(i).isNull()) { // a file it picks nothing in is left out
          sources.add(fs.makeQualified(new Path("/cf/" + c.get("files").get(i).asText()))
              .toString());
        }
      }
      String dst = "/restructured/" + name;
      fs.mkdirs(new Path(dst));
      for (String src : sources) {
        String target = dst + "/" + new Path(src).getName();
        assertEquals(0, copy(conf, "-mode", "single", src, target), name + ": " + src);
        assertTrue(RestructuredFiles.layoutOf(fs, new Path(target)) != null, target);
      }
      CfOracleTest.Result r = new CfOracleTest.Result(c);
      List<RegionTask.Layout> layouts = new ArrayList<>();
      read(conf, r, layouts, dst);
      r.check(name + " restructured");
      for (RegionTask.Layout l : layouts) {
        assertTrue(l == RegionTask.Layout.PACKED || l == null, name + ": read by " + l);
      }
      assertTrue(layouts.contains(RegionTask.Layout.PACKED), name + ": " + layouts);
    }
  }

  @Test
  void aSelectionThroughAContainerOfASeriesWithOtherScaleFactors() throws Exception {
    JsonNode c = cases().get("scale_series_box");
    Configuration conf = conf(c);
    List<String> args = new ArrayList<>(List.of("-pack"));
    for (JsonNode f : c.get("files")) {
      args.add(fs.makeQualified(new Path("/cf/" + f.asText())).toString());
    }
    args.add("/pack/sst.pack");
    assertEquals(0, copy(conf, args.toArray(new String[0])));
    assertEquals(2, RestructuredFiles.layoutOf(fs, new Path("/pack/sst.pack")).members()
        .count());
    CfOracleTest.Result r = new CfOracleTest.Result(c);
    List<RegionTask.Layout> layouts = new ArrayList<>();
    read(conf, r, layouts, "/pack");
    r.check("scale_series_box through a container");
    assertTrue(layouts.contains(RegionTask.Layout.PACKED), layouts.toString());
  }

  /**
   * A copy restructured for a selection a source cannot serve is a usage error naming why
   * (exit 2), before anything is written: a date the source's calendar lacks, a file the
   * selection picks nothing in.
   */
  @Test
  void aCopyForASelectionItsSourcesCannotServeWritesNothing() throws Exception {
    JsonNode c = cases().get("cmip_series_box");
    String[][] bad = {{"time=2015-02-29:2015-03-01", "cmip_1.nc", "2015-02-29"},
        {"time=2015-02-25:2015-03-03, lat=-10:10, lon=0:20", "cmip_0.nc", "selects nothing in"}};
    for (String[] b : bad) {
      Configuration conf = conf(c);
      conf.set(VariableInputFormat.SELECT, b[0]);
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      Configuration cc = new Configuration(conf);
      cc.setLong("dfs.blocksize", BLOCK);
      int rc = ToolRunner.run(cc, new MrapCopy(System.out, new PrintStream(err, true)),
          new String[] {"-mode", "single", fs.makeQualified(new Path("/cf/" + b[1])).toString(),
              "/refused/" + b[1]});
      String said = err.toString(StandardCharsets.UTF_8);
      assertEquals(2, rc, said);
      assertTrue(said.contains(b[2]) && said.contains(b[1]), said);
      assertTrue(!fs.exists(new Path("/refused")) || fs.listStatus(new Path("/refused")).length
          == 0, "nothing written");
    }
  }

  private static int copy(Configuration conf, String... args) throws Exception {
    Configuration c = new Configuration(conf);
    c.setLong("dfs.blocksize", BLOCK);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = ToolRunner.run(c, new MrapCopy(System.out, new PrintStream(err, true)), args);
    if (rc != 0) {
      System.err.println(err.toString(StandardCharsets.UTF_8));
    }
    return rc;
  }
}
