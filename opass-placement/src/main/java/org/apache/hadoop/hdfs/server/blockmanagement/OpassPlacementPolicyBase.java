package org.apache.hadoop.hdfs.server.blockmanagement;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetworkTopology;

/**
 * The default policy with an initialization hook a subclass outside this package can override.
 *
 * <p>{@code BlockPlacementPolicy#initialize} takes the package-private {@code Host2NodesMap},
 * so no class in another package can override it to read its own configuration. This class is
 * the only thing we put in Hadoop's package (the jar is not sealed); it changes no behaviour.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public abstract class OpassPlacementPolicyBase extends BlockPlacementPolicyDefault {

  @Override
  public void initialize(Configuration conf, FSClusterStats stats, NetworkTopology clusterMap,
      Host2NodesMap host2datanodeMap) {
    super.initialize(conf, stats, clusterMap, host2datanodeMap);
    initialize(conf, stats, clusterMap);
  }

  /** Called once, after the default policy has initialized itself. */
  protected abstract void initialize(Configuration conf, FSClusterStats stats,
      NetworkTopology clusterMap);
}
