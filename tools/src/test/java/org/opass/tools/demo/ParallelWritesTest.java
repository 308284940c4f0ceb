package org.opass.tools.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opass.tools.cluster.Release;

/** The tour's write figures, from blocks whose times and holders are known. */
class ParallelWritesTest {
  private static final long S = 1_000_000_000L;
  private static final List<String> HOSTS = List.of("a", "b", "c", "d");

  private static ParallelWrites.Block block(int writer, long from, long to, String... holders) {
    return new ParallelWrites.Block(writer, from * S, to * S, List.of(holders));
  }

  @Test
  void anEvenSpreadIsOneAndEveryDataNodeAtTheMean() {
    // two writers, two blocks each, each block on two of four DataNodes, none shared at once
    ParallelWrites.Result r = new ParallelWrites.Result(HOSTS, new double[] {1, 1}, List.of(
        block(0, 0, 2, "a", "b"), block(1, 0, 2, "c", "d"),
        block(0, 2, 4, "c", "d"), block(1, 2, 4, "a", "b")), 4 * S);
    assertArrayEquals(new long[] {0, 4 * S}, r.allWriting());
    assertEquals(1.0, r.busiestOverMean(), 1e-12);
    assertArrayEquals(new double[] {0, 1}, r.writesAtOnceShares(), 1e-12);
    assertEquals(Map.of("a", 2, "b", 2, "c", 2, "d", 2), r.stored());
  }

  @Test
  void aDataNodeInEveryPipelineIsTheBusiest() {
    // "a" in both writers' pipelines: loads 2, 1, 1, 0 (mean 1) while both write
    ParallelWrites.Result r = new ParallelWrites.Result(HOSTS, new double[] {2, 0.5}, List.of(
        block(0, 0, 3, "a", "b"), block(1, 1, 5, "a", "c")), 5 * S);
    // from writer 1's first byte (1 s) until writer 0 was done (3 s)
    assertArrayEquals(new long[] {1 * S, 3 * S}, r.allWriting());
    assertEquals(2.0, r.busiestOverMean(), 1e-12);
    // of the DataNodes' time: "d" idle, "b" and "c" at 1, "a" at 2
    assertArrayEquals(new double[] {0.25, 0.5, 0.25}, r.writesAtOnceShares(), 1e-12);
    assertEquals(1.5, r.imbalance(), 1e-12);
    assertEquals(0.6, r.bandwidthCv(), 1e-12);
    assertArrayEquals(new double[] {0.5, 2}, r.sortedMiBps(), 1e-12);
  }

  @Test
  void theMomentsOfOneStretchAreWeightedByTheirLength() {
    // 1 s with a, b, c, d at 2, 1, 1, 0 (max/mean 2), then 3 s all at 1 (max/mean 1): 1.25
    ParallelWrites.Result r = new ParallelWrites.Result(HOSTS, new double[] {1, 1}, List.of(
        block(0, 0, 1, "a", "b"), block(1, 0, 1, "a", "c"),
        block(0, 1, 4, "a", "b"), block(1, 1, 4, "c", "d")), 4 * S);
    assertEquals(1.25, r.busiestOverMean(), 1e-12);
  }

  @Test
  void theBenchFigureTheTourPrintsIsBenchmarksMds() throws Exception {
    String benchmarks = Files.readString(Release.ROOT.resolve("BENCHMARKS.md"));
    String figure = String.format(Locale.ROOT, "%.3f ± %.3f", Tour.BENCH_WRITE_CUT,
        Tour.BENCH_WRITE_CUT_CI95);
    assertTrue(benchmarks.contains("Quick (2026-11-27): " + figure),
        "BENCHMARKS.md's write row no longer says " + figure);
    assertTrue(benchmarks.contains("run 1 (" + Tour.BENCH_WRITE_ROUNDS + " rounds"),
        "BENCHMARKS.md's quick run of " + figure + " was not " + Tour.BENCH_WRITE_ROUNDS
            + " rounds");
    assertTrue(benchmarks.contains("`" + Tour.BENCH_WRITE_COMMAND + "`"));
  }
}
