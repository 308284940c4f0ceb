package org.opass.tools.sim;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.SimulatedPlacementCluster;
import org.apache.hadoop.util.Time;
import org.opass.heatmap.nn.HeatTableFeed;
import org.opass.read.balance.BalanceResult;
import org.opass.read.balance.ChunkRead;
import org.opass.read.balance.ReplicaBalancer;
import org.opass.read.balance.Strategy;
import org.opass.read.balance.StrategyComparison;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadPlanTable;
import org.opass.read.plan.Chunk;
import org.opass.read.plan.DynamicAssignment;
import org.opass.read.plan.EqualAssignment;
import org.opass.read.plan.Plan;
import org.opass.read.plan.Proc;
import org.opass.read.plan.RackResolver;

/**
 * Parallel reads in simulated time, the {@code read-single}, {@code read-dynamic} and
 * {@code read-tenants} workloads on a real NameNode with simulated DataNodes
 * ({@link SimulatedPlacementCluster}). Which replica serves a read is decided by the real
 * classes: the NameNode's own {@code sortLocatedBlocks} through the configured topology
 * (stock {@code DFSNetworkTopology}, with or without {@code dfs.namenode.read.considerLoad},
 * or {@link BalancingNetworkTopology} with its heatmap and {@link ReadPlanTable}); Opass's
 * processes read what the planner ({@link EqualAssignment}, {@link DynamicAssignment}) gives
 * them, and their plan's servers are chosen by {@link ReplicaBalancer} as the plan service
 * chooses them. A flow-level model moves the bytes: each DataNode's read bandwidth is shared
 * evenly among the reads it serves ({@link FairShare}), less what the {@link DiskModel} says
 * switching between them costs, and DataNodes heartbeat once a
 * second (each at its own phase) with those reads as their transfer count.
 *
 * <p>The data is placed once per seed by the stock policy from a writer on no DataNode
 * (replicas at random, as the paper assumes) and read by every system, so systems pair by
 * seed.
 */
public final class ReadSimulation {
  private static final double EPS_BYTES = 1e-6;

  /** The workload, as in the read benchmarks. */
  public enum Kind {
    /** One process per DataNode host, each reading its chunks one after the other. */
    SINGLE,
    /** Master/worker: tasks handed out one at a time, 0-1 s of compute after each read. */
    DYNAMIC,
    /** Two independent tenants, each with one process per host and its own data. */
    TENANTS
  }

  /** The systems compared. */
  public enum Reader {
    /** Stock NameNode; rank-based assignment (a shuffled queue for master/worker). */
    STOCK,
    /** The same with {@code dfs.namenode.read.considerLoad}. */
    STOCK_CONSIDERLOAD,
    /** Balancing topology and read plans; the planner's assignment. */
    OPASS
  }

  /** What to simulate. */
  public static final class Setup {
    final int nodes;
    final int racks;
    final Kind kind;
    int chunksPerProcess = 10;
    long blockBytes = 1 << 20;
    double readBytesPerSec = 2 << 20;
    long heartbeatMillis = 1000;
    DiskModel disk = DiskModel.FAIR_SHARE;

    public Setup(int nodes, int racks, Kind kind) {
      this.nodes = nodes;
      this.racks = racks;
      this.kind = kind;
    }

    public Setup chunksPerProcess(int n) {
      chunksPerProcess = n;
      return this;
    }

    public Setup disk(DiskModel model) {
      disk = model;
      return this;
    }

    public int tenants() {
      return kind == Kind.TENANTS ? 2 : 1;
    }

    /**
     * The least average chunk time any assignment can reach: a lone reader's, when all
     * processes read at once times the readers each DataNode must then serve (two tenants:
     * two, at the disk model's efficiency for two streams). Master/worker processes pause to
     * compute, so theirs is one reader's.
     */
    public double floorChunkSeconds() {
      return blockBytes / readBytesPerSec * tenants() / disk.efficiency(tenants());
    }
  }

  /** One run's figures: seconds, and chunks served per DataNode. */
  public record Result(double chunkAvgSec, double chunkMaxSec, double makespanSec,
      int[] servedPerDataNode, double localFraction) {
    public double servedMaxOverAvg() {
      return Arrays.stream(servedPerDataNode).max().orElse(0)
          / Arrays.stream(servedPerDataNode).average().orElse(1);
    }
  }

  private ReadSimulation() {
  }

  /**
   * Every system on every seed: one NameNode per system, the seeds one after the other on it,
   * each starting at least a heartbeat interval after the previous ended on its clock.
   */
  public static Map<Reader, List<Result>> run(File baseDir, Setup s, long[] seeds)
      throws Exception {
    Map<Reader, List<Result>> results = new LinkedHashMap<>();
    List<int[][]> placements = new ArrayList<>();
    for (Reader reader : Reader.values()) {
      File dir = Files.createTempDirectory(baseDir.toPath().toAbsolutePath(), "run").toFile();
      List<Result> list = new ArrayList<>();
      try (SimulatedPlacementCluster cluster = SimulatedPlacementCluster.start(dir, s.nodes,
          s.racks, nameNodeConf(reader, s), null)) {
        long clock = Time.monotonicNow();
        for (int i = 0; i < seeds.length; i++) {
          if (placements.size() <= i) {
            placements.add(place(cluster, s, clock));
          }
          Result r = new Run(cluster, s, reader, seeds[i], placements.get(i), clock).simulate();
          list.add(r);
          clock = Math.max(Time.monotonicNow(),
              clock + (long) Math.ceil(r.makespanSec() * 1000) + 2 * s.heartbeatMillis);
        }
      } finally {
        FileUtil.fullyDelete(dir);
      }
      results.put(reader, list);
    }
    return results;
  }

  private static Map<String, String> nameNodeConf(Reader reader, Setup s) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, (reader == Reader.OPASS
        ? BalancingNetworkTopology.class : DFSNetworkTopology.class).getName());
    conf.put(DFSConfigKeys.DFS_NAMENODE_READ_CONSIDERLOAD_KEY,
        Boolean.toString(reader == Reader.STOCK_CONSIDERLOAD));
    conf.put(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
        String.valueOf(Math.max(1, s.heartbeatMillis / 1000)));
    return conf;
  }

  /**
   * Replica holders (node indices) of every tenant's chunks, tenant after tenant, placed on an
   * idle cluster: a previous run's last heartbeats would make stock's considerLoad leave its
   * busiest DataNodes out.
   */
  private static int[][] place(SimulatedPlacementCluster cluster, Setup s, long clock) {
    DatanodeDescriptor[] dns = cluster.dataNodes();
    for (DatanodeDescriptor dn : dns) {
      cluster.heartbeat(dn, 0, clock);
    }
    Map<String, Integer> index = new HashMap<>();
    for (int d = 0; d < dns.length; d++) {
      index.put(dns[d].getDatanodeUuid(), d);
    }
    int[][] holders = new int[s.tenants() * s.nodes * s.chunksPerProcess][];
    for (int c = 0; c < holders.length; c++) {
      DatanodeStorageInfo[] targets = cluster.chooseTarget(3, null); // a writer on no DataNode
      holders[c] = Arrays.stream(targets)
          .mapToInt(t -> index.get(t.getDatanodeDescriptor().getDatanodeUuid())).toArray();
    }
    return holders;
  }

  /** One read in flight. */
  private static final class Flow {
    final int process;
    final int server;
    final double start;
    double remaining;

    Flow(int process, int server, double start, double remaining) {
      this.process = process;
      this.server = server;
      this.start = start;
      this.remaining = remaining;
    }
  }

  /** One system on one seed. */
  private static final class Run {
    final SimulatedPlacementCluster cluster;
    final Setup s;
    final Reader reader;
    final long seed;
    final int[][] holders;
    final long clockBase;
    final DatanodeDescriptor[] dns;
    final Map<String, Integer> index = new HashMap<>();
    final int processes;
    final int perTenant; // chunks of one tenant

    Run(SimulatedPlacementCluster cluster, Setup s, Reader reader, long seed, int[][] holders,
        long clockBase) {
      this.cluster = cluster;
      this.s = s;
      this.reader = reader;
      this.seed = seed;
      this.holders = holders;
      this.clockBase = clockBase;
      this.dns = cluster.dataNodes();
      for (int d = 0; d < dns.length; d++) {
        index.put(dns[d].getDatanodeUuid(), d);
      }
      this.processes = s.nodes * s.tenants();
      this.perTenant = s.nodes * s.chunksPerProcess;
    }

    int host(int process) {
      return process % s.nodes;
    }

    Result simulate() throws Exception {
      Random rnd = new Random(seed);
      double[] nextHeartbeat = new double[dns.length];
      for (int d = 0; d < dns.length; d++) {
        nextHeartbeat[d] = rnd.nextDouble() * s.heartbeatMillis;
        cluster.heartbeat(dns[d], 0, clockBase);
      }
      BalancingNetworkTopology balancing = cluster.topology() instanceof BalancingNetworkTopology
          ? (BalancingNetworkTopology) cluster.topology() : null;
      IntFunction<Integer> source = source(rnd, balancing);

      int[] streams = new int[dns.length];
      int[] served = new int[dns.length];
      List<Integer> order = new ArrayList<>();
      for (int p = 0; p < processes; p++) {
        order.add(p);
      }
      Collections.shuffle(order, rnd); // who reaches the NameNode first when several are due
      double[] wake = new double[processes]; // when a process asks for its next read
      boolean[] reading = new boolean[processes];
      boolean[] finished = new boolean[processes];
      List<Flow> flows = new ArrayList<>();
      List<Double> chunkMs = new ArrayList<>();
      int local = 0;
      int finishedCount = 0;
      double now = 0;
      double lastFinish = 0;
      double[] rate = null;
      while (finishedCount < processes) {
        for (int p : order) {
          if (finished[p] || reading[p] || wake[p] > now) {
            continue;
          }
          Integer chunk = source.apply(p);
          if (chunk == null) {
            finished[p] = true;
            finishedCount++;
            lastFinish = Math.max(lastFinish, now);
            continue;
          }
          int server = serverFor(p, chunk);
          local += server == host(p) ? 1 : 0;
          streams[server]++;
          served[server]++;
          reading[p] = true;
          flows.add(new Flow(p, server, now, s.blockBytes));
          // a compute time per task, fixed by the task, for master/worker
          wake[p] = s.kind == Kind.DYNAMIC ? new Random(1000L + chunk).nextInt(1000) : 0;
          rate = null;
        }
        if (finishedCount == processes) {
          break;
        }
        if (rate == null) {
          int[][] members = new int[flows.size()][];
          for (int f = 0; f < members.length; f++) {
            members[f] = new int[] {flows.get(f).server};
          }
          // bytes per simulated ms, as much as the disk model lets each DataNode's reads have
          rate = FairShare.rates(members, s.disk.capacities(s.readBytesPerSec / 1000.0, streams));
        }
        double next = Double.POSITIVE_INFINITY;
        for (int f = 0; f < rate.length; f++) {
          next = Math.min(next, now + flows.get(f).remaining / rate[f]);
        }
        for (int p = 0; p < processes; p++) {
          if (!finished[p] && !reading[p]) {
            next = Math.min(next, wake[p]);
          }
        }
        for (double t : nextHeartbeat) {
          next = Math.min(next, t);
        }
        double dt = Math.max(0, next - now);
        now += dt;
        for (int f = 0; f < rate.length; f++) {
          flows.get(f).remaining -= rate[f] * dt;
        }
        boolean beat = false;
        for (int d = 0; d < dns.length; d++) {
          if (nextHeartbeat[d] <= now) {
            cluster.heartbeat(dns[d], streams[d], clockBase + (long) Math.ceil(now));
            nextHeartbeat[d] += s.heartbeatMillis;
            beat = true;
          }
        }
        if (beat && balancing != null && balancing.heatmap() != null) {
          // what the topology's own refresh does once a heartbeat interval of wall time
          HeatTableFeed.observeAll(balancing.heatmap(), balancing);
        }
        for (Flow f : flows) {
          if (f.remaining <= EPS_BYTES * s.blockBytes) {
            streams[f.server]--;
            reading[f.process] = false;
            chunkMs.add(now - f.start);
            wake[f.process] += now; // the compute time drawn at the read's start, from now
            rate = null;
          }
        }
        if (rate == null) {
          flows.removeIf(f -> f.remaining <= EPS_BYTES * s.blockBytes);
        }
      }
      double avg = chunkMs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
      double max = chunkMs.stream().mapToDouble(Double::doubleValue).max().orElse(0);
      return new Result(avg / 1000, max / 1000, lastFinish / 1000, served,
          local / (double) chunkMs.size());
    }

    /** The DataNode the NameNode puts first for process {@code p}'s read of a chunk. */
    int serverFor(int p, int chunk) {
      DatanodeDescriptor[] on = new DatanodeDescriptor[holders[chunk].length];
      for (int k = 0; k < on.length; k++) {
        on[k] = dns[holders[chunk][k]];
      }
      DatanodeInfo[] sorted = cluster.sortedForReader(dns[host(p)].getIpAddr(), on);
      return index.get(sorted[0].getDatanodeUuid());
    }

    /** Hands process {@code p} its next chunk (an index into the holders), null when done. */
    IntFunction<Integer> source(Random rnd, BalancingNetworkTopology balancing)
        throws Exception {
      if (reader != Reader.OPASS) {
        if (s.kind == Kind.DYNAMIC) {
          // master/worker as mpiBLAST-like applications write it: tasks in a random order
          List<Integer> tasks = new ArrayList<>();
          for (int c = 0; c < perTenant; c++) {
            tasks.add(c);
          }
          Collections.shuffle(tasks, new Random(seed * 31 + 7));
          int[] nextTask = {0};
          return p -> nextTask[0] < tasks.size() ? tasks.get(nextTask[0]++) : null;
        }
        int[] taken = new int[processes];
        return p -> taken[p] < s.chunksPerProcess
            ? p / s.nodes * perTenant + host(p) * s.chunksPerProcess + taken[p]++ : null;
      }
      ReadPlanTable plans = new ReadPlanTable(ReadPlanTable.Limits.builder().maxReads(1 << 22)
          .maxReadsPerUser(1 << 22).build(), Time::monotonicNow);
      balancing.setPlans(plans);
      Map<String, String> racks = new HashMap<>();
      for (DatanodeDescriptor dn : dns) {
        racks.put(dn.getIpAddr(), dn.getNetworkLocation());
      }
      List<Proc> procs = new ArrayList<>();
      for (int q = 0; q < s.nodes; q++) {
        procs.add(new Proc(q, dns[q].getIpAddr()));
      }
      List<List<Integer>> lists = new ArrayList<>();
      List<DynamicAssignment<Chunk>> dynamic = new ArrayList<>();
      for (int t = 0; t < s.tenants(); t++) {
        List<Chunk> chunks = new ArrayList<>();
        for (int c = 0; c < perTenant; c++) {
          List<String> hosts = new ArrayList<>();
          for (int d : holders[t * perTenant + c]) {
            hosts.add(dns[d].getIpAddr());
          }
          chunks.add(new Chunk(t * perTenant + c, "/sim/tenant" + t + "/" + c, 0, s.blockBytes,
              hosts));
        }
        Plan plan = EqualAssignment.plan(chunks, procs, RackResolver.of(racks));
        submit(plans, plan, rnd.nextLong());
        for (int q = 0; q < s.nodes; q++) {
          List<Integer> list = new ArrayList<>();
          for (int i : plan.chunkIndicesOf(q)) {
            list.add(t * perTenant + i);
          }
          lists.add(list);
        }
        dynamic.add(DynamicAssignment.of(plan));
      }
      if (s.kind == Kind.DYNAMIC) {
        DynamicAssignment<Chunk> d = dynamic.get(0);
        return p -> d.next(p).map(Chunk::id).orElse(null);
      }
      int[] taken = new int[processes];
      return p -> taken[p] < lists.get(p).size() ? lists.get(p).get(taken[p]++) : null;
    }

    /**
     * Submits a plan's reads as the plan service does ({@code ReadPlanService#plan}): a read
     * whose reader holds a replica is served locally and counts as load; the others go to
     * {@link ReplicaBalancer}'s optimal assignment around that load and the outstanding reads
     * of earlier plans.
     */
    void submit(ReadPlanTable plans, Plan plan, long balancerSeed) throws Exception {
      Map<String, Integer> load = new HashMap<>(plans.outstanding());
      List<ChunkRead> remote = new ArrayList<>();
      List<Chunk> chunks = plan.chunks();
      String[] readerOf = new String[chunks.size()];
      String[] localOf = new String[chunks.size()];
      for (int i = 0; i < chunks.size(); i++) {
        Chunk c = chunks.get(i);
        int q = plan.processOf(i); // process q runs on DataNode host q
        readerOf[i] = dns[q].getIpAddr();
        if (c.isOn(readerOf[i])) {
          localOf[i] = dns[q].getDatanodeUuid();
          load.merge(localOf[i], 1, Integer::sum);
        } else {
          remote.add(new ChunkRead(Integer.toString(i), uuids(c.id())));
        }
      }
      StrategyComparison both = new ReplicaBalancer(Strategy.OPTIMAL, balancerSeed,
          Math.max(1, remote.size())).compare(remote, load);
      BalanceResult chosen = both.optimal();
      List<ReadPlanTable.PlannedRead> planned = new ArrayList<>();
      for (int i = 0; i < chunks.size(); i++) {
        String server = localOf[i] != null ? localOf[i]
            : chosen.assignment().get(Integer.toString(i));
        planned.add(new ReadPlanTable.PlannedRead(readerOf[i], uuids(chunks.get(i).id()), server));
      }
      plans.add("sim", planned);
    }

    List<String> uuids(int chunk) {
      List<String> ids = new ArrayList<>();
      for (int d : holders[chunk]) {
        ids.add(dns[d].getDatanodeUuid());
      }
      return ids;
    }
  }
}
