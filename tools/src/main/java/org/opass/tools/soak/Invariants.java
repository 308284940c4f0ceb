package org.opass.tools.soak;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ExitUtil;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.NodeHeat;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadPlanPlugin;
import org.opass.read.nn.ReadPlanService;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * The checks a soak makes after every fault and at the end, each returning what it found
 * wrong (empty: the invariant holds). They look at HDFS as its users and operators do: files
 * read back, {@code fsck}, the block placement rules, and at the bounds our plugins promise.
 */
final class Invariants {
  private final EmulatedCluster cluster;

  Invariants(EmulatedCluster cluster) {
    this.cluster = cluster;
  }

  /** Files of {@code files} that cannot be read back whole and unchanged. */
  List<String> filesReadBack(List<Ledger.Entry> files, Ledger ledger) throws IOException {
    List<String> wrong = new ArrayList<>();
    FileSystem fs = cluster.offClusterFileSystem();
    for (Ledger.Entry e : files) {
      byte[] back = new byte[Math.toIntExact(e.length)];
      try (FSDataInputStream in = fs.open(new Path(e.path))) {
        in.readFully(back);
        if (in.read() != -1) {
          wrong.add(e.path + " is longer than written");
        } else if (!Arrays.equals(e.bytes(), back)) {
          wrong.add(e.path + " differs from what was written");
        }
      } catch (IOException ex) {
        if (ledger.contains(e.path)) { // not deleted by its writer meanwhile
          wrong.add(e.path + " cannot be read: " + ex);
        }
      }
    }
    return wrong;
  }

  /**
   * {@code hdfs fsck /}: anything but HEALTHY. Asked of the NameNode's fsck servlet, as the
   * command does ({@code DFSck} itself prints to {@code System.err}, which a bench's console
   * keeps for progress). A check that FAILED is asked again, up to three times: fsck locates a
   * file's blocks and then looks each up without holding the lock between, so a block the
   * traffic deletes meanwhile aborts it with a NullPointerException (Hadoop 3.4.2,
   * {@code NamenodeFsck#collectBlocksSummary}); that is no verdict on the data.
   */
  List<String> fsck() throws IOException {
    String report = "";
    for (int attempt = 1; attempt <= 3; attempt++) {
      report = fsckReport();
      if (report.contains("The filesystem under path '/' is HEALTHY")) {
        return List.of();
      }
      if (!report.contains("Fsck on path '/' FAILED")) {
        break;
      }
    }
    String tail = report.length() > 1500 ? report.substring(report.length() - 1500) : report;
    return List.of("fsck / is not healthy: " + tail.replace('\n', ' '));
  }

  private String fsckReport() throws IOException {
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    URL url = new URL(cluster.nameNodeHttp() + "/fsck?ugi="
        + URLEncoder.encode(user, StandardCharsets.UTF_8) + "&path=%2F");
    HttpURLConnection c = (HttpURLConnection) url.openConnection();
    c.setConnectTimeout(10_000);
    c.setReadTimeout(120_000);
    try (InputStream in = c.getResponseCode() < 400 ? c.getInputStream() : c.getErrorStream()) {
      return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  /**
   * Blocks of {@code files} placed against the default policy's rules (racks), as
   * {@code BlockPlacementPolicy#verifyBlockPlacement} judges them. Blocks still short of
   * replicas are re-checked until {@code deadlineNanos}: re-replication after a fault takes
   * a few seconds.
   */
  List<String> placement(List<Ledger.Entry> files, Ledger ledger, long deadlineNanos)
      throws IOException, InterruptedException {
    BlockPlacementPolicy policy = cluster.blockManager().getBlockPlacementPolicy();
    try {
      // our policy must judge placement by the default's own rules
      if (policy.getClass().getMethod("verifyBlockPlacement", DatanodeInfo[].class, int.class)
          .getDeclaringClass() != BlockPlacementPolicyDefault.class) {
        return List.of(policy.getClass().getName() + " overrides verifyBlockPlacement");
      }
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
    List<Ledger.Entry> pending = new ArrayList<>(files);
    List<String> wrong = new ArrayList<>();
    DistributedFileSystem fs = (DistributedFileSystem) cluster.offClusterFileSystem();
    while (true) {
      wrong.clear();
      List<Ledger.Entry> again = new ArrayList<>();
      for (Ledger.Entry e : pending) {
        LocatedBlocks blocks;
        try {
          blocks = fs.getClient().getLocatedBlocks(e.path, 0, Math.max(1, e.length));
        } catch (IOException ex) {
          if (ledger.contains(e.path)) {
            wrong.add(e.path + ": " + ex);
            again.add(e);
          }
          continue;
        }
        short replication = Traffic.REPLICATION;
        for (LocatedBlock b : blocks.getLocatedBlocks()) {
          DatanodeInfo[] locs = b.getLocations();
          if (locs.length < replication
              || !policy.verifyBlockPlacement(locs, replication).isPlacementPolicySatisfied()) {
            wrong.add(e.path + " block " + b.getBlock().getBlockId() + " on "
                + Arrays.toString(locs) + ": " + policy.verifyBlockPlacement(locs, replication)
                .getErrorDescription());
            again.add(e);
            break;
          }
        }
      }
      if (again.isEmpty() || System.nanoTime() > deadlineNanos) {
        return wrong;
      }
      pending = again;
      Thread.sleep(500);
    }
  }

  /** The NameNode did not call for the JVM to exit (an uncaught failure in a daemon). */
  List<String> nameNodeAlive() {
    List<String> wrong = new ArrayList<>();
    if (ExitUtil.terminateCalled()) {
      wrong.add("the NameNode called for an exit: " + ExitUtil.getFirstExitException());
    }
    if (ExitUtil.haltCalled()) {
      wrong.add("the NameNode called for a halt: " + ExitUtil.getFirstHaltException());
    }
    return wrong;
  }

  /**
   * The heatmap within its bound (at most {@code opass.heatmap.max-nodes} rows, every row a
   * DataNode the NameNode has) and the read-plan table within its limit.
   */
  List<String> bounds(int maxPlans) throws IOException {
    List<String> wrong = new ArrayList<>();
    NetworkTopology topology = cluster.datanodeManager().getNetworkTopology();
    if (topology instanceof BalancingNetworkTopology) {
      HeatTable h = ((BalancingNetworkTopology) topology).heatmap();
      if (h.trackedNodes() > h.maxNodes()) {
        wrong.add("the heatmap tracks " + h.trackedNodes() + " nodes, over its bound "
            + h.maxNodes());
      }
      Set<String> known = new HashSet<>();
      for (DatanodeInfo d : cluster.datanodeManager().getDatanodeListForReport(
          DatanodeReportType.ALL)) {
        known.add(d.getDatanodeUuid());
      }
      for (NodeHeat row : h.snapshot()) {
        if (!known.contains(row.nodeId())) {
          wrong.add("the heatmap has a row for " + row.name() + ", which the NameNode does not "
              + "know");
        }
      }
    }
    ReadPlanService plans = ReadPlanPlugin.serviceOf(cluster.activeNameNode());
    if (plans != null && plans.plans().plans().size() > maxPlans) {
      wrong.add(plans.plans().plans().size() + " live plans, over the limit " + maxPlans);
    }
    return wrong;
  }
}
