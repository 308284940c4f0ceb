/**
 * Scientific file formats behind one interface, as NetCDF-Java keeps its {@code iosp.*}: a format
 * ({@link org.opass.mrap.format.FileFormat}) opens a file through a bounded positioned reader
 * ({@link org.opass.mrap.format.Positioned}) into its variables ({@link
 * org.opass.mrap.format.ScienceFile}, {@link org.opass.mrap.format.Variable}: shape, element type,
 * dimension names, the attributes CF uses, and {@link org.opass.mrap.format.Storage}: strided
 * runs, or chunks with their index, filters ({@link org.opass.mrap.format.ChunkFilters}) and fill
 * value). What every format shares lives here: a slab of a variable as byte regions and the
 * regions read back as pieces ({@link org.opass.mrap.format.SlabPlan}), chunks never written
 * ({@link org.opass.mrap.format.UnwrittenChunks}), a small variable read whole ({@link
 * org.opass.mrap.format.VariableValues}). Each format is a package of its own below this one
 * ({@code hdf5}, {@code netcdf3}), registered in {@code org.opass.mrap.science.ScienceFiles}.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.format;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
