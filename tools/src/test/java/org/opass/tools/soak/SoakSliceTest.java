package org.opass.tools.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The slice of {@code bin/bench soak} that runs with the tests: all three plugins loaded,
 * traffic of every kind, one fault of each kind (a DataNode restarted, heartbeats stalled,
 * a DataNode decommissioned and recommissioned, a rack lost, both NameNodes restarted, a
 * graceful failover and a killed active NameNode, the heatmap's clock jumping) on an HA
 * cluster, fuzzing of the plan endpoint throughout; every invariant must hold
 * after each fault and at the end. Seeded: the same faults every run (their interleaving with
 * the traffic varies, which is what the invariants must not mind).
 */
class SoakSliceTest {

  @Test
  void everyInvariantHoldsThroughOneFaultOfEachKind() throws Exception {
    Soak.Settings s = Soak.Settings.slice();
    s.baseDir = new File("target/e2e/soak-slice");
    s.progress = System.out;
    SoakReport report;
    try (Soak soak = Soak.start(s)) {
      report = soak.runFaults();
    }
    System.out.println("soak slice: " + report.json());
    assertEquals(0, report.invariantViolations(), () -> "violations: " + report.violations());
    assertEquals(0, report.filesLost());
    assertEquals(0, report.fuzz5xx());
    assertEquals(FaultSchedule.Kind.values().length, report.faultsInjected());
    assertEquals(FaultSchedule.Kind.values().length, report.faultsByKind().size(),
        () -> "one fault of each kind: " + report.faultsByKind());
    assertEquals(2, report.failoversInjected(), () -> "failovers: " + report.faultsByKind());
    Map<String, Object> json = report.json();
    assertTrue(report.fuzzCases() > 100, () -> "the fuzzer ran: " + json.get("fuzz_statuses"));
    assertTrue((Long) json.get("files_at_end") >= s.warmupFiles, () -> "files: " + json);
    @SuppressWarnings("unchecked")
    Map<String, Long> ops = (Map<String, Long>) json.get("operations_by_role");
    for (String role : new String[] {"write", "read", "planned-read", "plan-submit",
        "dynamic-read", "plan-user", "gbl"}) {
      assertTrue(ops.getOrDefault(role, 0L) > 0, () -> role + " ran: " + ops);
    }
  }
}
