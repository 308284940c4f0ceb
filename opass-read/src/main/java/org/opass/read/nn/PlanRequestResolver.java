package org.opass.read.nn;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.UnresolvedLinkException;
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
import org.apache.hadoop.util.functional.CallableRaisingIOE;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;

/**
 * Turns the reads of one read-plan request into the chunk reads {@link ReadPlanService}
 * balances: each file resolved once <em>as the caller</em>, whatever alias names it (so a file
 * the caller may not read is refused as an {@code open} would be); each reader as the NameNode
 * will see it (a DataNode by host name or IP address, or an IP address: never a DNS lookup);
 * only the requested byte spans located, in windows of at most {@value #LOCATE_WINDOW_BLOCKS}
 * blocks, each block reduced at once to a few strings ({@link TargetFile.Block}); and one
 * chunk read per (reader, block). Every located block and chunk read counts against the
 * request's {@link Budget} ({@code max-request-reads}): past it the request is refused (413)
 * at once.
 *
 * <p>Split out of the service so that what a request costs to resolve sits apart from
 * planning it. Thread-safe: it keeps only its settings; a request's state lives in the objects
 * {@link #resolve} makes.
 */
final class PlanRequestResolver {
  /** Most blocks asked of the namespace in one {@code getBlockLocations}. */
  static final int LOCATE_WINDOW_BLOCKS = 1024;

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  private final NameNode nameNode;
  private final PlanPaths paths;
  private final long staleMillis;
  private final Supplier<String> haState;

  /**
   * @param paths       the path aliases of this NameNode's namespace
   * @param staleMillis replicas on DataNodes stale this long are not planned on
   * @param haState     the NameNode's HA state, for the refusal of a NameNode that cannot
   *                    locate blocks
   */
  PlanRequestResolver(NameNode nameNode, PlanPaths paths, long staleMillis,
      Supplier<String> haState) {
    this.nameNode = nameNode;
    this.paths = paths;
    this.staleMillis = staleMillis;
    this.haState = haState;
  }

  /** The chunk reads of one request and the chunk reads left to online balancing. */
  static final class Resolved {
    /** One per (reader, block), in the order the request asks them. */
    final List<BlockRead> chunks;
    /** Chunk reads with no usable replica (striped, stale or not in service). */
    final int skipped;

    Resolved(List<BlockRead> chunks, int skipped) {
      this.chunks = chunks;
      this.skipped = skipped;
    }
  }

  /**
   * Resolves {@code asked} for {@code user}, spending {@code budget}.
   *
   * @throws PlanRefusedException what the caller did wrong or may not do, or 413 past the
   *     budget
   */
  Resolved resolve(UserGroupInformation user, List<PlanRead> asked, Budget budget)
      throws PlanRefusedException, IOException {
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
        TargetFile.Block blk = f.blocks.get(b);
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
    return new Resolved(chunks, skipped);
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
          f.blocks.add(new TargetFile.Block(lb, staleMillis));
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
          + haState.get() + "): submit read plans to the active NameNode", 1);
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
  static final class Budget {
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
}
