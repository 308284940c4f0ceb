/**
 * {@code mrap-copy}: copies files into a file system, plainly or restructured for an access
 * pattern (MRAP thesis §4.3.2), checked and published in one rename.
 * {@link org.opass.mrap.copy.MrapCopy} is the tool users call ({@code hadoop jar
 * mrap-copy.jar}); {@link org.opass.mrap.copy.RestructuringCopy} with
 * {@link org.opass.mrap.copy.CopyOptions} makes the same copy from a program. The rest is
 * internal, marked {@code @InterfaceAudience.Private}: the options of the command line
 * ({@code CopyOptionSwitch}), the settings it reads ({@code CopySettings}), what it reads
 * ({@code SourceFile}) and writes ({@code PhysicalWriter}), the parallel copy's plan and driver
 * ({@code CopyPlan}, {@code ParallelCopy}, {@code CopyJobKeys}; its MapReduce classes are in
 * {@code org.opass.mrap.copy.mapred}), and the checks and rename that publish a copy
 * ({@code Publisher}).
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
package org.opass.mrap.copy;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
