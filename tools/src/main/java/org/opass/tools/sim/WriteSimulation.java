package org.opass.tools.sim;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.SimulatedPlacementCluster;
import org.apache.hadoop.util.Time;

/**
 * Parallel writes in simulated time: a real NameNode with simulated DataNodes
 * ({@link SimulatedPlacementCluster}) places every block through the configured placement
 * policy, and a flow-level model moves the bytes. Each DataNode writes at a fixed bandwidth
 * shared max-min fairly among the pipelines through it ({@link FairShare}), less what the
 * {@link DiskModel} says switching between them costs; a pipeline moves
 * at the pace its slowest member allows. Every DataNode heartbeats once a heartbeat interval
 * (at its own phase) with its active transfers as its xceiver count, on the NameNode's clock
 * advanced by simulated time, so load-aware placement (stock {@code considerLoad}, HM-LRU's
 * heatmap) sees what it would see on a cluster.
 *
 * <p>The workload is the {@code write} benchmark's: W writers spread evenly over the DataNode
 * hosts, each writing B blocks one after the other with replication 3.
 */
public final class WriteSimulation {
  private static final double EPS_BYTES = 1e-6;

  /** What to simulate. */
  public static final class Setup {
    final int nodes;
    final int racks;
    final String policyClass;
    final Map<String, String> conf = new LinkedHashMap<>();
    int writers = 64;
    int blocksPerWriter = 16;
    long blockBytes = 1 << 20;
    double writeBytesPerSec = 4 << 20;
    long heartbeatMillis = 1000;
    long seed = 1;
    DiskModel disk = DiskModel.FAIR_SHARE;
    boolean exactLeastBusy;

    public Setup(int nodes, int racks, String policyClass) {
      this.nodes = nodes;
      this.racks = racks;
      this.policyClass = policyClass;
    }

    public Setup writers(int w, int blocksEach) {
      writers = w;
      blocksPerWriter = blocksEach;
      return this;
    }

    public Setup bandwidth(double bytesPerSecPerDataNode, long blockBytes) {
      this.writeBytesPerSec = bytesPerSecPerDataNode;
      this.blockBytes = blockBytes;
      return this;
    }

    public Setup set(String key, String value) {
      conf.put(key, value);
      return this;
    }

    public Setup seed(long seed) {
      this.seed = seed;
      return this;
    }

    /**
     * Places blocks by the simulator's exact stream counts instead of the NameNode's policy:
     * the writer's node first, then the two least busy nodes of another rack (the default's
     * rack rule), ties to the lowest index. A greedy rule with knowledge no NameNode has
     * between heartbeats, to compare placement rules with.
     */
    public Setup exactLeastBusy() {
      exactLeastBusy = true;
      return this;
    }

    public Setup disk(DiskModel model) {
      disk = model;
      return this;
    }
  }

  /** Per-writer bandwidth (MiB/s), replicas stored per DataNode, makespan (simulated s). */
  public record Result(double[] writerBandwidth, int[] storedPerDataNode, double makespanSec) {
  }

  private WriteSimulation() {
  }

  /** One pipeline writing one block. */
  private static final class Flow {
    final int writer;
    final int[] members;
    /** The NameNode's targets, reported received when the block is written (null: none). */
    final DatanodeStorageInfo[] targets;
    double remaining;

    Flow(int writer, int[] members, DatanodeStorageInfo[] targets, double remaining) {
      this.writer = writer;
      this.members = members;
      this.targets = targets;
      this.remaining = remaining;
    }
  }

  public static Result run(File baseDir, Setup s) throws Exception {
    return run(baseDir, s, new long[] {s.seed}).get(0);
  }

  /**
   * One simulation per seed on one NameNode (starting hundreds of NameNodes in one JVM runs
   * it out of heap). Each run starts with every DataNode idle, at least one heartbeat interval
   * after the previous run ended on the NameNode's clock, so that each of its heartbeats is new.
   */
  public static List<Result> run(File baseDir, Setup s, long[] seeds) throws Exception {
    Map<String, String> overlay = new LinkedHashMap<>(s.conf);
    overlay.put(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, s.policyClass);
    overlay.putIfAbsent(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
        String.valueOf(Math.max(1, s.heartbeatMillis / 1000)));
    // a fresh name directory each time: formatting over an old one prints to the console
    File dir = Files.createTempDirectory(baseDir.toPath().toAbsolutePath(), "run").toFile();
    List<Result> results = new ArrayList<>();
    try (SimulatedPlacementCluster cluster = SimulatedPlacementCluster.start(dir, s.nodes,
        s.racks, overlay, null)) {
      long clock = Time.monotonicNow();
      for (long seed : seeds) {
        s.seed(seed);
        Result r = simulate(cluster, s, clock);
        results.add(r);
        clock = Math.max(Time.monotonicNow(),
            clock + (long) Math.ceil(r.makespanSec() * 1000) + 2 * s.heartbeatMillis);
      }
      return results;
    } finally {
      FileUtil.fullyDelete(dir);
    }
  }

  private static Result simulate(SimulatedPlacementCluster cluster, Setup s, long clockBase) {
    Nodes nodes = new Nodes(cluster, s);
    DatanodeDescriptor[] dns = nodes.dns;
    Random rnd = new Random(s.seed); // clockBase: simulated ms 0 on the NameNode's clock
    double[] nextHeartbeat = new double[dns.length]; // simulated ms
    for (int d = 0; d < dns.length; d++) {
      nextHeartbeat[d] = rnd.nextDouble() * s.heartbeatMillis; // DataNodes are not in step
    }
    int[] streams = nodes.streams;
    for (DatanodeDescriptor dn : dns) {
      cluster.heartbeat(dn, 0, clockBase);
    }
    int[] left = new int[s.writers];
    double[] finish = new double[s.writers];
    List<Flow> flows = new ArrayList<>();
    List<Integer> order = new ArrayList<>();
    for (int w = 0; w < s.writers; w++) {
      left[w] = s.blocksPerWriter;
      order.add(w);
    }
    Collections.shuffle(order, rnd); // who reaches the NameNode first at time 0
    for (int w : order) {
      flows.add(nodes.startBlock(w));
      left[w]--;
    }

    double now = 0;
    double[] rate = null; // recomputed only when a pipeline starts or ends, not at heartbeats
    while (!flows.isEmpty()) {
      if (rate == null) {
        int[][] members = new int[flows.size()][];
        for (int f = 0; f < members.length; f++) {
          members[f] = flows.get(f).members;
        }
        // bytes per simulated ms, as much as the disk model lets each DataNode's streams have
        rate = FairShare.rates(members, s.disk.capacities(s.writeBytesPerSec / 1000.0, streams));
      }
      double dt = Double.POSITIVE_INFINITY;
      for (int f = 0; f < rate.length; f++) {
        dt = Math.min(dt, flows.get(f).remaining / rate[f]);
      }
      double heartbeatAt = Double.POSITIVE_INFINITY;
      for (double t : nextHeartbeat) {
        heartbeatAt = Math.min(heartbeatAt, t);
      }
      dt = Math.min(dt, Math.max(0, heartbeatAt - now));
      now += dt;
      for (int f = 0; f < rate.length; f++) {
        flows.get(f).remaining -= rate[f] * dt;
      }
      // heartbeats due now report the transfers running now
      for (int d = 0; d < dns.length; d++) {
        if (nextHeartbeat[d] <= now) {
          cluster.heartbeat(dns[d], streams[d], clockBase + (long) Math.ceil(now));
          nextHeartbeat[d] += s.heartbeatMillis;
        }
      }
      // finished blocks; their writers go on with the next block at once
      List<Flow> done = new ArrayList<>();
      for (Flow f : flows) {
        if (f.remaining <= EPS_BYTES * s.blockBytes) {
          done.add(f);
        }
      }
      if (done.isEmpty()) {
        continue;
      }
      rate = null;
      flows.removeIf(f -> f.remaining <= EPS_BYTES * s.blockBytes);
      for (Flow f : done) {
        for (int d : f.members) {
          streams[d]--;
        }
        if (f.targets != null) {
          for (DatanodeStorageInfo t : f.targets) {
            cluster.received(t);
          }
        }
        if (left[f.writer] > 0) {
          left[f.writer]--;
          flows.add(nodes.startBlock(f.writer));
        } else {
          finish[f.writer] = now;
        }
      }
    }
    double[] bw = new double[s.writers];
    double makespan = 0;
    for (int w = 0; w < s.writers; w++) {
      double seconds = finish[w] / 1000.0;
      bw[w] = s.blocksPerWriter * (double) s.blockBytes / (1 << 20) / seconds;
      makespan = Math.max(makespan, seconds);
    }
    return new Result(bw, nodes.stored, makespan);
  }

  /** The writer's node, then the two least busy of another rack (ties: the lowest index). */
  private static int[] leastBusy(DatanodeDescriptor[] dns, int local, int[] streams,
      int racks) {
    int n = dns.length;
    int localRack = local * racks / n;
    int best = -1;
    int second = -1;
    // the least busy remote rack by its least busy pair
    for (int r = 0; r < racks; r++) {
      if (r == localRack && racks > 1) {
        continue;
      }
      int a = -1;
      int b = -1;
      for (int d = 0; d < n; d++) {
        if (d * racks / n != r || d == local) {
          continue;
        }
        if (a < 0 || streams[d] < streams[a]) {
          b = a;
          a = d;
        } else if (b < 0 || streams[d] < streams[b]) {
          b = d;
        }
      }
      if (b >= 0 && (best < 0 || Math.max(streams[a], streams[b])
          < Math.max(streams[best], streams[second]))) {
        best = a;
        second = b;
      }
    }
    return new int[] {local, best, second};
  }

  /** One run's DataNodes: the NameNode's descriptors, each one's streams and replicas stored. */
  private static final class Nodes {
    final SimulatedPlacementCluster cluster;
    final Setup s;
    final DatanodeDescriptor[] dns;
    final Map<DatanodeDescriptor, Integer> index = new IdentityHashMap<>();
    final int[] streams;
    final int[] stored;

    Nodes(SimulatedPlacementCluster cluster, Setup s) {
      this.cluster = cluster;
      this.s = s;
      dns = cluster.dataNodes();
      for (int d = 0; d < dns.length; d++) {
        index.put(dns[d], d);
      }
      streams = new int[dns.length];
      stored = new int[dns.length];
    }

    /** The writer's next block: its pipeline, counted on each of its members. */
    Flow startBlock(int writer) {
      DatanodeDescriptor host = dns[writer % dns.length];
      int[] members;
      DatanodeStorageInfo[] targets = null;
      if (s.exactLeastBusy) {
        members = leastBusy(dns, writer % dns.length, streams, s.racks);
      } else {
        targets = cluster.allocate(3, host);
        members = new int[targets.length];
        for (int k = 0; k < targets.length; k++) {
          members[k] = index.get(targets[k].getDatanodeDescriptor());
        }
      }
      for (int d : members) {
        streams[d]++;
        stored[d]++;
      }
      return new Flow(writer, members, targets, s.blockBytes);
    }
  }
}
