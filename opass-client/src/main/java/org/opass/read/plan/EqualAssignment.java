package org.opass.read.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.maxflow.IntMaxFlow;

/**
 * Equal-data assignment of single-input tasks (Opass §4.2, Fig. 5): every chunk goes to exactly
 * one process, every process gets an equal share, and as many chunks as possible are read on
 * the host that stores them.
 *
 * <p>Shares: with n chunks and m processes, every process gets &lfloor;n/m&rfloor; chunks and
 * n mod m of them get one more. The paper caps each process at TotalSize/m; capping each at
 * &lceil;n/m&rceil; alone is not enough, because a max flow may then fill more than n mod m
 * processes to &lceil;n/m&rceil; and leave another one short (n=4, m=3, all chunks on two
 * hosts: 2+2+0). So the network is
 *
 * <pre>
 *   s --&lfloor;n/m&rfloor;--&gt; p_i            (every process's floor share)
 *   s --(n mod m)--&gt; x --1--&gt; p_i   (at most n mod m processes get one extra)
 *   p_i --&gt; host(p_i) --1--&gt; chunk --1--&gt; t   (host-to-chunk arc iff a replica is there)
 * </pre>
 *
 * <p>Its maximum flow is the largest number of local chunks of any balanced assignment (any
 * balanced assignment's local part is a flow, and any flow extends to a balanced assignment by
 * the fill below). Going through a host node instead of one arc per (process, chunk) pair keeps
 * the network at O(m + replicas) arcs when many processes share a host.
 *
 * <p>Then the chunks left over fill the processes still short of their share, rack-local first:
 * a second max flow over the same quotas whose arcs join a process's rack to chunks with a
 * replica in that rack, so the number of rack-local chunks is the largest possible given the
 * local matching (the two stages are not jointly optimal: another local matching of the same
 * size might leave chunks that fit racks better). The rest fill processes below
 * &lfloor;n/m&rfloor; first, then one each to processes at &lfloor;n/m&rfloor; until none is
 * left. Deterministic for a given input order.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class EqualAssignment {
  private static final int S = 0;
  private static final int T = 1;
  private static final int X = 2;
  private static final int FIRST = 3;

  private EqualAssignment() {
  }

  /** Plans without rack information: everything that is not local is remote. */
  public static Plan plan(List<Chunk> chunks, List<Proc> processes) {
    return plan(chunks, processes, RackResolver.none());
  }

  /**
   * Assigns every chunk to one process.
   *
   * @param chunks    the chunks; ids must be unique
   * @param processes at least one process; ids must be unique; several may share a host
   * @param racks     host to rack, for the rack-local fill ({@link RackResolver#none()} for none)
   * @throws IllegalArgumentException naming the argument that is empty, null or duplicated
   */
  public static Plan plan(List<Chunk> chunks, List<Proc> processes, RackResolver racks) {
    Objects.requireNonNull(chunks, "chunks");
    Objects.requireNonNull(processes, "processes");
    Objects.requireNonNull(racks, "racks");
    checkChunks(chunks);
    checkProcesses(processes);
    int n = chunks.size();
    int m = processes.size();
    int floor = n / m;
    int extra = n % m;

    int[] owner = new int[n];
    Arrays.fill(owner, -1);
    int[] count = new int[m];

    int local = matchLocal(chunks, processes, new Quotas(floor, extra), owner, count);
    int atCeil = 0;
    for (int c : count) {
      if (c > floor) {
        atCeil++;
      }
    }
    if (local < n) {
      fillRackLocal(chunks, processes, racks, new Quotas(floor, extra - atCeil), owner, count);
    }
    fillRest(n, m, floor, owner, count);
    return new Plan(chunks, processes, owner, racks, local);
  }

  /** Stage 1: max flow from processes to co-located chunks; returns the optimum. */
  private static int matchLocal(List<Chunk> chunks, List<Proc> processes, Quotas quotas,
      int[] owner, int[] count) {
    int floor = quotas.floor;
    int extra = quotas.extras;
    int n = chunks.size();
    int m = processes.size();
    Map<String, Integer> hostIndex = new HashMap<>();
    int[] hostOf = new int[m];
    for (int p = 0; p < m; p++) {
      hostOf[p] = hostIndex.computeIfAbsent(processes.get(p).host(), h -> hostIndex.size());
    }
    int hosts = hostIndex.size();
    int firstHost = FIRST + m;
    int firstChunk = firstHost + hosts;

    // arcs host -> chunk, remembered per chunk so that the matched host can be read back
    int[] arcStart = new int[n + 1];
    int replicaArcs = 0;
    for (int c = 0; c < n; c++) {
      arcStart[c] = replicaArcs;
      for (String h : chunks.get(c).hosts()) {
        if (hostIndex.containsKey(h)) {
          replicaArcs++;
        }
      }
    }
    arcStart[n] = replicaArcs;
    IntMaxFlow g = new IntMaxFlow(firstChunk + n, 3 * m + replicaArcs + n + 1);
    int[] procArc = new int[m];
    for (int p = 0; p < m; p++) {
      if (floor > 0) {
        g.addEdge(S, FIRST + p, floor);
      }
      if (extra > 0) {
        g.addEdge(X, FIRST + p, 1);
      }
      procArc[p] = g.addEdge(FIRST + p, firstHost + hostOf[p], extra > 0 ? floor + 1 : floor);
    }
    if (extra > 0) {
      g.addEdge(S, X, extra);
    }
    int[] arcId = new int[replicaArcs];
    int[] arcHost = new int[replicaArcs];
    int k = 0;
    for (int c = 0; c < n; c++) {
      for (String h : chunks.get(c).hosts()) {
        Integer hi = hostIndex.get(h);
        if (hi != null) {
          arcHost[k] = hi;
          arcId[k++] = g.addEdge(firstHost + hi, firstChunk + c, 1);
        }
      }
      if (arcStart[c + 1] > arcStart[c]) {
        g.addEdge(firstChunk + c, T, 1);
      }
    }
    int flow = (int) g.maxFlow(S, T);

    // chunks matched at each host, handed out to that host's processes by their flow
    int[] perHost = new int[hosts + 1];
    int[] matchedHost = new int[n];
    Arrays.fill(matchedHost, -1);
    for (int c = 0; c < n; c++) {
      for (int a = arcStart[c]; a < arcStart[c + 1]; a++) {
        if (g.flow(arcId[a]) > 0) {
          matchedHost[c] = arcHost[a];
          perHost[arcHost[a]]++;
          break;
        }
      }
    }
    int[][] atHost = new int[hosts][];
    for (int h = 0; h < hosts; h++) {
      atHost[h] = new int[perHost[h]];
      perHost[h] = 0;
    }
    for (int c = 0; c < n; c++) {
      if (matchedHost[c] >= 0) {
        atHost[matchedHost[c]][perHost[matchedHost[c]]++] = c;
      }
    }
    int[] taken = new int[hosts];
    for (int p = 0; p < m; p++) {
      int h = hostOf[p];
      int f = g.flow(procArc[p]);
      for (int i = 0; i < f; i++) {
        owner[atHost[h][taken[h]++]] = p;
      }
      count[p] = f;
    }
    return flow;
  }

  /**
   * Stage 2: the same quotas (what is left of them) as a max flow from processes through their
   * rack to unassigned chunks with a replica in that rack.
   */
  private static void fillRackLocal(List<Chunk> chunks, List<Proc> processes, RackResolver racks,
      Quotas quotas, int[] owner, int[] count) {
    int floor = quotas.floor;
    int extrasLeft = quotas.extras;
    int n = chunks.size();
    int m = processes.size();
    Map<String, Integer> rackIndex = new HashMap<>();
    Map<String, String> rackCache = new HashMap<>();
    int[] rackOf = new int[m];
    for (int p = 0; p < m; p++) {
      String rack = rackCache.computeIfAbsent(processes.get(p).host(), racks::rackOf);
      rackOf[p] = rack == null ? -1 : rackIndex.computeIfAbsent(rack, r -> rackIndex.size());
    }
    if (rackIndex.isEmpty()) {
      return;
    }
    List<Integer> open = new ArrayList<>();
    for (int c = 0; c < n; c++) {
      if (owner[c] < 0) {
        open.add(c);
      }
    }
    int racksN = rackIndex.size();
    int firstRack = FIRST + m;
    int firstChunk = firstRack + racksN;
    IntMaxFlow g = new IntMaxFlow(firstChunk + open.size(), 3 * m + 4 * open.size() + 1);
    int[] procArc = new int[m];
    Arrays.fill(procArc, -1);
    for (int p = 0; p < m; p++) {
      if (rackOf[p] < 0) {
        continue;
      }
      if (count[p] < floor) {
        g.addEdge(S, FIRST + p, floor - count[p]);
      }
      if (extrasLeft > 0 && count[p] <= floor) {
        g.addEdge(X, FIRST + p, 1);
      }
      procArc[p] = g.addEdge(FIRST + p, firstRack + rackOf[p], floor + 1);
    }
    if (extrasLeft > 0) {
      g.addEdge(S, X, extrasLeft);
    }
    List<int[]> arcs = new ArrayList<>(); // {open index, rack, edge id}
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < open.size(); i++) {
      seen.clear();
      boolean any = false;
      for (String h : chunks.get(open.get(i)).hosts()) {
        String rack = rackCache.computeIfAbsent(h, racks::rackOf);
        Integer ri = rack == null ? null : rackIndex.get(rack);
        if (ri != null && seen.add(ri)) {
          arcs.add(new int[] {i, ri, g.addEdge(firstRack + ri, firstChunk + i, 1)});
          any = true;
        }
      }
      if (any) {
        g.addEdge(firstChunk + i, T, 1);
      }
    }
    g.maxFlow(S, T);
    List<List<Integer>> atRack = new ArrayList<>();
    for (int r = 0; r < racksN; r++) {
      atRack.add(new ArrayList<>());
    }
    for (int[] a : arcs) {
      if (g.flow(a[2]) > 0) {
        atRack.get(a[1]).add(open.get(a[0]));
      }
    }
    int[] taken = new int[racksN];
    for (int p = 0; p < m; p++) {
      if (procArc[p] < 0) {
        continue;
      }
      int f = g.flow(procArc[p]);
      List<Integer> list = atRack.get(rackOf[p]);
      for (int i = 0; i < f; i++) {
        owner[list.get(taken[rackOf[p]]++)] = p;
      }
      count[p] += f;
    }
  }

  /**
   * The equal quotas a stage fills: every process reads {@code floor} chunks, and
   * {@code extras} more processes may read one more (stage 1: n mod m of them; stage 2: those
   * stage 1 did not fill). Immutable.
   */
  private static final class Quotas {
    final int floor;
    final int extras;

    Quotas(int floor, int extras) {
      this.floor = floor;
      this.extras = extras;
    }
  }

  /** Stage 3: whatever is left, to processes below the floor first, then one extra each. */
  private static void fillRest(int n, int m, int floor, int[] owner, int[] count) {
    int c = 0;
    for (int p = 0; p < m; p++) {
      while (count[p] < floor) {
        c = nextOpen(owner, c);
        if (c == owner.length) {
          throw new IllegalStateException("internal error: too few chunks left for the quotas");
        }
        owner[c] = p;
        count[p]++;
      }
    }
    for (int p = 0; p < m; p++) {
      if (count[p] == floor) {
        c = nextOpen(owner, c);
        if (c == n) {
          break;
        }
        owner[c] = p;
        count[p]++;
      }
    }
    if (nextOpen(owner, 0) != n) {
      throw new IllegalStateException("internal error: a chunk was left unassigned");
    }
  }

  private static int nextOpen(int[] owner, int from) {
    int c = from;
    while (c < owner.length && owner[c] >= 0) {
      c++;
    }
    return c;
  }

  static void checkChunks(List<Chunk> chunks) {
    Set<Integer> ids = new HashSet<>();
    for (int i = 0; i < chunks.size(); i++) {
      Chunk c = chunks.get(i);
      if (c == null) {
        throw new IllegalArgumentException("chunks[" + i + "] is null");
      }
      if (!ids.add(c.id())) {
        throw new IllegalArgumentException("chunks[" + i + "] has duplicate id " + c.id());
      }
    }
  }

  static void checkProcesses(List<Proc> processes) {
    if (processes.isEmpty()) {
      throw new IllegalArgumentException("processes is empty: need at least one process");
    }
    Set<Integer> ids = new HashSet<>();
    for (int i = 0; i < processes.size(); i++) {
      Proc p = processes.get(i);
      if (p == null) {
        throw new IllegalArgumentException("processes[" + i + "] is null");
      }
      if (!ids.add(p.id())) {
        throw new IllegalArgumentException("processes[" + i + "] has duplicate id " + p.id());
      }
    }
  }
}
