package org.opass.tools.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.opass.tools.read.PlanFuzzer;

/**
 * What the soak's clients did and saw: operations and failures per role, and the things that
 * must never happen (corrupt reads, bad answers of the plan endpoint, fuzz cases with a
 * problem), each with a few samples to say what happened.
 */
final class Counters {
  private static final int SAMPLES = 5;

  private final Map<String, LongAdder> done = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> failed = new ConcurrentHashMap<>();
  private final Map<String, List<String>> failureSamples = new ConcurrentHashMap<>();
  private final AtomicLong corrupt = new AtomicLong();
  private final AtomicLong badAnswers = new AtomicLong();
  private final AtomicLong violations = new AtomicLong();
  private final List<String> problems = new ArrayList<>();
  private final LongAdder fuzzCases = new LongAdder();
  private final LongAdder fuzz5xx = new LongAdder();
  private final LongAdder fuzzHangs = new LongAdder();
  private final LongAdder fuzzProblems = new LongAdder();
  private final Map<Integer, LongAdder> fuzzStatuses = new ConcurrentHashMap<>();
  /** While true, failures are counted as during a fault. */
  private volatile boolean faultActive;
  private final LongAdder failedOutsideFaults = new LongAdder();

  void done(String role) {
    done.computeIfAbsent(role, r -> new LongAdder()).increment();
  }

  void failed(String role, Throwable e) {
    failed.computeIfAbsent(role, r -> new LongAdder()).increment();
    if (!faultActive) {
      failedOutsideFaults.increment();
    }
    List<String> s = failureSamples.computeIfAbsent(role, r -> new ArrayList<>());
    synchronized (s) {
      if (s.size() < SAMPLES) {
        String first = String.valueOf(e).split("\n", 2)[0]; // a remote stack adds lines
        s.add((faultActive ? "" : "(no fault) ") + (first.length() > 300
            ? first.substring(0, 300) + "..." : first));
      }
    }
  }

  void corrupt(String what) {
    corrupt.incrementAndGet();
    problem("corrupt: " + what);
  }

  void badAnswer(String what) {
    badAnswers.incrementAndGet();
    problem("bad answer: " + what);
  }

  void violation(String what) {
    violations.incrementAndGet();
    problem(what);
  }

  void fuzzed(PlanFuzzer.Case c) {
    fuzzCases.increment();
    if (c.hung()) {
      fuzzHangs.increment();
    } else {
      fuzzStatuses.computeIfAbsent(c.answer.status, s -> new LongAdder()).increment();
      if (c.answer.status >= 500) {
        fuzz5xx.increment();
      }
    }
    if (c.problem != null) {
      fuzzProblems.increment();
      problem("fuzz: " + c);
    }
  }

  void faultActive(boolean active) {
    faultActive = active;
  }

  private void problem(String what) {
    synchronized (problems) {
      if (problems.size() < 4 * SAMPLES) {
        problems.add(what.length() > 600 ? what.substring(0, 600) + "..." : what);
      }
    }
  }

  long operations() {
    return done.values().stream().mapToLong(LongAdder::sum).sum();
  }

  long failures() {
    return failed.values().stream().mapToLong(LongAdder::sum).sum();
  }

  long failuresOutsideFaults() {
    return failedOutsideFaults.sum();
  }

  long corrupt() {
    return corrupt.get();
  }

  long badAnswers() {
    return badAnswers.get();
  }

  long violations() {
    return violations.get();
  }

  long fuzzCases() {
    return fuzzCases.sum();
  }

  long fuzz5xx() {
    return fuzz5xx.sum();
  }

  long fuzzHangs() {
    return fuzzHangs.sum();
  }

  long fuzzProblems() {
    return fuzzProblems.sum();
  }

  Map<String, Long> operationsByRole() {
    return snapshot(done);
  }

  Map<String, Long> failuresByRole() {
    return snapshot(failed);
  }

  Map<Integer, Long> fuzzStatuses() {
    Map<Integer, Long> out = new TreeMap<>();
    fuzzStatuses.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  Map<String, List<String>> failureSamples() {
    Map<String, List<String>> out = new TreeMap<>();
    failureSamples.forEach((k, v) -> {
      synchronized (v) {
        out.put(k, new ArrayList<>(v));
      }
    });
    return out;
  }

  List<String> problems() {
    synchronized (problems) {
      return new ArrayList<>(problems);
    }
  }

  private static Map<String, Long> snapshot(Map<String, LongAdder> m) {
    Map<String, Long> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
