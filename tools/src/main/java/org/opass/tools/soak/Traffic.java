package org.opass.tools.soak;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.opass.read.client.ReadPlanClient;
import org.opass.read.plan.Chunk;
import org.opass.read.plan.DynamicAssignment;
import org.opass.read.plan.EqualAssignment;
import org.opass.read.plan.HdfsChunks;
import org.opass.read.plan.Plan;
import org.opass.read.plan.Proc;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.read.PlanEndpoint;
import org.opass.tools.read.PlanFuzzer;

/**
 * The soak's clients, each a thread in a loop until {@link #close()}: writers, readers
 * (random, planned through the NameNode's read plans, dynamic as in Opass §4.4), users
 * submitting, listing and deleting plans, {@code getBlockLocations} storms (timed), and the
 * plan fuzzer. Every thread is seeded from the soak's seed and its role. Failures while faults
 * run are expected and counted; what must never happen is counted apart: bytes read back that
 * differ from those written, an answer of the plan endpoint that is a 5xx or does not name its
 * problem, a fuzz case that hangs.
 *
 * <p>Calls that must not meet a NameNode that is down (storms, plan users, the fuzzer) pass
 * the {@link #nameNodeGate()}, which a NameNode restart or failover closes.
 */
final class Traffic implements AutoCloseable {
  /** Every file the writers write has this many replicas. */
  static final short REPLICATION = 3;

  /** What the soak's clients do; each count is of threads. */
  static final class Mix {
    int writers = 3;
    int randomReaders = 2;
    int plannedReaders = 1;
    int dynamicReaders = 1;
    int planUsers = 2;
    int storms = 2;
    boolean fuzz = true;
    /** Whether the NameNode serves read plans (stock does not: planned readers just read). */
    boolean plans = true;
    int filesPerWriter = 60;
    /** Most bytes of a written file, in blocks (lengths are random up to this). */
    double maxFileBlocks = 4.5;

    /**
     * The work of {@link Soak#compare}: what a job does with or without Opass (planned readers
     * submit their plans only where the NameNode takes them), lighter than the soak's so that
     * the latencies measured are the NameNode's more than the two cores' queue; no fuzzing
     * and no plan-API users, which stock has no counterpart for.
     */
    Mix forComparison(boolean plans) {
      Mix c = new Mix();
      c.writers = 2;
      c.randomReaders = 1;
      c.plannedReaders = plannedReaders;
      c.dynamicReaders = dynamicReaders;
      c.planUsers = 0;
      c.storms = storms;
      c.fuzz = false;
      c.plans = plans;
      c.filesPerWriter = filesPerWriter;
      c.maxFileBlocks = maxFileBlocks;
      return c;
    }
  }

  private final EmulatedCluster cluster;
  private final Mix mix;
  private final Ledger ledger;
  private final long seed;
  private final FileSystem[] clients; // per DataNode host, then one off the cluster
  private final String superuser;
  private final ReadWriteLock gate = new ReentrantReadWriteLock(true);
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stopping;

  final Counters counters = new Counters();
  final LatencyHistogram gbl = new LatencyHistogram();
  private volatile PlanFuzzer fuzzer;

  Traffic(EmulatedCluster cluster, Mix mix, Ledger ledger, long seed) throws IOException {
    this.cluster = cluster;
    this.mix = mix;
    this.ledger = ledger;
    this.seed = seed;
    this.clients = new FileSystem[cluster.size() + 1];
    for (int k = 0; k < cluster.size(); k++) {
      clients[k] = FileSystem.newInstance(cluster.uri(), cluster.hostConf(k));
    }
    clients[cluster.size()] = FileSystem.newInstance(cluster.uri(), cluster.conf());
    this.superuser = UserGroupInformation.getCurrentUser().getShortUserName();
  }

  /** Starts every thread of the mix. */
  Traffic start() {
    for (int i = 0; i < mix.writers; i++) {
      int id = i;
      spawn("writer-" + i, rnd -> write(id, rnd));
    }
    for (int i = 0; i < mix.randomReaders; i++) {
      spawn("reader-" + i, this::readRandom);
    }
    for (int i = 0; i < mix.plannedReaders; i++) {
      spawn("planned-" + i, this::readPlanned);
    }
    for (int i = 0; i < mix.dynamicReaders; i++) {
      spawn("dynamic-" + i, this::readDynamic);
    }
    for (int i = 0; i < mix.planUsers; i++) {
      String user = PLAN_USERS[i % PLAN_USERS.length];
      spawn("plan-user-" + i, rnd -> planUser(user, rnd));
    }
    for (int i = 0; i < mix.storms; i++) {
      spawn("storm-" + i, this::storm);
    }
    if (mix.fuzz && mix.plans) {
      List<String> hosts = new ArrayList<>();
      for (int k = 0; k < cluster.size(); k++) {
        hosts.add(cluster.hostName(k));
        hosts.add(cluster.hostAddress(k));
      }
      // the soak's plan table is small and short-lived: finished plans make room, others expire
      fuzzer = new PlanFuzzer(() -> new PlanEndpoint(cluster), seed ^ 0x5eed, hosts, superuser)
          .ownPlansMayVanish();
      spawn("fuzzer", rnd -> fuzz());
    }
    return this;
  }

  /** Closed while the NameNode restarts: the calls that pass it never meet it down. */
  ReadWriteLock nameNodeGate() {
    return gate;
  }

  /** After a NameNode restart: its plans are gone. */
  void nameNodeRestarted() {
    PlanFuzzer f = fuzzer;
    if (f != null) {
      synchronized (f) {
        f.forgetPlans();
      }
    }
  }

  // ---- the roles ----

  private static final String[] PLAN_USERS = {"alice", "bob", "carol"};

  private interface Step {
    void run(Random rnd) throws Exception;
  }

  private void spawn(String name, Step step) {
    Random rnd = new Random(seed * 31 + name.hashCode());
    Thread t = new Thread(() -> {
      int failedInARow = 0;
      while (!stopping) {
        try {
          step.run(rnd);
          failedInARow = 0;
        } catch (InterruptedException e) {
          return;
        } catch (Exception | AssertionError e) {
          if (stopping) {
            return;
          }
          counters.failed(name.replaceAll("-\\d+$", ""), e);
          // as clients do: back off while the cluster is away (50 ms, doubling, up to 1 s)
          try {
            Thread.sleep(Math.min(1000, 50L << Math.min(failedInARow++, 5)));
          } catch (InterruptedException stop) {
            return;
          }
        }
      }
    }, "soak-" + name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  private int host(Random rnd) {
    return rnd.nextInt(cluster.size() + 1); // the last: off the cluster
  }

  private String hostName(int k) {
    return k < cluster.size() ? cluster.hostName(k) : EmulatedCluster.OFF_CLUSTER_ADDRESS;
  }

  private final Map<Integer, List<String>> ownFiles = new ConcurrentHashMap<>();
  private final AtomicLong fileNumbers = new AtomicLong();

  private void write(int writer, Random rnd) throws Exception {
    List<String> own = ownFiles.computeIfAbsent(writer, w -> new ArrayList<>());
    FileSystem fs = clients[host(rnd)];
    if (own.size() >= mix.filesPerWriter) { // a bounded data set: the oldest file goes
      String old = own.remove(0);
      ledger.remove(old);
      fs.delete(new Path(old), false);
      counters.done("delete");
    }
    long blockSize = cluster.blockSize();
    long length = (long) (rnd.nextDouble() * mix.maxFileBlocks * blockSize);
    Ledger.Entry e = new Ledger.Entry("/soak/w" + writer + "/f" + fileNumbers.incrementAndGet(),
        length, rnd.nextLong());
    try (FSDataOutputStream out = fs.create(new Path(e.path), REPLICATION)) {
      out.write(e.bytes());
    } catch (IOException | RuntimeException failed) {
      try {
        fs.delete(new Path(e.path), false); // nothing half-written stays behind
      } catch (IOException ignored) {
        // the NameNode is away: the file is not in the ledger, and no reader looks for it
      }
      throw failed;
    }
    own.add(e.path);
    ledger.add(e);
    counters.done("write");
  }

  private void readRandom(Random rnd) throws Exception {
    Ledger.Entry e = ledger.pick(rnd);
    if (e == null) {
      Thread.sleep(50);
      return;
    }
    readWhole(clients[host(rnd)], e, "read");
  }

  /** Reads {@code e} whole and compares; a missing file is fine if it left the ledger. */
  private void readWhole(FileSystem fs, Ledger.Entry e, String role) throws Exception {
    byte[] back = new byte[Math.toIntExact(e.length)];
    try (FSDataInputStream in = fs.open(new Path(e.path))) {
      in.readFully(back);
    } catch (FileNotFoundException gone) {
      if (!ledger.contains(e.path)) {
        return; // deleted by its writer meanwhile
      }
      throw gone;
    }
    if (!Arrays.equals(e.bytes(), back)) {
      counters.corrupt(e.path + " read by " + role + " differs from what was written");
    }
    counters.done(role);
  }

  private void readPlanned(Random rnd) throws Exception {
    List<Ledger.Entry> files = ledger.pick(rnd, 6);
    if (files.isEmpty()) {
      Thread.sleep(50);
      return;
    }
    int[] readerOf = new int[files.size()];
    List<PlanRead> reads = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      readerOf[i] = rnd.nextInt(cluster.size());
      reads.add(PlanRead.wholeFile(files.get(i).path, cluster.hostName(readerOf[i])));
    }
    String user = PLAN_USERS[rnd.nextInt(PLAN_USERS.length)];
    String id = null;
    if (mix.plans) {
      try {
        ReadPlanClient.Result plan = gated(() -> asUser(user,
            () -> planClient().submit(reads)));
        id = plan.id();
        counters.done("plan-submit");
      } catch (PlanRefusedException refused) {
        // a file deleted meanwhile (404), the user's share used up (429): read unplanned
        if (refused.status() >= 500) {
          counters.badAnswer("plan submission: " + refused.getMessage());
        }
        counters.done("plan-refused");
      }
    }
    for (int i = 0; i < files.size(); i++) {
      readWhole(clients[readerOf[i]], files.get(i), "planned-read");
    }
    if (id != null) {
      String planId = id;
      try {
        gated(() -> asUser(user, () -> {
          planClient().delete(planId);
          return null;
        }));
      } catch (PlanRefusedException refused) {
        if (refused.status() != 404) { // 404: expired, or gone with a NameNode restart
          counters.badAnswer("plan deletion by its owner: " + refused.getMessage());
        }
      }
    }
  }

  private void readDynamic(Random rnd) throws Exception {
    List<Ledger.Entry> files = ledger.pick(rnd, 12);
    if (files.isEmpty()) {
      Thread.sleep(50);
      return;
    }
    List<Path> paths = new ArrayList<>();
    Map<String, Ledger.Entry> byPath = new ConcurrentHashMap<>();
    for (Ledger.Entry e : files) {
      Path p = clients[0].makeQualified(new Path(e.path));
      paths.add(p);
      byPath.put(p.toString(), e);
    }
    List<Chunk> chunks;
    try {
      chunks = HdfsChunks.of(clients[cluster.size()], paths);
    } catch (FileNotFoundException gone) {
      return; // a writer deleted one of them meanwhile
    }
    List<Proc> procs = new ArrayList<>();
    int[] hostOf = new int[3];
    for (int p = 0; p < hostOf.length; p++) {
      hostOf[p] = rnd.nextInt(cluster.size());
      procs.add(new Proc(p, cluster.hostName(hostOf[p])));
    }
    Plan plan = EqualAssignment.plan(chunks, procs);
    DynamicAssignment<Chunk> lists = DynamicAssignment.of(plan);
    ExecutorService pool = Executors.newFixedThreadPool(hostOf.length);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int p = 0; p < hostOf.length; p++) {
        int proc = p;
        done.add(pool.submit(() -> {
          for (Optional<Chunk> c = lists.next(proc); c.isPresent(); c = lists.next(proc)) {
            readChunk(clients[hostOf[proc]], byPath.get(c.get().path()), c.get());
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void readChunk(FileSystem fs, Ledger.Entry e, Chunk c) throws Exception {
    byte[] back = new byte[Math.toIntExact(c.length())];
    try (FSDataInputStream in = fs.open(new Path(e.path))) {
      in.readFully(c.offset(), back);
    } catch (FileNotFoundException gone) {
      if (!ledger.contains(e.path)) {
        return;
      }
      throw gone;
    }
    byte[] all = e.bytes();
    if (!Arrays.equals(all, Math.toIntExact(c.offset()), Math.toIntExact(c.offset() + c.length()),
        back, 0, back.length)) {
      counters.corrupt(e.path + " bytes " + c.offset() + "+" + c.length()
          + " read dynamically differ from what was written");
    }
    counters.done("dynamic-read");
  }

  /** Lists, submits and deletes plans as {@code user}, now and then another user's. */
  private void planUser(String user, Random rnd) throws Exception {
    if (!mix.plans) {
      Thread.sleep(200);
      return;
    }
    List<Ledger.Entry> files = ledger.pick(rnd, 1 + rnd.nextInt(4));
    if (files.isEmpty()) {
      Thread.sleep(50);
      return;
    }
    StringBuilder body = new StringBuilder("{\"reads\": [");
    for (int i = 0; i < files.size(); i++) {
      body.append(i == 0 ? "" : ", ").append(PlanEndpoint.read(files.get(i).path,
          cluster.hostName(rnd.nextInt(cluster.size())), ""));
    }
    String json = body.append("]}").toString();
    PlanEndpoint.Answer posted = gated(() -> endpoint().post(user, json));
    judge("plan-user POST", posted);
    PlanEndpoint.Answer listed = gated(() -> endpoint().get(user));
    judge("plan-user GET", listed);
    if (posted.status == 200) {
      String id = posted.json().get("id").asText();
      // now and then someone else tries to drop it: refused, unless it is the superuser
      String who = rnd.nextInt(5) == 0 ? PLAN_USERS[rnd.nextInt(PLAN_USERS.length)] : user;
      PlanEndpoint.Answer deleted = gated(() -> endpoint().delete(who, id));
      judge("plan-user DELETE", deleted);
      if (!who.equals(user) && deleted.status == 200) {
        counters.violation("plan " + id + " of " + user + " was deleted by " + who);
      }
    }
    counters.done("plan-user");
  }

  private void judge(String what, PlanEndpoint.Answer a) throws IOException {
    String problem = PlanFuzzer.problem(what, a);
    if (problem != null || a.status >= 500) {
      counters.badAnswer(what + ": " + a + (problem == null ? "" : " -- " + problem));
    }
  }

  private void storm(Random rnd) throws Exception {
    Ledger.Entry e = ledger.pick(rnd);
    if (e == null) {
      Thread.sleep(50);
      return;
    }
    DistributedFileSystem fs = (DistributedFileSystem) clients[host(rnd)];
    gated(() -> {
      long start = System.nanoTime();
      try {
        fs.getClient().getLocatedBlocks(e.path, 0, Math.max(1, e.length));
      } catch (FileNotFoundException gone) {
        return null;
      }
      gbl.record(System.nanoTime() - start);
      return null;
    });
    counters.done("gbl");
  }

  private void fuzz() throws Exception {
    PlanFuzzer f = fuzzer;
    PlanFuzzer.Case c = gated(() -> {
      synchronized (f) {
        return f.next();
      }
    });
    counters.fuzzed(c);
  }

  // ---- helpers ----

  private interface Call<T> {
    T call() throws Exception;
  }

  private <T> T gated(Call<T> call) throws Exception {
    while (!gate.readLock().tryLock(100, TimeUnit.MILLISECONDS)) {
      if (stopping) {
        throw new InterruptedException("stopping");
      }
    }
    try {
      return call.call();
    } finally {
      gate.readLock().unlock();
    }
  }

  private static <T> T asUser(String user, PrivilegedExceptionAction<T> action) throws Exception {
    return UserGroupInformation.createRemoteUser(user).doAs(action);
  }

  private ReadPlanClient planClient() {
    return cluster.highAvailability() ? ReadPlanClient.forFileSystem(cluster.uri(), cluster.conf())
        : new ReadPlanClient(cluster.nameNodeHttp(), cluster.conf());
  }

  private PlanEndpoint endpoint() {
    return new PlanEndpoint(cluster);
  }

  /** Stops every thread and closes the clients. */
  @Override
  public void close() throws IOException {
    stopping = true;
    for (Thread t : threads) {
      t.interrupt();
    }
    for (Thread t : threads) {
      try {
        t.join(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    IOException failure = null;
    for (FileSystem fs : clients) {
      try {
        fs.close();
      } catch (IOException e) {
        failure = e;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
