package org.opass.read.balance;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * A validated batch in canonical, seeded order: reads and DataNodes are sorted by id and then
 * shuffled with the seed, so every later tie (round-robin order, DFS order, least-loaded ties)
 * depends only on the seed and the batch's content, never on the caller's list order, holder
 * order or map iteration order. Index {@code d} of a DataNode is its tie-break rank.
 *
 * <p>"Sorted by id" is by (String.hashCode, id): the hash is specified by the JDK, so the
 * order is as canonical as plain id order and much cheaper to sort.
 */
final class CanonicalBatch {
  private static final Comparator<String> CANONICAL =
      Comparator.comparingInt(String::hashCode).thenComparing(Comparator.naturalOrder());

  final int m;
  final int n;
  /** Read ids by read index (seeded order). */
  final String[] readIds;
  /** Read index of the i-th read as the caller listed it. */
  final int[] readOfInput;
  /** DataNode ids by rank (seeded order). */
  final String[] dnIds;
  /** Current load NC by rank. */
  final long[] nc;
  /** L: number of reads of the batch each DataNode (by rank) holds a replica of. */
  final int[] degree;
  /** Holders of each read as DataNode ranks, ascending. */
  final int[][] holders;
  /** Max NC over the batch's DataNodes; 0 for an empty batch. */
  final long maxNc;

  CanonicalBatch(List<ChunkRead> reads, Map<String, Integer> currentLoad, long seed, int maxReads) {
    Objects.requireNonNull(reads, "reads");
    Objects.requireNonNull(currentLoad, "currentLoad (pass an empty map for no load)");
    if (reads.size() > maxReads) {
      throw new IllegalArgumentException("reads: batch of " + reads.size()
          + " chunk reads exceeds maxReads=" + maxReads + "; split the batch");
    }
    ChunkRead[] in = reads.toArray(new ChunkRead[0]);
    m = in.length;

    // DataNodes get a provisional index in input order; ranks are fixed once all are known.
    Map<String, Integer> provisional = new HashMap<>();
    String[] provIds = new String[16];
    int[][] provHolders = new int[m][];
    int count = 0;
    for (int i = 0; i < m; i++) {
      if (in[i] == null) {
        throw new IllegalArgumentException("reads[" + i + "] is null");
      }
      List<String> hs = in[i].holders();
      int[] ph = new int[hs.size()];
      for (int k = 0; k < ph.length; k++) {
        String h = hs.get(k);
        Integer p = provisional.get(h);
        if (p == null) {
          p = count++;
          provisional.put(h, p);
          if (p == provIds.length) {
            provIds = Arrays.copyOf(provIds, p * 2);
          }
          provIds[p] = h;
        }
        ph[k] = p;
      }
      provHolders[i] = ph;
    }
    n = count;

    // Random's algorithm is specified by the JDK, so a seed gives the same order on every JVM.
    Random rnd = new Random(seed);
    Integer[] dnOrder = boxedRange(n);
    String[] ids = provIds;
    Arrays.sort(dnOrder, (x, y) -> CANONICAL.compare(ids[x], ids[y]));
    shuffle(dnOrder, rnd);
    dnIds = new String[n];
    nc = new long[n];
    int[] rankOf = new int[n];
    long max = 0;
    for (int d = 0; d < n; d++) {
      rankOf[dnOrder[d]] = d;
      dnIds[d] = ids[dnOrder[d]];
      Integer load = currentLoad.get(dnIds[d]);
      if (load != null && load < 0) {
        throw new IllegalArgumentException("currentLoad of DataNode '" + dnIds[d]
            + "' is negative: " + load);
      }
      nc[d] = load == null ? 0 : load;
      max = Math.max(max, nc[d]);
    }
    maxNc = max;

    Integer[] readOrder = boxedRange(m);
    Arrays.sort(readOrder, (x, y) -> CANONICAL.compare(in[x].id(), in[y].id()));
    for (int r = 1; r < m; r++) {
      if (in[readOrder[r]].id().equals(in[readOrder[r - 1]].id())) {
        throw new IllegalArgumentException("duplicate chunk read id '"
            + in[readOrder[r]].id() + "'");
      }
    }
    shuffle(readOrder, rnd);
    readIds = new String[m];
    readOfInput = new int[m];
    holders = new int[m][];
    degree = new int[n];
    for (int r = 0; r < m; r++) {
      int i = readOrder[r];
      readIds[r] = in[i].id();
      readOfInput[i] = r;
      int[] ranks = provHolders[i];
      for (int k = 0; k < ranks.length; k++) {
        ranks[k] = rankOf[ranks[k]];
        degree[ranks[k]]++;
      }
      Arrays.sort(ranks);
      holders[r] = ranks;
    }
  }

  /** Read-to-holder edges (sum of L). */
  long edgeCount() {
    long e = 0;
    for (int[] h : holders) {
      e += h.length;
    }
    return e;
  }

  private static Integer[] boxedRange(int size) {
    Integer[] a = new Integer[size];
    for (int i = 0; i < size; i++) {
      a[i] = i;
    }
    return a;
  }

  private static void shuffle(Integer[] a, Random rnd) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      Integer t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
