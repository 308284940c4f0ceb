/**
 * Results written back as datasets: a grid of coordinates and variables ({@link
 * org.opass.mrap.write.OutputDataset}), cut along its first dimension into parts that tasks
 * write side by side ({@link org.opass.mrap.write.PartWriter}), and published by the driver in
 * one step ({@link org.opass.mrap.write.DatasetCommit}): a CF NetCDF-3 file (64-bit offset, or
 * CDF-5 where sizes or types need it) joined from its parts by HDFS's {@code concat}, or a Zarr
 * v2 store with consolidated metadata. The bytes of each format are a class's ({@link
 * org.opass.mrap.write.Netcdf3Writer}, {@link org.opass.mrap.write.ZarrWriter}), as NetCDF-Java
 * keeps its writers apart from its readers; Spark's and MapReduce's adapters only feed points.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.write;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
