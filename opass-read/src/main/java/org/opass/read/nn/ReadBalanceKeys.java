package org.opass.read.nn;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/** Configuration keys of {@link BalancingNetworkTopology} (NameNode hdfs-site.xml). */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class ReadBalanceKeys {
  private ReadBalanceKeys() {
  }

  /** Turns the online read balancing off (the topology then sorts exactly as stock). */
  public static final String ENABLED = "opass.read.balance.enabled";
  public static final boolean ENABLED_DEFAULT = true;

  /**
   * A reader's local replica stays first unless that DataNode's heat exceeds this ratio times
   * the cluster mean heat (taken as at least 1); then the coolest replica goes first.
   */
  public static final String LOCAL_MAX_HEAT_RATIO = "opass.read.local.max-heat-ratio";
  public static final double LOCAL_MAX_HEAT_RATIO_DEFAULT = 2.0;

  /** Lifetime of a submitted read plan, in milliseconds. */
  public static final String PLAN_TTL = "opass.read.plan.ttl-ms";
  public static final long PLAN_TTL_DEFAULT_MILLIS = 10 * 60 * 1000L;

  /** Planned chunk reads the NameNode keeps over all live plans (bounds its memory). */
  public static final String PLAN_MAX_READS = "opass.read.plan.max-reads";
  public static final int PLAN_MAX_READS_DEFAULT = 1 << 18;

  /**
   * Planned chunk reads one user may have live, so that no tenant can lock the others out.
   * Default: a quarter of {@link #PLAN_MAX_READS}.
   */
  public static final String PLAN_MAX_READS_PER_USER = "opass.read.plan.max-reads-per-user";

  /** Live plans over all users (each costs a little memory even when small). */
  public static final String PLAN_MAX_PLANS = "opass.read.plan.max-plans";
  public static final int PLAN_MAX_PLANS_DEFAULT = 1024;

  /** Live plans one user may have. */
  public static final String PLAN_MAX_PLANS_PER_USER = "opass.read.plan.max-plans-per-user";
  public static final int PLAN_MAX_PLANS_PER_USER_DEFAULT = 64;

  /**
   * Chunk reads (blocks located, after de-duplication) one request may plan: bounds the
   * memory and balancing time of one request. Larger batches are refused with 413.
   */
  public static final String PLAN_MAX_REQUEST_READS = "opass.read.plan.max-request-reads";
  public static final int PLAN_MAX_REQUEST_READS_DEFAULT = 1 << 16;

  /** Largest request body, in bytes. */
  public static final String PLAN_MAX_REQUEST_BYTES = "opass.read.plan.max-request-bytes";
  public static final int PLAN_MAX_REQUEST_BYTES_DEFAULT = 8 << 20;

  /** Plan requests served at once; more are answered 503 with Retry-After. */
  public static final String PLAN_MAX_CONCURRENT_REQUESTS =
      "opass.read.plan.max-concurrent-requests";
  public static final int PLAN_MAX_CONCURRENT_REQUESTS_DEFAULT = 2;

  /** How a plan picks replicas: {@code optimal} (least max load) or {@code algorithm2}. */
  public static final String PLAN_STRATEGY = "opass.read.plan.strategy";
  public static final String PLAN_STRATEGY_DEFAULT = "optimal";
}
