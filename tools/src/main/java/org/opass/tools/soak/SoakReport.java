package org.opass.tools.soak;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What a soak did and found: the figures of {@code bin/bench soak} and of its test. */
public final class SoakReport {
  private static final int KEPT = 20;

  int faultsInjected;
  int failoversInjected;
  final Map<String, Integer> faultsByKind = new TreeMap<>();
  /** What each fault found wrong, in order (empty lists for faults that found nothing). */
  final List<String> violationSamples = new ArrayList<>();
  int checkViolations;
  long filesLost;
  long filesAtEnd;
  long heapStartBytes;
  long heapEndBytes;
  int heatmapMaxTracked;
  int plansMax;
  long logEscapes;
  long logEscapesSeen;
  long fallbacksSeen;
  double seconds;
  // from the traffic
  long operations;
  long failures;
  long failuresOutsideFaults;
  Map<String, Long> operationsByRole = Map.of();
  Map<String, Long> failuresByRole = Map.of();
  Map<String, List<String>> failureSamples = Map.of();
  long corruptReads;
  long badAnswers;
  long trafficViolations;
  long fuzzCases;
  long fuzz5xx;
  long fuzzHangs;
  long fuzzProblems;
  Map<Integer, Long> fuzzStatuses = Map.of();
  List<String> problems = List.of();

  void fault(FaultSchedule.Fault f, List<String> found) {
    faultsInjected++;
    if (f.isFailover()) {
      failoversInjected++;
    }
    faultsByKind.merge(f.kindName(), 1, Integer::sum);
    violated(f.toString(), found);
  }

  void end(List<String> found, long files) {
    filesAtEnd = files;
    violated("end", found);
  }

  private void violated(String when, List<String> found) {
    checkViolations += found.size();
    for (String v : found) {
      if (violationSamples.size() < KEPT) {
        violationSamples.add(when + ": " + v);
      }
    }
  }

  void traffic(Traffic t) {
    Counters c = t.counters;
    operations = c.operations();
    failures = c.failures();
    failuresOutsideFaults = c.failuresOutsideFaults();
    operationsByRole = c.operationsByRole();
    failuresByRole = c.failuresByRole();
    failureSamples = c.failureSamples();
    corruptReads = c.corrupt();
    badAnswers = c.badAnswers();
    trafficViolations = c.violations();
    fuzzCases = c.fuzzCases();
    fuzz5xx = c.fuzz5xx();
    fuzzHangs = c.fuzzHangs();
    fuzzProblems = c.fuzzProblems();
    fuzzStatuses = c.fuzzStatuses();
    problems = c.problems();
  }

  /**
   * Every invariant violation: the checks after faults and at the end (files unreadable or
   * changed, fsck, placement, bounds, exceptions of ours in Hadoop's log, internal failures of
   * our plugins, a NameNode exit), reads that returned other bytes than written, plan answers
   * that were a 5xx or did not say what was wrong, fuzz cases answered wrongly or not at all.
   */
  public long invariantViolations() {
    return checkViolations + corruptReads + badAnswers + trafficViolations + fuzzProblems;
  }

  public long filesLost() {
    return filesLost;
  }

  public long fuzzCases() {
    return fuzzCases;
  }

  public long fuzz5xx() {
    return fuzz5xx;
  }

  public int faultsInjected() {
    return faultsInjected;
  }

  /** NameNode failovers among the faults, graceful and killed. */
  public int failoversInjected() {
    return failoversInjected;
  }

  public Map<String, Integer> faultsByKind() {
    return faultsByKind;
  }

  /** A few of the violations, to say what they were. */
  public List<String> violations() {
    List<String> out = new ArrayList<>(violationSamples);
    out.addAll(problems);
    return out;
  }

  /** The soak's figures for a JSON report. */
  public Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("seconds", seconds);
    m.put("faults_injected", faultsInjected);
    m.put("faults_by_kind", faultsByKind);
    m.put("failovers_injected", failoversInjected());
    m.put("operations", operations);
    m.put("operations_by_role", operationsByRole);
    m.put("failed_operations", failures);
    m.put("failed_operations_outside_faults", failuresOutsideFaults);
    m.put("failed_operations_by_role", failuresByRole);
    m.put("failure_samples", failureSamples);
    m.put("files_at_end", filesAtEnd);
    m.put("files_lost", filesLost);
    m.put("corrupt_reads", corruptReads);
    m.put("invariant_violations", invariantViolations());
    m.put("violations", violations());
    m.put("fuzz_cases", fuzzCases);
    m.put("fuzz_statuses", fuzzStatuses);
    m.put("fuzz_5xx", fuzz5xx);
    m.put("fuzz_hangs", fuzzHangs);
    m.put("fuzz_wrong_answers", fuzzProblems);
    m.put("plan_answers_wrong", badAnswers);
    m.put("exceptions_of_ours_in_hadoop_log", logEscapes);
    m.put("heatmap_max_tracked_nodes", heatmapMaxTracked);
    m.put("live_plans_max", plansMax);
    m.put("heap_after_gc_start_mb", heapStartBytes / (1024.0 * 1024));
    m.put("heap_after_gc_end_mb", heapEndBytes / (1024.0 * 1024));
    return m;
  }
}
