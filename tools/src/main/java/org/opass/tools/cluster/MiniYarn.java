package org.opass.tools.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.util.VersionInfo;

/**
 * A started {@code MiniMRYarnCluster} over the file system of a configuration, sized for this
 * machine: containers of 512 MiB (400 MiB heaps), the ApplicationMaster's too. Its heartbeats
 * and polls are 200 ms rather than 1 s (5 s for a client waiting on its job), and its
 * NodeManagers stop at once: a one-map job takes 17 s rather than 21 s on 2 cores.
 */
public final class MiniYarn {
  /**
   * JVM options for the ApplicationMaster and tasks of tests' small jobs ({@link
   * ChildJvm#QUICK_START}): a one-map job takes 12 s rather than 17 s on 2 cores.
   */
  public static final String QUICK_START = String.join(" ", ChildJvm.QUICK_START);

  private MiniYarn() {
  }

  /**
   * YARN with {@code nodeManagers} NodeManagers over {@code base}'s {@code fs.defaultFS}, its
   * ApplicationMasters and tasks started {@link #QUICK_START}.
   */
  public static MiniMRYarnCluster start(Configuration base, String name, int nodeManagers) {
    return start(base, name, nodeManagers, QUICK_START);
  }

  /**
   * As {@link #start(Configuration, String, int)}, with {@code taskJvmOpts} (rather than
   * {@link #QUICK_START}) added to the ApplicationMaster's and the tasks' JVM options.
   */
  public static MiniMRYarnCluster start(Configuration base, String name, int nodeManagers,
      String taskJvmOpts) {
    Configuration y = new Configuration(base);
    y.setInt("yarn.nodemanager.resource.memory-mb", 8192);
    y.setInt("yarn.scheduler.minimum-allocation-mb", 256);
    y.setInt("yarn.app.mapreduce.am.resource.mb", 512);
    // Hadoop 3.4 opens java.base to its task JVMs by itself; on 3.3, which predates Java 17,
    // an operator running Java 17 must add this (bin/compat runs the tests on 3.3.6)
    String opts = "-Xmx400m" + (VersionInfo.getVersion().startsWith("3.3.")
        ? " --add-opens java.base/java.lang=ALL-UNNAMED" : "")
        + (taskJvmOpts.isEmpty() ? "" : " " + taskJvmOpts);
    y.set("yarn.app.mapreduce.am.command-opts", opts);
    y.setInt("mapreduce.map.memory.mb", 512);
    y.setInt("mapreduce.reduce.memory.mb", 512);
    y.set("mapreduce.map.java.opts", opts);
    y.set("mapreduce.reduce.java.opts", opts);
    y.setBoolean("yarn.nodemanager.vmem-check-enabled", false);
    // a NodeManager stopping waits for its applications' clean-up up to these two plus 1 s,
    // about half a minute in all with the jobs of a test class done: nothing left to kill
    y.setLong("yarn.nodemanager.sleep-delay-before-sigkill.ms", 0);
    y.setLong("yarn.nodemanager.process-kill-wait.ms", 0);
    // and for its log handler's deletions, scheduled at an application's end to run hours later
    // (NonAggregatingLogHandler#serviceStop waits ten seconds for them): run them at once, and
    // have them delete nothing (-1: DeletionService#delete keeps the logs for a failing test)
    y.setLong("yarn.nodemanager.log.retain-seconds", 0);
    y.setInt("yarn.nodemanager.delete.debug-delay-sec", -1);
    // a test's jobs are short: heartbeats and polls at 200 ms, not 1 s (5 s for a client
    // waiting on its job's end)
    y.setLong("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 200);
    y.setInt("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", 200);
    y.setInt("mapreduce.client.completion.pollinterval", 200);
    MiniMRYarnCluster yarn = new MiniMRYarnCluster(name, nodeManagers);
    yarn.init(y);
    yarn.start();
    return yarn;
  }

  /**
   * Stops {@code yarn}, its NodeManagers side by side (MiniYARNCluster's own stop takes them one
   * after another).
   */
  public static void stop(MiniMRYarnCluster yarn, int nodeManagers) throws InterruptedException {
    List<Thread> stopping = new ArrayList<>();
    for (int i = 0; i < nodeManagers; i++) {
      Thread t = new Thread(yarn.getNodeManager(i)::stop, "stop-nm-" + i);
      t.start();
      stopping.add(t);
    }
    for (Thread t : stopping) {
      t.join();
    }
    yarn.stop();
  }
}
