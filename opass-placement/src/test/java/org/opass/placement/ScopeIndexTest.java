package org.opass.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScopeIndexTest {
  record N(String name, String loc) {
  }

  private final List<N> nodes = List.of(new N("a", "/dc1/r1"), new N("b", "/dc1/r1"),
      new N("c", "/dc1/r2"), new N("d", "/dc2/r1"), new N("e", "/r10"));
  private final ScopeIndex<N> index = ScopeIndex.of(nodes, N::loc);
  private final Random random = new Random(3);

  private Set<String> drawMany(String scope) {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 500; i++) {
      N[] out = new N[1];
      if (index.draw(scope, out, 0, 10, n -> true, random) == 1) {
        seen.add(out[0].name());
      }
    }
    return seen;
  }

  @Test
  void everyLevelOfALocationIsAScope() {
    assertEquals(5, index.size());
    assertEquals(Set.of("a", "b", "c", "d", "e"), drawMany(""));
    assertEquals(Set.of("a", "b", "c"), drawMany("/dc1"));
    assertEquals(Set.of("a", "b"), drawMany("/dc1/r1"));
    assertEquals(Set.of("e"), drawMany("/r10"));
    assertEquals(Set.of(), drawMany("/nowhere"));
  }

  @Test
  void tildeMeansOutsideAndPrefixesAreNotAncestors() {
    assertEquals(Set.of("c", "d", "e"), drawMany("~/dc1/r1"));
    assertEquals(Set.of("d", "e"), drawMany("~/dc1"));
    // "/r1" is not an ancestor of "/r10"
    assertTrue(ScopeIndex.within("/r10", "/r10"));
    assertFalse(ScopeIndex.within("/r10", "/r1"));
    assertTrue(ScopeIndex.within("/r1", ""));
  }

  @Test
  void drawsAreDistinctFilteredAndBounded() {
    N[] out = new N[5];
    out[0] = nodes.get(0);
    int n = index.draw("", out, 1, 1000, x -> !x.name().equals("e"), random);
    assertEquals(4, n);
    assertEquals(4, new HashSet<>(java.util.Arrays.asList(out).subList(0, n)).size());
    for (int i = 0; i < n; i++) {
      assertFalse(out[i].name().equals("e"));
    }
    N[] one = new N[3];
    assertEquals(0, index.draw("", one, 0, 0, x -> true, random));
  }

  @Test
  void drawsAreUniformWithinAScope() {
    Map<String, Integer> count = new HashMap<>();
    for (int i = 0; i < 30_000; i++) {
      N[] out = new N[1];
      index.draw("/dc1", out, 0, 1, x -> true, random);
      count.merge(out[0].name(), 1, Integer::sum);
    }
    for (int c : count.values()) {
      assertTrue(Math.abs(c - 10_000) < 600, count.toString());
    }
  }
}
