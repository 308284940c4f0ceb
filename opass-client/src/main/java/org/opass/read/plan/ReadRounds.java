package org.opass.read.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * The order in which readers should issue their planned block reads so that no DataNode
 * serves two of them at once: reads are put in rounds, each reader reads at most one block a
 * round and each DataNode serves at most one, and each reader reads in round order.
 *
 * <p>Why: a plan ({@code /opass/read-plan}) balances how many reads each DataNode serves in
 * all, not when. Readers that go through their blocks in file order meet on the same DataNode
 * about as often as random readers do (16 readers on 16 DataNodes: 1.94 readers on the
 * DataNode of an average read), so each read gets a share of the bandwidth, however even the
 * totals. When readers start together and read blocks of one size at one rate, reading in
 * rounds keeps every DataNode to one reader at a time.
 *
 * <p>The rounds are a proper edge colouring of the bipartite multigraph of readers and
 * DataNodes, one edge per read. By König's theorem its edges need exactly Δ colours, the most
 * reads of any reader or DataNode, so no schedule is shorter. Built edge by edge: a read takes
 * a round free at both ends, or, when the rounds free at its reader (a) and at its DataNode
 * (b) differ, the path from the DataNode alternating a and b is swapped to free a there (it
 * cannot reach the reader, the graph being bipartite). O(reads × (Δ + path)), no randomness:
 * the same plan gives the same rounds.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class ReadRounds {
  private final int[] round;
  private final int rounds;

  private ReadRounds(int[] round, int rounds) {
    this.round = round;
    this.rounds = rounds;
  }

  /**
   * Rounds for {@code reads}, read by {@code reader(read)} from {@code server(read)} (any keys
   * with equals and hashCode: host names, DataNode addresses).
   *
   * @throws IllegalArgumentException naming a read that is null or has no reader or server
   */
  public static <R> ReadRounds of(List<R> reads, Function<? super R, ?> reader,
      Function<? super R, ?> server) {
    Objects.requireNonNull(reads, "reads");
    int n = reads.size();
    int[] readerIndex = new int[n];
    int[] serverIndex = new int[n];
    Map<Object, Integer> readers = new HashMap<>();
    Map<Object, Integer> servers = new HashMap<>();
    for (int i = 0; i < n; i++) {
      R r = reads.get(i);
      if (r == null) {
        throw new IllegalArgumentException("reads[" + i + "] is null");
      }
      Object rk = reader.apply(r);
      Object sk = server.apply(r);
      if (rk == null || sk == null) {
        throw new IllegalArgumentException("reads[" + i + "] has no " + (rk == null ? "reader"
            : "server") + ": " + r);
      }
      readerIndex[i] = readers.computeIfAbsent(rk, k -> readers.size());
      serverIndex[i] = servers.computeIfAbsent(sk, k -> servers.size());
    }
    return colour(readerIndex, readers.size(), serverIndex, servers.size());
  }

  /** The round of read {@code i} (0-based), in the order the reads were given. */
  public int round(int i) {
    return round[i];
  }

  /** How many rounds: the most reads of any reader or any server (0 for no reads). */
  public int rounds() {
    return rounds;
  }

  /**
   * {@code reads} in round order (stable within a round): give each reader its own reads in
   * this order.
   */
  public <R> List<R> inOrder(List<R> reads) {
    if (reads.size() != round.length) {
      throw new IllegalArgumentException("reads has " + reads.size() + " elements, these "
          + "rounds were made for " + round.length);
    }
    Integer[] idx = new Integer[round.length];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    Arrays.sort(idx, (a, b) -> Integer.compare(round[a], round[b]));
    List<R> out = new ArrayList<>(idx.length);
    for (Integer i : idx) {
      out.add(reads.get(i));
    }
    return out;
  }

  /**
   * Edge colouring with Δ colours. {@code at[v][c]} is the edge of colour c at vertex v, or -1;
   * readers are vertices 0..readers-1, servers readers..readers+servers-1.
   */
  private static ReadRounds colour(int[] reader, int readers, int[] server, int servers) {
    int n = reader.length;
    int[] degree = new int[readers + servers];
    for (int i = 0; i < n; i++) {
      degree[reader[i]]++;
      degree[readers + server[i]]++;
    }
    int delta = Arrays.stream(degree).max().orElse(0);
    int[][] at = new int[readers + servers][delta];
    for (int[] row : at) {
      Arrays.fill(row, -1);
    }
    int[] colourOf = new int[n];
    Edges edges = new Edges(reader, server, readers);
    for (int e = 0; e < n; e++) {
      int u = reader[e];
      int v = readers + server[e];
      int a = free(at[u]);
      int b = free(at[v]);
      if (at[v][a] != -1) {
        swapPath(edges, at, colourOf, v, a, b);
      }
      colourOf[e] = a;
      at[u][a] = e;
      at[v][a] = e;
    }
    return new ReadRounds(colourOf, delta);
  }

  private static int free(int[] coloursAt) {
    for (int c = 0; c < coloursAt.length; c++) {
      if (coloursAt[c] == -1) {
        return c;
      }
    }
    throw new IllegalStateException("no free colour: degree above delta");
  }

  /**
   * Swaps colours a and b along the path that leaves {@code start} by its a-edge and alternates
   * b, a, ...; afterwards a is free at {@code start} (b was free there).
   */
  private static void swapPath(Edges edges, int[][] at, int[] colourOf, int start, int a,
      int b) {
    int[] reader = edges.reader;
    int[] server = edges.server;
    int readers = edges.readers;
    // collect the path first, then recolour, so the lookups see the old colours
    int[] path = new int[8];
    int len = 0;
    int v = start;
    int c = a;
    while (at[v][c] != -1) {
      int e = at[v][c];
      if (len == path.length) {
        path = Arrays.copyOf(path, len * 2);
      }
      path[len++] = e;
      v = reader[e] == v ? readers + server[e] : reader[e];
      c = c == a ? b : a;
    }
    for (int i = 0; i < len; i++) {
      int e = path[i];
      int[] ends = {reader[e], readers + server[e]};
      for (int end : ends) {
        if (at[end][colourOf[e]] == e) {
          at[end][colourOf[e]] = -1;
        }
      }
    }
    for (int i = 0; i < len; i++) {
      int e = path[i];
      colourOf[e] = colourOf[e] == a ? b : a;
      at[reader[e]][colourOf[e]] = e;
      at[readers + server[e]][colourOf[e]] = e;
    }
  }

  /**
   * The edges of the bipartite graph {@link #colour} colours: edge e joins reader vertex
   * {@code reader[e]} and server vertex {@code readers + server[e]}. Immutable (the arrays
   * are not changed).
   */
  private static final class Edges {
    final int[] reader;
    final int[] server;
    final int readers;

    Edges(int[] reader, int[] server, int readers) {
      this.reader = reader;
      this.server = server;
      this.readers = readers;
    }
  }
}
