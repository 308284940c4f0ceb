package org.opass.heatmap.nn;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.classification.VisibleForTesting;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.opass.conf.StrictConf;
import org.opass.heatmap.HeatTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link HeatTable} per NameNode, shared by everything of ours inside it.
 *
 * <p>The placement policy and the network topology of one NameNode have no common object of
 * ours, but both see the NameNode's {@code NetworkTopology} instance: the policy is handed it
 * in {@code initialize} and the topology is it. That instance is the key. Keys are weak, so a
 * stopped NameNode's table goes with it and two clusters in one JVM never share state.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class HeatTableRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(HeatTableRegistry.class);

  /** JMX name of the first heatmap in a JVM; later ones get "-2", "-3", ... */
  public static final String MBEAN_NAME = "Hadoop:service=NameNode,name=OpassHeatmap";

  private static final Map<Object, HeatTable> TABLES = new WeakHashMap<>();
  private static final Map<ObjectName, WeakReference<HeatTable>> BEANS = new java.util.HashMap<>();
  private static final Map<String, WeakReference<HeatTable>> SOURCES = new java.util.HashMap<>();

  private HeatTableRegistry() {
  }

  /**
   * The heat table of the NameNode that owns {@code topology}, created (and published over JMX)
   * on first use from {@code conf}.
   *
   * @throws IllegalArgumentException naming the key if the configuration is invalid
   */
  public static synchronized HeatTable forTopology(Object topology, Configuration conf) {
    HeatTable h = TABLES.get(topology);
    if (h == null) {
      h = fromConf(conf);
      TABLES.put(topology, h);
      publish(h);
      publishMetrics(h);
    }
    return h;
  }

  /** Replaces the heat table of a NameNode; for fault-injection tests. */
  @VisibleForTesting
  public static synchronized void install(Object topology, HeatTable table) {
    TABLES.put(topology, table);
  }

  static HeatTable fromConf(Configuration conf) {
    int maxNodes = StrictConf.atLeast(conf, HeatmapKeys.MAX_NODES, 1,
        HeatmapKeys.MAX_NODES_DEFAULT);
    long forgetMs = StrictConf.atLeast(conf, HeatmapKeys.FORGET_AFTER_MS, 1L,
        HeatmapKeys.FORGET_AFTER_MS_DEFAULT);
    return HeatTable.builder().maxNodes(maxNodes).forgetAfter(Duration.ofMillis(forgetMs)).build();
  }

  private static void publish(HeatTable heatmap) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      // Drop beans of NameNodes that are gone, then take the first free name.
      prune(BEANS, name -> unregister(server, name));
      ObjectName name = new ObjectName(firstFree(MBEAN_NAME, n -> {
        try {
          return server.isRegistered(new ObjectName(n));
        } catch (MalformedObjectNameException e) {
          throw new IllegalArgumentException(e);
        }
      }));
      server.registerMBean(new HeatmapMBeanImpl(new WeakReference<>(heatmap)), name);
      BEANS.put(name, new WeakReference<>(heatmap));
      LOG.info("Opass heatmap published over JMX as {}", name);
    } catch (Exception | LinkageError e) {
      // JMX is for people; never let it stop the NameNode.
      LOG.warn("Could not publish the Opass heatmap over JMX", e);
    }
  }

  /**
   * Registers the heatmap as metrics2 source {@link HeatmapMetrics#NAME} ("-2", "-3", ... for
   * later NameNodes in one JVM), after unregistering the sources of heatmaps that are gone.
   */
  private static void publishMetrics(HeatTable heatmap) {
    try {
      MetricsSystem metrics = DefaultMetricsSystem.instance();
      prune(SOURCES, metrics::unregisterSource);
      String name = firstFree(HeatmapMetrics.NAME, n -> metrics.getSource(n) != null);
      WeakReference<HeatTable> ref = new WeakReference<>(heatmap);
      metrics.register(name, "Opass heatmap: per-DataNode heat", new HeatmapMetrics(ref));
      SOURCES.put(name, ref);
      LOG.info("Opass heatmap published as metrics source {}", name);
    } catch (RuntimeException | LinkageError e) {
      // metrics are for people; never let them stop the NameNode
      LOG.warn("Could not publish the Opass heatmap as metrics; /jmx still shows {}",
          MBEAN_NAME, e);
    }
  }

  /** Forgets, and unregisters, the names of heatmaps that are gone. */
  private static <K> void prune(Map<K, WeakReference<HeatTable>> names, Consumer<K> unregister) {
    names.entrySet().removeIf(e -> {
      if (e.getValue().get() != null) {
        return false;
      }
      unregister.accept(e.getKey());
      return true;
    });
  }

  /** {@code base}, then {@code base-2}, {@code base-3}, ...: the first one not taken. */
  private static String firstFree(String base, Predicate<String> taken) {
    for (int i = 1; ; i++) {
      String name = i == 1 ? base : base + "-" + i;
      if (!taken.test(name)) {
        return name;
      }
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
