package org.opass.e2e.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.e2e.SeededCases;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadBalanceKeys;
import org.opass.read.nn.ReadPlanMetrics;
import org.opass.read.nn.ReadPlanPlugin;
import org.opass.read.nn.ReadPlanService;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.read.PlanEndpoint;
import org.opass.tools.read.PlanFuzzer;

/**
 * Seeded fuzzing of {@code /opass/read-plan} on a real NameNode ({@link PlanFuzzer}): every
 * answer must be JSON, never a 5xx, never a hang (each request has a read timeout); refusals
 * must say what is wrong. A failure prints the seed and the case.
 */
class ReadPlanFuzzTest {
  private static final long SEED = 20261123L;
  private static final int CASES = SeededCases.of(3400);
  private static final int BLOCK = 16 * 1024;

  private static EmulatedCluster cluster;
  private static final List<String> hosts = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    cluster = EmulatedCluster.builder().dataNodes(4).racks(2).blockSize(BLOCK)
        .baseDir(new File("target/e2e/read-plan-fuzz"))
        .set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, BalancingNetworkTopology.class.getName())
        .set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReadPlanPlugin.class.getName())
        // small limits, so that fuzzing reaches them too (413, 429)
        .set(ReadBalanceKeys.PLAN_MAX_REQUEST_READS, "300")
        .set(ReadBalanceKeys.PLAN_MAX_REQUEST_BYTES, "131072")
        .set(ReadBalanceKeys.PLAN_MAX_PLANS_PER_USER, "6")
        .start();
    PlanFuzzer.createFiles(cluster.offClusterFileSystem(), BLOCK, SEED);
    for (int k = 0; k < 4; k++) {
      hosts.add(cluster.hostName(k));
      hosts.add(cluster.hostAddress(k));
    }
  }

  @AfterAll
  static void stop() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void mutatedRequestsAreAnsweredWithJsonAndNever5xx() throws Exception {
    String superuser = UserGroupInformation.getCurrentUser().getShortUserName();
    PlanFuzzer fuzzer = new PlanFuzzer(() -> new PlanEndpoint(cluster), SEED, hosts, superuser);
    for (int i = 0; i < CASES; i++) {
      PlanFuzzer.Case c = fuzzer.next();
      assertNull(c.problem, () -> "seed " + SEED + ", " + c);
    }
    Map<Integer, Integer> statuses = fuzzer.statuses();
    ReadPlanService service = ReadPlanPlugin.serviceOf(cluster.miniCluster().getNameNode());
    ReadPlanMetrics metrics = service.metrics();
    assertEquals(0, metrics.count(500) + metrics.count(503),
        "no request failed inside the plugin or found it busy; answers: " + statuses);
    assertTrue(statuses.getOrDefault(200, 0) > CASES / 20, "enough valid plans: " + statuses);
    assertTrue(statuses.getOrDefault(400, 0) > CASES / 4, "enough refusals: " + statuses);
    assertTrue(statuses.containsKey(413) && statuses.containsKey(429), "limits reached: "
        + statuses);
    // the NameNode still plans and serves after all that
    PlanEndpoint.Answer ok = new PlanEndpoint(cluster).post(superuser, "{\"reads\": ["
        + PlanEndpoint.read("/fuzz/f0", hosts.get(0), "") + "]}");
    assertEquals(200, ok.status, ok.toString());
    assertEquals(fuzzer.livePlans() + 1, service.plans().plans().size());
  }
}
