/**
 * The example jobs of {@code bin/mrap} ({@code extract}, {@code join}, {@code slab-stats}),
 * run as {@code hadoop jar mrap-inputformat-*.jar NAME ...}: their command lines are the
 * interface, their classes are not.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.examples;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
