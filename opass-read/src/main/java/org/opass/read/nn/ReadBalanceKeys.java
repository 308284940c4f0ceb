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
}
