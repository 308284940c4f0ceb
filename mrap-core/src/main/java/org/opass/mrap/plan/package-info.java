/**
 * Planning a read, whatever the engine: the {@code mrap.access.*} and {@code mrap.science.*}
 * settings checked ({@link org.opass.mrap.plan.AccessSettings}, {@link
 * org.opass.mrap.plan.VariableSettings}, {@link org.opass.mrap.plan.MrapConf}), a variable's
 * slab over files turned into byte regions ({@link org.opass.mrap.plan.VariablePlanner}), a
 * file's blocks and their hosts ({@link org.opass.mrap.plan.FileBlocks}). The MapReduce
 * InputFormats, {@code mrap-copy} and the Spark source call it; users set the keys.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.plan;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
