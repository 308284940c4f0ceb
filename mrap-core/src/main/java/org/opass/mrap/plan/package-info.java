/**
 * Planning a read into tasks, whatever the engine: a pattern over files ({@link
 * org.opass.mrap.plan.AccessPlanner}), and a variable's slab, tiles or selection by value over a
 * series ({@link org.opass.mrap.plan.VariablePlanner}), by job: each file's header read into a
 * {@link org.opass.mrap.plan.FilePlan} ({@code FileHeaders}), a selection resolved over the
 * series ({@code SeriesSelection}), the regions laid out as tasks with their hosts ({@code
 * TaskLayout}, {@code TileTasks}). The MapReduce InputFormats, {@code mrap-copy} and the Spark
 * source call it with the read's settings ({@code org.opass.mrap.settings}).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.plan;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
