package org.opass.read.nn;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.regex.Pattern;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.UnresolvedLinkException;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.ipc.StandbyException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Time;
import org.apache.hadoop.util.functional.CallableRaisingIOE;
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
 * {@value #LOCATE_WINDOW_BLOCKS} blocks that are reduced to a few strings per block at once;
 * the request stops (413, or 429 when the caller's share of plans is what runs out) at the
 * first block past {@code max-request-reads} or the caller's room in {@link ReadPlanTable}. So a
 * request holds its body plus about 200 bytes per located block, and balances at most
 * {@code max-request-reads} reads (65,536 reads over 1,024 or 2,048 DataNodes: 0.1 to 0.8 s,
 * {@code bin/bench read-plan-limits}). Readers are DataNodes (by IP address or host name,
 * looked up in the NameNode's own tables) or IP addresses: nothing a caller sends is looked up
 * in DNS.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class ReadPlanService {
  /** Most blocks asked of the namespace in one {@code getBlockLocations}. */
  static final int LOCATE_WINDOW_BLOCKS = 1024;

  private static final JsonFactory JSON = new JsonFactory();
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  private final NameNode nameNode;
  private final ReadPlanTable plans;
  private final Strategy strategy;
  private final int maxRequestReads;
  private final int maxRequestBytes;
  private final long staleMillis;
  private final Semaphore running;
  private final PlanPaths paths;
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
    this.staleMillis = conf.getBoolean(
        DFSConfigKeys.DFS_NAMENODE_AVOID_STALE_DATANODE_FOR_READ_KEY,
        DFSConfigKeys.DFS_NAMENODE_AVOID_STALE_DATANODE_FOR_READ_DEFAULT)
        ? conf.getLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
            DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT)
        : Long.MAX_VALUE;
    this.paths = PlanPaths.of(nameNode.getNameNodeAddress(), FileSystem.getDefaultUri(conf),
        DFSUtilClient.getNameServiceIds(conf));
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
    Budget budget = budget(owner);

    // Each file once, whatever alias names it; the readers as the NameNode will see them.
    Map<String, TargetFile> byPath = new HashMap<>();
    Map<Long, TargetFile> byId = new LinkedHashMap<>();
    TargetFile[] fileOf = new TargetFile[asked.size()];
    String[] readerOf = new String[asked.size()];
    Readers readers = new Readers(
        nameNode.getNamesystem().getBlockManager().getDatanodeManager());
    for (int i = 0; i < asked.size(); i++) {
      PlanRead r = asked.get(i);
      String path = paths.normalise(r.path(), i);
      TargetFile f = byPath.get(path);
      if (f == null) {
        HdfsFileStatus st = asCaller(user, path, () -> nameNode.getRpcServer().getFileInfo(path));
        if (st == null) {
          throw new PlanRefusedException(404, "reads[" + i + "].path: no such file: " + path);
        }
        if (st.isDirectory()) {
          throw new PlanRefusedException(400, "reads[" + i + "].path " + path
              + " is a directory; name files");
        }
        f = byId.get(st.getFileId());
        if (f == null) {
          f = new TargetFile(path, st.getLen(), Math.max(1, st.getBlockSize()));
          byId.put(st.getFileId(), f);
        }
        byPath.put(path, f);
      }
      fileOf[i] = f;
      f.want(r.offset(), r.end());
      readerOf[i] = readers.resolve(r.reader(), i);
    }

    for (TargetFile f : byId.values()) {
      locate(user, f, budget);
    }

    // One chunk read per (reader, block), whatever alias or overlapping range asked for it.
    List<BlockRead> chunks = new ArrayList<>();
    int skipped = 0;
    for (int i = 0; i < asked.size(); i++) {
      PlanRead r = asked.get(i);
      TargetFile f = fileOf[i];
      if (r.end() <= r.offset()) {
        continue; // an empty range reads no block
      }
      for (int b = f.firstBlockEndingAfter(r.offset()); b < f.blocks.size(); b++) {
        Block blk = f.blocks.get(b);
        if (blk.start >= r.end()) {
          break;
        }
        if (!blk.addReader(readerOf[i])) {
          continue;
        }
        budget.use();
        if (blk.usableCount == 0) {
          skipped++; // online balancing serves it
        } else {
          chunks.add(new BlockRead(f, blk, readerOf[i], blk.usableAt(readerOf[i])));
        }
      }
    }
    if (chunks.isEmpty() && skipped == 0) {
      throw new PlanRefusedException(400, "nothing to plan: every read is empty, of an empty "
          + "file, or starts past the end of its file");
    }
    return plan(owner, chunks, skipped, id);
  }

  private byte[] plan(String owner, List<BlockRead> chunks, int skipped, String id)
      throws PlanRefusedException, IOException {
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
    return response(owner, info, chunks, servers, skipped, both, chosen, pinned);
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
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField(PlanWire.SCOPE, all ? "all" : "own");
      g.writeStringField(PlanWire.HA_STATE, haState());
      g.writeArrayFieldStart(PlanWire.PLANS);
      long reads = 0;
      for (ReadPlanTable.PlanInfo p : shown) {
        g.writeStartObject();
        g.writeStringField(PlanWire.ID, p.id());
        g.writeStringField(PlanWire.OWNER, p.owner());
        g.writeNumberField(PlanWire.READS, p.reads());
        g.writeNumberField(PlanWire.SERVED, p.served());
        g.writeNumberField(PlanWire.EXPIRES_IN_MS, Math.max(0, p.expiresMillis() - now));
        g.writeEndObject();
        reads += p.reads();
      }
      g.writeEndArray();
      g.writeNumberField(PlanWire.PLANNED_READS, reads);
      g.writeEndObject();
    }
    return out.toByteArray();
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
  private Budget budget(String owner) throws PlanRefusedException {
    try {
      plans.room(owner);
    } catch (ReadPlanTable.PlanLimitException e) {
      throw limitRefusal(e);
    }
    return new Budget(maxRequestReads);
  }

  private PlanRefusedException limitRefusal(ReadPlanTable.PlanLimitException e) {
    // 429: this user's share is used up; 503: everyone's is. Both pass as plans expire.
    return new PlanRefusedException(e.userLimit() ? 429 : 503, e.getMessage(), retryAfter());
  }

  private int retryAfter() {
    return (int) Math.min(600, Math.max(1, plans.limits().ttlMillis() / 1000 / 10));
  }

  /** Locates the blocks of {@code f}'s wanted spans, a window at a time. */
  private void locate(UserGroupInformation user, TargetFile f, Budget budget)
      throws PlanRefusedException, IOException {
    for (long[] span : f.spans()) {
      long off = span[0];
      while (off < span[1]) {
        long blocks = Math.min(LOCATE_WINDOW_BLOCKS, budget.left() + 1L);
        long window = blocks > (span[1] - off) / f.blockSize ? span[1] - off
            : blocks * f.blockSize;
        long from = off;
        LocatedBlocks located = asCaller(user, f.path, () ->
            nameNode.getRpcServer().getBlockLocations(f.path, from, window));
        if (located == null) {
          throw new PlanRefusedException(404, "no such file: " + f.path);
        }
        long next = off;
        for (LocatedBlock lb : located.getLocatedBlocks()) {
          long start = lb.getStartOffset();
          long end = start + lb.getBlockSize();
          if (end <= off || start >= span[1] || (!f.blocks.isEmpty()
              && start < f.blocks.get(f.blocks.size() - 1).end())) {
            continue; // outside the span, or located already
          }
          budget.locate(f.path);
          f.blocks.add(new Block(lb, staleMillis));
          next = Math.max(next, end);
        }
        if (next <= off) {
          break; // past the end of the file
        }
        off = next;
      }
    }
  }

  /** Runs a namespace call as the caller, with our replica sort off, mapping refusals. */
  private <T> T asCaller(UserGroupInformation user, String path, CallableRaisingIOE<T> call)
      throws PlanRefusedException, IOException {
    try {
      return user.doAs((PrivilegedExceptionAction<T>) () ->
          BalancingNetworkTopology.withoutBalancing(call));
    } catch (AccessControlException e) {
      throw new PlanRefusedException(403, "user " + user.getShortUserName()
          + " may not read " + path);
    } catch (FileNotFoundException e) {
      throw new PlanRefusedException(404, "no such file: " + path);
    } catch (StandbyException e) { // an observer too, when it sends a read to the active
      throw new PlanRefusedException(503, "this NameNode cannot locate the blocks now ("
          + haState() + "): submit read plans to the active NameNode", 1);
    } catch (SafeModeException | RetriableException e) {
      throw new PlanRefusedException(503, "the NameNode is starting up (safe mode); retry",
          10);
    } catch (UnresolvedLinkException e) {
      throw new PlanRefusedException(400, path + " goes through a symbolic link; plan the "
          + "link's target");
    } catch (HadoopIllegalArgumentException e) {
      throw new PlanRefusedException(400, path + " is not a valid HDFS path");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while locating " + path, e);
    }
  }

  private byte[] response(String owner, ReadPlanTable.PlanInfo info, List<BlockRead> chunks,
      String[] servers, int skipped, StrategyComparison both, BalanceResult chosen, long pinned)
      throws IOException {
    int local = 0;
    String[] names = new String[chunks.size()];
    Map<String, Integer> served = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      BlockRead c = chunks.get(i);
      names[i] = c.block.nameOf(servers[i]);
      served.merge(names[i], 1, Integer::sum);
      local += c.local != null ? 1 : 0;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(256 + 120 * chunks.size());
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      if (info == null) {
        g.writeNullField(PlanWire.ID); // every chunk was skipped: nothing to keep
      } else {
        g.writeStringField(PlanWire.ID, info.id());
      }
      g.writeStringField(PlanWire.OWNER, owner);
      g.writeStringField(PlanWire.HA_STATE, haState());
      g.writeNumberField(PlanWire.EXPIRES_IN_MS,
          info == null ? 0 : info.expiresMillis() - info.createdMillis());
      g.writeStringField(PlanWire.STRATEGY, chosen.strategy().name().toLowerCase(Locale.ROOT));
      g.writeNumberField(PlanWire.READS, chunks.size());
      g.writeNumberField(PlanWire.LOCAL, local);
      g.writeNumberField(PlanWire.SKIPPED, skipped);
      g.writeNumberField(PlanWire.MAX_LOAD, Math.max(pinned, chosen.maxLoad()));
      g.writeNumberField(PlanWire.ALGORITHM2_MAX_LOAD,
          Math.max(pinned, both.algorithm2().maxLoad()));
      g.writeNumberField(PlanWire.OPTIMAL_MAX_LOAD, Math.max(pinned, both.optimal().maxLoad()));
      g.writeObjectFieldStart(PlanWire.SERVED_BY_DATANODE);
      for (Map.Entry<String, Integer> e : served.entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeArrayFieldStart(PlanWire.ASSIGNMENTS);
      for (int i = 0; i < names.length; i++) {
        BlockRead c = chunks.get(i);
        g.writeStartObject();
        g.writeStringField(PlanWire.PATH_FIELD, c.file.path);
        g.writeNumberField(PlanWire.OFFSET, c.block.start);
        g.writeNumberField(PlanWire.LENGTH, c.block.size);
        g.writeStringField(PlanWire.READER, c.reader);
        g.writeStringField(PlanWire.DATANODE, names[i]);
        g.writeBooleanField(PlanWire.LOCAL, c.local != null);
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  /**
   * A literal IPv4 or IPv6 address in its canonical text form, or null. Never a DNS lookup:
   * {@code InetAddress} only parses a string that has a colon.
   */
  static String ipLiteral(String s) {
    if (IPV4.matcher(s).matches()) {
      String[] octets = s.split("\\.");
      StringBuilder b = new StringBuilder(15);
      for (String o : octets) {
        int v = Integer.parseInt(o);
        if (v > 255) {
          return null;
        }
        b.append(b.length() == 0 ? "" : ".").append(v);
      }
      return b.toString();
    }
    if (IPV6.matcher(s).matches()) {
      try {
        return InetAddress.getByName(s).getHostAddress();
      } catch (UnknownHostException e) {
        return null;
      }
    }
    return null;
  }

  /** The reader addresses of one request, as the NameNode will see those readers. */
  private static final class Readers {
    private final DatanodeManager dm;
    private final Map<String, String> resolved = new HashMap<>();
    private Map<String, String> ipByHostName;

    Readers(DatanodeManager dm) {
      this.dm = dm;
    }

    String resolve(String given, int i) throws PlanRefusedException {
      String ip = resolved.get(given);
      if (ip != null) {
        return ip;
      }
      DatanodeDescriptor byIp = dm.getDatanodeByHost(given);
      if (byIp != null) {
        ip = byIp.getIpAddr();
      } else {
        if (ipByHostName == null) { // once per request, and only if a host name is given
          ipByHostName = new HashMap<>();
          for (DatanodeDescriptor d : dm.getDatanodes()) {
            ipByHostName.put(d.getHostName().toLowerCase(Locale.ROOT), d.getIpAddr());
          }
        }
        ip = ipByHostName.get(given.toLowerCase(Locale.ROOT));
      }
      if (ip == null) {
        ip = ipLiteral(given);
      }
      if (ip == null) {
        throw new PlanRefusedException(400, "reads[" + i + "].reader '" + given
            + "' is not a DataNode of this cluster (by host name or IP address); name a "
            + "reader that runs no DataNode by its IP address");
      }
      resolved.put(given, ip);
      return ip;
    }
  }

  /** Located blocks and chunk reads one request may take; 413 past them. */
  private static final class Budget {
    private final int limit;
    private int located;
    private int reads;

    Budget(int limit) {
      this.limit = limit;
    }

    int left() {
      return limit - located;
    }

    void locate(String path) throws PlanRefusedException {
      if (++located > limit) {
        throw exceeded("the requested ranges cover more than " + limit + " blocks (at " + path
            + ")");
      }
    }

    void use() throws PlanRefusedException {
      if (++reads > limit) {
        throw exceeded("the request has more than " + limit + " chunk reads");
      }
    }

    private static PlanRefusedException exceeded(String what) {
      return new PlanRefusedException(413, what + " (" + ReadBalanceKeys.PLAN_MAX_REQUEST_READS
          + "); split the batch");
    }
  }

  /** A file of the request: its wanted byte ranges, then its located blocks in order. */
  private static final class TargetFile {
    final String path;
    final long length;
    final long blockSize;
    final List<long[]> wanted = new ArrayList<>();
    final List<Block> blocks = new ArrayList<>();
    private long[] starts;

    TargetFile(String path, long length, long blockSize) {
      this.path = path;
      this.length = length;
      this.blockSize = blockSize;
    }

    void want(long offset, long end) {
      if (offset < length && offset < end) {
        wanted.add(new long[] {offset, Math.min(end, length)});
      }
    }

    /** The wanted ranges merged (gaps under a block joined: they share blocks). */
    List<long[]> spans() {
      List<long[]> sorted = new ArrayList<>(wanted);
      sorted.sort((a, b) -> Long.compare(a[0], b[0]));
      List<long[]> out = new ArrayList<>();
      for (long[] r : sorted) {
        long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
        if (last != null && r[0] - last[1] < blockSize) {
          last[1] = Math.max(last[1], r[1]);
        } else {
          out.add(new long[] {r[0], r[1]});
        }
      }
      return out;
    }

    /** Index of the first located block that ends after {@code offset}. */
    int firstBlockEndingAfter(long offset) {
      if (starts == null) {
        starts = new long[blocks.size()];
        for (int b = 0; b < starts.length; b++) {
          starts[b] = blocks.get(b).start;
        }
      }
      int at = Arrays.binarySearch(starts, offset);
      int b = at >= 0 ? at : Math.max(0, -at - 2);
      while (b < blocks.size() && blocks.get(b).end() <= offset) {
        b++;
      }
      return b;
    }
  }

  /**
   * What planning needs of a located block, copied out of it at once so the located block
   * (with its tokens and DataNode copies) is not kept: about 200 bytes.
   */
  private static final class Block {
    final long start;
    final long size;
    final String[] holders; // DataNode ids
    final String[] ips;
    final String[] names; // transfer addresses
    final boolean[] usable;
    final int usableCount;
    private String firstReader;
    private Set<String> moreReaders;

    Block(LocatedBlock lb, long staleMillis) {
      this.start = lb.getStartOffset();
      this.size = lb.getBlockSize();
      DatanodeInfo[] locs = lb.getLocations();
      holders = new String[locs.length];
      ips = new String[locs.length];
      names = new String[locs.length];
      usable = new boolean[locs.length];
      int ok = 0;
      for (int k = 0; k < locs.length; k++) {
        DatanodeInfo dn = locs[k];
        holders[k] = dn.getDatanodeUuid();
        ips[k] = dn.getIpAddr();
        names[k] = dn.getXferAddr();
        usable[k] = !lb.isStriped() && dn.isInService() && !dn.isStale(staleMillis);
        ok += usable[k] ? 1 : 0;
      }
      usableCount = ok;
    }

    long end() {
      return start + size;
    }

    /** True the first time {@code reader} reads this block in the request. */
    boolean addReader(String reader) {
      if (firstReader == null) {
        firstReader = reader;
        return true;
      }
      if (firstReader.equals(reader)) {
        return false;
      }
      if (moreReaders == null) {
        moreReaders = new HashSet<>(4);
      }
      return moreReaders.add(reader);
    }

    List<String> usableHolders() {
      List<String> out = new ArrayList<>(usableCount);
      for (int k = 0; k < holders.length; k++) {
        if (usable[k]) {
          out.add(holders[k]);
        }
      }
      return out;
    }

    /** The transfer address of holder {@code id} (what clients and counters see). */
    String nameOf(String id) {
      for (int k = 0; k < holders.length; k++) {
        if (holders[k].equals(id)) {
          return names[k];
        }
      }
      return id;
    }

    /** The usable replica on the DataNode at {@code ip}, or null. */
    String usableAt(String ip) {
      for (int k = 0; k < holders.length; k++) {
        if (usable[k] && ips[k].equals(ip)) {
          return holders[k];
        }
      }
      return null;
    }
  }

  /**
   * One block of a file read by one reader, as the request asks it (the planner's and the
   * balancer's chunk read, here with the located block and the reader's own replica if any).
   */
  private static final class BlockRead {
    final TargetFile file;
    final Block block;
    final String reader;
    final String local;

    BlockRead(TargetFile file, Block block, String reader, String local) {
      this.file = file;
      this.block = block;
      this.reader = reader;
      this.local = local;
    }
  }
}
