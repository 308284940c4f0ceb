package org.opass.e2e.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadBalanceKeys;
import org.opass.read.nn.ReadPlanPlugin;
import org.opass.tools.cluster.ProcessHdfs;
import org.opass.tools.read.PlanEndpoint;

/**
 * The request that took a NameNode down, sent to a NameNode of its own process with a small
 * heap: 700 reads in about 250 KB, every one an alias of one 2,000-block file. Before the
 * hardening each alias located the whole file again (about 1.3 KB a located block), the
 * NameNode ran out of heap and exited. Now the file is located once, only where the reads
 * are, and a request past its budget is refused before it grows.
 */
class ReadPlanNameNodeHeapTest {
  private static final int BLOCK = 1024;
  private static final int BLOCKS = 2000;
  private static final int READS = 700;
  /** Stated bound: what one refused or tiny request may leave on the NameNode's heap. */
  private static final long HEAP_BOUND = 16L << 20;

  @Test
  void theAliasAttackLeavesASmallHeapNameNodeUpAndItsHeapAsItWas() throws Exception {
    Map<String, String> settings = Map.of(
        "dfs.net.topology.impl", BalancingNetworkTopology.class.getName(),
        "dfs.namenode.plugins", ReadPlanPlugin.class.getName(),
        "dfs.namenode.fs-limits.min-block-size", Integer.toString(BLOCK),
        "dfs.bytes-per-checksum", "512");
    try (ProcessHdfs hdfs = ProcessHdfs.start(new File("target/e2e/read-plan-heap"), "256m", 1,
        settings)) {
      Path big = new Path("/big");
      try (FileSystem fs = FileSystem.newInstance(hdfs.uri(), hdfs.clientConf());
          FSDataOutputStream out = fs.create(big, true, 4096, (short) 1, BLOCK)) {
        out.write(new byte[BLOCK * BLOCKS]);
      }
      PlanEndpoint endpoint = new PlanEndpoint(hdfs.nameNodeHttp());
      long before = hdfs.nameNodeHeapAfterGc();

      // As reported: 700 one-byte reads, each naming /big another way.
      StringBuilder asReported = new StringBuilder("{\"reads\": [");
      // Worse: each alias read whole by another address, 1.4 million chunk reads.
      StringBuilder whole = new StringBuilder("{\"reads\": [");
      for (int k = 0; k < READS; k++) {
        String alias = (k % 7 == 0 ? hdfs.uri() + "/big" : "/big") + "/".repeat(k % 600)
            + (k >= 600 ? "/" : "");
        asReported.append(k == 0 ? "" : ",").append(PlanEndpoint.read(alias, "10.0.0.1",
            ", \"offset\": 0, \"length\": 1"));
        whole.append(k == 0 ? "" : ",").append(PlanEndpoint.read(alias,
            "10.0." + k / 250 + "." + (1 + k % 250), ""));
      }
      assertTrue(asReported.length() > 200_000, "a request of the reported size");
      PlanEndpoint.Answer one = endpoint.post("mallory", asReported.append("]}").toString());
      assertEquals(200, one.status, one.toString());
      assertEquals(1, one.json().get("reads").asInt(), "700 aliases of one block: one read");
      PlanEndpoint.Answer refused = endpoint.post("mallory", whole.append("]}").toString());
      assertEquals(413, refused.status, refused.toString());
      assertTrue(refused.error().contains(ReadBalanceKeys.PLAN_MAX_REQUEST_READS),
          refused.toString());

      assertTrue(hdfs.nameNodeAlive(), () -> "the NameNode exited: " + tail(hdfs));
      long after = hdfs.nameNodeHeapAfterGc();
      assertTrue(after - before < HEAP_BOUND, "NameNode heap grew from " + before + " to "
          + after + " bytes");
      // and it still serves
      assertEquals(200, endpoint.delete("mallory", one.json().get("id").asText()).status);
    }
  }

  private static String tail(ProcessHdfs hdfs) {
    try {
      return hdfs.nameNodeLogTail(3000);
    } catch (java.io.IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
