package org.opass.read.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * Planner-scale benchmark (the scale of Opass Fig. 22's largest case, 4096 processes and
 * 32768 chunks): times {@link EqualAssignment} and {@link MultiInputAssignment} on random
 * instances. Not a test; the benchmark runner calls {@link #measure} or {@link #main}.
 *
 * <p>Instance: m hosts with one process each, in racks of {@value #HOSTS_PER_RACK}; n chunks of
 * 64 MiB, each with 3 replicas on distinct hosts drawn uniformly (HDFS default placement is
 * random apart from rack spreading, which does not change the matching's size much). For
 * Algorithm 1, n/2 tasks that each read two of those chunks.
 *
 *   (needs no other jar: the planner itself is plain Java)
 * <pre>
 *   java -cp opass-read.jar org.opass.read.plan.PlannerScale \
 *       [--repeats=5] [--seed=42] [PROCESSESxCHUNKS...]   (default 256x2048 1024x8192 4096x32768)
 * </pre>
 */
public final class PlannerScale {
  static final int HOSTS_PER_RACK = 32;
  static final long CHUNK = 64L << 20;
  static final int[][] SIZES = {{256, 2048}, {1024, 8192}, {4096, 32768}};

  /**
   * Timings of one size.
   *
   * @param firstMillis  first (cold, JIT not warmed up) run of EqualAssignment
   * @param bestMillis   fastest of the repeats
   * @param medianMillis median of the repeats
   * @param algorithm1Millis median of Algorithm 1 on n/2 two-input tasks
   */
  public static final class Result {
    private final int processes;
    private final int chunks;
    private final int replicas;
    private final double firstMillis;
    private final double bestMillis;
    private final double medianMillis;
    private final int localChunks;
    private final int rackLocalChunks;
    private final int remoteChunks;
    private final double algorithm1Millis;
    private final long algorithm1ColocatedBytes;
    private final long algorithm1TotalBytes;

    public Result(int processes, int chunks, int replicas, double firstMillis, double bestMillis,
        double medianMillis, int localChunks, int rackLocalChunks, int remoteChunks,
            double algorithm1Millis, long algorithm1ColocatedBytes, long algorithm1TotalBytes) {
      this.processes = processes;
      this.chunks = chunks;
      this.replicas = replicas;
      this.firstMillis = firstMillis;
      this.bestMillis = bestMillis;
      this.medianMillis = medianMillis;
      this.localChunks = localChunks;
      this.rackLocalChunks = rackLocalChunks;
      this.remoteChunks = remoteChunks;
      this.algorithm1Millis = algorithm1Millis;
      this.algorithm1ColocatedBytes = algorithm1ColocatedBytes;
      this.algorithm1TotalBytes = algorithm1TotalBytes;
    }

    public int processes() {
      return processes;
    }

    public int chunks() {
      return chunks;
    }

    public int replicas() {
      return replicas;
    }

    public double firstMillis() {
      return firstMillis;
    }

    public double bestMillis() {
      return bestMillis;
    }

    public double medianMillis() {
      return medianMillis;
    }

    public int localChunks() {
      return localChunks;
    }

    public int rackLocalChunks() {
      return rackLocalChunks;
    }

    public int remoteChunks() {
      return remoteChunks;
    }

    public double algorithm1Millis() {
      return algorithm1Millis;
    }

    public long algorithm1ColocatedBytes() {
      return algorithm1ColocatedBytes;
    }

    public long algorithm1TotalBytes() {
      return algorithm1TotalBytes;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Result)) {
        return false;
      }
      Result other = (Result) o;
      return processes == other.processes
          && chunks == other.chunks
          && replicas == other.replicas
          && Double.compare(firstMillis, other.firstMillis) == 0
          && Double.compare(bestMillis, other.bestMillis) == 0
          && Double.compare(medianMillis, other.medianMillis) == 0
          && localChunks == other.localChunks
          && rackLocalChunks == other.rackLocalChunks
          && remoteChunks == other.remoteChunks
          && Double.compare(algorithm1Millis, other.algorithm1Millis) == 0
          && algorithm1ColocatedBytes == other.algorithm1ColocatedBytes
          && algorithm1TotalBytes == other.algorithm1TotalBytes;
    }

    @Override
    public int hashCode() {
      return Objects.hash(processes, chunks, replicas, firstMillis, bestMillis, medianMillis,
          localChunks, rackLocalChunks, remoteChunks, algorithm1Millis, algorithm1ColocatedBytes,
              algorithm1TotalBytes);
    }

    @Override
    public String toString() {
      return "Result["
          + "processes=" + processes
          + ", chunks=" + chunks
          + ", replicas=" + replicas
          + ", firstMillis=" + firstMillis
          + ", bestMillis=" + bestMillis
          + ", medianMillis=" + medianMillis
          + ", localChunks=" + localChunks
          + ", rackLocalChunks=" + rackLocalChunks
          + ", remoteChunks=" + remoteChunks
          + ", algorithm1Millis=" + algorithm1Millis
          + ", algorithm1ColocatedBytes=" + algorithm1ColocatedBytes
          + ", algorithm1TotalBytes=" + algorithm1TotalBytes
          + "]";
    }
  }

  private PlannerScale() {
  }

  public static void main(String[] args) {
    int repeats = 5;
    long seed = 42;
    List<int[]> sizes = new ArrayList<>();
    for (String a : args) {
      if (a.startsWith("--repeats=")) {
        repeats = Integer.parseInt(a.substring("--repeats=".length()));
      } else if (a.startsWith("--seed=")) {
        seed = Long.parseLong(a.substring("--seed=".length()));
      } else if (a.matches("\\d+x\\d+")) {
        String[] mn = a.split("x");
        sizes.add(new int[] {Integer.parseInt(mn[0]), Integer.parseInt(mn[1])});
      } else {
        System.err.println("usage: PlannerScale [--repeats=N] [--seed=S] [PROCESSESxCHUNKS...]"
            + " (bad argument '" + a + "')");
        System.exit(2);
      }
    }
    if (sizes.isEmpty()) {
      sizes.addAll(Arrays.asList(SIZES));
    }
    System.out.printf(Locale.ROOT, "planner-scale: EqualAssignment (max-flow, %d replicas, random"
        + " placement, %d hosts/rack), %d repeats, seed %d, %d available cores%n", 3,
        HOSTS_PER_RACK, repeats, seed, Runtime.getRuntime().availableProcessors());
    System.out.printf(Locale.ROOT, "%9s %7s %9s %9s %10s %7s %6s %6s %12s %8s%n", "processes",
        "chunks", "first_ms", "best_ms", "median_ms", "local", "rack", "remote", "alg1_ms",
        "alg1_loc");
    for (int[] s : sizes) {
      Result r = measure(s[0], s[1], 3, seed, repeats);
      System.out.printf(Locale.ROOT, "%9d %7d %9.1f %9.1f %10.1f %7d %6d %6d %12.1f %7.1f%%%n",
          r.processes(), r.chunks(), r.firstMillis(), r.bestMillis(), r.medianMillis(),
          r.localChunks(), r.rackLocalChunks(), r.remoteChunks(), r.algorithm1Millis(),
          100.0 * r.algorithm1ColocatedBytes() / Math.max(1, r.algorithm1TotalBytes()));
    }
  }

  /** Builds a random instance and times planning it {@code 1 + repeats} times. */
  public static Result measure(int processes, int chunks, int replicas, long seed, int repeats) {
    if (replicas > processes) {
      throw new IllegalArgumentException("replicas (" + replicas + ") must be <= processes ("
          + processes + ")");
    }
    Random rnd = new Random(seed);
    List<Proc> procs = new ArrayList<>(processes);
    Map<String, String> rackOf = new HashMap<>();
    for (int i = 0; i < processes; i++) {
      String host = "dn" + i;
      procs.add(new Proc(i, host));
      rackOf.put(host, "/rack" + i / HOSTS_PER_RACK);
    }
    RackResolver racks = RackResolver.of(rackOf);
    List<Chunk> list = randomChunks(rnd, chunks, processes, replicas);

    long t0 = System.nanoTime();
    Plan plan = EqualAssignment.plan(list, procs, racks);
    double first = (System.nanoTime() - t0) / 1e6;
    double[] times = new double[Math.max(1, repeats)];
    for (int i = 0; i < times.length; i++) {
      long t = System.nanoTime();
      plan = EqualAssignment.plan(list, procs, racks);
      times[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(times);

    List<Task> tasks = new ArrayList<>(chunks / 2);
    for (int i = 0; i + 1 < chunks; i += 2) {
      tasks.add(new Task(i / 2, List.of(list.get(i), list.get(i + 1))));
    }
    double[] alg1 = new double[times.length];
    MultiInputPlan mp = null;
    for (int i = 0; i < alg1.length; i++) {
      long t = System.nanoTime();
      mp = MultiInputAssignment.plan(tasks, procs);
      alg1[i] = (System.nanoTime() - t) / 1e6;
    }
    Arrays.sort(alg1);
    return new Result(processes, chunks, replicas, first, times[0], times[times.length / 2],
        plan.localChunks(), plan.rackLocalChunks(), plan.remoteChunks(), alg1[alg1.length / 2],
        mp.colocatedBytes(), mp.totalBytes());
  }

  static List<Chunk> randomChunks(Random rnd, int chunks, int hosts, int replicas) {
    List<Chunk> list = new ArrayList<>(chunks);
    for (int c = 0; c < chunks; c++) {
      List<String> h = new ArrayList<>(replicas);
      while (h.size() < replicas) {
        String host = "dn" + rnd.nextInt(hosts);
        if (!h.contains(host)) {
          h.add(host);
        }
      }
      list.add(new Chunk(c, "/data/part-" + c / 16, (c % 16) * CHUNK, CHUNK, h));
    }
    return list;
  }
}
