package org.opass.read.nn;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Time;
import org.opass.conf.StrictConf;
import org.opass.read.balance.BalanceResult;
import org.opass.read.balance.ChunkRead;
import org.opass.read.balance.ReplicaBalancer;
import org.opass.read.balance.Strategy;
import org.opass.read.balance.StrategyComparison;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;
import org.opass.read.wire.PlanWire;

/**
 * The NameNode side of batch read planning: a client names the chunks its readers will read
 * (file, byte range, reader host); this resolves their blocks <em>as that user</em> (so a file
 * the user may not read is refused exactly as an {@code open} would be), pins reads that have
 * a replica on the reader's own DataNode there, balances the others over their holders with
 * {@link ReplicaBalancer} against the load every live plan (any tenant's) still has to serve,
 * and stores the result in {@link ReadPlanTable}, which the topology consults on every
 * {@code getBlockLocations}.
 *
 * <p>Request: {@code {"reads": [{"path": "/d/f", "reader": "host-or-ip", "offset": 0,
 * "length": 1048576}, ...]}} (offset and length optional: the whole file). Every block that
 * overlaps a read's range is one planned chunk read; the same block read twice by the same
 * reader (through any alias of its file) is one. The response says which DataNode serves
 * each, the resulting loads, and the maximum load of both Algorithm 2 and the optimum on the
 * same batch.
 *
 * <h2>What one request may cost the NameNode</h2>
 * Checked before the work: at most {@code max-concurrent-requests} run at once (the others
 * are answered 503 before their body is read); a body of at most {@code max-request-bytes} is
 * read by {@link PlanRequestParser}; each file is resolved once, whatever alias names it, and
 * only the requested byte spans are located, in windows of at most
 * {@value PlanRequestResolver#LOCATE_WINDOW_BLOCKS} blocks that are reduced to a few strings
 * per block at once; the request stops (413, or 429 when the caller's share of plans is what
 * runs out) at the first block past {@code max-request-reads} or the caller's room in
 * {@link ReadPlanTable}. So a request holds its body plus about 200 bytes per located block,
 * and balances at most {@code max-request-reads} reads (65,536 reads over 1,024 or 2,048
 * DataNodes: 0.1 to 0.8 s, {@code bin/bench read-plan-limits}). Readers are DataNodes (by IP
 * address or host name, looked up in the NameNode's own tables) or IP addresses: nothing a
 * caller sends is looked up in DNS.
 *
 * <h2>Where the work is</h2>
 * This class is the service: its settings, admission, planning under one lock, deleting and
 * listing plans. {@link PlanRequestResolver} turns a request into chunk reads (files, readers,
 * located blocks, the request's budget); {@link PlanDocuments} writes the JSON answers, a
 * submission's from its {@link PlanOutcome}.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class ReadPlanService {
  private final NameNode nameNode;
  private final ReadPlanTable plans;
  private final Strategy strategy;
  private final int maxRequestReads;
  private final int maxRequestBytes;
  private final Semaphore running;
  private final PlanRequestResolver resolver;
  private final String superUser;
  private final String superGroup;
  private final ReadPlanMetrics metrics;
  /** Balancing and adding a plan: one at a time, so each plan sees the ones before it. */
  private final Object planLock = new Object();
  private long seed; // guarded by planLock

  public ReadPlanService(NameNode nameNode, Configuration conf) throws IOException {
    this.nameNode = nameNode;
    int maxReads = StrictConf.atLeast(conf, ReadBalanceKeys.PLAN_MAX_READS, 1,
        ReadBalanceKeys.PLAN_MAX_READS_DEFAULT);
    ReadPlanTable.Limits.Builder limits = ReadPlanTable.Limits.builder()
        .maxReads(maxReads)
        .maxPlans(StrictConf.atLeast(conf, ReadBalanceKeys.PLAN_MAX_PLANS, 1,
            ReadBalanceKeys.PLAN_MAX_PLANS_DEFAULT))
        .maxPlansPerUser(StrictConf.atLeast(conf, ReadBalanceKeys.PLAN_MAX_PLANS_PER_USER, 1,
            ReadBalanceKeys.PLAN_MAX_PLANS_PER_USER_DEFAULT))
        .ttlMillis(StrictConf.atLeast(conf, ReadBalanceKeys.PLAN_TTL, 1L,
            ReadBalanceKeys.PLAN_TTL_DEFAULT_MILLIS));
    if (conf.getTrimmed(ReadBalanceKeys.PLAN_MAX_READS_PER_USER) != null) {
      limits.maxReadsPerUser(StrictConf.atLeast(conf, ReadBalanceKeys.PLAN_MAX_READS_PER_USER,
          1, maxReads));
    }
    this.plans = new ReadPlanTable(limits.build(), Time::monotonicNow);
    this.maxRequestReads = StrictConf.atLeast(conf, ReadBalanceKeys.PLAN_MAX_REQUEST_READS, 1,
        ReadBalanceKeys.PLAN_MAX_REQUEST_READS_DEFAULT);
    this.maxRequestBytes = StrictConf.atLeast(conf, ReadBalanceKeys.PLAN_MAX_REQUEST_BYTES, 1,
        ReadBalanceKeys.PLAN_MAX_REQUEST_BYTES_DEFAULT);
    this.running = new Semaphore(StrictConf.atLeast(conf,
        ReadBalanceKeys.PLAN_MAX_CONCURRENT_REQUESTS, 1,
        ReadBalanceKeys.PLAN_MAX_CONCURRENT_REQUESTS_DEFAULT));
    this.strategy = "algorithm2".equals(StrictConf.oneOf(conf, ReadBalanceKeys.PLAN_STRATEGY,
        ReadBalanceKeys.PLAN_STRATEGY_DEFAULT, "optimal", "algorithm2"))
        ? Strategy.ALGORITHM2 : Strategy.OPTIMAL;
    // Stale replicas are avoided only where the stock sort avoids them: a DataNode that just
    // registered (say after a NameNode restart) looks stale until its first heartbeat.
    long staleMillis = conf.getBoolean(
        DFSConfigKeys.DFS_NAMENODE_AVOID_STALE_DATANODE_FOR_READ_KEY,
        DFSConfigKeys.DFS_NAMENODE_AVOID_STALE_DATANODE_FOR_READ_DEFAULT)
        ? conf.getLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
            DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT)
        : Long.MAX_VALUE;
    PlanPaths paths = PlanPaths.of(nameNode.getNameNodeAddress(),
        FileSystem.getDefaultUri(conf), DFSUtilClient.getNameServiceIds(conf));
    this.resolver = new PlanRequestResolver(nameNode, paths, staleMillis, this::haState);
    // The NameNode's own user is HDFS's superuser; so is its superuser group.
    this.superUser = UserGroupInformation.getCurrentUser().getShortUserName();
    this.superGroup = conf.get(DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_KEY,
        DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_DEFAULT);
    this.metrics = new ReadPlanMetrics(plans);
  }

  /**
   * The NameNode's HA state: {@code active}, {@code observer} (both sort clients' reads, so
   * both take and keep plans), {@code standby} or {@code not active} (starting).
   */
  String haState() {
    return nameNode.isActiveState() ? "active" : nameNode.isObserverState() ? "observer"
        : nameNode.isStandbyState() ? "standby" : "not active";
  }

  /**
   * Whether this NameNode sorts clients' reads: the active one, and observers for clients of
   * {@code ObserverReadProxyProvider}. A standby's plan would serve no read.
   */
  boolean sortsReads() {
    return nameNode.isActiveState() || nameNode.isObserverState();
  }

  /** Whether this is the active NameNode (the only one, without HA). */
  boolean isActive() {
    return nameNode.isActiveState();
  }

  public ReadPlanTable plans() {
    return plans;
  }

  public ReadPlanMetrics metrics() {
    return metrics;
  }

  int maxRequestBytes() {
    return maxRequestBytes;
  }

  /** Takes one of the {@code max-concurrent-requests} places; false when all are taken. */
  boolean tryBegin() {
    return running.tryAcquire();
  }

  void end() {
    running.release();
  }

  /** Plans the request for {@code user}; returns the response document (UTF-8 JSON). */
  public byte[] submit(UserGroupInformation user, byte[] body)
      throws PlanRefusedException, IOException {
    return submit(user, body, null);
  }

  /**
   * Plans the request for {@code user} and keeps the plan under {@code id} (another
   * NameNode's id for the same reads: a copy held where the reads may be sorted), or under a
   * new id when null; returns the response document (UTF-8 JSON).
   */
  public byte[] submit(UserGroupInformation user, byte[] body, String id)
      throws PlanRefusedException, IOException {
    if (id != null && !PlanWire.PLAN_ID.matcher(id).matches()) {
      throw new PlanRefusedException(400, "id=" + PlanPaths.shorten(id) + " is not a read plan "
          + "id (plan-<token>-<n>)");
    }
    if (id != null && plans.owner(id) != null) { // before the work; add checks again
      throw new PlanRefusedException(409, "read plan id " + id + " is in use");
    }
    List<PlanRead> asked = PlanRequestParser.parse(body, maxRequestReads);
    String owner = user.getShortUserName();
    PlanRequestResolver.Budget budget = budget(owner);
    PlanRequestResolver.Resolved resolved = resolver.resolve(user, asked, budget);
    if (resolved.chunks.isEmpty() && resolved.skipped == 0) {
      throw new PlanRefusedException(400, "nothing to plan: every read is empty, of an empty "
          + "file, or starts past the end of its file");
    }
    PlanOutcome outcome = plan(owner, resolved, id);
    return PlanDocuments.planned(owner, haState(), outcome);
  }

  /**
   * Balances the chunk reads against every live plan's outstanding load and adds the plan,
   * under {@code planLock}: each plan sees the ones before it.
   */
  private PlanOutcome plan(String owner, PlanRequestResolver.Resolved resolved, String id)
      throws PlanRefusedException {
    List<BlockRead> chunks = resolved.chunks;
    StrategyComparison both;
    BalanceResult chosen;
    ReadPlanTable.PlanInfo info = null;
    long pinned;
    String[] servers = new String[chunks.size()];
    synchronized (planLock) {
      Map<String, Integer> load = new HashMap<>(plans.outstanding());
      List<ChunkRead> remote = new ArrayList<>();
      for (int i = 0; i < chunks.size(); i++) {
        BlockRead c = chunks.get(i);
        if (c.local != null) {
          load.merge(c.local, 1, Integer::sum);
        } else {
          remote.add(new ChunkRead(Integer.toString(i), c.block.usableHolders()));
        }
      }
      // The balancer reports the DataNodes of the remote reads; the others keep their load
      // (other plans' reads and this plan's pinned local ones).
      pinned = 0;
      for (int v : load.values()) {
        pinned = Math.max(pinned, v);
      }
      both = new ReplicaBalancer(Strategy.OPTIMAL, seed++, Math.max(1, remote.size()))
          .compare(remote, load);
      chosen = strategy == Strategy.OPTIMAL ? both.optimal() : both.algorithm2();
      List<ReadPlanTable.PlannedRead> planned = new ArrayList<>(chunks.size());
      for (int i = 0; i < chunks.size(); i++) {
        BlockRead c = chunks.get(i);
        servers[i] = c.local != null ? c.local : chosen.assignment().get(Integer.toString(i));
        planned.add(new ReadPlanTable.PlannedRead(c.reader, Arrays.asList(c.block.holders),
            servers[i]));
      }
      if (!planned.isEmpty()) {
        try {
          info = plans.add(owner, planned, id);
        } catch (ReadPlanTable.PlanLimitException e) {
          throw limitRefusal(e);
        } catch (ReadPlanTable.IdInUseException e) {
          throw new PlanRefusedException(409, e.getMessage());
        }
      }
    }
    return new PlanOutcome(info, resolved, servers, both, chosen, pinned);
  }

  /** Deletes a plan of {@code user}'s (any plan, for the superuser). */
  public void delete(UserGroupInformation user, String id) throws PlanRefusedException {
    String owner = plans.owner(id);
    if (owner == null) {
      throw new PlanRefusedException(404, "no live read plan '" + PlanPaths.shorten(id) + "'");
    }
    if (!owner.equals(user.getShortUserName()) && !isSuperUser(user)) {
      throw new PlanRefusedException(403, "read plan '" + id + "' is not "
          + user.getShortUserName() + "'s");
    }
    plans.remove(id);
  }

  /** The caller's live plans (every plan, for the superuser) as a JSON document. */
  public byte[] list(UserGroupInformation user) throws IOException {
    boolean all = isSuperUser(user);
    List<ReadPlanTable.PlanInfo> shown = plans.plans(all ? null : user.getShortUserName());
    long now = Time.monotonicNow();
    return PlanDocuments.listed(all, haState(), shown, now);
  }

  boolean isSuperUser(UserGroupInformation user) {
    return user.getShortUserName().equals(superUser)
        || Arrays.asList(user.getGroupNames()).contains(superGroup);
  }

  // ---- request steps ----

  /**
   * This request's budget of located blocks and chunk reads: {@code max-request-reads}. A
   * caller with no room left at all is refused here, before any work; whether the plan fits
   * the caller's room exactly is decided when it is added.
   */
  private PlanRequestResolver.Budget budget(String owner) throws PlanRefusedException {
    try {
      plans.room(owner);
    } catch (ReadPlanTable.PlanLimitException e) {
      throw limitRefusal(e);
    }
    return new PlanRequestResolver.Budget(maxRequestReads);
  }

  private PlanRefusedException limitRefusal(ReadPlanTable.PlanLimitException e) {
    // 429: this user's share is used up; 503: everyone's is. Both pass as plans expire.
    return new PlanRefusedException(e.userLimit() ? 429 : 503, e.getMessage(), retryAfter());
  }

  private int retryAfter() {
    return (int) Math.min(600, Math.max(1, plans.limits().ttlMillis() / 1000 / 10));
  }
}
