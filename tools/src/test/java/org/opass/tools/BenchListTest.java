package org.opass.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.tools.bench.Json;
import org.opass.tools.bench.ReferencePython;

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
  void theTimeLeftIsEachBenchsLastRunOfTheSameKindOrItsTypicalDuration(@TempDir File out)
      throws Exception {
    assertEquals(1800 + 530, BenchMain.left(List.of("copy", "soak"), out, true));
    assertEquals(4 * (1800 + 530), BenchMain.left(List.of("copy", "soak"), out, false));
    Json.writeAtomically(new File(out, "copy.json"),
        Map.of("summary", Map.of(), "run", Map.of("quick", true, "seconds", 100)));
    assertEquals(100 + 530, BenchMain.left(List.of("copy", "soak"), out, true));
    assertEquals(4 * (1800 + 530), BenchMain.left(List.of("copy", "soak"), out, false));
  }

  @Test
  void helpAndWrongNamesAnswerWithoutRunningAnything() {
    assertEquals(0, BenchMain.run(new String[] {"--help"}));
    assertEquals(2, BenchMain.run(new String[] {"no-such-bench"}));
    assertEquals(2, BenchMain.run(new String[] {"write", "--out"}));
    assertEquals(2, BenchMain.run(new String[] {}));
  }

  /**
   * A bench that fails (mrap-science without an interpreter that has netCDF4 and h5py) is said
   * with what to install, the others run on, and the run exits 1 listing the failures.
   */
  @Test
  void aFailedBenchIsListedAndTheOthersRunOn(@TempDir File out) {
    System.setProperty(ReferencePython.PROPERTY, "/no/such/python3");
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    java.io.PrintStream was = System.err;
    int rc;
    try {
      System.setErr(new java.io.PrintStream(err, true));
      rc = BenchMain.run(new String[] {"mrap-science", "read-analysis", "--quick", "--out",
          out.getPath()});
    } finally {
      System.setErr(was);
      System.clearProperty(ReferencePython.PROPERTY);
    }
    assertEquals(1, rc);
    String said = err.toString();
    assertTrue(said.contains("python3-netcdf4 python3-h5py") && said.contains(
        ReferencePython.ENV) && said.contains("/no/such/python3"), said);
    assertTrue(said.contains("1 of 2 failed: mrap-science"), said);
    assertTrue(new File(out, "read-analysis.json").isFile(), "the next bench ran");
  }
}
