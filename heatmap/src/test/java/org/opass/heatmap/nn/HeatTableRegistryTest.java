package org.opass.heatmap.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.opass.heatmap.HeatTable;

class HeatTableRegistryTest {

  @Test
  void oneHeatTablePerOwnerAndNoneShared() {
    Object nn1 = new Object();
    Object nn2 = new Object();
    Configuration conf = new Configuration(false);
    HeatTable a = HeatTableRegistry.forTopology(nn1, conf);
    assertSame(a, HeatTableRegistry.forTopology(nn1, conf));
    HeatTable b = HeatTableRegistry.forTopology(nn2, conf);
    assertNotSame(a, b);
    a.observe("x", "x", 1, 1, true);
    assertEquals(0, b.trackedNodes());
  }

  @Test
  void publishedOverJmx() throws Exception {
    HeatTable h = HeatTableRegistry.forTopology(new Object(), new Configuration(false));
    h.observe("dn-1", "127.0.0.2:9866", 2, 1, true);
    h.grant("dn-1");
    Set<ObjectName> names = ManagementFactory.getPlatformMBeanServer()
        .queryNames(new ObjectName(HeatTableRegistry.MBEAN_NAME + "*"), null);
    boolean found = false;
    for (ObjectName n : names) {
      String json = (String) ManagementFactory.getPlatformMBeanServer().getAttribute(n, "Nodes");
      found |= json.contains("\"name\":\"127.0.0.2:9866\"") && json.contains("\"heat\":3");
    }
    assertTrue(found, "no heatmap bean shows the node: " + names);
  }

  @Test
  void badConfigurationNamesTheKey() {
    Configuration conf = new Configuration(false);
    conf.setInt(HeatmapKeys.MAX_NODES, 0);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> HeatTableRegistry.forTopology(new Object(), conf));
    assertTrue(e.getMessage().contains(HeatmapKeys.MAX_NODES), e.getMessage());
    Configuration conf2 = new Configuration(false);
    conf2.set(HeatmapKeys.FORGET_AFTER_MS, "-5");
    e = assertThrows(IllegalArgumentException.class,
        () -> HeatTableRegistry.forTopology(new Object(), conf2));
    assertTrue(e.getMessage().contains(HeatmapKeys.FORGET_AFTER_MS), e.getMessage());
  }
}
