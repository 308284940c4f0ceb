/**
 * Which host should read which pieces of a read: virtual splits (pieces regrouped by a host
 * that holds them, through the Opass planner's max flow) and the weighted set cover of a
 * task's blocks ({@link org.opass.mrap.locality.SplitLocality}). Internal.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.locality;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
