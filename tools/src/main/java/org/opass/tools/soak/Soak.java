package org.opass.tools.soak;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.NetworkTopology;
import org.opass.heatmap.HeatTable;
import org.opass.heatmap.nn.HeatmapKeys;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadBalanceKeys;
import org.opass.read.nn.ReadPlanPlugin;
import org.opass.read.nn.ReadPlanService;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.Faults;
import org.opass.tools.read.PlanFuzzer;

/**
 * A soak of the NameNode plugins on an emulated HA cluster (two NameNodes, their edits shared
 * through JournalNodes) with all three loaded in both (HM-LRU placement, the balancing
 * topology, the read-plan service): {@link Traffic} runs throughout
 * while a seeded {@link FaultSchedule} injects faults one at a time; after each fault is healed
 * the {@link Invariants} are checked, and at the end every file written is read back. The same
 * cluster can then run the same traffic under stock and our NameNode in alternating rounds
 * ({@link #compare}). Start with {@link #start}; close it to stop everything.
 */
public final class Soak implements AutoCloseable {
  /** What to run. */
  public static final class Settings {
    public long seed = 20261125L;
    public int dataNodes = 9;
    public int racks = 3;
    public long blockSize = 64 * 1024;
    /** Faults to inject, at least. */
    public int faults = 24;
    /** Keep injecting faults until this long has passed, too. */
    public Duration duration = Duration.ZERO;
    final FaultSchedule.Timing timing = new FaultSchedule.Timing();
    final Traffic.Mix mix = new Traffic.Mix();
    /** Files written before the first fault. */
    public int warmupFiles = 30;
    public File baseDir = new File("target/e2e/soak");
    /** Where progress lines go; null for none. */
    public PrintStream progress;

    /** {@code bin/bench soak --quick}: 24 faults, three of each kind (about ten minutes). */
    public static Settings quick() {
      return new Settings();
    }

    /** {@code bin/bench soak}: faults for at least 30 minutes. */
    public static Settings full() {
      Settings s = new Settings();
      s.duration = Duration.ofMinutes(30);
      s.mix.filesPerWriter = 120;
      return s;
    }

    /**
     * The slice {@code mvn test} runs: one fault of each kind, held briefly (no node is held
     * long enough to be declared dead), under lighter traffic.
     */
    public static Settings slice() {
      Settings s = new Settings();
      s.faults = FaultSchedule.Kind.values().length;
      s.timing.minGapMillis = 500;
      s.timing.maxGapMillis = 1_000;
      s.timing.minHoldMillis = 1_000;
      s.timing.maxHoldMillis = 4_000;
      s.timing.deadHoldMillis = 0;
      s.mix.writers = 2;
      s.mix.randomReaders = 1;
      s.mix.planUsers = 1;
      s.mix.storms = 1;
      s.mix.filesPerWriter = 20;
      s.warmupFiles = 10;
      return s;
    }
  }

  /** The NameNode marks a DataNode stale after this long without a heartbeat (3 heartbeats). */
  static final long STALE_MILLIS = 3000;
  /** Live plans the soak's NameNode allows; small, so that the limit is reached. */
  static final int MAX_PLANS = 64;
  static final Map<String, String> OUR_PLUGINS = Map.of(
      DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, HmLruPlacementPolicy.class.getName(),
      DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, BalancingNetworkTopology.class.getName(),
      DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReadPlanPlugin.class.getName());

  private final Settings settings;
  private final EmulatedCluster cluster;
  private final LogWatch logWatch;
  private final Ledger ledger = new Ledger();
  private final Invariants invariants;
  private final HeatTableClock clock = new HeatTableClock();
  // every heatmap and plan service the soak's NameNodes had, to sum their failure counts
  private final Set<HeatTable> heatmaps = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Set<ReadPlanService> planServices =
      Collections.newSetFromMap(new IdentityHashMap<>());
  private final SoakReport report = new SoakReport();

  private Soak(Settings settings, EmulatedCluster cluster, LogWatch logWatch) {
    this.settings = settings;
    this.cluster = cluster;
    this.logWatch = logWatch;
    this.invariants = new Invariants(cluster);
  }

  /** Starts the cluster with our three plugins and the fault-friendly settings. */
  public static Soak start(Settings s) throws IOException, InterruptedException {
    LogWatch watch = LogWatch.install();
    EmulatedCluster cluster = null;
    try {
      var b = EmulatedCluster.builder().dataNodes(s.dataNodes).racks(s.racks)
          .blockSize(s.blockSize).baseDir(s.baseDir).highAvailability()
          // dead after 2 x 1 s + 10 heartbeats (12 s), stale after 3 s: faults held seconds
          // reach both; decommissioning is checked every second
          .set(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, "1000")
          .set(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
              Long.toString(STALE_MILLIS))
          .set(DFSConfigKeys.DFS_NAMENODE_AVOID_STALE_DATANODE_FOR_READ_KEY, "true")
          .set(DFSConfigKeys.DFS_NAMENODE_AVOID_STALE_DATANODE_FOR_WRITE_KEY, "true")
          .set(DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_INTERVAL_KEY, "1")
          // bounds small enough to be reached
          .set(HeatmapKeys.MAX_NODES, Integer.toString(s.dataNodes))
          .set(HeatmapKeys.FORGET_AFTER_MS, "10000")
          .set(ReadBalanceKeys.PLAN_TTL, "30000")
          .set(ReadBalanceKeys.PLAN_MAX_PLANS, Integer.toString(MAX_PLANS))
          .set(ReadBalanceKeys.PLAN_MAX_PLANS_PER_USER, "12")
          // the soak's plan clients never send more than this many requests at once
          .set(ReadBalanceKeys.PLAN_MAX_CONCURRENT_REQUESTS, "4");
      OUR_PLUGINS.forEach(b::set);
      cluster = b.start();
      PlanFuzzer.createFiles(cluster.offClusterFileSystem(), s.blockSize, s.seed);
      Soak soak = new Soak(s, cluster, watch);
      soak.noteServices();
      return soak;
    } catch (IOException | InterruptedException | RuntimeException e) {
      if (cluster != null) {
        cluster.close();
      }
      watch.close();
      throw e;
    }
  }

  /**
   * Runs traffic, injects the scheduled faults one by one, checks the invariants after each,
   * then stops the traffic and checks everything once more, every file read back.
   */
  public SoakReport runFaults() throws Exception {
    long start = System.nanoTime();
    report.heapStartBytes = heapAfterGc();
    FaultSchedule schedule = new FaultSchedule(settings.seed, settings.dataNodes,
        settings.racks, settings.timing);
    try (Traffic traffic = new Traffic(cluster, settings.mix, ledger, settings.seed)) {
      traffic.start();
      waitForFiles(settings.warmupFiles);
      for (int n = 1; n <= settings.faults
          || System.nanoTime() - start < settings.duration.toNanos(); n++) {
        FaultSchedule.Fault fault = schedule.next();
        Thread.sleep(fault.gapMillis);
        long injected = System.nanoTime();
        traffic.counters.faultActive(true);
        String unhealed = null;
        try {
          inject(fault, traffic);
        } catch (IOException | RuntimeException e) {
          unhealed = "the cluster did not recover from " + fault + ": " + e;
        }
        traffic.counters.faultActive(false);
        double healSeconds = (System.nanoTime() - injected) / 1e9;
        List<String> found = new ArrayList<>();
        if (unhealed != null) {
          found.add(unhealed);
        }
        found.addAll(checkpoint(false));
        report.fault(fault, found);
        progress(String.format(Locale.ROOT, "fault %d%s %s: over in %.1f s; %s | %d ops, "
                + "%d fuzz cases, %d files", n, settings.duration.isZero() ? "/" + settings.faults
                : "", fault, healSeconds, found.isEmpty() ? "invariants hold"
                : found.size() + " VIOLATED: " + found.get(0), traffic.counters.operations(),
            traffic.counters.fuzzCases(), ledger.size()));
        maxSeen();
        if (unhealed != null) {
          break; // later faults would hit a cluster in an unknown state
        }
      }
      report.traffic(traffic);
    }
    // everything written, read back once the traffic has stopped
    List<String> end = checkpoint(true);
    report.end(end, ledger.size());
    report.heapEndBytes = heapAfterGc();
    report.logEscapes = logWatch.escaped();
    report.seconds = (System.nanoTime() - start) / 1e9;
    progress(String.format(Locale.ROOT, "end: %d files read back, %s", ledger.size(),
        end.isEmpty() ? "invariants hold" : end.size() + " VIOLATED: " + end.get(0)));
    return report;
  }

  private void inject(FaultSchedule.Fault f, Traffic traffic) throws Exception {
    Faults faults = cluster.faults();
    switch (f.kind) {
      case DATANODE_RESTART:
        faults.stopDataNode(f.target);
        Thread.sleep(f.holdMillis);
        faults.restartDataNode(f.target);
        break;
      case STALE_HEARTBEATS:
        faults.stallHeartbeats(f.target, true);
        Thread.sleep(f.holdMillis);
        faults.stallHeartbeats(f.target, false);
        waitUntilFresh(f.target);
        break;
      case DECOMMISSION:
        faults.decommission(f.target);
        faults.waitDecommissioned(f.target);
        faults.recommission(f.target);
        faults.waitInService(f.target);
        break;
      case RACK_LOSS: {
        List<Integer> rack = new ArrayList<>();
        for (int k = 0; k < cluster.size(); k++) {
          if (cluster.rack(k).equals("/rack" + f.target)) {
            rack.add(k);
          }
        }
        for (int k : rack) {
          faults.stopDataNode(k);
        }
        Thread.sleep(f.holdMillis);
        for (int k : rack) {
          faults.restartDataNode(k);
        }
        break;
      }
      case NAMENODE_RESTART:
        switchNameNodes(traffic, () -> cluster.restartNameNode(Map.of()));
        break;
      case FAILOVER_GRACEFUL:
        switchNameNodes(traffic, () -> cluster.failover(EmulatedCluster.Failover.GRACEFUL));
        break;
      case FAILOVER_KILLED:
        switchNameNodes(traffic, () -> cluster.failover(EmulatedCluster.Failover.KILLED));
        Thread.sleep(f.holdMillis);
        cluster.restartStandby();
        break;
      case CLOCK_JUMP:
        clock.jump(cluster, Duration.ofMillis(f.jumpMillis));
        noteServices();
        Thread.sleep(f.holdMillis);
        break;
      default:
        throw new IllegalStateException("no such fault: " + f.kind);
    }
  }

  private interface NameNodeSwitch {
    void run() throws Exception;
  }

  /**
   * Restarts or fails over the NameNode with the plan endpoint's callers held at the gate: they
   * never meet a NameNode that is down or a standby (whose 503 would count as a fuzz 5xx); HDFS
   * clients are not held, and retry or fail over by themselves. Plans of the old NameNode are
   * gone after it.
   */
  private void switchNameNodes(Traffic traffic, NameNodeSwitch change) throws Exception {
    traffic.nameNodeGate().writeLock().lock();
    try {
      noteServices(); // their counts, before they go
      change.run();
      traffic.nameNodeRestarted();
      noteServices();
    } finally {
      traffic.nameNodeGate().writeLock().unlock();
    }
  }

  /** Waits until DataNode {@code k} heartbeats again and the NameNode has it fresh. */
  private void waitUntilFresh(int k) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      DatanodeDescriptor d = cluster.datanodeDescriptor(k);
      if (d != null && d.isAlive() && !d.isStale(STALE_MILLIS)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("DataNode " + k + " did not come back after its heartbeats "
            + "resumed");
      }
      Thread.sleep(50);
    }
  }

  /**
   * The invariants: files read back (all of them at the end; after a fault, those written so
   * far), fsck healthy, placement within the default's rules, the NameNode alive, our bounds
   * kept, no exception of ours in Hadoop's log, no internal failure of our plugins.
   */
  private List<String> checkpoint(boolean end) throws Exception {
    List<String> found = new ArrayList<>();
    List<Ledger.Entry> files = ledger.all();
    List<String> unreadable = invariants.filesReadBack(files, ledger);
    if (end) {
      report.filesLost = unreadable.size();
    }
    found.addAll(unreadable);
    found.addAll(invariants.fsck());
    found.addAll(invariants.placement(files, ledger,
        System.nanoTime() + Duration.ofSeconds(60).toNanos()));
    found.addAll(invariants.nameNodeAlive());
    found.addAll(invariants.bounds(MAX_PLANS));
    noteServices();
    long escaped = logWatch.escaped();
    if (escaped > report.logEscapesSeen) {
      found.add((escaped - report.logEscapesSeen) + " exception(s) of ours logged by Hadoop: "
          + logWatch.samples());
      report.logEscapesSeen = escaped;
    }
    long fallbacks = fallbacks();
    if (fallbacks > report.fallbacksSeen) {
      found.add((fallbacks - report.fallbacksSeen) + " internal failure(s) of our plugins "
          + "(stock behaviour taken, logged under org.opass)");
      report.fallbacksSeen = fallbacks;
    }
    return found;
  }

  /** Remembers the current NameNode's heatmap(s) and plan service. */
  private void noteServices() {
    NetworkTopology t = cluster.datanodeManager().getNetworkTopology();
    if (t instanceof BalancingNetworkTopology) {
      heatmaps.add(((BalancingNetworkTopology) t).heatmap());
    }
    BlockPlacementPolicy p = cluster.blockManager().getBlockPlacementPolicy();
    if (p instanceof HmLruPlacementPolicy) {
      heatmaps.add(((HmLruPlacementPolicy) p).heatmap());
    }
    ReadPlanService s = ReadPlanPlugin.serviceOf(cluster.activeNameNode());
    if (s != null) {
      planServices.add(s);
    }
  }

  /** Fallbacks of every heatmap and 500s of every plan service the soak has seen. */
  private long fallbacks() {
    long n = 0;
    for (HeatTable h : heatmaps) {
      n += h.fallbacks();
    }
    for (ReadPlanService s : planServices) {
      n += s.metrics().count(500);
    }
    return n;
  }

  private void maxSeen() {
    NetworkTopology t = cluster.datanodeManager().getNetworkTopology();
    if (t instanceof BalancingNetworkTopology) {
      report.heatmapMaxTracked = Math.max(report.heatmapMaxTracked,
          ((BalancingNetworkTopology) t).heatmap().trackedNodes());
    }
    ReadPlanService s = ReadPlanPlugin.serviceOf(cluster.activeNameNode());
    if (s != null) {
      report.plansMax = Math.max(report.plansMax, s.plans().plans().size());
    }
  }

  private void waitForFiles(int n) throws InterruptedException, IOException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (ledger.size() < n) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the writers wrote " + ledger.size() + " files in 2 minutes");
      }
      Thread.sleep(100);
    }
  }

  // ---- stock vs ours under the same traffic ----

  /** One round of {@link #compare}: which NameNode, its getBlockLocations p99, its heap. */
  public static final class Round {
    public final boolean ours;
    public final double gblP99Micros;
    public final double gblP50Micros;
    public final long gblCalls;
    public final long heapBytes;

    Round(boolean ours, LatencyHistogram h, long heapBytes) {
      this.ours = ours;
      this.gblP99Micros = h.quantileMicros(0.99);
      this.gblP50Micros = h.quantileMicros(0.50);
      this.gblCalls = h.count();
      this.heapBytes = heapBytes;
    }
  }

  /**
   * Runs the same client work ({@link Traffic.Mix#forComparison}) for {@code roundTime} under
   * the stock NameNode and under ours, in {@code pairs} pairs of rounds that alternate which
   * goes first; each round restarts the NameNode with its configuration over the same data and
   * uses the same seed as its partner. Planned readers submit plans only to ours (stock has no
   * plan service): the same work, as a job would do it with or without Opass.
   */
  public List<Round> compare(int pairs, Duration roundTime) throws Exception {
    List<Round> rounds = new ArrayList<>();
    Map<String, String> stock = new TreeMap<>();
    OUR_PLUGINS.keySet().forEach(k -> stock.put(k, null));
    for (int pair = 0; pair < pairs; pair++) {
      for (int i = 0; i < 2; i++) {
        boolean ours = (pair + i) % 2 == 0;
        cluster.restartNameNode(ours ? OUR_PLUGINS : stock);
        Traffic.Mix mix = settings.mix.forComparison(ours);
        LatencyHistogram gbl;
        try (Traffic traffic = new Traffic(cluster, mix, ledger, settings.seed + 1000 + pair)) {
          traffic.start();
          Thread.sleep(roundTime.toMillis());
          gbl = traffic.gbl;
        }
        Round r = new Round(ours, gbl, heapAfterGc());
        rounds.add(r);
        progress(String.format(Locale.ROOT, "compare pair %d/%d, %s: getBlockLocations p99 "
                + "%.0f µs (p50 %.0f µs, %d calls), heap after GC %d MB", pair + 1, pairs,
            ours ? "ours " : "stock", r.gblP99Micros, r.gblP50Micros, r.gblCalls,
            r.heapBytes >> 20));
      }
    }
    cluster.restartNameNode(OUR_PLUGINS);
    return rounds;
  }

  static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private void progress(String line) {
    if (settings.progress != null) {
      settings.progress.println(line);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      cluster.close();
    } finally {
      logWatch.close();
    }
  }
}
