package org.opass.read.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The matching values m_i^j of Algorithm 1 (bytes of task j's inputs co-located with process i)
 * as a sparse matrix: a task's inputs sit on a few hosts, so almost all values are zero, and a
 * dense m &times; n table would not fit at 4096 &times; 32768.
 */
final class Colocation {
  final int processes;
  final int tasks;
  /** Per process: tasks with a positive value, best first (value desc, task asc). */
  final int[][] prefTask;
  final long[][] prefValue;
  /** Per task: processes with a positive value, for looking up m_l^x. */
  final int[][] taskProc;
  final long[][] taskValue;

  private Colocation(int processes, int tasks, int[][] taskProc, long[][] taskValue) {
    this.processes = processes;
    this.tasks = tasks;
    this.taskProc = taskProc;
    this.taskValue = taskValue;
    int[] deg = new int[processes];
    for (int[] ps : taskProc) {
      for (int p : ps) {
        deg[p]++;
      }
    }
    prefTask = new int[processes][];
    prefValue = new long[processes][];
    for (int p = 0; p < processes; p++) {
      prefTask[p] = new int[deg[p]];
      prefValue[p] = new long[deg[p]];
      deg[p] = 0;
    }
    for (int t = 0; t < tasks; t++) {
      for (int k = 0; k < taskProc[t].length; k++) {
        int p = taskProc[t][k];
        prefTask[p][deg[p]] = t;
        prefValue[p][deg[p]++] = taskValue[t][k];
      }
    }
    for (int p = 0; p < processes; p++) {
      sortBestFirst(prefTask[p], prefValue[p]);
    }
  }

  /** Sorts by value descending, then task ascending (tasks arrive ascending already). */
  private static void sortBestFirst(int[] task, long[] value) {
    int len = task.length;
    Integer[] order = new Integer[len];
    for (int i = 0; i < len; i++) {
      order[i] = i;
    }
    // stable sort on value alone keeps the ascending task order among equal values
    Arrays.sort(order, (a, b) -> Long.compare(value[b], value[a]));
    int[] t = task.clone();
    long[] v = value.clone();
    for (int i = 0; i < len; i++) {
      task[i] = t[order[i]];
      value[i] = v[order[i]];
    }
  }

  /** m_p^t; zero when nothing of task t is on process p's host. */
  long value(int p, int t) {
    int[] ps = taskProc[t];
    for (int k = 0; k < ps.length; k++) {
      if (ps[k] == p) {
        return taskValue[t][k];
      }
    }
    return 0;
  }

  static Colocation of(List<Task> tasks, List<Proc> processes) {
    Map<String, List<Integer>> onHost = new HashMap<>();
    for (int p = 0; p < processes.size(); p++) {
      onHost.computeIfAbsent(processes.get(p).host(), h -> new ArrayList<>()).add(p);
    }
    int n = tasks.size();
    int[][] taskProc = new int[n][];
    long[][] taskValue = new long[n][];
    Map<Integer, Long> acc = new HashMap<>();
    for (int t = 0; t < n; t++) {
      acc.clear();
      for (Chunk c : tasks.get(t).inputs()) {
        for (String h : c.hosts()) {
          for (int p : onHost.getOrDefault(h, List.of())) {
            acc.merge(p, c.length(), Long::sum);
          }
        }
      }
      acc.values().removeIf(v -> v == 0);
      taskProc[t] = new int[acc.size()];
      taskValue[t] = new long[acc.size()];
      int k = 0;
      for (Map.Entry<Integer, Long> e : acc.entrySet()) {
        taskProc[t][k] = e.getKey();
        taskValue[t][k++] = e.getValue();
      }
    }
    return new Colocation(processes.size(), n, taskProc, taskValue);
  }

  /** From a dense table {@code values[process][task]}. */
  static Colocation of(long[][] values) {
    int m = values.length;
    int n = m == 0 ? 0 : values[0] == null ? -1 : values[0].length;
    for (int p = 0; p < m; p++) {
      if (values[p] == null || values[p].length != n) {
        throw new IllegalArgumentException("values[" + p + "] must have " + n + " entries, got "
            + (values[p] == null ? "null" : values[p].length));
      }
      for (int t = 0; t < n; t++) {
        if (values[p][t] < 0) {
          throw new IllegalArgumentException("values[" + p + "][" + t + "] is negative: "
              + values[p][t]);
        }
      }
    }
    int[][] taskProc = new int[n][];
    long[][] taskValue = new long[n][];
    for (int t = 0; t < n; t++) {
      int k = 0;
      for (int p = 0; p < m; p++) {
        if (values[p][t] > 0) {
          k++;
        }
      }
      taskProc[t] = new int[k];
      taskValue[t] = new long[k];
      k = 0;
      for (int p = 0; p < m; p++) {
        if (values[p][t] > 0) {
          taskProc[t][k] = p;
          taskValue[t][k++] = values[p][t];
        }
      }
    }
    return new Colocation(m, n, taskProc, taskValue);
  }
}
