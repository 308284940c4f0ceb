/**
 * A task read, whatever the engine: a {@code RegionTask}'s regions with positioned reads joined
 * across gaps ({@link org.opass.mrap.read.RegionReader}), a {@code VariableTask}'s pieces of the
 * slab with chunks decoded and fill values given ({@link org.opass.mrap.read.PieceReader}),
 * several variables on one grid together ({@link org.opass.mrap.read.GridReader}), and what a
 * read counts ({@link org.opass.mrap.read.ReadCounters}). Internal but for the counters ({@link
 * org.opass.mrap.read.MrapCounter}) and the key of paired reads ({@link
 * org.opass.mrap.read.SideKey}), marked public of their own.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.read;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
