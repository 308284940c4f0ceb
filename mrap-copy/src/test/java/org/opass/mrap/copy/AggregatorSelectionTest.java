package org.opass.mrap.copy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class AggregatorSelectionTest {

  @Test
  void everyChunkGetsOneOfItsServersAndNodesShareThemEvenly() {
    Random rnd = new Random(5);
    for (int trial = 0; trial < 50; trial++) {
      int nodes = 2 + rnd.nextInt(30);
      int chunks = 1 + rnd.nextInt(400);
      long[][] served = new long[chunks][nodes];
      for (int c = 0; c < chunks; c++) {
        for (int k = 0; k < 3; k++) { // three replicas of the chunk's source bytes
          served[c][rnd.nextInt(nodes)] += 1 + rnd.nextInt(100);
        }
      }
      int[] chosen = AggregatorSelection.select(nodes, served);
      int[] load = new int[nodes];
      for (int c = 0; c < chunks; c++) {
        assertTrue(served[c][chosen[c]] > 0, "chunk " + c + " to a node that serves it");
        load[chosen[c]]++;
      }
      int max = 0;
      for (int l : load) {
        max = Math.max(max, l);
      }
      // each chunk has up to three servers: the greedy stays within a chunk or two of even
      assertTrue(max <= (chunks + nodes - 1) / nodes + 2, "max " + max + " for " + chunks
          + " chunks over " + nodes + " nodes");
    }
  }

  @Test
  void theScarcestChunksAreServedFirstAndBytesBreakTies() {
    // node 0 serves chunks 0 and 1; only node 0 serves chunk 1, so node 1 takes chunk 0
    long[][] served = {{10, 5}, {10, 0}};
    assertEquals(1, AggregatorSelection.select(2, served)[0]);
    assertEquals(0, AggregatorSelection.select(2, served)[1]);
    // a chunk served by no node goes to the least loaded one
    int[] chosen = AggregatorSelection.select(2, new long[][] {{5, 0}, {0, 0}});
    assertEquals(0, chosen[0]);
    assertEquals(1, chosen[1]);
    // equal servers: the node holding more of the chunk's bytes
    assertEquals(1, AggregatorSelection.select(2, new long[][] {{3, 9}})[0]);
  }

  @Test
  void chunksNoNodeServesAreDealtOutEvenly() {
    // a source with no locality (a local or shared file system): writers share chunks evenly
    int[] chosen = AggregatorSelection.select(4, new long[10][4]);
    int[] load = new int[4];
    for (int c : chosen) {
      load[c]++;
    }
    assertArrayEquals(new int[] {3, 3, 2, 2}, load);
  }
}
