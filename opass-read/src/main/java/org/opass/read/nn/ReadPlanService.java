package org.opass.read.nn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Time;
import org.opass.heatmap.StrictConf;
import org.opass.read.balance.BalanceResult;
import org.opass.read.balance.ChunkRead;
import org.opass.read.balance.Comparison;
import org.opass.read.balance.ReplicaBalancer;
import org.opass.read.balance.Strategy;

/**
 * The NameNode side of batch read planning: a client names the chunks its readers will read
 * (file, byte range, reader host); this resolves their blocks <em>as that user</em> (so a file
 * the user may not read is refused exactly as an {@code open} would be), pins reads that have
 * a replica on the reader's own DataNode there, balances the others over their holders with
 * {@link ReplicaBalancer} against the load every live plan (any tenant's) still has to serve,
 * and stores the result in {@link ReadPlans}, which the topology consults on every
 * {@code getBlockLocations}.
 *
 * <p>Request: {@code {"reads": [{"path": "/d/f", "reader": "host-or-ip", "offset": 0,
 * "length": 1048576}, ...]}} (offset and length optional: the whole file). Every block that
 * overlaps a read's range is one planned chunk read. The response says which DataNode serves
 * each, the resulting loads, and the maximum load of both Algorithm 2 and the optimum on the
 * same batch.
 */
public final class ReadPlanService {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final NameNode nameNode;
  private final ReadPlans plans;
  private final Strategy strategy;
  private final int maxReads;
  private final long staleMillis;
  private long seed;

  /** Thrown for a request that cannot be planned; {@code status} is the HTTP status. */
  public static final class PlanRequestException extends Exception {
    private final int status;

    PlanRequestException(int status, String message) {
      super(message);
      this.status = status;
    }

    public int status() {
      return status;
    }
  }

  public ReadPlanService(NameNode nameNode, Configuration conf) {
    this.nameNode = nameNode;
    this.maxReads = StrictConf.atLeast(conf, ReadBalanceKeys.PLAN_MAX_READS, 1,
        ReadBalanceKeys.PLAN_MAX_READS_DEFAULT);
    long ttl = StrictConf.atLeast(conf, ReadBalanceKeys.PLAN_TTL, 1L,
        ReadBalanceKeys.PLAN_TTL_DEFAULT_MILLIS);
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
    this.plans = new ReadPlans(maxReads, ttl, Time::monotonicNow);
  }

  public ReadPlans plans() {
    return plans;
  }

  /** Plans the request for {@code user}; returns the response document. */
  public String submit(UserGroupInformation user, String requestJson)
      throws PlanRequestException, IOException {
    List<Request> requests = parse(requestJson);
    DatanodeManager dm = nameNode.getNamesystem().getBlockManager().getDatanodeManager();
    Map<String, LocatedBlocks> files = new HashMap<>();
    Map<String, String> readers = new HashMap<>();
    List<Chunk> chunks = new ArrayList<>();
    Map<String, Integer> load = new HashMap<>(plans.outstanding());
    List<ChunkRead> remote = new ArrayList<>();
    int skipped = 0;
    for (Request r : requests) {
      LocatedBlocks blocks = files.get(r.path);
      if (blocks == null) {
        blocks = locate(user, r.path);
        files.put(r.path, blocks);
      }
      String reader = readers.computeIfAbsent(r.reader, h -> resolveReader(dm, h));
      if (reader == null) {
        throw new PlanRequestException(400, "reader '" + r.reader + "' (for " + r.path
            + ") is neither a DataNode's host nor a resolvable address");
      }
      for (LocatedBlock lb : blocks.getLocatedBlocks()) {
        long start = lb.getStartOffset();
        if (start + lb.getBlockSize() <= r.offset || start >= r.end()) {
          continue;
        }
        List<String> holders = new ArrayList<>();
        List<String> usable = new ArrayList<>();
        String local = null;
        for (DatanodeInfo dn : lb.getLocations()) {
          holders.add(dn.getDatanodeUuid());
          if (dn.isInService() && !dn.isStale(staleMillis)) {
            usable.add(dn.getDatanodeUuid());
            if (dn.getIpAddr().equals(reader)) {
              local = dn.getDatanodeUuid();
            }
          }
        }
        if (lb.isStriped() || usable.isEmpty()) {
          skipped++; // online balancing serves it
          continue;
        }
        if (chunks.size() == maxReads) {
          throw new PlanRequestException(413, "the batch has more than " + maxReads
              + " chunk reads (" + ReadBalanceKeys.PLAN_MAX_READS + "); split it");
        }
        Chunk c = new Chunk(r.path, start, lb.getBlockSize(), reader, holders, local,
            lb.getLocations());
        if (local != null) {
          load.merge(local, 1, Integer::sum);
        } else {
          remote.add(new ChunkRead(Integer.toString(chunks.size()), usable));
        }
        chunks.add(c);
      }
    }
    Comparison both;
    synchronized (this) {
      both = new ReplicaBalancer(Strategy.OPTIMAL, seed++, maxReads).compare(remote, load);
    }
    BalanceResult chosen = strategy == Strategy.OPTIMAL ? both.optimal() : both.algorithm2();
    List<ReadPlans.PlannedRead> planned = new ArrayList<>(chunks.size());
    for (int i = 0; i < chunks.size(); i++) {
      Chunk c = chunks.get(i);
      c.server = c.local != null ? c.local : chosen.assignment().get(Integer.toString(i));
      planned.add(new ReadPlans.PlannedRead(c.reader, c.holders, c.server));
    }
    ReadPlans.PlanInfo info;
    try {
      info = plans.add(user.getShortUserName(), planned);
    } catch (ReadPlans.PlanLimitException e) {
      throw new PlanRequestException(503, e.getMessage());
    }
    return response(info, chunks, skipped, both, chosen, load);
  }

  /** Deletes a plan of {@code user}'s. */
  public void delete(UserGroupInformation user, String id) throws PlanRequestException {
    String owner = plans.owner(id);
    if (owner == null) {
      throw new PlanRequestException(404, "no live read plan '" + id + "'");
    }
    if (!owner.equals(user.getShortUserName())) {
      throw new PlanRequestException(403, "read plan '" + id + "' belongs to " + owner);
    }
    plans.remove(id);
  }

  /** The live plans as a JSON document. */
  public String list() {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode arr = root.putArray("plans");
    long now = Time.monotonicNow();
    for (ReadPlans.PlanInfo p : plans.plans()) {
      arr.addObject().put("id", p.id()).put("owner", p.owner()).put("reads", p.reads())
          .put("served", p.served()).put("expires_in_ms", p.expiresMillis() - now);
    }
    root.put("planned_reads", plans.plannedReads());
    return root.toString();
  }

  private LocatedBlocks locate(UserGroupInformation user, String path)
      throws PlanRequestException, IOException {
    try {
      LocatedBlocks blocks = user.doAs((PrivilegedExceptionAction<LocatedBlocks>) () ->
          BalancingNetworkTopology.withoutBalancing(() ->
              nameNode.getRpcServer().getBlockLocations(path, 0, Long.MAX_VALUE)));
      if (blocks == null) {
        throw new FileNotFoundException(path);
      }
      return blocks;
    } catch (AccessControlException e) {
      throw new PlanRequestException(403, "user " + user.getShortUserName()
          + " may not read " + path + ": " + e.getMessage());
    } catch (FileNotFoundException e) {
      throw new PlanRequestException(404, "no such file: " + path);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while locating " + path, e);
    }
  }

  /** The address the NameNode will see the reader as (its DataNode's IP), or null. */
  private static String resolveReader(DatanodeManager dm, String host) {
    DatanodeDescriptor byIp = dm.getDatanodeByHost(host);
    if (byIp != null) {
      return byIp.getIpAddr();
    }
    for (DatanodeDescriptor d : dm.getDatanodeListForReport(DatanodeReportType.LIVE)) {
      if (d.getHostName().equalsIgnoreCase(host)) {
        return d.getIpAddr();
      }
    }
    try {
      return InetAddress.getByName(host).getHostAddress();
    } catch (UnknownHostException e) {
      return null;
    }
  }

  private static List<Request> parse(String json) throws PlanRequestException {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (IOException e) {
      throw new PlanRequestException(400, "request is not JSON: " + e.getMessage());
    }
    JsonNode reads = root == null ? null : root.get("reads");
    if (reads == null || !reads.isArray()) {
      throw new PlanRequestException(400,
          "request needs \"reads\": [{\"path\": ..., \"reader\": ...}, ...]");
    }
    List<Request> out = new ArrayList<>(reads.size());
    for (int i = 0; i < reads.size(); i++) {
      JsonNode r = reads.get(i);
      String path = absolutePath(text(r, "path", i), i);
      String reader = text(r, "reader", i);
      long offset = number(r, "offset", i, 0);
      long length = number(r, "length", i, Long.MAX_VALUE);
      out.add(new Request(path, reader, offset, length));
    }
    return out;
  }

  /** The path part of {@code hdfs://nn/x} or {@code /x}; a relative path is refused. */
  private static String absolutePath(String path, int i) throws PlanRequestException {
    String p;
    try {
      p = java.net.URI.create(path).getPath();
    } catch (IllegalArgumentException e) {
      p = path;
    }
    if (p == null || !p.startsWith("/")) {
      throw new PlanRequestException(400, "reads[" + i + "].path '" + path
          + "' is not absolute");
    }
    return p;
  }

  private static String text(JsonNode r, String field, int i) throws PlanRequestException {
    JsonNode v = r.get(field);
    if (v == null || !v.isTextual() || v.asText().isEmpty()) {
      throw new PlanRequestException(400, "reads[" + i + "]." + field + " is missing");
    }
    return v.asText();
  }

  private static long number(JsonNode r, String field, int i, long dflt)
      throws PlanRequestException {
    JsonNode v = r.get(field);
    if (v == null) {
      return dflt;
    }
    if (!v.canConvertToLong() || v.asLong() < 0) {
      throw new PlanRequestException(400, "reads[" + i + "]." + field
          + " must be a non-negative integer, got " + v);
    }
    return v.asLong();
  }

  private String response(ReadPlans.PlanInfo info, List<Chunk> chunks, int skipped,
      Comparison both, BalanceResult chosen, Map<String, Integer> load) {
    // The balancer reports the DataNodes of the remote reads; the others keep their load
    // (other plans' reads and this plan's pinned local ones).
    long pinned = load.values().stream().mapToLong(Integer::longValue).max().orElse(0);
    ObjectNode root = JSON.createObjectNode();
    root.put("id", info.id());
    root.put("owner", info.owner());
    root.put("expires_in_ms", info.expiresMillis() - info.createdMillis());
    root.put("strategy", chosen.strategy().name().toLowerCase());
    int local = 0;
    Map<String, Integer> served = new LinkedHashMap<>();
    ArrayNode arr = JSON.createArrayNode();
    for (Chunk c : chunks) {
      String name = c.name();
      served.merge(name, 1, Integer::sum);
      local += c.local != null ? 1 : 0;
      arr.addObject().put("path", c.path).put("offset", c.offset).put("length", c.length)
          .put("reader", c.reader).put("datanode", name).put("local", c.local != null);
    }
    root.put("reads", chunks.size());
    root.put("local", local);
    root.put("skipped", skipped);
    root.put("max_load", Math.max(pinned, chosen.maxLoad()));
    root.put("algorithm2_max_load", Math.max(pinned, both.algorithm2().maxLoad()));
    root.put("optimal_max_load", Math.max(pinned, both.optimal().maxLoad()));
    ObjectNode byDn = root.putObject("served_by_datanode");
    served.forEach(byDn::put);
    root.set("assignments", arr);
    return root.toString();
  }

  private record Request(String path, String reader, long offset, long length) {
    long end() {
      return length > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + length;
    }
  }

  private static final class Chunk {
    final String path;
    final long offset;
    final long length;
    final String reader;
    final List<String> holders;
    final String local;
    final DatanodeInfo[] locations;
    String server;

    Chunk(String path, long offset, long length, String reader, List<String> holders,
        String local, DatanodeInfo[] locations) {
      this.path = path;
      this.offset = offset;
      this.length = length;
      this.reader = reader;
      this.holders = holders;
      this.local = local;
      this.locations = locations;
    }

    /** The serving DataNode's transfer address (what clients and counters see). */
    String name() {
      for (DatanodeInfo dn : locations) {
        if (dn.getDatanodeUuid().equals(server)) {
          return dn.getXferAddr();
        }
      }
      return server;
    }
  }
}
