/**
 * Zarr v2 and v3 stores read as NetCDF's variables are: an array's metadata ({@code .zarray},
 * {@code .zattrs}, consolidated {@code .zmetadata}; {@code zarr.json}), its chunks listed and
 * placed where their bytes lie (a chunk object, an inner chunk of a shard), and the codecs
 * decoded in pure Java, bounded by a chunk's bytes: blosc 1, zstd, lz4, zlib, gzip, numcodecs'
 * shuffle and delta, v3's transpose, crc32c and sharding. The store is an {@link
 * org.opass.mrap.format.ObjectStore}: HDFS in the planner and the tasks, a local folder in tests.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.format.zarr;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
