package org.opass.e2e.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    assertEquals(BenchMain.BENCHES.keySet(), listed);
  }

  @Test
  void helpAndWrongNamesAnswerWithoutRunningAnything() {
    assertEquals(0, BenchMain.run(new String[] {"--help"}));
    assertEquals(2, BenchMain.run(new String[] {"no-such-bench"}));
    assertEquals(2, BenchMain.run(new String[] {"write", "--out"}));
    assertEquals(2, BenchMain.run(new String[] {}));
  }
}
