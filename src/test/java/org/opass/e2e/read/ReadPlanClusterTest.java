package org.opass.e2e.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opass.e2e.placement.FailingHeatTable;
import org.opass.heatmap.HeatTable;
import org.opass.read.cli.PlanCli;
import org.opass.read.client.ReadPlanClient;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadPlanMetrics;
import org.opass.read.nn.ReadPlanPlugin;
import org.opass.read.nn.ReadPlanTable;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.read.PlanEndpoint;

/**
 * Batch read plans submitted to a real NameNode ({@code ReadPlanPlugin}) and served by its
 * topology, judged by what the DataNodes served.
 */
class ReadPlanClusterTest {
  private static final int BLOCK = 64 * 1024;
  private static final int DATANODES = 8;
  private static final int FILES = 24;

  private static EmulatedCluster cluster;
  private static final byte[][] data = new byte[FILES][];
  private static final List<Set<Integer>> holders = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2).blockSize(BLOCK)
        .baseDir(new File("target/e2e/read-plans"))
        .set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, BalancingNetworkTopology.class.getName())
        .set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReadPlanPlugin.class.getName())
        .start();
    // Written off the cluster with stock placement: replicas lie at random.
    FileSystem fs = cluster.offClusterFileSystem();
    for (int f = 0; f < FILES; f++) {
      data[f] = new byte[BLOCK];
      new Random(f).nextBytes(data[f]);
      try (FSDataOutputStream out = fs.create(file(f), (short) 3)) {
        out.write(data[f]);
      }
    }
    for (int f = 0; f < FILES; f++) {
      cluster.replicas().waitFor(file(f), (short) 3);
      holders.add(cluster.replicas().holders(file(f)).get(0));
    }
  }

  @AfterAll
  static void stop() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void clearPlansAndGrants() throws IOException {
    ReadPlanTable plans = topology().plans();
    for (ReadPlanTable.PlanInfo p : plans.plans()) {
      plans.remove(p.id());
    }
    cluster.miniCluster().triggerHeartbeats();
  }

  private static Path file(int f) {
    return new Path("/plans/f" + f);
  }

  private static BalancingNetworkTopology topology() {
    return (BalancingNetworkTopology) cluster.datanodeManager().getNetworkTopology();
  }

  private static ReadPlanClient client() {
    return new ReadPlanClient(cluster.nameNodeHttp(), cluster.conf());
  }

  private static <T> T as(String user, PrivilegedExceptionAction<T> action) throws Exception {
    return UserGroupInformation.createRemoteUser(user).doAs(action);
  }

  private static long[] readAll(int[] readerOf) throws Exception {
    long[] before = cluster.counters().perDataNode(DataNodeCounter.BLOCKS_READ);
    for (int f = 0; f < FILES; f++) {
      byte[] back = new byte[BLOCK];
      try (FSDataInputStream in = cluster.fileSystemOnHost(readerOf[f]).open(file(f))) {
        in.readFully(back);
      }
      assertArrayEquals(data[f], back, "content of " + file(f));
    }
    GenericTestUtils.waitFor(() -> Arrays.stream(
        cluster.counters().since(DataNodeCounter.BLOCKS_READ, before)).sum() >= FILES, 10, 30_000);
    return cluster.counters().since(DataNodeCounter.BLOCKS_READ, before);
  }

  private static List<PlanRead> batch(int[] readerOf) {
    List<PlanRead> reads = new ArrayList<>();
    for (int f = 0; f < FILES; f++) {
      reads.add(PlanRead.wholeFile(file(f).toString(), cluster.hostName(readerOf[f])));
    }
    return reads;
  }

  /**
   * The plugin locates a plan's blocks through the NameNode's own {@code getBlockLocations},
   * which sorts them with our topology; {@code BalancingNetworkTopology#withoutBalancing}
   * suspends balancing for that call on that thread, so planning neither chooses nor grants.
   */
  @Test
  void planningLocatesBlocksWithoutBalancingThem() throws Exception {
    HeatTable heat = topology().heatmap();
    long choices = heat.choices();
    long grants = heat.grantsTotal();
    int[] readerOf = new int[FILES];
    Arrays.fill(readerOf, 0);
    ReadPlanClient.Result plan = client().submit(batch(readerOf));
    assertEquals(FILES, plan.reads());
    assertEquals(choices, heat.choices(), "planning made heat choices");
    assertEquals(grants, heat.grantsTotal(), "planning granted heat");
    // and a reader's located block afterwards is balanced again (a reader no plan names)
    cluster.offClusterFileSystem().getFileBlockLocations(file(0), 0, BLOCK);
    assertTrue(heat.choices() > choices, "balancing stayed off after planning");
  }

  @Test
  void plannedReadersOnAReplicaHolderReadLocally() throws Exception {
    int[] readerOf = new int[FILES];
    for (int f = 0; f < FILES; f++) {
      readerOf[f] = holders.get(f).iterator().next();
    }
    ReadPlanClient.Result plan = client().submit(batch(readerOf));
    assertEquals(FILES, plan.reads());
    assertEquals(FILES, plan.local());
    long[] before = cluster.counters().perDataNode(DataNodeCounter.READS_FROM_LOCAL_CLIENT);
    long[] served = readAll(readerOf);
    long[] expected = new long[DATANODES];
    for (int f = 0; f < FILES; f++) {
      expected[readerOf[f]]++;
    }
    assertArrayEquals(expected, served);
    // a DataNode counts a local read a moment after its block-read count (seen 14 of 15 once)
    long total = Arrays.stream(expected).sum();
    GenericTestUtils.waitFor(() -> Arrays.stream(cluster.counters()
        .since(DataNodeCounter.READS_FROM_LOCAL_CLIENT, before)).sum() >= total, 10, 30_000);
    long[] local = cluster.counters().perDataNode(DataNodeCounter.READS_FROM_LOCAL_CLIENT);
    for (int k = 0; k < DATANODES; k++) {
      assertEquals(expected[k], local[k] - before[k], "local reads on DataNode " + k);
    }
  }

  @Test
  void plannedRemoteReadsAreServedByThePlannedDataNodes() throws Exception {
    // Each file is read by a host without a replica; a reader never has two files with the
    // same holders, so the DataNode serving each read is exactly the planned one.
    int[] readerOf = new int[FILES];
    Set<String> used = new HashSet<>();
    for (int f = 0; f < FILES; f++) {
      for (int k = (f * 5) % DATANODES; ; k = (k + 1) % DATANODES) {
        if (!holders.get(f).contains(k) && used.add(k + "|" + holders.get(f))) {
          readerOf[f] = k;
          break;
        }
      }
    }
    ReadPlanClient.Result plan = client().submit(batch(readerOf));
    assertEquals(0, plan.local());
    // the optimum never loses to Algorithm 2, and 24 reads over 8 DataNodes need 3 each
    assertTrue(plan.optimalMaxLoad() <= plan.algorithm2MaxLoad(), plan.json());
    assertEquals(plan.optimalMaxLoad(), plan.maxLoad());
    assertTrue(plan.maxLoad() >= 3, plan.json());
    long[] served = readAll(readerOf);
    assertArrayEquals(cluster.byDataNode(plan.servedByDatanode()), served, plan.json());
    assertEquals(plan.maxLoad(), Arrays.stream(served).max().orElseThrow());
    assertEquals(FILES, topology().plans().plans().get(0).served());
  }

  @Test
  void aSecondTenantsPlanCountsTheFirstTenantsLoad() throws Exception {
    int[] readerA = new int[FILES];
    int[] readerB = new int[FILES];
    for (int f = 0; f < FILES; f++) {
      readerA[f] = firstNonHolder(f, 0);
      readerB[f] = firstNonHolder(f, 4);
    }
    ReadPlanClient.Result a = as("alice", () -> client().submit(batch(readerA)));
    ReadPlanClient.Result b = as("bob", () -> client().submit(batch(readerB)));
    long[] both = cluster.byDataNode(a.servedByDatanode());
    long[] onlyB = cluster.byDataNode(b.servedByDatanode());
    for (int k = 0; k < DATANODES; k++) {
      both[k] += onlyB[k];
    }
    // bob's plan was balanced on top of alice's: the union is as balanced as the NameNode says
    assertEquals(b.maxLoad(), Arrays.stream(both).max().orElseThrow(), b.json());
    assertTrue(b.maxLoad() <= a.maxLoad() * 2, a.json() + b.json());
    assertEquals(2, topology().plans().plans().size());
  }

  /**
   * Reads of one host with the same holders share a slot of the plan table, each taking its
   * own claim: here three plans of the same reads (one chunk read per reader and block in a
   * request), each file then read three times. HDFS sorts a file's last block a second time at
   * the end of every getBlockLocations call (FSNamesystem#sortLocatedBlocks); that repeat must
   * not take a claim, or the next read finds it taken and is served off the plan.
   */
  @Test
  void eachPlannedReadOfASharedSlotIsServedAsPlanned() throws Exception {
    int files = 8;
    int times = 3;
    int[] readerOf = new int[files];
    List<PlanRead> reads = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      readerOf[f] = firstNonHolder(f, f % DATANODES);
      reads.add(PlanRead.wholeFile(file(f).toString(), cluster.hostName(readerOf[f])));
    }
    long[] planned = new long[DATANODES];
    List<String> answers = new ArrayList<>();
    for (int t = 0; t < times; t++) {
      ReadPlanClient.Result plan = client().submit(reads);
      assertEquals(files, plan.reads());
      long[] one = cluster.byDataNode(plan.servedByDatanode());
      for (int k = 0; k < DATANODES; k++) {
        planned[k] += one[k];
      }
      answers.add(plan.json());
    }
    long[] before = cluster.counters().perDataNode(DataNodeCounter.BLOCKS_READ);
    for (int t = 0; t < times; t++) {
      for (int f = 0; f < files; f++) {
        byte[] back = new byte[BLOCK];
        try (FSDataInputStream in = cluster.fileSystemOnHost(readerOf[f]).open(file(f))) {
          in.readFully(back);
        }
        assertArrayEquals(data[f], back, "content of " + file(f));
      }
      long claims = 0;
      for (ReadPlanTable.PlanInfo p : topology().plans().plans()) {
        claims += p.served();
      }
      assertEquals(files * (t + 1), claims, "claims taken after " + (t + 1) + " reads of each "
          + "file: one a read");
    }
    GenericTestUtils.waitFor(() -> Arrays.stream(cluster.counters().since(
        DataNodeCounter.BLOCKS_READ, before)).sum() >= files * times, 10, 30_000);
    assertArrayEquals(planned, cluster.counters().since(DataNodeCounter.BLOCKS_READ, before),
        answers.toString());
  }

  private static int firstNonHolder(int f, int from) {
    for (int k = from; ; k = (k + 1) % DATANODES) {
      if (!holders.get(f).contains(k)) {
        return k;
      }
    }
  }

  @Test
  void aPlanForAFileTheUserMayNotReadIsRefusedWhole() throws Exception {
    Path secret = new Path("/plans/secret");
    FileSystem admin = cluster.miniCluster().getFileSystem();
    try (FSDataOutputStream out = admin.create(secret)) {
      out.write(1);
    }
    admin.setPermission(secret, new FsPermission((short) 0600));
    List<PlanRead> reads = new ArrayList<>(batch(new int[FILES]));
    reads.add(PlanRead.wholeFile(secret.toString(), cluster.hostName(0)));
    PlanRefusedException e = assertThrows(PlanRefusedException.class,
        () -> as("mallory", () -> client().submit(reads)));
    assertEquals(403, e.status());
    assertTrue(e.getMessage().contains("/plans/secret") && e.getMessage().contains("mallory"),
        e.getMessage());
    assertEquals(0, topology().plans().plannedReads(), "nothing planned");
    // the owner (the superuser here) may plan it
    client().submit(List.of(PlanRead.wholeFile(secret.toString(), cluster.hostName(0))));
    // and another user may not delete that plan
    String id = topology().plans().plans().get(0).id();
    PlanRefusedException del = assertThrows(PlanRefusedException.class,
        () -> as("mallory", () -> {
          client().delete(id);
          return null;
        }));
    assertEquals(403, del.status());
    client().delete(id);
    assertEquals(0, topology().plans().plannedReads());
  }

  @Test
  void badRequestsNameWhatIsWrong() throws Exception {
    PlanRefusedException missing = assertThrows(PlanRefusedException.class,
        () -> client().submit(List.of(PlanRead.wholeFile("/plans/nope", cluster.hostName(1)))));
    assertEquals(404, missing.status());
    assertTrue(missing.getMessage().contains("/plans/nope"), missing.getMessage());
    PlanRefusedException host = assertThrows(PlanRefusedException.class,
        () -> client().submit(List.of(PlanRead.wholeFile(file(0).toString(), "no-such-host.invalid"))));
    assertEquals(400, host.status());
    assertTrue(host.getMessage().contains("no-such-host.invalid"), host.getMessage());
    PlanRefusedException relative = assertThrows(
        PlanRefusedException.class,
        () -> client().submit(List.of(PlanRead.wholeFile("plans/f0", cluster.hostName(1)))));
    assertEquals(400, relative.status());
    assertTrue(relative.getMessage().contains("plans/f0"), relative.getMessage());
    assertEquals(0, topology().plans().plannedReads());
  }

  @Test
  void readsStillWorkWhenTheBalancerFails() throws Exception {
    int[] readerOf = new int[FILES];
    for (int f = 0; f < FILES; f++) {
      readerOf[f] = firstNonHolder(f, 0);
    }
    client().submit(batch(readerOf));
    HeatTable real = topology().heatmap();
    FailingHeatTable failing = new FailingHeatTable();
    topology().setHeatmap(failing);
    try {
      long[] served = readAll(readerOf); // content checked inside
      assertEquals(FILES, Arrays.stream(served).sum());
      assertTrue(failing.fallbacks() > 0, "the failure was hit and counted");
    } finally {
      topology().setHeatmap(real);
    }
  }

  @Test
  void thePlanCliSubmitsItsPlanToTheNameNode() throws Exception {
    String hosts = String.join(",",
        IntStream.range(0, DATANODES).mapToObj(cluster::hostName).toList());
    List<String> args = new ArrayList<>(List.of("--json", "--processes", hosts, "--submit",
        cluster.nameNodeHttp().toString()));
    for (int f = 0; f < FILES; f++) {
      args.add(file(f).toString());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = PlanCli.run(args.toArray(new String[0]), cluster.conf(), new PrintStream(out),
        new PrintStream(err));
    assertEquals(0, rc, err.toString());
    assertTrue(err.toString().contains("NameNode plan plan-"), err.toString());
    assertTrue(out.toString().startsWith("{\"summary\""), "stdout is the plan");
    assertEquals(FILES, topology().plans().plannedReads());

    args.set(args.indexOf("--submit") + 1, "namenode:9870");
    assertEquals(2, PlanCli.run(args.toArray(new String[0]), cluster.conf(),
        new PrintStream(out), new PrintStream(err)), "a --submit that is no URL is a usage error");
  }

  // ---- the endpoint as a hostile or careless client meets it ----

  private static PlanEndpoint endpoint() {
    return new PlanEndpoint(cluster);
  }

  private static PlanEndpoint.Answer post(String user, String json) throws IOException {
    return endpoint().post(user, json);
  }

  private static String read(String path, String reader, String more) {
    return PlanEndpoint.read(path, reader, more);
  }

  @Test
  void aliasesOfOneFileArePlannedAsOneFile() throws Exception {
    DistributedFileSystem dfs = cluster.miniCluster().getFileSystem();
    long id = dfs.getClient().getFileInfo(file(0).toString()).getFileId();
    String reader = cluster.hostName(firstNonHolder(0, 0));
    String nn = cluster.uri().getAuthority();
    List<String> aliases = List.of("/plans/f0", "/plans//f0/", "//plans/f0//",
        "hdfs://" + nn + "/plans/f0", "/.reserved/.inodes/" + id);
    StringBuilder body = new StringBuilder("{\"reads\": [");
    for (int k = 0; k < 700; k++) {
      body.append(k == 0 ? "" : ",").append(read(aliases.get(k % aliases.size()), reader,
          ", \"offset\": " + k + ", \"length\": 1"));
    }
    PlanEndpoint.Answer a = post("alice", body.append("]}").toString());
    assertEquals(200, a.status, a.body);
    JsonNode plan = a.json();
    assertEquals(1, plan.get("reads").asInt(), "700 aliases of one block are one chunk read");
    assertEquals("/plans/f0", plan.get("assignments").get(0).get("path").asText());

    PlanEndpoint.Answer other = post("alice", "{\"reads\": ["
        + read("hdfs://elsewhere:8020/plans/f0", reader, "") + "]}");
    assertEquals(400, other.status);
    assertTrue(other.error().contains("reads[0].path") && other.error().contains("elsewhere"),
        other.body);
  }

  @Test
  void emptyRequestsAreRefusedAndKeepNothing() throws Exception {
    for (int k = 0; k < 200; k++) {
      PlanEndpoint.Answer a = post("mallory", "{\"reads\": []}");
      assertEquals(400, a.status, a.body);
      assertTrue(a.error().contains("\"reads\" is empty"), a.body);
    }
    assertEquals(0, topology().plans().plans().size());
  }

  @Test
  void hostileBodiesAreRefusedAtOnceWithJsonErrors() throws Exception {
    StringBuilder digits = new StringBuilder(1 << 20);
    for (int i = 0; i < 1 << 20; i++) {
      digits.append((char) ('1' + i % 9));
    }
    String bigNumber = "{\"reads\": [" + read("/plans/f0", cluster.hostName(0),
        ", \"length\": " + digits) + "]}";
    StringBuilder deep = new StringBuilder("{\"reads\": [");
    for (int i = 0; i < 100_000; i++) {
      deep.append('[');
    }
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      PlanEndpoint.Answer a = post("mallory", bigNumber);
      assertEquals(400, a.status, a.body);
      assertTrue(a.error().contains("reads[0]") && a.error().contains("digits"), a.body);
      PlanEndpoint.Answer b = post("mallory", deep.toString());
      assertEquals(400, b.status, b.body);
      assertTrue(b.error().contains("reads[0] must be an object"), b.body);
    });
    // what curl -d sends: the body is read as JSON all the same, and the caller is known
    PlanEndpoint.Answer form = endpoint().call("POST", "user.name=mallory",
        "application/x-www-form-urlencoded", "{\"reads\": []}".getBytes(StandardCharsets.UTF_8));
    assertEquals(400, form.status, form.body);
    assertTrue(form.error().contains("\"reads\" is empty"), form.body);
    PlanEndpoint.Answer formPlan = endpoint().call("POST", "user.name=mallory",
        "application/x-www-form-urlencoded", ("{\"reads\": [" + read("/plans/f0",
            cluster.hostName(0), "") + "]}").getBytes(StandardCharsets.UTF_8));
    assertEquals(200, formPlan.status, formPlan.body);
    String planId = formPlan.json().get("id").asText();
    assertTrue(endpoint().get("mallory").body.contains(planId), "mallory's plan");
    assertEquals(200, endpoint().delete("mallory", planId).status);
    PlanEndpoint.Answer put = endpoint().call("PUT", "user.name=mallory", "application/json",
        "{}".getBytes(StandardCharsets.UTF_8));
    assertEquals(405, put.status, put.body);
    // OPTIONS (a SPNEGO client sends its token with it): 200, with what is allowed
    PlanEndpoint.Answer options = endpoint().call("OPTIONS", "user.name=mallory", null, null);
    assertEquals(200, options.status, options.body);
    assertTrue(options.body.contains("GET, POST, DELETE, OPTIONS"), options.body);
    PlanEndpoint.Answer noSuchPlan = endpoint().delete("mallory", "plan-0");
    assertEquals(404, noSuchPlan.status, noSuchPlan.body);
    for (PlanEndpoint.Answer a : List.of(form, put, noSuchPlan)) {
      assertTrue(a.contentType.startsWith("application/json") && a.error() != null
          && !a.body.contains("Exception") && !a.body.contains("\tat "), a.toString());
    }
    ReadPlanMetrics metrics = ReadPlanPlugin.serviceOf(cluster.miniCluster().getNameNode())
        .metrics();
    assertTrue(metrics.count(400) >= 3 && metrics.count(405) >= 1);
    assertEquals(0, metrics.count(500), "no request failed inside the plugin");
    // published where operators look: the NameNode's /jmx (a metrics2 source)
    URL jmx = new URL(cluster.nameNodeHttp()
        + "/jmx?qry=Hadoop:service=NameNode,name=OpassReadPlans*");
    try (InputStream in = jmx.openStream()) {
      JsonNode bean = new ObjectMapper().readTree(in).get("beans").get(0);
      assertTrue(bean.get("Status405").asLong() >= 1 && bean.has("PlannedReads"),
          bean.toString());
    }
  }

  @Test
  void eachUserSeesItsOwnPlansAndTheSuperuserSeesAll() throws Exception {
    String reader = cluster.hostName(firstNonHolder(1, 0));
    assertEquals(200, post("alice", "{\"reads\": [" + read("/plans/f1", reader, "") + "]}").status);
    assertEquals(200, post("bob", "{\"reads\": [" + read("/plans/f2", reader, "") + "]}").status);
    JsonNode alice = endpoint().get("alice").json();
    assertEquals("own", alice.get("scope").asText());
    assertEquals(1, alice.get("plans").size());
    assertEquals("alice", alice.get("plans").get(0).get("owner").asText());
    String superuser = UserGroupInformation.getCurrentUser().getShortUserName();
    JsonNode all = endpoint().get(superuser).json();
    assertEquals("all", all.get("scope").asText());
    assertEquals(2, all.get("plans").size());
    String bobs = all.get("plans").get(1).get("id").asText();
    PlanEndpoint.Answer stolen = endpoint().delete("alice", bobs);
    assertEquals(403, stolen.status, stolen.body);
    assertTrue(!stolen.error().contains("bob"), "does not tell alice whose plan it is");
    assertEquals(200, endpoint().delete(superuser, bobs).status,
        "the superuser may drop any plan");
  }

  @Test
  void aReaderThatIsNoDataNodeIsNamedByItsAddressNeverLookedUp() throws Exception {
    PlanEndpoint.Answer byName = post("alice", "{\"reads\": [" + read("/plans/f0", "localhost",
        "") + "]}");
    assertEquals(400, byName.status, byName.body);
    assertTrue(byName.error().contains("reads[0].reader 'localhost'")
        && byName.error().contains("IP address"), byName.body);
    PlanEndpoint.Answer byAddress = post("alice", "{\"reads\": [" + read("/plans/f0",
        EmulatedCluster.OFF_CLUSTER_ADDRESS, "") + "]}");
    assertEquals(200, byAddress.status, byAddress.body);
    assertEquals(EmulatedCluster.OFF_CLUSTER_ADDRESS,
        byAddress.json().get("assignments").get(0).get("reader").asText());
  }
}
