/**
 * What one task of a read reads, planned on the client and read in the task, which planners
 * make and readers take: {@link org.opass.mrap.task.RegionTask} (regions of a file: in place,
 * packed by a restructuring copy, or through its layout) and {@link
 * org.opass.mrap.task.VariableTask} (parts of files and their variables, slabs, coordinates and
 * fill values), both {@link org.opass.mrap.task.ReadTask}s in the {@code Writable} form an
 * engine ships (a split, a partition; a variable through {@link
 * org.opass.mrap.task.VariableCodec}).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.task;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
