package org.opass.heatmap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.nn.HeatTableRegistry;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * The heatmap of a NameNode running HM-LRU is visible from the NameNode's own web server
 * ({@code /jmx}), and {@code opass-client heat} prints it as a table.
 *
 * <p>In package {@code org.opass.heatmap.cli} to call {@link HeatTableCli#run} (package-private;
 * {@code main} exits the JVM). Other NameNodes may have run in this JVM, and their beans stay
 * registered until a later heatmap is published, so the bean of this cluster is the one whose
 * nodes are this cluster's DataNodes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HeatmapJmxClusterTest {

  private static final int DATANODES = 8;
  private static final int BLOCK_SIZE = 512 * 1024;
  private static final int FILES = 4;
  private static final int BLOCKS_PER_FILE = 2;

  private EmulatedCluster cluster;
  private HeatTable heatmap;
  private String httpAddress;
  // DataNode UUID -> transfer address ("127.0.0.N:port"), as the NameNode has them
  private final Map<String, String> xferAddrByUuid = new HashMap<>();

  @BeforeAll
  void startClusterAndWrite() throws Exception {
    cluster = EmulatedCluster.builder()
        .dataNodes(DATANODES)
        .racks(2)
        .blockSize(BLOCK_SIZE)
        .set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY,
            HmLruPlacementPolicy.class.getName())
        .set("hadoop.prometheus.endpoint.enabled", "true")
        .start();
    BlockPlacementPolicy policy =
        cluster.blockManager().getBlockPlacementPolicy();
    heatmap = assertInstanceOf(HmLruPlacementPolicy.class, policy).heatmap();
    for (int k = 0; k < DATANODES; k++) {
      xferAddrByUuid.put(cluster.dataNode(k).getDatanodeUuid(),
          cluster.datanodeDescriptor(k).getXferAddr());
    }
    // writes make HM-LRU choose, grant, and observe every DataNode
    byte[] data = new byte[BLOCKS_PER_FILE * BLOCK_SIZE];
    new Random(7).nextBytes(data);
    for (int i = 0; i < FILES; i++) {
      FileSystem fs = i % 2 == 0 ? cluster.fileSystemOnHost(i) : cluster.offClusterFileSystem();
      Path file = new Path("/jmx/file-" + i);
      try (FSDataOutputStream out = fs.create(file, (short) 3)) {
        out.write(data);
      }
      cluster.replicas().waitFor(file, (short) 3);
    }
    httpAddress = cluster.nameNodeHttp().getAuthority();
  }

  @AfterAll
  void stopCluster() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void theNameNodesJmxServletPublishesThisClustersHeatmap() throws Exception {
    JsonNode bean = thisClustersBean(fetchBeans());

    assertTrue(bean.path("name").asText().startsWith(HeatTableRegistry.MBEAN_NAME),
        bean.path("name").asText());
    assertEquals(DATANODES, bean.path("TrackedNodes").asInt());
    assertEquals(heatmap.trackedNodes(), bean.path("TrackedNodes").asInt());
    assertTrue(bean.path("Choices").asLong() > 0, bean.toString());
    // every target but the writer's own node is granted
    assertTrue(bean.path("GrantsTotal").asLong() >= 2L * FILES * BLOCKS_PER_FILE,
        bean.toString());
    assertEquals(0, bean.path("Fallbacks").asLong());
    assertTrue(bean.path("MeanHeat").isNumber(), bean.toString());
    assertTrue(bean.path("MeanHeat").asDouble() >= 0, bean.toString());

    // one row per DataNode, named by its transfer address
    JsonNode nodes = new ObjectMapper().readTree(bean.path("Nodes").asText());
    assertEquals(DATANODES, nodes.size(), nodes.toString());
    Map<String, String> published = new HashMap<>();
    for (JsonNode row : nodes) {
      published.put(row.path("node_id").asText(), row.path("name").asText());
      assertEquals(row.path("xceivers").asInt() + row.path("grants_since_heartbeat").asInt(),
          row.path("heat").asInt(), row.toString());
    }
    assertEquals(xferAddrByUuid, published);
  }

  @Test
  void opassHeatPrintsATableWithEveryDataNode() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int exit = HeatTableCli.run(new String[] {httpAddress}, print(out), print(err));

    String table = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, "stderr: " + err.toString(StandardCharsets.UTF_8));
    assertEquals("", err.toString(StandardCharsets.UTF_8));
    // the table of this cluster's bean: its title line, a header, and a row per DataNode
    String beanName = thisClustersBean(fetchBeans()).path("name").asText();
    String section = sectionOf(table, beanName);
    assertTrue(section.startsWith(beanName + ": " + DATANODES + " DataNodes"), table);
    assertTrue(section.contains("DataNode") && section.contains("xceivers"), table);
    for (String xferAddr : xferAddrByUuid.values()) {
      assertTrue(section.lines().anyMatch(line -> line.startsWith(xferAddr + " ")),
          "no row for " + xferAddr + " in\n" + table);
    }
    assertEquals(2 + DATANODES, section.lines().count(), section);
  }

  @Test
  void opassHeatJsonPrintsTheRawBeans() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int exit = HeatTableCli.run(new String[] {"--json", "http://" + httpAddress}, print(out),
        print(err));

    assertEquals(0, exit, "stderr: " + err.toString(StandardCharsets.UTF_8));
    List<JsonNode> beans = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      beans.add(json.readTree(line));
    }
    JsonNode bean = thisClustersBean(beans);
    assertEquals(DATANODES, bean.path("TrackedNodes").asInt());
  }

  @Test
  void prometheusShowsEveryDataNodesHeatAndTheTotals() throws Exception {
    // /prom shows what the metrics system last pushed to its sink, at most a metrics period
    // (10 s) ago; right after the cluster starts it may be empty: wait for this cluster's rows
    String first = "node=\"" + xferAddrByUuid.values().iterator().next() + "\"";
    long deadline = System.nanoTime() + 30_000_000_000L;
    String prom = get("/prom");
    while (!prom.contains(first) && System.nanoTime() < deadline) {
      Thread.sleep(500);
      prom = get("/prom");
    }

    // one series per DataNode of this cluster, labelled by its transfer address and UUID
    for (Map.Entry<String, String> dn : xferAddrByUuid.entrySet()) {
      for (String metric : new String[] {"opass_heat_node_heat", "opass_heat_node_xceivers",
          "opass_heat_node_grants_since_heartbeat", "opass_heat_node_heartbeat_age_millis"}) {
        assertEquals(1, prom.lines().filter(l -> l.startsWith(metric + "{")
            && l.contains("node=\"" + dn.getValue() + "\"")
            && l.contains("nodeid=\"" + dn.getKey() + "\"")).count(),
            metric + " of " + dn.getValue() + " in\n" + prom);
      }
    }
    // the totals, as counters: at least this cluster's grants
    assertTrue(prom.contains("# TYPE opass_heat_grants counter"), prom);
    assertTrue(prom.lines().filter(l -> l.startsWith("opass_heat_grants{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .anyMatch(v -> v >= 2.0 * FILES * BLOCKS_PER_FILE), prom);
  }

  @Test
  void theMetricsSourceIsInJmxToo() throws Exception {
    // /jmx shows a metrics2 source as of its last snapshot, taken at most a metrics period
    // (10 s) ago: wait for one that has this cluster's rows
    long deadline = System.nanoTime() + 30_000_000_000L;
    List<JsonNode> ours = new ArrayList<>();
    while (ours.isEmpty() && System.nanoTime() < deadline) {
      // "OpassHeat*" also matches the table beans ("OpassHeatmap"): keep the metrics sources
      for (JsonNode bean : new ObjectMapper()
          .readTree(get("/jmx?qry=Hadoop:service=NameNode,name=OpassHeat*")).path("beans")) {
        if (bean.path("name").asText().matches("Hadoop:service=NameNode,name=OpassHeat(-\\d+)?")
            && bean.toString().contains(xferAddrByUuid.values().iterator().next())) {
          ours.add(bean);
        }
      }
      if (ours.isEmpty()) {
        Thread.sleep(500);
      }
    }
    assertEquals(1, ours.size(), "OpassHeat sources of this cluster: " + ours);
    assertEquals(DATANODES, ours.get(0).path("TrackedNodes").asInt(), ours.get(0).toString());
    assertTrue(ours.get(0).path("Grants").asLong() >= 2L * FILES * BLOCKS_PER_FILE,
        ours.get(0).toString());
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** The body of GET {@code path} on this cluster's NameNode web server. */
  private String get(String path) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new java.net.URL("http://" + httpAddress + path)
        .openConnection();
    try (InputStream in = c.getInputStream()) {
      assertEquals(200, c.getResponseCode(), path);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  /** What {@code /jmx} of this cluster's NameNode answers for the heatmap beans. */
  private List<JsonNode> fetchBeans() throws IOException {
    HttpURLConnection connection = (HttpURLConnection) HeatTableCli.jmxQuery(httpAddress)
        .toURL().openConnection();
    try (InputStream in = connection.getInputStream()) {
      assertEquals(200, connection.getResponseCode());
      List<JsonNode> beans = new ArrayList<>();
      new ObjectMapper().readTree(in).path("beans").forEach(beans::add);
      return beans;
    } finally {
      connection.disconnect();
    }
  }

  /** The one bean whose nodes include every DataNode of this cluster. */
  private JsonNode thisClustersBean(List<JsonNode> beans) throws IOException {
    assertFalse(beans.isEmpty(), "no Opass heatmap bean at " + httpAddress);
    List<JsonNode> ours = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    for (JsonNode bean : beans) {
      List<String> ids = new ArrayList<>();
      json.readTree(bean.path("Nodes").asText("[]"))
          .forEach(row -> ids.add(row.path("node_id").asText()));
      if (ids.containsAll(xferAddrByUuid.keySet())) {
        ours.add(bean);
      }
    }
    assertEquals(1, ours.size(), "beans with this cluster's DataNodes: " + ours);
    return ours.get(0);
  }

  // The lines of the table printed for bean {@code beanName}, up to the next bean's title.
  private static String sectionOf(String output, String beanName) {
    StringBuilder section = new StringBuilder();
    boolean in = false;
    for (String line : output.split("\n")) {
      if (line.startsWith(HeatTableRegistry.MBEAN_NAME)) {
        in = line.startsWith(beanName + ":");
      }
      if (in) {
        section.append(line).append('\n');
      }
    }
    assertFalse(section.length() == 0, "no table for " + beanName + " in\n" + output);
    return section.toString();
  }

  private static PrintStream print(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }
}
