package org.opass.e2e.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.util.VersionInfo;

/**
 * A started {@code MiniMRYarnCluster} over the file system of a configuration, sized for this
 * machine: containers of 512 MiB (400 MiB heaps), the ApplicationMaster's too.
 */
public final class MiniYarn {
  private MiniYarn() {
  }

  /** YARN with {@code nodeManagers} NodeManagers over {@code base}'s {@code fs.defaultFS}. */
  public static MiniMRYarnCluster start(Configuration base, String name, int nodeManagers) {
    return start(base, name, nodeManagers, "");
  }

  /**
   * As {@link #start(Configuration, String, int)}, with {@code taskJvmOpts} added to the
   * ApplicationMaster's and the tasks' JVM options.
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
    MiniMRYarnCluster yarn = new MiniMRYarnCluster(name, nodeManagers);
    yarn.init(y);
    yarn.start();
    return yarn;
  }

  /**
   * Stops {@code yarn}, its NodeManagers side by side: each waits ten seconds for its log
   * handler's pending deletions (NonAggregatingLogHandler), one after another in
   * MiniYARNCluster's own stop.
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
