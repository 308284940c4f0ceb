/**
 * The index algebra of arrays, as NetCDF-Java keeps it in {@code ucar.ma2}: element types and
 * their bytes ({@link org.opass.mrap.array.ElementType}, {@link org.opass.mrap.array.Elements}),
 * hyperslabs and their unions per dimension ({@link org.opass.mrap.array.Slab}), the indices a
 * slab selects along one dimension ({@link org.opass.mrap.array.IndexRange}). Plain values with
 * no file and no format in them. {@link org.opass.mrap.array.ElementType} is public API (what a
 * record's elements are); the rest changes without notice.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.array;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
