package org.opass.tools.bench.opass;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.opass.read.client.ReadPlanClient.Assignment;
import org.opass.read.client.ReadPlanClient;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadPlanPlugin;
import org.opass.read.plan.Chunk;
import org.opass.read.plan.DynamicAssignment;
import org.opass.read.plan.EqualAssignment;
import org.opass.read.plan.HdfsChunks;
import org.opass.read.plan.MultiInputAssignment;
import org.opass.read.plan.MultiInputPlan;
import org.opass.read.plan.Plan;
import org.opass.read.plan.Proc;
import org.opass.read.plan.RackResolver;
import org.opass.read.plan.ReadRounds;
import org.opass.read.plan.Task;
import org.opass.read.wire.PlanRead;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Charts;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.ProcessContext;
import org.opass.tools.cluster.Workload;
import org.opass.tools.cluster.WorkloadResult;
import org.opass.tools.sim.DiskModel;

/**
 * The parallel-read experiments of Opass §5.1.1-5.1.4 on the emulated cluster: one process per
 * DataNode host (two per host for two tenants), each reading about ten chunks, from a data set
 * written off the cluster with stock placement (so replicas lie at random, as the paper
 * assumes). DataNodes are read-throttled, so a DataNode that serves several readers at once is
 * slow for all of them, as a disk is.
 *
 * <p>One data set is read under three NameNode configurations in one run, restarting the
 * NameNode between them: stock, stock with {@code dfs.namenode.read.considerLoad}, and Opass
 * (balancing topology + batch plans). Stock systems read with the application's rank-based
 * assignment (process p takes tasks p*k .. p*k+k-1; for master/worker, the next task in order);
 * Opass reads with the planner's assignment (max-flow equal assignment, Algorithm 1, or §4.4
 * dynamic lists) and submits it to the NameNode as a read plan.
 */
public final class ReadBench implements Bench {
  public enum Kind {
    SINGLE("read-single"), MULTI("read-multi"), DYNAMIC("read-dynamic"),
    TENANTS("read-tenants");

    final String benchName;

    Kind(String benchName) {
      this.benchName = benchName;
    }
  }

  static final int DATANODES = 16;
  static final int RACKS = 2;
  static final int BLOCK = 1 << 20;
  /**
   * Per-DataNode read throttle, shared by its readers as a disk is: one reader alone reads a
   * chunk in 0.5 s, n readers at once each take n times as long.
   */
  static final long READ_BYTES_PER_SEC = 2L << 20;

  /**
   * @param rounds whether each process reads its planned blocks in {@link ReadRounds} order
   *     (no DataNode serving two at once) rather than task by task, file by file
   * @param paced whether, in rounds, no read starts before its round's time (round r at
   *     r slots from the common start; a slot is a lone reader's chunk time plus 10%)
   */
  record SystemUnderTest(String name, Map<String, String> nameNode, boolean opass,
      boolean rounds, boolean paced) {
  }

  static final List<SystemUnderTest> SYSTEMS = List.of(
      system("stock", DFSNetworkTopology.class, false, "", false, false),
      system("stock-considerload", DFSNetworkTopology.class, true, "", false, false),
      system("opass", BalancingNetworkTopology.class, false, ReadPlanPlugin.class.getName(),
          false, false));
  /** Multi-input reads also run Opass with the plan's reads in rounds, then paced rounds. */
  static final SystemUnderTest OPASS_ROUNDS = system("opass-rounds",
      BalancingNetworkTopology.class, false, ReadPlanPlugin.class.getName(), true, false);
  static final SystemUnderTest OPASS_PACED = system("opass-rounds-paced",
      BalancingNetworkTopology.class, false, ReadPlanPlugin.class.getName(), true, true);

  private static SystemUnderTest system(String name, Class<?> topology, boolean considerLoad,
      String plugins, boolean rounds, boolean paced) {
    Map<String, String> nn = new HashMap<>();
    nn.put(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, topology.getName());
    nn.put(DFSConfigKeys.DFS_NAMENODE_READ_CONSIDERLOAD_KEY, Boolean.toString(considerLoad));
    nn.put(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, plugins);
    // A restarted NameNode leaves safe mode once each block has one replica reported; blocks
    // whose other holders report a moment later look under-replicated, get a fourth replica,
    // and lose one of the four as excess while the systems read. A plan made before that names
    // holders the reads no longer find, and those reads are balanced online instead (seen: 5
    // of 36 Opass system-rounds off plan). Every block of the bench has three replicas, so
    // safe mode can wait for all three.
    nn.put(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_REPLICATION_MIN_KEY, "3");
    nn.put(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_THRESHOLD_PCT_KEY, "1.0");
    return new SystemUnderTest(name, nn, !plugins.isEmpty(), rounds, paced);
  }

  private List<SystemUnderTest> systems() {
    if (kind != Kind.MULTI) {
      return SYSTEMS;
    }
    List<SystemUnderTest> all = new ArrayList<>(SYSTEMS);
    all.add(OPASS_ROUNDS);
    all.add(OPASS_PACED);
    return all;
  }

  private final Kind kind;
  private final DiskModel disk;
  /** The benchmark's name: its kind's, with "-seek" under the seeking disk model. */
  private final String name;
  /** A lone reader's chunk time on an idle cluster, measured at the start of each run. */
  private double lone;

  public ReadBench(Kind kind, DiskModel disk) {
    this.kind = kind;
    this.disk = disk;
    this.name = kind.benchName + (disk == DiskModel.FAIR_SHARE ? "" : "-seek");
  }

  /** A unit of work: the files one task reads, in order. */
  private record Work(int id, List<Path> files) {
  }

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    // quick: shorter rounds, still enough of them for an interval
    int repeats = quick ? 3 : 5;
    int perProcess = switch (kind) {
      case SINGLE, DYNAMIC -> quick ? 4 : 10;
      case MULTI -> quick ? 2 : 4;
      case TENANTS -> quick ? 4 : 16;
    };
    int tenants = kind == Kind.TENANTS ? 2 : 1;
    Map<String, List<ReadRun>> runs = new LinkedHashMap<>();
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(RACKS)
        .blockSize(BLOCK).readBandwidthPerDataNode(READ_BYTES_PER_SEC).disk(disk)
        .baseDir(new File(outDir, name + "-cluster")).start()) {
      List<List<Work>> data = new ArrayList<>();
      for (int t = 0; t < tenants; t++) {
        data.add(writeData(cluster, t, perProcess * DATANODES));
      }
      lone = loneChunkSeconds(cluster, data.get(0));
      System.err.printf("%s: a lone reader reads a chunk in %.3f s%n", name, lone);
      for (int rep = 0; rep < repeats; rep++) {
        for (SystemUnderTest sut : systems()) {
          cluster.restartNameNode(sut.nameNode());
          for (List<Work> works : data) {
            waitForReplicas(cluster, works);
          }
          ReadRun r = runOnce(cluster, sut, data, perProcess);
          runs.computeIfAbsent(sut.name(), k -> new ArrayList<>()).add(r);
          System.err.printf("%s: %-18s chunk I/O avg %.2f s max %.2f s, served max/avg %.2f, "
                  + "local %.2f, makespan %.1f s%n", name, sut.name(), r.chunkAvg(),
              r.chunkMax(), r.servedMaxOverAvg(), r.localFraction(), r.makespanSec());
        }
      }
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    Map<String, Object> summary = summary(runs, tenants);
    if (kind == Kind.SINGLE && disk == DiskModel.FAIR_SHARE) {
      Map<String, Object> cost = new ReadNameNodeCostBench().inProcessLoop(outDir, quick);
      Map<?, ?> costSummary = (Map<?, ?>) cost.get("summary");
      for (String key : new String[] {"getblocklocations_ratio", "getblocklocations_mean_ratio",
          "getblocklocations_mean_ratio_ci95"}) {
        summary.put(key, costSummary.get(key));
      }
      doc.put("getblocklocations", cost);
    }
    doc.put("summary", summary);
    doc.put("setup", Map.of("datanodes", DATANODES, "racks", RACKS, "block_bytes", BLOCK,
        "read_throttle_bytes_per_sec_per_datanode", READ_BYTES_PER_SEC,
        "processes", DATANODES * tenants, "tasks_per_process", perProcess,
        "repeats", repeats, "quick", quick, "disk", disk.toString(),
        "inputs_per_task", kind == Kind.MULTI ? "3 files of 3, 2 and 1 blocks" : "1 block"));
    Map<String, Object> results = new LinkedHashMap<>();
    runs.forEach((sys, list) -> results.put(sys, list.stream().map(ReadRun::toMap).toList()));
    doc.put("runs", results);
    ReadRun.printTable(name, runs);
    ReadRun.printRatios(summary);
    File png = new File(outDir, name + ".png");
    Charts.write(png, ReadRun.charts(name, runs));
    System.out.println("chart: " + png);
    return doc;
  }

  /** Writes the tasks' files from a client off the cluster (stock placement: random). */
  private List<Work> writeData(EmulatedCluster cluster, int tenant, int tasks) throws Exception {
    FileSystem fs = cluster.offClusterFileSystem();
    byte[] block = new byte[BLOCK];
    new Random(tenant).nextBytes(block);
    List<Work> works = new ArrayList<>(tasks);
    Path dir = new Path("/" + kind.benchName + "/tenant" + tenant);
    for (int t = 0; t < tasks; t++) {
      List<Path> files = new ArrayList<>();
      int[] blocksPerInput = kind == Kind.MULTI ? new int[] {3, 2, 1} : new int[] {1};
      for (int i = 0; i < blocksPerInput.length; i++) {
        Path f = new Path(dir, String.format("task%04d-%c", t, 'a' + i));
        try (FSDataOutputStream out = fs.create(f, (short) 3)) {
          for (int b = 0; b < blocksPerInput[i]; b++) {
            out.write(block);
          }
        }
        files.add(f);
      }
      works.add(new Work(t, files));
    }
    waitForReplicas(cluster, works);
    return works;
  }

  /** Until the NameNode knows all three replicas of every block of {@code works}. */
  private static void waitForReplicas(EmulatedCluster cluster, List<Work> works)
      throws Exception {
    for (Work w : works) {
      for (Path f : w.files()) {
        cluster.replicas().waitFor(f, (short) 3);
      }
    }
  }

  /**
   * The chunk time of one reader alone on the cluster: under a DataNode bandwidth shared among
   * its readers no read can be faster, which bounds every system's chunk time from below.
   */
  private static double loneChunkSeconds(EmulatedCluster cluster, List<Work> works)
      throws Exception {
    // Both ways the systems read, a stream (task by task) and positioned reads (in rounds),
    // twice: the first reads of a fresh cluster and JVM are slower than any later read, and a
    // floor taken from them was beaten by 8%. The fastest is the floor.
    double floor = Double.POSITIVE_INFINITY;
    for (int pass = 0; pass < 2; pass++) {
      floor = Math.min(floor, loneChunkSeconds(cluster, works, false));
      floor = Math.min(floor, loneChunkSeconds(cluster, works, true));
    }
    return floor;
  }

  private static double loneChunkSeconds(EmulatedCluster cluster, List<Work> works,
      boolean positioned) throws Exception {
    Workload w = new Workload(cluster);
    w.process(0, ctx -> {
      byte[] buf = new byte[BLOCK];
      for (Work work : works.subList(0, Math.min(6, works.size()))) {
        readWork(ctx, work, buf, positioned);
      }
    });
    return w.run().processes().get(0).chunks().stream()
        .mapToDouble(c -> c.durationNanos() / 1e9).average().orElseThrow();
  }

  /** Reads the work's files block by block, as a stream or by positioned reads. */
  private static void readWork(ProcessContext ctx, Work work, byte[] buf, boolean positioned)
      throws Exception {
    FileSystem fs = ctx.fs();
    for (Path f : work.files()) {
      try (FSDataInputStream in = fs.open(f)) {
        long len = fs.getFileStatus(f).getLen();
        for (long off = 0; off < len; off += BLOCK) {
          int n = (int) Math.min(BLOCK, len - off);
          long start = System.nanoTime();
          if (positioned) {
            in.readFully(off, buf, 0, n);
          } else {
            in.readFully(buf, 0, n);
          }
          ctx.recordChunk(n, start, System.nanoTime());
        }
      }
    }
  }

  /** A planned block read and its round. */
  private record Slot(Assignment read, int round) {
  }

  /**
   * Reads the blocks ({@code slots}, in plan order) in round order; when {@code slotNanos} is
   * positive, round r starts no earlier than r slots after the first process started. Files
   * are opened first, in the order they were planned: a plan serves a reader's reads of
   * blocks with the same holders in the order it was given them, as the reader locates them,
   * and a file's blocks are located when it is opened.
   */
  private static void readInRounds(ProcessContext ctx, List<Slot> slots, long slotNanos,
      AtomicLong common, byte[] buf) throws Exception {
    Map<String, FSDataInputStream> open = new HashMap<>();
    try {
      for (Slot slot : slots) { // in plan order
        if (!open.containsKey(slot.read().path())) {
          open.put(slot.read().path(), ctx.fs().open(new Path(slot.read().path())));
        }
      }
      common.compareAndSet(0, System.nanoTime());
      for (Slot slot : slots.stream().sorted(Comparator.comparingInt(Slot::round)).toList()) {
        Assignment a = slot.read();
        long wait = common.get() + slot.round() * slotNanos - System.nanoTime();
        if (slotNanos > 0 && wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        long start = System.nanoTime();
        open.get(a.path()).readFully(a.offset(), buf, 0, (int) a.length());
        ctx.recordChunk(a.length(), start, System.nanoTime());
      }
    } finally {
      for (FSDataInputStream in : open.values()) {
        in.close();
      }
    }
  }

  /**
   * The least average chunk time any assignment can reach: a lone reader's, times the readers
   * each DataNode must serve at once when all processes read (two tenants on 16 DataNodes:
   * two, at the disk model's efficiency for two streams). Master/worker processes pause to
   * compute, so theirs may be lower; one reader's is still the floor.
   */
  private double floorChunkSeconds(int tenants) {
    return lone * tenants / disk.efficiency(tenants);
  }

  /** Hands out work to process {@code p}; null when there is none left for it. */
  private interface Source {
    Work next(int process);
  }

  private ReadRun runOnce(EmulatedCluster cluster, SystemUnderTest sut, List<List<Work>> data,
      int perProcess) throws Exception {
    List<Source> sources = new ArrayList<>();
    int plannedLocal = 0;
    int optimumLocal = 0;
    int planned = 0;
    int nnLocal = 0;
    List<List<Long>> nnMaxLoads = new ArrayList<>();
    ReadPlanClient planClient = sut.opass()
        ? new ReadPlanClient(cluster.nameNodeHttp(), cluster.conf()) : null;
    // opass-rounds: each process's planned block reads, in plan order
    List<List<Slot>> inRounds = new ArrayList<>();
    Map<String, Integer> processOfAddress = new HashMap<>();
    for (int p = 0; p < DATANODES; p++) {
      inRounds.add(new ArrayList<>());
      processOfAddress.put(cluster.hostAddress(p), p); // the plan answers with addresses
    }
    for (List<Work> works : data) {
      if (!sut.opass()) {
        sources.add(kind == Kind.DYNAMIC ? queue(works) : rankBased(works, perProcess));
        continue;
      }
      List<Proc> procs = IntStream.range(0, DATANODES)
          .mapToObj(p -> new Proc(p, cluster.hostName(p))).toList();
      List<List<Work>> lists = new ArrayList<>();
      if (kind == Kind.MULTI) {
        List<Task> tasks = new ArrayList<>();
        for (Work w : works) {
          tasks.add(new Task(w.id(), HdfsChunks.of(cluster.offClusterFileSystem(), w.files())));
        }
        MultiInputPlan plan = MultiInputAssignment.plan(tasks, procs);
        for (int p = 0; p < DATANODES; p++) {
          lists.add(Arrays.stream(plan.taskIndicesOf(p)).mapToObj(works::get).toList());
        }
        sources.add(staticLists(lists));
      } else {
        List<Path> paths = works.stream().map(w -> w.files().get(0)).toList();
        List<Chunk> chunks = HdfsChunks.of(cluster.offClusterFileSystem(), paths);
        Plan plan = EqualAssignment.plan(chunks, procs, racks(cluster));
        optimumLocal += plan.localOptimum();
        plannedLocal += plan.localChunks();
        for (int p = 0; p < DATANODES; p++) {
          lists.add(Arrays.stream(plan.chunkIndicesOf(p)).mapToObj(works::get).toList());
        }
        if (kind == Kind.DYNAMIC) {
          DynamicAssignment<Chunk> dyn = DynamicAssignment.of(plan);
          sources.add(p -> dyn.next(p).map(c -> works.get(c.id())).orElse(null));
        } else {
          sources.add(staticLists(lists));
        }
      }
      List<PlanRead> reads = new ArrayList<>();
      for (int p = 0; p < DATANODES; p++) {
        for (Work w : lists.get(p)) {
          for (Path f : w.files()) {
            reads.add(PlanRead.wholeFile(f.toString(), cluster.hostName(p)));
          }
        }
      }
      ReadPlanClient.Result answer = planClient.submit(reads);
      if (sut.rounds()) {
        List<Assignment> as = answer.assignments();
        ReadRounds rounds = ReadRounds.of(as, Assignment::reader, Assignment::datanode);
        for (int i = 0; i < as.size(); i++) {
          Assignment a = as.get(i);
          inRounds.get(processOfAddress.get(a.reader())).add(new Slot(a, rounds.round(i)));
        }
      }
      planned += answer.reads();
      nnLocal += answer.local();
      nnMaxLoads.add(List.of(answer.maxLoad(), answer.algorithm2MaxLoad(),
          answer.optimalMaxLoad()));
    }
    // Let a heartbeat clear what locating the blocks for planning granted.
    Thread.sleep(1500);
    cluster.miniCluster().triggerHeartbeats();
    long[] blocksBefore = cluster.counters().perDataNode(DataNodeCounter.BLOCKS_READ);
    long[] bytesBefore = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ);
    long[] localBefore = cluster.counters().perDataNode(DataNodeCounter.READS_FROM_LOCAL_CLIENT);
    Workload w = new Workload(cluster);
    long slotNanos = (long) (lone * 1.1e9);
    AtomicLong start = new AtomicLong();
    for (int t = 0; t < sources.size(); t++) {
      Source source = sources.get(t);
      for (int p = 0; p < DATANODES; p++) {
        int process = p;
        w.process(p, ctx -> {
          byte[] buf = new byte[BLOCK];
          if (sut.rounds()) {
            readInRounds(ctx, inRounds.get(process), sut.paced() ? slotNanos : 0, start, buf);
            return;
          }
          for (Work work = source.next(process); work != null; work = source.next(process)) {
            readWork(ctx, work, buf, false);
            if (kind == Kind.DYNAMIC) {
              Thread.sleep(computeMillis(work));
            }
          }
        });
      }
    }
    WorkloadResult result = w.run();
    int blocksRead = result.processes().stream().mapToInt(pr -> pr.chunks().size()).sum();
    // DataNodes count a read when its last packet is acknowledged, a moment after the reader
    // has the data.
    long deadline = System.nanoTime() + 30_000_000_000L;
    long[] blocks;
    do {
      Thread.sleep(50);
      blocks = cluster.counters().since(DataNodeCounter.BLOCKS_READ, blocksBefore);
    } while (Arrays.stream(blocks).sum() < blocksRead && System.nanoTime() < deadline);
    long[] bytes = cluster.counters().since(DataNodeCounter.BYTES_READ, bytesBefore);
    long[] local = cluster.counters().since(DataNodeCounter.READS_FROM_LOCAL_CLIENT,
        localBefore);
    double[] served = Arrays.stream(bytes).mapToDouble(b -> b / (double) (1 << 20)).toArray();
    double[] chunkTimes = result.processes().stream().flatMap(pr -> pr.chunks().stream())
        .mapToDouble(c -> c.durationNanos() / 1e9).toArray();
    double[] bw = result.processes().stream().mapToDouble(pr -> pr.bandwidth() / (1 << 20))
        .toArray();
    long blockSum = Arrays.stream(blocks).sum();
    double localFraction = blockSum == 0 ? 0 : Arrays.stream(local).sum() / (double) blockSum;
    int chunks = data.stream().mapToInt(List::size).sum();
    return new ReadRun(served, blocks, localFraction, chunkTimes, bw, result.makespanNanos() / 1e9,
        sut.opass() && kind != Kind.MULTI ? optimumLocal / (double) chunks : Double.NaN,
        sut.opass() && kind != Kind.MULTI ? plannedLocal / (double) chunks : Double.NaN,
        planned, nnLocal, nnMaxLoads);
  }

  private static RackResolver racks(EmulatedCluster c) {
    Map<String, String> m = new HashMap<>();
    for (int k = 0; k < c.size(); k++) {
      m.put(c.hostName(k), c.rack(k));
    }
    return RackResolver.of(m);
  }

  private static Source rankBased(List<Work> works, int perProcess) {
    List<List<Work>> lists = new ArrayList<>();
    for (int p = 0; p < DATANODES; p++) {
      lists.add(works.subList(p * perProcess, (p + 1) * perProcess));
    }
    return staticLists(lists);
  }

  private static Source staticLists(List<List<Work>> lists) {
    List<Iterator<Work>> its = lists.stream().map(List::iterator).toList();
    return p -> {
      Iterator<Work> it = its.get(p);
      return it.hasNext() ? it.next() : null;
    };
  }

  /**
   * Master/worker as mpiBLAST-like applications write it (§5.1.3): the master hands the tasks
   * out in a random order, without regard to where their data is.
   */
  private static Source queue(List<Work> works) {
    List<Work> shuffled = new ArrayList<>(works);
    java.util.Collections.shuffle(shuffled, new Random(42));
    ConcurrentLinkedQueue<Work> q = new ConcurrentLinkedQueue<>(shuffled);
    return p -> q.poll();
  }

  /**
   * Compute time after reading a task, for master/worker runs: irregular (0 to 1 s, fixed per
   * task so every system computes the same), which is why such applications hand out work
   * dynamically.
   */
  private static long computeMillis(Work w) {
    return new Random(1000L + w.id()).nextInt(1000);
  }

  /** Stock's average chunk time over the system's (ratio of the means over rounds). */
  private static Stats speedup(List<ReadRun> system, List<ReadRun> stock) {
    return Stats.ratio(Stats.each(stock, ReadRun::chunkAvg), Stats.each(system, ReadRun::chunkAvg));
  }

  /**
   * Each figure as the mean over rounds with its 95% interval ({@code _ci95}); ratios are
   * ratios of means, rounds paired (the systems take turns within a round). The bound: stock's
   * chunk time over the floor no assignment can beat; the fraction of it is the bound's share
   * Opass reached.
   */
  private Map<String, Object> summary(Map<String, List<ReadRun>> runs, int tenants) {
    List<ReadRun> stock = runs.get("stock");
    List<ReadRun> load = runs.get("stock-considerload");
    // multi-input: the figures are paced rounds' (the best way found); unpaced rounds and the
    // paper's way, task by task and file by file, get their own keys
    List<ReadRun> ours = runs.get(kind == Kind.MULTI ? OPASS_PACED.name() : "opass");
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("rounds", ours.size());
    Stats speedup = speedup(ours, stock);
    switch (kind) {
      case SINGLE -> {
        s.put("local_fraction_gap", ReadRun.mean(ours, ReadRun::localOptimum)
            - ReadRun.mean(ours, ReadRun::localFraction));
        speedup.putInto(s, "chunk_io_speedup");
      }
      case MULTI -> speedup.putInto(s, "multi_speedup");
      case DYNAMIC -> speedup.putInto(s, "dynamic_speedup");
      case TENANTS -> speedup.putInto(s, "tenants_speedup");
    }
    double floor = floorChunkSeconds(tenants);
    double[] floors = new double[ours.size()];
    java.util.Arrays.fill(floors, floor);
    s.put("lone_chunk_s", lone);
    s.put("floor_chunk_s", floor);
    Stats.ratio(Stats.each(stock, ReadRun::chunkAvg), floors).putInto(s, "speedup_bound");
    Stats fraction = Stats.ratio(floors, Stats.each(ours, ReadRun::chunkAvg));
    String prefix = kind.benchName.substring("read-".length());
    fraction.putInto(s, (kind == Kind.SINGLE ? "chunk_io" : prefix) + "_fraction_of_bound");
    if (kind == Kind.MULTI) {
      List<ReadRun> fileOrder = runs.get("opass");
      Stats.ratio(floors, Stats.each(fileOrder, ReadRun::chunkAvg))
          .putInto(s, "multi_fraction_of_bound_file_order");
      speedup(fileOrder, stock).putInto(s, "multi_speedup_file_order");
      Stats.ratio(Stats.each(fileOrder, ReadRun::makespanSec),
          Stats.each(stock, ReadRun::makespanSec))
          .putInto(s, "makespan_ratio_file_order");
      // A paced read starts after an idle gap and gets the throttler's first burst, so its
      // chunk time can beat a reader that reads back to back: the makespan against every
      // process's reads at the floor, one after another, tells the whole
      int readsPerProcess = runs.get("stock").get(0).chunkSec().length / DATANODES;
      Stats.ratio(Arrays.stream(floors).map(f -> f * readsPerProcess).toArray(),
          Stats.each(ours, ReadRun::makespanSec)).putInto(s, "multi_makespan_fraction_of_bound");
      List<ReadRun> unpaced = runs.get(OPASS_ROUNDS.name());
      Stats.ratio(floors, Stats.each(unpaced, ReadRun::chunkAvg))
          .putInto(s, "multi_fraction_of_bound_unpaced");
      Stats.ratio(Stats.each(unpaced, ReadRun::makespanSec),
          Stats.each(stock, ReadRun::makespanSec))
          .putInto(s, "makespan_ratio_unpaced");
    }
    Stats.of(Stats.each(ours, ReadRun::servedMaxOverAvg)).putInto(s, "served_max_over_avg");
    speedup(load, stock).putInto(s, "considerload_speedup");
    Stats.ratio(Stats.each(ours, ReadRun::makespanSec), Stats.each(stock, ReadRun::makespanSec))
        .putInto(s, "makespan_ratio");
    Stats.of(Stats.each(ours, ReadRun::localFraction)).putInto(s, "local_fraction");
    Stats.of(Stats.each(stock, ReadRun::localFraction)).putInto(s, "stock_local_fraction");
    Stats.of(Stats.each(stock, ReadRun::servedMaxOverAvg)).putInto(s, "stock_served_max_over_avg");
    return s;
  }
}
