package org.opass.mrap.copy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * CHAIO's aggregator selection (Algorithm 1 of "Chunk-aware I/O on data-intensive file
 * systems"): one writer node per destination chunk, chosen among the nodes that serve it
 * (hold some of its bytes), so that chunks are spread evenly over nodes. Greedy: the node
 * with the fewest chunks allocated plus still to choose from ({@code a(s) + n(s)}) and under
 * the threshold ({@code ceil(chunks / nodes)}, raised by one when no node qualifies) takes,
 * of the chunks it serves, the one with the fewest serving nodes; among those, the one it
 * holds the most bytes of (and of tied nodes, the one holding most of its pick): the writer
 * already holds most of what it writes. Pure: nodes and chunks are indices.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class AggregatorSelection {
  private AggregatorSelection() {
  }

  /**
   * @param nodes  number of nodes
   * @param served {@code served[c][s]}: bytes of chunk c node s holds (0: does not serve it)
   * @return the node chosen for each chunk; a chunk no node serves goes to the least loaded
   *     node
   */
  public static int[] select(int nodes, long[][] served) {
    int chunks = served.length;
    int[] chosen = new int[chunks];
    Arrays.fill(chosen, -1);
    int[] allocated = new int[nodes]; // a(s)
    int[] pending = new int[nodes]; // n(s)
    int[] servers = new int[chunks]; // g(c)
    List<Integer> orphans = new ArrayList<>();
    int conflict = 0;
    for (int c = 0; c < chunks; c++) {
      for (int s = 0; s < nodes; s++) {
        if (served[c][s] > 0) {
          pending[s]++;
          servers[c]++;
        }
      }
      if (servers[c] == 0) {
        orphans.add(c);
      } else {
        conflict++;
      }
    }
    int[][] order = preferences(served, servers, nodes);
    int[] next = new int[nodes];
    int threshold = Math.max(1, (conflict + nodes - 1) / nodes);
    int left = conflict;
    while (left > 0) {
      int low = Integer.MAX_VALUE; // the least a(s) + n(s) among nodes that may take more
      for (int s = 0; s < nodes; s++) {
        if (pending[s] > 0 && allocated[s] < threshold) {
          low = Math.min(low, allocated[s] + pending[s]);
        }
      }
      if (low == Integer.MAX_VALUE) {
        threshold++;
        continue;
      }
      int best = -1;
      int pick = -1;
      for (int s = 0; s < nodes; s++) { // ties: the node whose pick it holds most of
        if (pending[s] > 0 && allocated[s] < threshold && allocated[s] + pending[s] == low) {
          while (chosen[order[s][next[s]]] >= 0) {
            next[s]++;
          }
          int c = order[s][next[s]];
          if (best < 0 || served[c][s] > served[pick][best]) {
            best = s;
            pick = c;
          }
        }
      }
      chosen[pick] = best;
      allocated[best]++;
      for (int s = 0; s < nodes; s++) {
        if (served[pick][s] > 0) {
          pending[s]--;
        }
      }
      left--;
    }
    for (int c : orphans) {
      int least = 0;
      for (int s = 1; s < nodes; s++) {
        least = allocated[s] < allocated[least] ? s : least;
      }
      chosen[c] = least;
      allocated[least]++;
    }
    return chosen;
  }

  /**
   * For each node, the chunks it serves in the order it takes them: fewest serving nodes
   * first, then most of its bytes, then lowest index (a node's pick is the first not yet
   * chosen, so the greedy loop costs O(nodes) a chunk, not O(chunks)).
   */
  private static int[][] preferences(long[][] served, int[] servers, int nodes) {
    int[][] order = new int[nodes][];
    for (int s = 0; s < nodes; s++) {
      List<Integer> mine = new ArrayList<>();
      for (int c = 0; c < served.length; c++) {
        if (served[c][s] > 0) {
          mine.add(c);
        }
      }
      final int node = s;
      mine.sort((a, b) -> servers[a] != servers[b] ? Integer.compare(servers[a], servers[b])
          : served[a][node] != served[b][node] ? Long.compare(served[b][node], served[a][node])
          : Integer.compare(a, b));
      order[s] = mine.stream().mapToInt(Integer::intValue).toArray();
    }
    return order;
  }
}
