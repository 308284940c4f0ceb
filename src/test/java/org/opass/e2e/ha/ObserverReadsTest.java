package org.opass.e2e.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.qjournal.MiniQJMHACluster;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.heatmap.HeatTable;
import org.opass.read.client.ReadPlanClient;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadPlanTable;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.Release;
import org.opass.tools.cluster.TestFiles;

/**
 * Issue 26, observer reads: an HA nameservice with an observer NameNode (Hadoop 3.3+), our
 * plugins on all three, clients reading through {@code ObserverReadProxyProvider}. Measured:
 * which NameNode sorts a read and grants its heat (the observer, for such clients; the active
 * for clients of the plain failover provider), and that a plan submitted through the
 * nameservice is served where the reads are sorted.
 */
class ObserverReadsTest {
  private static final int DATANODES = 6;
  private static final int BLOCK = 64 * 1024;
  private static final int ACTIVE = 0;
  private static final int STANDBY = 1;
  private static final int OBSERVER = 2;

  private static EmulatedCluster cluster;
  private static Configuration conf;

  @BeforeAll
  static void start() throws Exception {
    Configuration settings = new HdfsConfiguration();
    Release.siteFragments(Release.ROOT).forEach(settings::set);
    cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2).blockSize(BLOCK)
        .baseDir(new File("target/e2e/observer-reads")).conf(settings).observers(1).start();
    conf = cluster.conf();
  }

  @AfterAll
  static void stop() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static BalancingNetworkTopology topology(int k) {
    NameNode nn = cluster.nameNode(k);
    return (BalancingNetworkTopology) nn.getNamesystem().getBlockManager()
        .getDatanodeManager().getNetworkTopology();
  }

  /**
   * Written files, once the observer too knows each one closed and three replicas of each
   * block: it learns of the files by tailing the edits and of the replicas from the DataNodes'
   * own reports. (An observer plans its copy of a plan against its own namespace: a file it
   * still sees open has no complete block to plan, and its read went unplanned there.)
   */
  private static Map<Path, byte[]> files(String dir, int count, long seed) throws Exception {
    Map<Path, byte[]> data = HaFiles.write(cluster, dir, count, BLOCK, seed);
    FSNamesystem observer = cluster.nameNode(OBSERVER).getNamesystem();
    // read without the namesystem lock (whose methods differ between releases): a racing
    // edit at worst makes a poll see nothing or fail, and the next poll looks again
    GenericTestUtils.waitFor(() -> data.keySet().stream().allMatch(p -> {
      try {
        INode file = observer.getFSDirectory().getINode(p.toString());
        return file != null && !file.asFile().isUnderConstruction()
            && Arrays.stream(file.asFile().getBlocks()).allMatch(b -> b.numNodes() == 3);
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }), 20, 30_000);
    return data;
  }

  /** Per NameNode: online choices (sorts not served by a plan) and heat grants. */
  private static long[][] sortsAndGrants() {
    long[][] out = new long[3][];
    for (int k = 0; k < 3; k++) {
      HeatTable h = topology(k).heatmap();
      out[k] = new long[] {h.choices(), h.grantsTotal()};
    }
    return out;
  }

  private static long[][] since(long[][] before) {
    long[][] now = sortsAndGrants();
    for (int k = 0; k < 3; k++) {
      now[k][0] -= before[k][0];
      now[k][1] -= before[k][1];
    }
    return now;
  }

  @Test
  void readsAreSortedAndGrantedOnTheNameNodeTheClientReadsFrom() throws Exception {
    Map<Path, byte[]> data = files("/observer/sorted", 12, 500);
    long[][] before = sortsAndGrants();
    int reads = 0;
    for (Map.Entry<Path, byte[]> e : data.entrySet()) {
      for (int host = 0; host < DATANODES; host += 2) {
        assertArrayEquals(e.getValue(), TestFiles.read(cluster.fileSystemOnHost(host),
            e.getKey()));
        reads++;
      }
    }
    long[][] observerReads = since(before);
    System.out.printf("observer reads: %d reads; sorts/grants active %s, standby %s, observer"
        + " %s%n", reads, Arrays.toString(observerReads[ACTIVE]),
        Arrays.toString(observerReads[STANDBY]), Arrays.toString(observerReads[OBSERVER]));
    assertEquals(0, observerReads[ACTIVE][0], "the active sorts none of them");
    assertEquals(0, observerReads[STANDBY][0], "nor the standby");
    assertTrue(observerReads[OBSERVER][0] >= reads, "the observer sorts every read: "
        + observerReads[OBSERVER][0] + " of " + reads);
    assertTrue(observerReads[OBSERVER][1] > 0, "and grants their heat");

    Configuration plain = new Configuration(conf);
    plain.set(HdfsClientConfigKeys.Failover.PROXY_PROVIDER_KEY_PREFIX + "."
        + MiniQJMHACluster.NAMESERVICE, ConfiguredFailoverProxyProvider.class.getName());
    before = sortsAndGrants();
    try (FileSystem fs = FileSystem.newInstance(cluster.uri(), plain)) {
      for (Map.Entry<Path, byte[]> e : data.entrySet()) {
        assertArrayEquals(e.getValue(), TestFiles.read(fs, e.getKey()));
      }
    }
    long[][] activeReads = since(before);
    System.out.printf("plain failover reads: %d reads; sorts/grants active %s, standby %s, "
        + "observer %s%n", data.size(), Arrays.toString(activeReads[ACTIVE]),
        Arrays.toString(activeReads[STANDBY]), Arrays.toString(activeReads[OBSERVER]));
    assertEquals(0, activeReads[OBSERVER][0], "a client of the plain provider: not the observer");
    assertTrue(activeReads[ACTIVE][0] >= data.size(), "the active sorts its reads");
  }

  /**
   * A plan submitted through the nameservice reaches the observer too, under the same id, and
   * the observer serves it: every planned read served by the plan, none balanced online. On the
   * code before the copies, the observer balanced all of them online (16 sorts for 8 reads).
   */
  @Test
  void aPlanSubmittedThroughTheNameserviceIsServedWhereTheReadsAreSorted() throws Exception {
    Map<Path, byte[]> data = files("/observer/planned", 8, 600);
    List<PlanRead> reads = HaFiles.remoteReads(cluster, new ArrayList<>(data.keySet()));
    assertTrue(reads.size() >= 4, "reads: " + reads);
    ReadPlanClient client = ReadPlanClient.forFileSystem(cluster.uri(), conf);
    ReadPlanClient.Result plan = client.submit(reads);
    assertEquals(reads.size(), plan.reads(), plan.json());

    long[][] before = sortsAndGrants();
    long[] counted = cluster.counters().perDataNode(DataNodeCounter.BLOCKS_READ);
    for (PlanRead r : reads) {
      Path p = new Path(r.path());
      assertArrayEquals(data.get(p), TestFiles.read(
          cluster.fileSystemOnHost(cluster.dataNodeIndexOf(r.reader())), p), r.path());
    }
    GenericTestUtils.waitFor(() -> Arrays.stream(cluster.counters()
        .since(DataNodeCounter.BLOCKS_READ, counted)).sum() >= reads.size(), 10, 30_000);
    long[][] sorted = since(before);
    List<ReadPlanTable.PlanInfo> copies = topology(OBSERVER).plans().plans(null);
    String seen = "observer sorts/grants " + Arrays.toString(sorted[OBSERVER]) + ", copies "
        + copies.stream().map(c -> c.id() + " served " + c.served() + " of " + c.reads())
            .collect(Collectors.toList())
        + ", reads " + reads + ", the active's plan " + plan.json();
    assertEquals(1, copies.size(), seen);
    assertEquals(plan.id(), copies.get(0).id(), "the observer holds the plan under its id");
    assertEquals(0, sorted[OBSERVER][0], "no read balanced online on the observer: " + seen);
    assertEquals(reads.size(), copies.get(0).served(), "every planned read served: " + seen);
    // (which DataNode serves each read is the observer's own plan of these reads, made against
    // the planned load it serves; the answer above is the active's)

    PlanRefusedException listed = assertThrows(PlanRefusedException.class,
        () -> new ReadPlanClient(cluster.nameNodeHttp(OBSERVER), conf).list());
    assertEquals("observer", listed.haState(), "plans are listed by the active");
    client.delete(plan.id());
    assertFalse(client.live(plan.id()));
    assertTrue(topology(OBSERVER).plans().plans(null).isEmpty(), "the copy is dropped too");
  }
}
