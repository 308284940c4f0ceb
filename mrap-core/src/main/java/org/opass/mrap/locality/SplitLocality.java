package org.opass.mrap.locality;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.opass.read.plan.Chunk;
import org.opass.read.plan.EqualAssignment;
import org.opass.read.plan.Plan;
import org.opass.read.plan.Proc;

/**
 * Where to run a map task whose input spans several chunks (MRAP thesis §4.3.3). Pure Java:
 * chunks are bytes and holder host names.
 * <ul>
 *   <li>{@link #cover}: chunks read together. Algorithm 4.3.2, the iterative greedy weighted set
 *   cover: the primary is the host of least price {@code w / contribution}, where
 *   {@code contribution} is what of the split's chunks it holds and {@code w} what fetching
 *   the others would cost it (a chunk weighing its bytes and a request, times
 *   {@code offRackCost} from another rack); then, while chunks are left uncovered, the
 *   secondary of least price (the cost of sending its uncovered chunks to the primary, per
 *   chunk) covers its chunks. The primary runs the task, the secondaries serve what it lacks.
 *   {@link #rank} is the one-pass sort of every holder by bytes, kept to compare with.</li>
 *   <li>{@link #virtualSplits}: chunks that can be processed independently. They are regrouped
 *   by host so that every group is local to its host: each chunk assigned to one of its
 *   holders, as evenly as that allows (Opass's equal-share max flow, {@link EqualAssignment}),
 *   each host's chunks then cut into groups of about the target bytes.</li>
 * </ul>
 */
public final class SplitLocality {
  private SplitLocality() {
  }

  /** A chunk's part of a split: bytes of interest in it, and the hosts holding the chunk. */
  public static final class Piece {
    private final long bytes;
    private final List<String> hosts;

    public Piece(long bytes, List<String> hosts) {
      if (bytes < 0) {
        throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
      }
      this.bytes = bytes;
      this.hosts = Collections.unmodifiableList(new ArrayList<>(new LinkedHashSet<>(
          Objects.requireNonNull(hosts, "hosts"))));
    }

    public long bytes() {
      return bytes;
    }

    public List<String> hosts() {
      return hosts;
    }
  }

  /** A host's price for one split (lower is better) and what it holds of it. */
  public static final class HostPrice {
    private final String host;
    private final double price;
    private final long contribution;

    HostPrice(String host, double price, long contribution) {
      this.host = host;
      this.price = price;
      this.contribution = contribution;
    }

    public String host() {
      return host;
    }

    public double price() {
      return price;
    }

    public long contribution() {
      return contribution;
    }

    @Override
    public String toString() {
      return host + "(" + price + ")";
    }
  }

  /**
   * Algorithm 4.3.2 for one split: every host holding part of it, cheapest first (ties: more
   * bytes held, then name). The first is the primary.
   *
   * @param rackOf      a host's rack; {@code h -> ""} when there are no racks
   * @param offRackCost cost per byte fetched from another rack, relative to 1 from the same
   *                    rack (>= 1)
   */
  public static List<HostPrice> rank(List<Piece> split, Function<String, String> rackOf,
      double offRackCost) {
    if (!(offRackCost >= 1)) {
      throw new IllegalArgumentException("offRackCost must be >= 1, got " + offRackCost);
    }
    Map<String, Long> held = new HashMap<>();
    for (Piece p : split) {
      for (String h : p.hosts) {
        held.merge(h, p.bytes, Long::sum);
      }
    }
    List<HostPrice> out = new ArrayList<>(held.size());
    for (Map.Entry<String, Long> e : held.entrySet()) {
      String host = e.getKey();
      String rack = rackOf.apply(host);
      double w = 0;
      for (Piece p : split) {
        if (p.hosts.contains(host)) {
          continue;
        }
        boolean sameRack = false;
        for (String h : p.hosts) {
          sameRack |= rack.equals(rackOf.apply(h));
        }
        w += p.bytes * (sameRack ? 1 : offRackCost);
      }
      long c = e.getValue();
      out.add(new HostPrice(host, c == 0 ? Double.MAX_VALUE : w / c, c));
    }
    out.sort((a, b) -> a.price != b.price ? Double.compare(a.price, b.price)
        : a.contribution != b.contribution ? Long.compare(b.contribution, a.contribution)
            : a.host.compareTo(b.host));
    return out;
  }

  /** Algorithm 4.3.2's answer for one split: the hosts that cover it, primary first. */
  public static final class Cover {
    private final List<String> hosts;
    private final long primaryBytes;

    Cover(List<String> hosts, long primaryBytes) {
      this.hosts = Collections.unmodifiableList(hosts);
      this.primaryBytes = primaryBytes;
    }

    /** The host to run the task on; null for a split no host holds. */
    public String primary() {
      return hosts.isEmpty() ? null : hosts.get(0);
    }

    /** The hosts that serve what the primary lacks, in the order they were chosen. */
    public List<String> secondaries() {
      return hosts.isEmpty() ? hosts : hosts.subList(1, hosts.size());
    }

    /** Primary, then secondaries. */
    public List<String> hosts() {
      return hosts;
    }

    /** The split's bytes the primary holds. */
    public long primaryBytes() {
      return primaryBytes;
    }

    @Override
    public String toString() {
      return "cover" + hosts;
    }
  }

  /**
   * What reading a chunk costs beyond its bytes, in bytes: a request (a seek, a connection) is
   * worth about a megabyte at disk speed. It makes the price count chunks as the thesis's
   * contribution does, and bytes as the transfer does.
   */
  static final long CHUNK_COST = 1 << 20;

  /**
   * Algorithm 4.3.2 for one split, iterated as a greedy weighted set cover (steps 1 to 6):
   * each chunk of the split is an element, each host the set of chunks it holds, and a chunk
   * weighs its bytes plus {@link #CHUNK_COST}.
   * <ol>
   *   <li>The primary: the host of least {@code w / contribution}, {@code contribution} the
   *   weight of the split's chunks it holds and {@code w} the cost of fetching the others to it
   *   (their weight, times {@code offRackCost} for a chunk with no holder on its rack). Ties:
   *   more bytes held, then name.</li>
   *   <li>While chunks remain uncovered: the secondary of least price, the cost of sending the
   *   uncovered chunks it holds to the primary (their weight; times {@code offRackCost} from
   *   another rack) over how many they are. Ties: more chunks, then name.</li>
   * </ol>
   */
  public static Cover cover(List<Piece> split, Function<String, String> rackOf,
      double offRackCost) {
    if (!(offRackCost >= 1)) {
      throw new IllegalArgumentException("offRackCost must be >= 1, got " + offRackCost);
    }
    Map<String, List<Integer>> holds = new HashMap<>();
    for (int i = 0; i < split.size(); i++) {
      for (String h : split.get(i).hosts) {
        holds.computeIfAbsent(h, k -> new ArrayList<>()).add(i);
      }
    }
    if (holds.isEmpty()) {
      return new Cover(new ArrayList<>(), 0);
    }
    // steps 1-5: the primary, by the thesis's price
    String primary = null;
    double best = 0;
    long bestBytes = 0;
    for (Map.Entry<String, List<Integer>> e : holds.entrySet()) {
      String h = e.getKey();
      String rack = rackOf.apply(h);
      double w = 0;
      double contribution = 0;
      long held = 0;
      Set<Integer> mine = new HashSet<>(e.getValue());
      for (int i = 0; i < split.size(); i++) {
        Piece p = split.get(i);
        double weight = p.bytes + CHUNK_COST;
        if (mine.contains(i)) {
          contribution += weight;
          held += p.bytes;
        } else {
          w += weight * (onRack(p, rack, rackOf) ? 1 : offRackCost);
        }
      }
      double price = w / contribution;
      if (primary == null || price < best || (price == best && (held > bestBytes
          || (held == bestBytes && h.compareTo(primary) < 0)))) {
        primary = h;
        best = price;
        bestBytes = held;
      }
    }
    // step 6: secondaries, greedily, until every chunk is covered
    List<String> chosen = new ArrayList<>();
    chosen.add(primary);
    boolean[] covered = new boolean[split.size()];
    for (int i : holds.get(primary)) {
      covered[i] = true;
    }
    String primaryRack = rackOf.apply(primary);
    while (true) {
      String next = null;
      double nextPrice = 0;
      int nextCount = 0;
      for (Map.Entry<String, List<Integer>> e : holds.entrySet()) {
        if (chosen.contains(e.getKey())) {
          continue;
        }
        double cost = primaryRack.equals(rackOf.apply(e.getKey())) ? 1 : offRackCost;
        double w = 0;
        int n = 0;
        for (int i : e.getValue()) {
          if (!covered[i]) {
            w += (split.get(i).bytes + CHUNK_COST) * cost;
            n++;
          }
        }
        if (n == 0) {
          continue;
        }
        double price = w / n;
        if (next == null || price < nextPrice || (price == nextPrice && (n > nextCount
            || (n == nextCount && e.getKey().compareTo(next) < 0)))) {
          next = e.getKey();
          nextPrice = price;
          nextCount = n;
        }
      }
      if (next == null) {
        break;
      }
      chosen.add(next);
      for (int i : holds.get(next)) {
        covered[i] = true;
      }
    }
    return new Cover(chosen, bestBytes);
  }

  private static boolean onRack(Piece p, String rack, Function<String, String> rackOf) {
    for (String h : p.hosts) {
      if (rack.equals(rackOf.apply(h))) {
        return true;
      }
    }
    return false;
  }

  /** One virtual split: the indices of its chunks (ascending), all held by {@code host}. */
  public static final class Group {
    private final String host;
    private final int[] chunks;
    private final long bytes;

    Group(String host, int[] chunks, long bytes) {
      this.host = host;
      this.chunks = chunks;
      this.bytes = bytes;
    }

    /** The host holding every chunk of the group; null for chunks no host holds. */
    public String host() {
      return host;
    }

    public int[] chunks() {
      return chunks.clone();
    }

    public long bytes() {
      return bytes;
    }
  }

  /**
   * Regroups independent chunks into groups of about {@code targetBytes}, each held entirely by
   * its host. Chunks are shared out evenly over the hosts with as many local as a max flow
   * allows (Opass's equal-share planner, {@link EqualAssignment}); a chunk that share would
   * read remotely goes instead to the least busy of its own holders, so every group is local
   * and the balance is as even as the replicas allow. A chunk with no holder goes to a group of
   * its own with no host.
   */
  public static List<Group> virtualSplits(List<Piece> chunks, long targetBytes) {
    if (targetBytes < 1) {
      throw new IllegalArgumentException("targetBytes must be >= 1, got " + targetBytes);
    }
    Set<String> hostSet = new LinkedHashSet<>();
    List<Chunk> planned = new ArrayList<>();
    List<Integer> orphans = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      Piece p = chunks.get(i);
      if (p.hosts.isEmpty()) {
        orphans.add(i);
        continue;
      }
      hostSet.addAll(p.hosts);
      planned.add(new Chunk(i, "", 0, p.bytes, p.hosts));
    }
    List<Group> out = new ArrayList<>();
    if (!planned.isEmpty()) {
      List<String> hosts = new ArrayList<>(hostSet);
      Collections.sort(hosts);
      List<Proc> procs = new ArrayList<>(hosts.size());
      Map<String, List<Integer>> byHost = new HashMap<>();
      for (int h = 0; h < hosts.size(); h++) {
        procs.add(new Proc(h, hosts.get(h)));
        byHost.put(hosts.get(h), new ArrayList<>());
      }
      Plan plan = EqualAssignment.plan(planned, procs);
      List<Integer> displaced = new ArrayList<>();
      for (int h = 0; h < hosts.size(); h++) {
        for (Chunk c : plan.chunksOf(h)) {
          (c.hosts().contains(hosts.get(h)) ? byHost.get(hosts.get(h)) : displaced).add(c.id());
        }
      }
      for (int i : displaced) { // to the least busy of its holders
        String best = null;
        for (String h : chunks.get(i).hosts) {
          if (best == null || byHost.get(h).size() < byHost.get(best).size()) {
            best = h;
          }
        }
        byHost.get(best).add(i);
      }
      for (String h : hosts) {
        List<Integer> mine = byHost.get(h);
        Collections.sort(mine);
        cut(h, mine, chunks, targetBytes, out);
      }
    }
    for (int i : orphans) {
      out.add(new Group(null, new int[] {i}, chunks.get(i).bytes));
    }
    return out;
  }

  /** Cuts one host's chunks (indices, in order) into groups of about {@code target} bytes. */
  private static void cut(String host, List<Integer> mine, List<Piece> chunks, long target,
      List<Group> out) {
    if (mine.isEmpty()) {
      return;
    }
    long total = 0;
    for (int i : mine) {
      total += chunks.get(i).bytes;
    }
    int groups = (int) Math.max(1, Math.min(mine.size(), (total + target / 2) / target));
    long per = (total + groups - 1) / groups;
    List<Integer> ids = new ArrayList<>();
    long bytes = 0;
    for (int k = 0; k < mine.size(); k++) {
      int i = mine.get(k);
      ids.add(i);
      bytes += chunks.get(i).bytes;
      if (k == mine.size() - 1 || bytes >= per) {
        int[] arr = new int[ids.size()];
        for (int j = 0; j < arr.length; j++) {
          arr[j] = ids.get(j);
        }
        out.add(new Group(host, arr, bytes));
        ids.clear();
        bytes = 0;
      }
    }
  }
}
