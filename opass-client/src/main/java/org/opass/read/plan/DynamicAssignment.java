package org.opass.read.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * Dynamic hand-out of tasks with a static plan as the guide (Opass §4.4), for master/worker
 * applications whose task times vary.
 *
 * <p>Each process i starts with its list L_i from a plan. {@link #next(int)} gives process i the
 * next task of L_i; when L_i is empty it takes, from the longest remaining list L_k, the task
 * with the most bytes co-located with process i, so a fast process keeps reading locally for as
 * long as possible and relieves the most loaded process. Ties: the lowest k; within L_k, the
 * task its owner would have reached last. Safe for concurrent callers (one lock; a call is
 * O(m + |L_k|), small next to reading a chunk).
 *
 * @param <T> the task type ({@link Chunk} for {@link Plan}, {@link Task} for
 *            {@link MultiInputPlan}, or anything with a co-location function)
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class DynamicAssignment<T> {

  /** Bytes of {@code task}'s input co-located with process {@code processIndex}. */
  @FunctionalInterface
  public interface ColocatedBytes<T> {
    long bytes(int processIndex, T task);
  }

  // each list is stored reversed, so the owner's next task is the last element (O(1) removal)
  private final List<ArrayList<T>> lists;
  private final ColocatedBytes<? super T> colocated;
  private int remaining;
  private long steals;

  /**
   * @param lists     L_i for every process i, in the order the owner should run them
   * @param colocated co-located bytes of a task with a process, used only for stealing
   */
  public DynamicAssignment(List<? extends List<? extends T>> lists,
      ColocatedBytes<? super T> colocated) {
    Objects.requireNonNull(lists, "lists");
    this.colocated = Objects.requireNonNull(colocated, "colocated");
    if (lists.isEmpty()) {
      throw new IllegalArgumentException("lists is empty: need one list per process");
    }
    this.lists = new ArrayList<>(lists.size());
    for (int i = 0; i < lists.size(); i++) {
      List<? extends T> l = lists.get(i);
      if (l == null) {
        throw new IllegalArgumentException("lists[" + i + "] is null");
      }
      ArrayList<T> copy = new ArrayList<>(l);
      if (copy.contains(null)) {
        throw new IllegalArgumentException("lists[" + i + "] contains null");
      }
      Collections.reverse(copy);
      this.lists.add(copy);
      remaining += copy.size();
    }
  }

  /** Lists from an equal-assignment plan; a chunk is co-located if its host holds a replica. */
  public static DynamicAssignment<Chunk> of(Plan plan) {
    List<List<Chunk>> lists = new ArrayList<>();
    for (int p = 0; p < plan.processes().size(); p++) {
      lists.add(plan.chunksOf(p));
    }
    List<Proc> procs = plan.processes();
    return new DynamicAssignment<>(lists,
        (p, c) -> c.isOn(procs.get(p).host()) ? c.length() : 0);
  }

  /** Lists from an Algorithm 1 plan; co-location is m_i^j. */
  public static DynamicAssignment<Task> of(MultiInputPlan plan) {
    List<List<Task>> lists = new ArrayList<>();
    for (int p = 0; p < plan.processes().size(); p++) {
      lists.add(plan.tasksOf(p));
    }
    List<Proc> procs = plan.processes();
    return new DynamicAssignment<>(lists, (p, t) -> t.bytesOn(procs.get(p).host()));
  }

  /**
   * The next task for process {@code processIndex}, or empty when every task has been handed
   * out.
   */
  public synchronized Optional<T> next(int processIndex) {
    Objects.checkIndex(processIndex, lists.size());
    ArrayList<T> own = lists.get(processIndex);
    if (!own.isEmpty()) {
      remaining--;
      return Optional.of(own.remove(own.size() - 1));
    }
    int longest = -1;
    for (int k = 0; k < lists.size(); k++) {
      if (longest < 0 || lists.get(k).size() > lists.get(longest).size()) {
        longest = k;
      }
    }
    ArrayList<T> victim = lists.get(longest);
    if (victim.isEmpty()) {
      return Optional.empty();
    }
    // index 0 is the victim's last task: scanning up with '>' keeps the latest one on ties
    int best = 0;
    long bestBytes = colocated.bytes(processIndex, victim.get(0));
    for (int i = 1; i < victim.size(); i++) {
      long b = colocated.bytes(processIndex, victim.get(i));
      if (b > bestBytes) {
        best = i;
        bestBytes = b;
      }
    }
    remaining--;
    steals++;
    return Optional.of(victim.remove(best));
  }

  /** Tasks not handed out yet. */
  public synchronized int remaining() {
    return remaining;
  }

  /** Tasks still in process {@code processIndex}'s own list. */
  public synchronized int remaining(int processIndex) {
    return lists.get(Objects.checkIndex(processIndex, lists.size())).size();
  }

  /** Tasks handed to a process other than the one the plan gave them to. */
  public synchronized long steals() {
    return steals;
  }
}
