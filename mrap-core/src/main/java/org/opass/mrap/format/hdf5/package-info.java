/**
 * HDF5 and NetCDF-4 ({@link org.opass.mrap.format.hdf5.Hdf5Format}), read as the HDF5 File
 * Format Specification lays them out: the superblock and the metadata budget ({@code Hdf5File}),
 * object headers and their messages ({@code ObjectHeaders}, {@code Hdf5Object}), groups and
 * links ({@code Links}), version 1 and 2 B-trees ({@code BTrees}), local, global and fractal
 * heaps, every chunk index ({@code Hdf5ChunkIndex}), dimension scales and netCDF's model of a
 * NetCDF-4 variable ({@code DimensionScales}), attributes ({@code Hdf5Attributes}), a dataset as a
 * variable ({@code Hdf5Header}), and the filter pipeline, bounded ({@code Hdf5Filters}: deflate,
 * LZ4, bitshuffle here; shuffle, Fletcher-32 and LZF through jHDF). Only the objects a lookup
 * passes through are read; a damaged file costs memory bounded by its length.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.format.hdf5;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
