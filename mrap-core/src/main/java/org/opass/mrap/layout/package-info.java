/**
 * The layout {@code mrap-copy} writes into a restructured file (each task's regions packed
 * together, or a container of many files), its trailer codec, and the queries a reader makes
 * of it ({@link org.opass.mrap.layout.RestructuredLayout}). Internal: the file format is
 * versioned, these classes are not an API.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.layout;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
