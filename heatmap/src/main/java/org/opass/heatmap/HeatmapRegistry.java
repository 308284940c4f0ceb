package org.opass.heatmap;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.Map;
import java.util.WeakHashMap;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link Heatmap} per NameNode, shared by everything of ours inside it.
 *
 * <p>The placement policy and the network topology of one NameNode have no common object of
 * ours, but both see the NameNode's {@code NetworkTopology} instance: the policy is handed it
 * in {@code initialize} and the topology is it. That instance is the key. Keys are weak, so a
 * stopped NameNode's heatmap goes with it and two clusters in one JVM never share state.
 */
public final class HeatmapRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(HeatmapRegistry.class);

  /** JMX name of the first heatmap in a JVM; later ones get "-2", "-3", ... */
  public static final String MBEAN_NAME = "Hadoop:service=NameNode,name=OpassHeatmap";

  private static final Map<Object, Heatmap> HEATMAPS = new WeakHashMap<>();
  private static final Map<ObjectName, WeakReference<Heatmap>> BEANS = new java.util.HashMap<>();
  private static final Map<String, WeakReference<Heatmap>> SOURCES = new java.util.HashMap<>();

  private HeatmapRegistry() {
  }

  /**
   * The heatmap of the NameNode that owns {@code topology}, created (and published over JMX)
   * on first use from {@code conf}.
   *
   * @throws IllegalArgumentException naming the key if the configuration is invalid
   */
  public static synchronized Heatmap forTopology(Object topology, Configuration conf) {
    Heatmap h = HEATMAPS.get(topology);
    if (h == null) {
      h = fromConf(conf);
      HEATMAPS.put(topology, h);
      publish(h);
      publishMetrics(h);
    }
    return h;
  }

  /** Replaces the heatmap of a NameNode; for fault-injection tests. */
  public static synchronized void install(Object topology, Heatmap heatmap) {
    HEATMAPS.put(topology, heatmap);
  }

  static Heatmap fromConf(Configuration conf) {
    int maxNodes = StrictConf.atLeast(conf, HeatmapKeys.MAX_NODES, 1,
        HeatmapKeys.MAX_NODES_DEFAULT);
    long forgetMs = StrictConf.atLeast(conf, HeatmapKeys.FORGET_AFTER_MS, 1L,
        HeatmapKeys.FORGET_AFTER_MS_DEFAULT);
    return Heatmap.builder().maxNodes(maxNodes).forgetAfter(Duration.ofMillis(forgetMs)).build();
  }

  private static void publish(Heatmap heatmap) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      // Drop beans of NameNodes that are gone, then take the first free name.
      BEANS.entrySet().removeIf(e -> {
        if (e.getValue().get() != null) {
          return false;
        }
        unregister(server, e.getKey());
        return true;
      });
      for (int i = 1; ; i++) {
        ObjectName name = new ObjectName(i == 1 ? MBEAN_NAME : MBEAN_NAME + "-" + i);
        if (!server.isRegistered(name)) {
          server.registerMBean(new HeatmapMBeanImpl(new WeakReference<>(heatmap)), name);
          BEANS.put(name, new WeakReference<>(heatmap));
          LOG.info("Opass heatmap published over JMX as {}", name);
          return;
        }
      }
    } catch (Exception | LinkageError e) {
      // JMX is for people; never let it stop the NameNode.
      LOG.warn("Could not publish the Opass heatmap over JMX", e);
    }
  }

  /**
   * Registers the heatmap as metrics2 source {@link HeatmapMetrics#NAME} ("-2", "-3", ... for
   * later NameNodes in one JVM), after unregistering the sources of heatmaps that are gone.
   */
  private static void publishMetrics(Heatmap heatmap) {
    try {
      MetricsSystem metrics = DefaultMetricsSystem.instance();
      SOURCES.entrySet().removeIf(e -> {
        if (e.getValue().get() != null) {
          return false;
        }
        metrics.unregisterSource(e.getKey());
        return true;
      });
      for (int i = 1; ; i++) {
        String name = i == 1 ? HeatmapMetrics.NAME : HeatmapMetrics.NAME + "-" + i;
        if (metrics.getSource(name) == null) {
          WeakReference<Heatmap> ref = new WeakReference<>(heatmap);
          metrics.register(name, "Opass heatmap: per-DataNode heat", new HeatmapMetrics(ref));
          SOURCES.put(name, ref);
          LOG.info("Opass heatmap published as metrics source {}", name);
          return;
        }
      }
    } catch (RuntimeException | LinkageError e) {
      // metrics are for people; never let them stop the NameNode
      LOG.warn("Could not publish the Opass heatmap as metrics; /jmx still shows {}",
          MBEAN_NAME, e);
    }
  }

  private static void unregister(MBeanServer server, ObjectName name) {
    try {
      server.unregisterMBean(name);
    } catch (Exception e) {
      LOG.debug("Could not unregister {}", name, e);
    }
  }
}
