package org.opass.read.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * The result of {@link MultiInputAssignment}: every task assigned to one process, with the
 * bytes of its inputs that are co-located with that process. Immutable. Tasks and processes are
 * addressed by their index in {@link #tasks()} and {@link #processes()}.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class MultiInputPlan {
  private final List<Task> tasks;
  private final List<Proc> processes;
  private final int[] quotas;
  private final int[] owner;
  private final long[] colocated;
  private final int[][] byProcess;
  private final long colocatedBytes;
  private final long totalBytes;
  private final Colocation colocation;

  MultiInputPlan(List<Task> tasks, List<Proc> processes, int[] quotas, int[] owner,
      Colocation colocation) {
    this.tasks = List.copyOf(tasks);
    this.processes = List.copyOf(processes);
    this.quotas = quotas.clone();
    this.owner = owner.clone();
    this.colocation = colocation;
    int n = tasks.size();
    colocated = new long[n];
    int[] sizes = new int[processes.size()];
    long sum = 0;
    long total = 0;
    for (int t = 0; t < n; t++) {
      colocated[t] = colocation.value(owner[t], t);
      sum += colocated[t];
      total += tasks.get(t).bytes();
      sizes[owner[t]]++;
    }
    colocatedBytes = sum;
    totalBytes = total;
    byProcess = new int[processes.size()][];
    for (int p = 0; p < byProcess.length; p++) {
      byProcess[p] = new int[sizes[p]];
      sizes[p] = 0;
    }
    for (int t = 0; t < n; t++) {
      byProcess[owner[t]][sizes[owner[t]]++] = t;
    }
  }

  public List<Task> tasks() {
    return tasks;
  }

  public List<Proc> processes() {
    return processes;
  }

  /** Tasks per process that the plan was made for. */
  public int[] quotas() {
    return quotas.clone();
  }

  /** Index of the process that runs task {@code taskIndex}. */
  public int processOf(int taskIndex) {
    return owner[Objects.checkIndex(taskIndex, owner.length)];
  }

  /** Task indices assigned to process {@code processIndex}, ascending. */
  public int[] taskIndicesOf(int processIndex) {
    return byProcess[Objects.checkIndex(processIndex, byProcess.length)].clone();
  }

  public List<Task> tasksOf(int processIndex) {
    int[] idx = byProcess[Objects.checkIndex(processIndex, byProcess.length)];
    List<Task> out = new ArrayList<>(idx.length);
    for (int t : idx) {
      out.add(tasks.get(t));
    }
    return Collections.unmodifiableList(out);
  }

  /** m_i^j: bytes of task {@code taskIndex}'s inputs co-located with process {@code process}. */
  public long matchingValue(int processIndex, int taskIndex) {
    Objects.checkIndex(processIndex, processes.size());
    Objects.checkIndex(taskIndex, tasks.size());
    return colocation.value(processIndex, taskIndex);
  }

  /** Bytes of task {@code taskIndex}'s inputs co-located with the process it is assigned to. */
  public long colocatedBytesOf(int taskIndex) {
    return colocated[Objects.checkIndex(taskIndex, colocated.length)];
  }

  /** Sum over tasks of the co-located bytes with their process (what Algorithm 1 maximises). */
  public long colocatedBytes() {
    return colocatedBytes;
  }

  /** Bytes all tasks read. */
  public long totalBytes() {
    return totalBytes;
  }

  Colocation colocation() {
    return colocation;
  }

  @Override
  public String toString() {
    return "MultiInputPlan[" + tasks.size() + " tasks, " + processes.size() + " processes, "
        + colocatedBytes + " of " + totalBytes + " bytes co-located]";
  }
}
