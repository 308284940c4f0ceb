/**
 * The Spark data source {@code format("mrap")} ({@link org.opass.mrap.spark.MrapSource}, public
 * of its own, with its options): its table, scan, partitions and readers are internal.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.spark;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
