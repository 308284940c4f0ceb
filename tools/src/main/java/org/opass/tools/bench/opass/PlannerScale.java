package org.opass.tools.bench.opass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.opass.read.plan.Chunk;
import org.opass.read.plan.EqualAssignment;
import org.opass.read.plan.MultiInputAssignment;
import org.opass.read.plan.MultiInputPlan;
import org.opass.read.plan.Plan;
import org.opass.read.plan.Proc;
import org.opass.read.plan.RackResolver;
import org.opass.read.plan.Task;

/**
 * Random planning instances at the scale of Opass Fig. 22's largest case (4096 processes and
 * 32768 chunks), timed for {@link PlannerScaleBench}: {@link EqualAssignment} and
 * {@link MultiInputAssignment}.
 *
 * <p>Instance: m hosts with one process each, in racks of {@value #HOSTS_PER_RACK}; n chunks of
 * 64 MiB, each with 3 replicas on distinct hosts drawn uniformly (HDFS default placement is
 * random apart from rack spreading, which does not change the matching's size much). For
 * Algorithm 1, n/2 tasks that each read two of those chunks.
 */
final class PlannerScale {
  static final int HOSTS_PER_RACK = 32;
  static final long CHUNK = 64L << 20;

  /**
   * Timings of one size.
   *
   * @param firstMillis  first (cold, JIT not warmed up) run of EqualAssignment
   * @param bestMillis   fastest of the repeats
   * @param medianMillis median of the repeats
   * @param algorithm1Millis median of Algorithm 1 on n/2 two-input tasks
   */
  record Result(int processes, int chunks, int replicas, double firstMillis, double bestMillis,
      double medianMillis, int localChunks, int rackLocalChunks, int remoteChunks,
      double algorithm1Millis, long algorithm1ColocatedBytes, long algorithm1TotalBytes) {
  }

  private PlannerScale() {
  }

  /** Builds a random instance and times planning it {@code 1 + repeats} times. */
  static Result measure(int processes, int chunks, int replicas, long seed, int repeats) {
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
