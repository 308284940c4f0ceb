package org.opass.e2e.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.opass.maxflow.ReferenceMaxFlow;
import org.opass.read.client.ReadPlanClient;
import org.opass.read.mapreduce.BalancedLocalityInputFormat;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadPlanPlugin;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * The InputFormat wrapper on splits of a real HDFS data set: one preferred host per split,
 * equal shares per host, as many local as a max flow allows, and every record still read once;
 * the splits' read plan accepted by the NameNode's {@code /opass/read-plan}, every local split
 * planned local.
 */
class BalancedLocalityInputFormatClusterTest {
  private static final int BLOCK = 64 * 1024;
  private static final int DATANODES = 8;
  private static final int FILES = 24;
  private static final int LINES = 1000;

  @Test
  void splitsGetOneLocalBalancedHostAndReadEveryRecordOnce() throws Exception {
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).baseDir(new File("target/e2e/inputformat"))
        .set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, BalancingNetworkTopology.class.getName())
        .set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReadPlanPlugin.class.getName())
        .start()) {
      FileSystem fs = cluster.offClusterFileSystem(); // stock placement: replicas at random
      Path dir = new Path("/mr-in");
      for (int f = 0; f < FILES; f++) {
        try (FSDataOutputStream out = fs.create(new Path(dir, "part-" + f), (short) 3)) {
          for (int l = 0; l < LINES; l++) {
            out.write(("file " + f + " line " + l + "\n").getBytes(StandardCharsets.UTF_8));
          }
        }
        cluster.replicas().waitFor(new Path(dir, "part-" + f), (short) 3);
      }
      Job job = Job.getInstance(cluster.conf());
      FileInputFormat.addInputPath(job, dir);
      BalancedLocalityInputFormat.setDelegate(job, TextInputFormat.class);
      List<String> hosts = IntStream.range(0, DATANODES).mapToObj(cluster::hostName).toList();
      BalancedLocalityInputFormat.setHosts(job.getConfiguration(), hosts);
      BalancedLocalityInputFormat<LongWritable, Text> format = new BalancedLocalityInputFormat<>();

      List<InputSplit> splits = format.getSplits(job);
      List<InputSplit> stock = new TextInputFormat().getSplits(job);
      assertEquals(stock.size(), splits.size());
      Map<String, Integer> perHost = new HashMap<>();
      int local = 0;
      for (int i = 0; i < splits.size(); i++) {
        FileSplit ours = (FileSplit) splits.get(i);
        FileSplit theirs = (FileSplit) stock.get(i);
        assertEquals(theirs.getPath(), ours.getPath());
        assertEquals(theirs.getStart(), ours.getStart());
        assertEquals(theirs.getLength(), ours.getLength());
        assertEquals(1, ours.getLocations().length, "one preferred host");
        perHost.merge(ours.getLocations()[0], 1, Integer::sum);
        if (Arrays.asList(theirs.getLocations()).contains(ours.getLocations()[0])) {
          local++;
        }
      }
      int share = splits.size() / DATANODES;
      for (String h : hosts) {
        assertEquals(share, perHost.getOrDefault(h, 0), "splits preferring " + h);
      }
      assertEquals(localOptimum(stock, hosts, share), local, "local splits = max-flow optimum");

      // the driver's read plan (MapReduce or Spark alike): a read a split, by its host; the
      // NameNode pins every local one to the split's host's DataNode
      ReadPlanClient.Result plan = new ReadPlanClient(cluster.nameNodeHttp(), cluster.conf())
          .submit(BalancedLocalityInputFormat.planReads(splits));
      assertEquals(splits.size(), plan.reads(), plan.json());
      assertEquals(local, plan.local(), plan.json());

      Set<String> lines = new HashSet<>();
      for (int i = 0; i < splits.size(); i++) {
        TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(job.getConfiguration(),
            new TaskAttemptID("opass", 1, org.apache.hadoop.mapreduce.TaskType.MAP, i, 0));
        try (RecordReader<LongWritable, Text> reader =
            format.createRecordReader(splits.get(i), ctx)) {
          reader.initialize(splits.get(i), ctx);
          while (reader.nextKeyValue()) {
            assertTrue(lines.add(reader.getCurrentValue().toString()), "read twice");
          }
        }
      }
      assertEquals(FILES * LINES, lines.size());
    }
  }

  /** Most splits that can be local with {@code share} per host: JGraphT's own max flow. */
  private static int localOptimum(List<InputSplit> splits, List<String> hosts, int share)
      throws Exception {
    ReferenceMaxFlow<String> flow = new ReferenceMaxFlow<>();
    for (String h : hosts) {
      flow.arc("s", h, share);
    }
    for (int i = 0; i < splits.size(); i++) {
      String split = "split-" + i;
      flow.arc(split, "t", 1);
      for (String h : splits.get(i).getLocations()) {
        if (hosts.contains(h)) {
          flow.arc(h, split, 1);
        }
      }
    }
    return (int) flow.value("s", "t");
  }
}
