package org.opass.read.wire;

import java.util.regex.Pattern;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * The read-plan endpoint's address and JSON field names, written once for the NameNode side
 * ({@code org.opass.read.nn}) and the client ({@code org.opass.read.client}). Field names are
 * snake_case, as everything we serve over HTTP.
 *
 * <p>Request ({@code POST}): {@code {"reads": [{"path": "/d/f", "reader": "host-or-ip",
 * "offset": 0, "length": 1048576}, ...]}}, offset and length optional ({@link PlanRead}).
 * Answer: the plan's {@link #ID}, {@link #OWNER}, {@link #EXPIRES_IN_MS}, {@link #STRATEGY},
 * counts ({@link #READS}, {@link #LOCAL}, {@link #SKIPPED}), loads ({@link #MAX_LOAD},
 * {@link #ALGORITHM2_MAX_LOAD}, {@link #OPTIMAL_MAX_LOAD}), {@link #SERVED_BY_DATANODE} and the
 * {@link #ASSIGNMENTS}. {@code GET} lists plans ({@link #SCOPE}, {@link #PLANS},
 * {@link #PLANNED_READS}); {@code DELETE ?id=} drops one. Answers (200) carry the NameNode's
 * {@link #HA_STATE}; on an observer, {@code POST ?id=} keeps a copy of the active's plan under
 * its id.
 * A refusal is {@code {"error": "..."}} ({@link PlanRefusedException}).
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class PlanWire {
  /** Where the NameNode's web server serves read plans. */
  public static final String PATH = "/opass/read-plan";

  // the request, and each assignment of the answer
  public static final String READS = "reads";
  public static final String PATH_FIELD = "path";
  public static final String READER = "reader";
  public static final String OFFSET = "offset";
  public static final String LENGTH = "length";

  // the answer to a submission
  public static final String ID = "id";
  public static final String OWNER = "owner";
  public static final String EXPIRES_IN_MS = "expires_in_ms";
  public static final String STRATEGY = "strategy";
  public static final String LOCAL = "local";
  public static final String SKIPPED = "skipped";
  public static final String MAX_LOAD = "max_load";
  public static final String ALGORITHM2_MAX_LOAD = "algorithm2_max_load";
  public static final String OPTIMAL_MAX_LOAD = "optimal_max_load";
  public static final String SERVED_BY_DATANODE = "served_by_datanode";
  public static final String ASSIGNMENTS = "assignments";
  public static final String DATANODE = "datanode";

  // the list of plans
  public static final String SCOPE = "scope";
  public static final String PLANS = "plans";
  public static final String SERVED = "served";
  public static final String PLANNED_READS = "planned_reads";

  /** A refusal's reason. */
  public static final String ERROR = "error";
  /**
   * The answering NameNode's HA state: {@code active} or {@code observer} in an answer (the
   * NameNodes that sort reads, and hold plans); {@code standby} (or another state) with a 503
   * from one that does not.
   */
  public static final String HA_STATE = "ha_state";
  /**
   * A plan id as NameNodes make them, {@code plan-<instance token>-<n>}: what
   * {@code POST ?id=} accepts, to keep a copy of a plan of another NameNode under its id.
   */
  public static final Pattern PLAN_ID = Pattern.compile(
      "plan-[0-9a-z]{1,16}-[1-9][0-9]{0,18}");

  private PlanWire() {
  }
}
