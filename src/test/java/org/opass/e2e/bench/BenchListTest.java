package org.opass.e2e.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** bin/bench checks names against benchmarks.txt before it builds; BenchMain runs them. */
class BenchListTest {

  @Test
  void theListBinBenchReadsNamesExactlyTheBenchmarksBenchMainRuns() {
    Set<String> listed = new TreeSet<>();
    for (String line : BenchMain.listed()) {
      listed.add(line.split(" ", 2)[0]);
    }
    Set<String> runnable = new TreeSet<>(BenchMain.BENCHES.keySet());
    runnable.add("all");
    assertEquals(runnable, listed);
    assertTrue(BenchMain.BENCHES.keySet().containsAll(BenchMain.ALL.keySet()),
        "bin/bench all names " + BenchMain.ALL.keySet());
  }

  @Test
  void helpAndWrongNamesAnswerWithoutRunningAnything() {
    assertEquals(0, BenchMain.run(new String[] {"--help"}));
    assertEquals(2, BenchMain.run(new String[] {"no-such-bench"}));
    assertEquals(2, BenchMain.run(new String[] {"write", "--out"}));
    assertEquals(2, BenchMain.run(new String[] {}));
  }
}
