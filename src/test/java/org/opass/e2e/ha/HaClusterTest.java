package org.opass.e2e.ha;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.read.cli.PlanCli;
import org.opass.read.client.ReadPlanClient;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.Release;
import org.opass.tools.cluster.TestFiles;

/**
 * Issue 26, part 2: our three NameNode plugins on an HA nameservice (two NameNodes, edits
 * shared through three JournalNodes), loaded from the release's {@code conf/} fragments in both.
 * Shown: the standby answers {@code /opass/read-plan} 503 with its state, and
 * {@code ReadPlanClient} and {@code opass plan --submit hdfs://ns1} find the active through
 * the nameservice; a plan is lost in a failover, {@code live} says so and a re-submitted plan is
 * served by the new active; writes and planned reads carry on through a graceful failover and
 * a killed active (no failed write, every file reads back, fsck healthy); the new active's
 * heatmap tracks every DataNode soon after it takes over (measured).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HaClusterTest {
  private static final int DATANODES = 6;
  private static final int BLOCK = 64 * 1024;

  private static EmulatedCluster cluster;
  private static Configuration conf;

  @BeforeAll
  static void start() throws Exception {
    Configuration settings = new HdfsConfiguration();
    Release.siteFragments(Release.ROOT).forEach(settings::set);
    cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2).blockSize(BLOCK)
        .baseDir(new File("target/e2e/ha-cluster")).conf(settings).highAvailability().start();
    conf = cluster.conf();
  }

  @AfterAll
  static void stop() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static int standby() {
    return cluster.nameNode(0).isActiveState() ? 1 : 0;
  }

  private static BalancingNetworkTopology topology() {
    return topology(cluster.activeNameNode());
  }

  private static BalancingNetworkTopology topology(NameNode nameNode) {
    return (BalancingNetworkTopology) nameNode.getNamesystem().getBlockManager()
        .getDatanodeManager().getNetworkTopology();
  }

  private static Map<Path, byte[]> files(String dir, int count, long seed) throws Exception {
    return HaFiles.write(cluster, dir, count, BLOCK, seed);
  }

  private static List<PlanRead> remoteReads(List<Path> files) throws IOException {
    return HaFiles.remoteReads(cluster, files);
  }

  /**
   * Remote reads of {@code data}'s files, at least 4 if it can: on a loaded machine, after the
   * failovers before, 8 files once landed on so few sets of holders that only 3 reads of
   * distinct sets existed; then 8 more files, twice at most, added to {@code data}.
   */
  private static List<PlanRead> atLeastFourRemoteReads(Map<Path, byte[]> data, String dir)
      throws Exception {
    List<PlanRead> reads = remoteReads(new ArrayList<>(data.keySet()));
    for (int more = 1; reads.size() < 4 && more <= 2; more++) {
      data.putAll(files(dir + more, 8, 1000L * more));
      reads = remoteReads(new ArrayList<>(data.keySet()));
    }
    return reads;
  }

  @Test
  void pluginsRunOnBothNameNodes() {
    for (int k = 0; k < 2; k++) {
      assertInstanceOf(HmLruPlacementPolicy.class, cluster.nameNode(k).getNamesystem()
          .getBlockManager().getBlockPlacementPolicy(), "HM-LRU on NameNode " + k);
      assertInstanceOf(BalancingNetworkTopology.class, cluster.nameNode(k).getNamesystem()
          .getBlockManager().getDatanodeManager().getNetworkTopology(), "topology on " + k);
    }
  }

  @Test
  void theStandbyRefusesPlansAndClientsFindTheActive() throws Exception {
    Map<Path, byte[]> data = files("/ha/find", 4, 100);
    List<PlanRead> reads = remoteReads(new ArrayList<>(data.keySet()));
    PlanRefusedException refused = assertThrows(PlanRefusedException.class,
        () -> new ReadPlanClient(cluster.nameNodeHttp(standby()), conf).submit(reads));
    assertEquals(503, refused.status(), refused.getMessage());
    assertEquals("standby", refused.haState(), refused.getMessage());

    ReadPlanClient client = ReadPlanClient.forFileSystem(cluster.uri(), conf);
    assertEquals(2, client.nameNodes().size(), "both NameNodes: " + client.nameNodes());
    ReadPlanClient.Result plan = client.submit(reads);
    assertEquals(reads.size(), plan.reads());
    assertEquals(cluster.nameNodeHttp(), client.nameNodes().get(0), "the active first");

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> args = new ArrayList<>(List.of("--submit", cluster.uri().toString(),
        "--processes", cluster.hostName(1) + "," + cluster.hostName(2)));
    data.keySet().forEach(p -> args.add(p.toString()));
    int code = PlanCli.run(args.toArray(new String[0]), conf, new PrintStream(out),
        new PrintStream(err));
    String said = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, said);
    assertTrue(said.contains("NameNode plan plan-"), said);
  }

  @Test
  void aPlanLostInAFailoverIsReportedAndServedOnceSubmittedAgain() throws Exception {
    Map<Path, byte[]> data = files("/ha/lost", 8, 200);
    List<PlanRead> reads = atLeastFourRemoteReads(data, "/ha/lost");
    ReadPlanClient client = ReadPlanClient.forFileSystem(cluster.uri(), conf);
    ReadPlanClient.Result before = client.submit(reads);
    assertTrue(client.live(before.id()), before.id());

    cluster.failover(EmulatedCluster.Failover.GRACEFUL);
    assertFalse(client.live(before.id()), "the new active holds no plan of the old one's");
    ReadPlanClient.Result again = client.submit(reads);
    assertNotEquals(before.id(), again.id(), "plan ids are not reused");
    assertTrue(client.live(again.id()));

    assertTrue(reads.size() >= 4, "reads: " + reads);
    long[] counted = cluster.counters().perDataNode(DataNodeCounter.BLOCKS_READ);
    for (PlanRead r : reads) {
      Path p = new Path(r.path());
      assertArrayEquals(data.get(p), TestFiles.read(
          cluster.fileSystemOnHost(cluster.dataNodeIndexOf(r.reader())), p), r.path());
    }
    GenericTestUtils.waitFor(() -> Arrays.stream(since(counted)).sum() >= reads.size(), 10,
        30_000);
    assertArrayEquals(cluster.byDataNode(again.servedByDatanode()), since(counted),
        "the new active serves the plan: " + again.json());
  }

  private static long[] since(long[] before) {
    return cluster.counters().since(DataNodeCounter.BLOCKS_READ, before);
  }

  /**
   * Writers on three hosts and planned readers on the other three, through a graceful failover
   * and then a killed active (brought back as the standby): no write or read fails beyond the
   * clients' own failover retries, every file reads back, fsck finds the namespace healthy.
   */
  @Test
  void writesAndPlannedReadsCarryOnThroughFailovers() throws Exception {
    Map<Path, byte[]> written = new ConcurrentHashMap<>(files("/ha/traffic/seed", 6, 300));
    List<String> failures = new CopyOnWriteArrayList<>();
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicInteger plansTaken = new AtomicInteger();
    AtomicInteger plansRefused = new AtomicInteger();
    AtomicInteger readsDone = new AtomicInteger();
    List<Thread> traffic = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      int host = w;
      traffic.add(new Thread(() -> {
        Random rnd = new Random(host);
        for (int i = 0; running.get(); i++) {
          Path p = new Path("/ha/traffic/w" + host + "-" + i);
          byte[] bytes = TestFiles.randomBytes(BLOCK / 2 + rnd.nextInt(2 * BLOCK), i * 7L + host);
          try {
            TestFiles.write(cluster.fileSystemOnHost(host), p, bytes, (short) 3);
            written.put(p, bytes);
          } catch (IOException | RuntimeException e) {
            failures.add("write " + p + ": " + e);
          }
        }
      }, "ha-writer-" + w));
    }
    for (int r = 0; r < 3; r++) {
      int host = 3 + r;
      traffic.add(new Thread(() -> {
        Random rnd = new Random(10 + host);
        ReadPlanClient client = ReadPlanClient.forFileSystem(cluster.uri(), conf);
        while (running.get()) {
          List<Path> batch = new ArrayList<>(written.keySet());
          Collections.shuffle(batch, rnd);
          batch = batch.subList(0, Math.min(4, batch.size()));
          List<PlanRead> reads = new ArrayList<>();
          batch.forEach(p -> reads.add(PlanRead.wholeFile(p.toString(), cluster.hostName(host))));
          try {
            client.submit(reads);
            plansTaken.incrementAndGet();
          } catch (PlanRefusedException e) {
            plansRefused.incrementAndGet(); // no active NameNode at that moment: read unplanned
          } catch (IOException | RuntimeException e) {
            failures.add("plan from host " + host + ": " + e);
          }
          for (Path p : batch) {
            try {
              if (!Arrays.equals(written.get(p),
                  TestFiles.read(cluster.fileSystemOnHost(host), p))) {
                failures.add("read " + p + " on host " + host + ": other bytes");
              }
              readsDone.incrementAndGet();
            } catch (IOException | RuntimeException e) {
              failures.add("read " + p + " on host " + host + ": " + e);
            }
          }
        }
      }, "ha-reader-" + r));
    }
    traffic.forEach(Thread::start);
    try {
      Thread.sleep(2000);
      cluster.failover(EmulatedCluster.Failover.GRACEFUL);
      Thread.sleep(3000);
      cluster.failover(EmulatedCluster.Failover.KILLED);
      Thread.sleep(3000);
      cluster.restartStandby();
      int plansBefore = plansTaken.get();
      GenericTestUtils.waitFor(() -> plansTaken.get() > plansBefore + 2, 50, 60_000);
    } finally {
      running.set(false);
      for (Thread t : traffic) {
        t.join(120_000);
      }
    }
    assertEquals(List.of(), failures);
    System.out.printf("HA traffic: %d files written, %d reads, %d plans taken, %d refused while "
        + "no NameNode was active%n",
        written.size(), readsDone.get(), plansTaken.get(), plansRefused.get());
    assertTrue(written.size() > 20 && readsDone.get() > 20, "traffic ran: " + written.size()
        + " files, " + readsDone.get() + " reads");
    FileSystem fs = cluster.offClusterFileSystem();
    for (Map.Entry<Path, byte[]> e : written.entrySet()) {
      assertArrayEquals(e.getValue(), TestFiles.read(fs, e.getKey()), e.getKey() + "");
    }
    ByteArrayOutputStream fsck = new ByteArrayOutputStream();
    assertEquals(0, ToolRunner.run(new DFSck(conf, new PrintStream(fsck)),
        new String[] {"/ha/traffic"}));
    assertTrue(fsck.toString(StandardCharsets.UTF_8).contains("is HEALTHY"), fsck.toString());
  }

  /**
   * The new active's heatmap: DataNodes heartbeat to both NameNodes, so the standby knows each
   * one's reported transfers, but it tracks a DataNode only once it sorts or places for it.
   * Measured: the time from the failover until the new active tracks every DataNode, with
   * reads going on. First, while NameNode 1 has never been active.
   */
  @Test
  @Order(1)
  void theNewActivesHeatmapTracksEveryDataNodeSoonAfterAFailover() throws Exception {
    Map<Path, byte[]> data = files("/ha/heat", 12, 400);
    AtomicBoolean running = new AtomicBoolean(true);
    List<String> failures = new CopyOnWriteArrayList<>();
    Thread reader = new Thread(() -> {
      List<Path> files = new ArrayList<>(data.keySet());
      for (int i = 0; running.get(); i++) {
        try {
          TestFiles.read(cluster.fileSystemOnHost(i % DATANODES), files.get(i % files.size()));
        } catch (IOException e) {
          failures.add(e.toString());
        }
      }
    }, "ha-heat-reader");
    reader.start();
    long tookMillis;
    try {
      Thread.sleep(500);
      assertEquals(0, topology(cluster.nameNode(standby())).heatmap().trackedNodes(),
          "the standby tracks no DataNode");
      cluster.failover(EmulatedCluster.Failover.GRACEFUL);
      long start = System.nanoTime();
      GenericTestUtils.waitFor(() -> topology().heatmap().trackedNodes() == DATANODES, 10,
          30_000);
      tookMillis = (System.nanoTime() - start) / 1_000_000;
    } finally {
      running.set(false);
      reader.join(60_000);
    }
    assertEquals(List.of(), failures);
    System.out.println("HA heatmap: the new active tracked all " + DATANODES + " DataNodes "
        + tookMillis + " ms after the failover (heartbeats every "
        + conf.get("dfs.heartbeat.interval") + " s)");
  }
}
