package org.opass.read.nn;

/** Configuration keys of {@link BalancingNetworkTopology} (NameNode hdfs-site.xml). */
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
  public static final int PLAN_MAX_READS_DEFAULT = 1 << 20;

  /** How a plan picks replicas: {@code optimal} (least max load) or {@code algorithm2}. */
  public static final String PLAN_STRATEGY = "opass.read.plan.strategy";
  public static final String PLAN_STRATEGY_DEFAULT = "optimal";
}
