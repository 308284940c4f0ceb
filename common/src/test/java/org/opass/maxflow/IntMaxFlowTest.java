package org.opass.maxflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class IntMaxFlowTest {

  @Test
  void matchesJGraphTOnRandomNetworks() {
    Random rnd = new Random(7);
    for (int round = 0; round < 300; round++) {
      int n = 2 + rnd.nextInt(12);
      double density = 0.1 + rnd.nextDouble() * 0.5;
      IntMaxFlow f = new IntMaxFlow(n, 1);
      ReferenceMaxFlow<Integer> reference = new ReferenceMaxFlow<>();
      int[][] cap = new int[n][n];
      for (int u = 0; u < n; u++) {
        for (int v = 0; v < n; v++) {
          if (u != v && rnd.nextDouble() < density) {
            cap[u][v] = rnd.nextInt(6);
            f.addEdge(u, v, cap[u][v]);
            reference.arc(u, v, cap[u][v]);
          }
        }
      }
      long expected = reference.value(0, n - 1);
      assertEquals(expected, f.maxFlow(0, n - 1), "round " + round);
    }
  }

  @Test
  void flowsAreFeasibleAndConserved() {
    Random rnd = new Random(11);
    for (int round = 0; round < 100; round++) {
      int n = 3 + rnd.nextInt(10);
      IntMaxFlow f = new IntMaxFlow(n);
      int edges = rnd.nextInt(40);
      int[][] e = new int[edges][];
      for (int i = 0; i < edges; i++) {
        int u = rnd.nextInt(n);
        int v = rnd.nextInt(n);
        int c = rnd.nextInt(4);
        assertEquals(i, f.addEdge(u, v, c));
        e[i] = new int[] {u, v, c};
      }
      long value = f.maxFlow(0, n - 1);
      long[] net = new long[n];
      for (int i = 0; i < edges; i++) {
        int fl = f.flow(i);
        assertTrue(fl >= 0 && fl <= e[i][2], "edge " + i + " flow " + fl);
        net[e[i][0]] -= fl;
        net[e[i][1]] += fl;
      }
      for (int v = 1; v < n - 1; v++) {
        assertEquals(0, net[v], "conservation at " + v);
      }
      assertEquals(value, net[n - 1]);
    }
  }

  @Test
  void longAugmentingPathsDoNotOverflowTheStack() {
    // a chain of 200k nodes: a recursive DFS would overflow
    int n = 200_000;
    IntMaxFlow f = new IntMaxFlow(n);
    for (int v = 0; v + 1 < n; v++) {
      f.addEdge(v, v + 1, 2);
    }
    assertEquals(2, f.maxFlow(0, n - 1));
  }

  @Test
  void badArgumentsAreNamed() {
    IntMaxFlow f = new IntMaxFlow(3);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> f.addEdge(0, 3, 1))
        .getMessage().startsWith("to must be"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> f.addEdge(0, 1, -1))
        .getMessage().contains("capacity"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> f.maxFlow(1, 1))
        .getMessage().contains("source and sink"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new IntMaxFlow(1))
        .getMessage().contains("nodes"));
    f.addEdge(0, 2, 1);
    assertEquals(1, f.maxFlow(0, 2));
    assertEquals(1, f.maxFlow(0, 2), "already maximum");
    assertThrows(IllegalStateException.class, () -> f.addEdge(0, 1, 1));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> f.maxFlow(0, 1))
        .getMessage().contains("from 0 to 2"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> f.raiseCapacity(0, 0))
        .getMessage().contains("drop"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> f.flow(1))
        .getMessage().contains("edge"));
  }

  @Test
  void raisingCapacitiesGoesOnFromTheCurrentFlow() {
    // the Fig. 7 shape: source -> 4 reads -> 2 holders each of 3 nodes -> sink
    IntMaxFlow f = new IntMaxFlow(9);
    int[] sinkEdge = {f.addEdge(5, 8, 0), f.addEdge(6, 8, 0), f.addEdge(7, 8, 0)};
    for (int r = 1; r <= 4; r++) {
      f.addEdge(0, r, 1);
      f.addEdge(r, 5 + (r % 3), 1);
      f.addEdge(r, 5 + ((r + 1) % 3), 1);
    }
    assertEquals(0, f.maxFlow(0, 8));
    for (int e : sinkEdge) {
      f.raiseCapacity(e, 1);
    }
    assertEquals(3, f.maxFlow(0, 8));
    assertTrue(f.reachabilityKnown());
    IntMaxFlow.Snapshot atOne = f.snapshot();
    for (int e : sinkEdge) {
      f.raiseCapacity(e, 2);
    }
    assertEquals(4, f.maxFlow(0, 8));
    assertEquals(4, f.flow(sinkEdge[0]) + f.flow(sinkEdge[1]) + f.flow(sinkEdge[2]));
    f.restore(atOne);
    assertEquals(3, f.value());
    assertEquals(1, f.capacity(sinkEdge[0]));
    assertEquals(3, f.maxFlow(0, 8), "bound 1 again: still 3");
  }

  @Test
  void aKnownPathIsAugmentedWithoutASearch() {
    IntMaxFlow f = new IntMaxFlow(4);
    int a = f.addEdge(0, 1, 1);
    int b = f.addEdge(1, 2, 1);
    int c = f.addEdge(2, 3, 1);
    int d = f.addEdge(0, 2, 1);
    assertTrue(f.augment(a, b, c));
    assertFalse(f.augment(a, b, c), "no capacity left: nothing changes");
    assertEquals(1, f.value());
    assertEquals(1, f.maxFlow(0, 3), "the sink edge is full");
    assertTrue(f.reachable(2) && !f.reachable(3));
    assertEquals(0, f.flow(d));
    assertThrows(IllegalStateException.class, () -> {
      f.raiseCapacity(c, 2);
      f.reachable(2);
    });
    assertEquals(2, f.maxFlow(0, 3));
  }
}
