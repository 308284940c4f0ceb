package org.opass.read.plan;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * Opass Algorithm 1: matching-based assignment of tasks with several inputs (§4.3).
 *
 * <p>m_i^j is the number of bytes of task j's inputs that have a replica on process i's host.
 * While some process p_k holds fewer tasks than its quota, p_k considers the task t_x it has not
 * considered yet with the largest m_k^x; an unassigned t_x goes to p_k; a t_x held by p_l moves
 * to p_k only if m_l^x &lt; m_k^x (the cancellation rule, which puts p_l below its quota again);
 * either way t_x joins p_k's considered set.
 *
 * <p>Choices the paper leaves open, fixed here so that runs are reproducible:
 * <ul>
 *   <li>which p_k moves when several are below quota: the one with the lowest index;
 *   <li>ties in m_k^x: the lowest task index;
 *   <li>n not divisible by m: quotas are &lfloor;n/m&rfloor;, and the first n mod m processes
 *       (in the order given) get one more ({@link #equalQuotas}). The loop condition
 *       "|T(p_k)| &lt; n/m" needs integral quotas that sum to n: with &lfloor;n/m&rfloor; for all,
 *       n mod m tasks would never be assigned; with &lceil;n/m&rceil; for all, the loop would
 *       never end. Callers who want other processes to take the extra tasks reorder them or pass
 *       their own quotas.
 * </ul>
 *
 * <p>With quotas summing to n the loop always ends with every task assigned: an assigned task
 * is only ever moved, never unassigned, so a process below quota always has an unconsidered
 * unassigned task. Because p_k considers tasks best-first, its considered set is a prefix of its
 * preference order and is kept as a position in that order. Tasks with m_k^x = 0 can never be
 * taken from another process (0 &lt; m_l^x is false), so in that tail p_k jumps straight to the
 * next unassigned task; the tasks jumped over are considered without effect and are not
 * reported to the trace. This keeps large instances near O(replicas &middot; log + n).
 *
 * <p>Algorithm 1 is greedy, not optimal: the tests compare it with the best total co-located
 * bytes for the same quotas (a min-cost flow, {@code MinCostOptimum} in the test sources).
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class MultiInputAssignment {

  /** What happened when a process considered a task. */
  public enum Action {
    /** The task was unassigned and went to the process (line 9). */
    ASSIGN,
    /** The task was taken from {@link Step#previousOwner()} (lines 12-13). */
    REASSIGN,
    /** The task stayed with its owner, whose matching value is not smaller (line 11 false). */
    KEEP
  }

  /**
   * One iteration of Algorithm 1's loop.
   */
  public static final class Step {
    private final int process;
    private final int task;
    private final long value;
    private final Action action;
    private final int previousOwner;

    /**
     * @param process       index of p_k
     * @param task          index of t_x
     * @param value         m_k^x
     * @param action        what happened
     * @param previousOwner index of p_l for {@code REASSIGN} and {@code KEEP}, else -1
     */
    public Step(int process, int task, long value, Action action, int previousOwner) {
      this.process = process;
      this.task = task;
      this.value = value;
      this.action = action;
      this.previousOwner = previousOwner;
    }

    public int process() {
      return process;
    }

    public int task() {
      return task;
    }

    public long value() {
      return value;
    }

    public Action action() {
      return action;
    }

    public int previousOwner() {
      return previousOwner;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Step)) {
        return false;
      }
      Step other = (Step) o;
      return process == other.process
          && task == other.task
          && value == other.value
          && Objects.equals(action, other.action)
          && previousOwner == other.previousOwner;
    }

    @Override
    public int hashCode() {
      return Objects.hash(process, task, value, action, previousOwner);
    }

    @Override
    public String toString() {
      return "Step["
          + "process=" + process
          + ", task=" + task
          + ", value=" + value
          + ", action=" + action
          + ", previousOwner=" + previousOwner
          + "]";
    }
  }

  private MultiInputAssignment() {
  }

  /**
   * Quotas for n tasks on m processes: &lfloor;n/m&rfloor; each, the first n mod m one more.
   */
  public static int[] equalQuotas(int tasks, int processes) {
    if (tasks < 0) {
      throw new IllegalArgumentException("tasks must be >= 0, got " + tasks);
    }
    if (processes < 1) {
      throw new IllegalArgumentException("processes must be >= 1, got " + processes);
    }
    int[] q = new int[processes];
    for (int i = 0; i < processes; i++) {
      q[i] = tasks / processes + (i < tasks % processes ? 1 : 0);
    }
    return q;
  }

  /** Algorithm 1 with {@link #equalQuotas}. */
  public static MultiInputPlan plan(List<Task> tasks, List<Proc> processes) {
    Objects.requireNonNull(processes, "processes");
    Objects.requireNonNull(tasks, "tasks");
    return plan(tasks, processes, equalQuotas(tasks.size(), Math.max(1, processes.size())), null);
  }

  /**
   * Algorithm 1.
   *
   * @param quotas tasks per process, one per process, &ge; 0, summing to the number of tasks
   * @param trace  receives every step of the loop (may be {@code null})
   */
  public static MultiInputPlan plan(List<Task> tasks, List<Proc> processes, int[] quotas,
      Consumer<Step> trace) {
    Objects.requireNonNull(tasks, "tasks");
    Objects.requireNonNull(processes, "processes");
    EqualAssignment.checkProcesses(processes);
    checkTasks(tasks);
    int[] q = checkQuotas(quotas, processes.size(), tasks.size());
    Colocation values = Colocation.of(tasks, processes);
    return new MultiInputPlan(tasks, processes, q, run(values, q, trace), values);
  }

  /**
   * Algorithm 1 on a table of matching values.
   *
   * @param values {@code values[i][j]} = m_i^j &ge; 0, one row per process, equal-length rows
   * @param quotas as for {@link #plan(List, List, int[], Consumer)}
   * @return for every task j, the index of the process it is assigned to
   */
  public static int[] assign(long[][] values, int[] quotas, Consumer<Step> trace) {
    Objects.requireNonNull(values, "values");
    if (values.length == 0) {
      throw new IllegalArgumentException("values has no rows: need at least one process");
    }
    Colocation c = Colocation.of(values);
    return run(c, checkQuotas(quotas, c.processes, c.tasks), trace);
  }

  private static int[] run(Colocation v, int[] quota, Consumer<Step> trace) {
    int m = v.processes;
    int n = v.tasks;
    int[] owner = new int[n];
    Arrays.fill(owner, -1);
    int[] held = new int[m];
    int[] pref = new int[m]; // considered set, positive part: prefix of prefTask[k]
    int[] tail = new int[m]; // considered set, zero part: tasks below this index
    NextFree free = new NextFree(n);
    BitSet below = new BitSet(m);
    for (int k = 0; k < m; k++) {
      if (quota[k] > 0) {
        below.set(k);
      }
    }
    for (int k = below.nextSetBit(0); k >= 0; k = below.nextSetBit(0)) {
      int x;
      long mk;
      if (pref[k] < v.prefTask[k].length) {
        x = v.prefTask[k][pref[k]];
        mk = v.prefValue[k][pref[k]];
        pref[k]++;
      } else {
        x = free.from(tail[k]);
        if (x >= n) {
          throw new IllegalStateException("internal error: process " + k
              + " is below its quota but every task is assigned");
        }
        tail[k] = x + 1;
        mk = 0;
      }
      int l = owner[x];
      if (l < 0) {
        owner[x] = k;
        held[k]++;
        free.take(x);
        if (trace != null) {
          trace.accept(new Step(k, x, mk, Action.ASSIGN, -1));
        }
      } else if (v.value(l, x) < mk) {
        owner[x] = k;
        held[k]++;
        held[l]--;
        below.set(l);
        if (trace != null) {
          trace.accept(new Step(k, x, mk, Action.REASSIGN, l));
        }
      } else if (trace != null) {
        trace.accept(new Step(k, x, mk, Action.KEEP, l));
      }
      if (held[k] >= quota[k]) {
        below.clear(k);
      }
    }
    return owner;
  }

  private static int[] checkQuotas(int[] quotas, int processes, int tasks) {
    Objects.requireNonNull(quotas, "quotas");
    if (quotas.length != processes) {
      throw new IllegalArgumentException("quotas has " + quotas.length + " entries, expected one"
          + " per process (" + processes + ")");
    }
    long sum = 0;
    for (int i = 0; i < quotas.length; i++) {
      if (quotas[i] < 0) {
        throw new IllegalArgumentException("quotas[" + i + "] is negative: " + quotas[i]);
      }
      sum += quotas[i];
    }
    if (sum != tasks) {
      throw new IllegalArgumentException("quotas sum to " + sum + ", expected the number of"
          + " tasks (" + tasks + ")");
    }
    return quotas.clone();
  }

  private static void checkTasks(List<Task> tasks) {
    java.util.Set<Integer> ids = new java.util.HashSet<>();
    for (int i = 0; i < tasks.size(); i++) {
      Task t = tasks.get(i);
      if (t == null) {
        throw new IllegalArgumentException("tasks[" + i + "] is null");
      }
      if (!ids.add(t.id())) {
        throw new IllegalArgumentException("tasks[" + i + "] has duplicate id " + t.id());
      }
    }
  }

  /** "Next unassigned task at or after i" with path compression; tasks are only ever taken. */
  private static final class NextFree {
    private final int[] parent;

    NextFree(int n) {
      parent = new int[n + 1];
      for (int i = 0; i <= n; i++) {
        parent[i] = i;
      }
    }

    int from(int i) {
      int root = i;
      while (parent[root] != root) {
        root = parent[root];
      }
      while (parent[i] != root) {
        int up = parent[i];
        parent[i] = root;
        i = up;
      }
      return root;
    }

    void take(int i) {
      parent[i] = i + 1;
    }
  }
}
