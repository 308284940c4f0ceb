package org.opass.read.nn;

import java.lang.ref.WeakReference;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * Outcomes of {@code /opass/read-plan} requests, published as a Hadoop metrics2 source
 * ({@value #NAME}: the NameNode's {@code /jmx} and, when enabled, {@code /prom}): a counter per
 * HTTP status the endpoint answers, and the live plans. Also remembers which causes of failure
 * were already logged, so that each is logged once.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class ReadPlanMetrics implements MetricsSource {
  /** Source name (JMX {@code Hadoop:service=NameNode,name=OpassReadPlans}). */
  public static final String NAME = "OpassReadPlans";

  /** Statuses the endpoint answers; anything else counts as {@code StatusOther}. */
  static final int[] STATUSES = {200, 400, 401, 403, 404, 405, 408, 413, 415, 429, 500, 503};
  private static final int MAX_LOGGED_CAUSES = 64;

  private final LongAdder[] byStatus = new LongAdder[STATUSES.length + 1];
  private final Set<String> loggedCauses = ConcurrentHashMap.newKeySet();
  private final WeakReference<ReadPlanTable> plans;

  ReadPlanMetrics(ReadPlanTable plans) {
    this.plans = new WeakReference<>(plans);
    for (int i = 0; i < byStatus.length; i++) {
      byStatus[i] = new LongAdder();
    }
  }

  /** Counts one answered request. */
  void answered(int status) {
    byStatus[slot(status)].increment();
  }

  /** Requests answered with {@code status} so far. */
  public long count(int status) {
    return byStatus[slot(status)].sum();
  }

  /**
   * True the first time a cause is seen (so the caller logs it), false after; a bounded number
   * of causes is remembered, past which nothing more is logged.
   */
  boolean firstOf(String cause) {
    return loggedCauses.size() < MAX_LOGGED_CAUSES && loggedCauses.add(cause);
  }

  private static int slot(int status) {
    for (int i = 0; i < STATUSES.length; i++) {
      if (STATUSES[i] == status) {
        return i;
      }
    }
    return STATUSES.length;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder rb = collector.addRecord(NAME).setContext("dfs");
    long requests = 0;
    for (int i = 0; i < byStatus.length; i++) {
      long n = byStatus[i].sum();
      requests += n;
      String name = i < STATUSES.length ? "Status" + STATUSES[i] : "StatusOther";
      rb.addCounter(Interns.info(name, "Read-plan requests answered " + name.substring(6)), n);
    }
    rb.addCounter(Interns.info("Requests", "Read-plan requests answered"), requests);
    ReadPlanTable p = plans.get();
    if (p != null) {
      rb.addGauge(Interns.info("LivePlans", "Read plans kept"), p.plans().size());
      rb.addGauge(Interns.info("PlannedReads", "Planned chunk reads kept"), p.plannedReads());
    }
  }
}
