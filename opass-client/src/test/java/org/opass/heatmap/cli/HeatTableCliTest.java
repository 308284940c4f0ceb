package org.opass.heatmap.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opass.heatmap.NodeHeat;
import org.opass.heatmap.nn.HeatTableRegistry;

class HeatTableCliTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return HeatTableCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void asksForTheBeanThePluginRegisters() {
    assertEquals(HeatTableRegistry.MBEAN_NAME, HeatTableCli.MBEAN_NAME);
  }

  @Test
  void helpIsExitZero() {
    assertEquals(0, run("--help"));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("usage: hadoop jar opass-client-*.jar heat"));
  }

  @Test
  void usageErrorsAreExitTwoAndSayWhy() {
    assertEquals(2, run("--bogus"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--bogus"));
    err.reset();
    assertEquals(2, run("a:1", "b:2"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("b:2"));
    err.reset();
    assertEquals(2, run("http://"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("bad NameNode address"));
  }

  @Test
  void unreachableNameNodeIsExitOne() {
    // port 1 on loopback: nothing listens there
    assertEquals(1, run("127.0.0.1:1"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("cannot read"));
  }

  @Test
  void tableShowsEveryNode() throws Exception {
    String nodes = NodeHeat.toJson(List.of(
        new NodeHeat("u1", "127.0.0.2:9866", 3, 2, 15, 800),
        new NodeHeat("u2", "127.0.0.3:9866", 0, 0, -1, 1200)));
    String bean = new ObjectMapper().createObjectNode()
        .put("name", HeatTableRegistry.MBEAN_NAME).put("TrackedNodes", 2).put("MeanHeat", 2.5)
        .put("GrantsTotal", 9).put("Choices", 4).put("Fallbacks", 0).put("Nodes", nodes)
        .toString();
    String table = HeatTableCli.table(new ObjectMapper().readTree(bean));
    assertTrue(table.contains("2 DataNodes, mean heat 2.50"), table);
    assertTrue(table.matches(
        "(?s).*127\\.0\\.0\\.2:9866\\s+3\\s+2\\s+5\\s+15 ms ago\\s+800 ms ago.*"), table);
    assertTrue(table.matches(
        "(?s).*127\\.0\\.0\\.3:9866\\s+0\\s+0\\s+0\\s+never\\s+1200 ms ago.*"), table);
  }

  @Test
  void queryUrlTargetsTheHeatmapBeans() {
    assertEquals("http://nn:9870/jmx?qry=Hadoop%3Aservice%3DNameNode%2Cname%3DOpassHeatmap*",
        HeatTableCli.jmxQuery("nn:9870").toString().replace("%2A", "*"));
  }
}
