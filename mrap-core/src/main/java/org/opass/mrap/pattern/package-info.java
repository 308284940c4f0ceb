/**
 * Access patterns as values: the regions of a file a parallel program reads ({@link
 * org.opass.mrap.pattern.StridedPattern}, {@link org.opass.mrap.pattern.TiledPattern},
 * {@link org.opass.mrap.pattern.SubarrayPattern}, {@link org.opass.mrap.pattern.IndexedPattern},
 * {@link org.opass.mrap.pattern.ConcatenatedPattern}), with lookups in closed form; {@link
 * org.opass.mrap.pattern.TaskPartition} cuts one into tasks, {@link
 * org.opass.mrap.pattern.PatternConfig} reads one from configuration keys or a pattern file.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
package org.opass.mrap.pattern;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
