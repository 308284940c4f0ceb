/**
 * MRAP for MapReduce: {@link org.opass.mrap.mapreduce.AccessInputFormat} (the regions an access
 * pattern names), {@link org.opass.mrap.mapreduce.SequenceMatchingInputFormat} (two inputs in
 * one phase) and {@link org.opass.mrap.mapreduce.VariableInputFormat} (a NetCDF or HDF5
 * variable's slab): what jobs name. Their splits and record readers are internal, marked so
 * of their own. Planning and reading are {@code mrap-core}'s. Results go back as a dataset
 * through {@link org.opass.mrap.mapreduce.ScienceOutputFormat} (a CF NetCDF file or a Zarr
 * store, its parts written by reducers and published by the job's commit), whose records are
 * {@link org.opass.mrap.science.ArrayPiece}s or {@link org.opass.mrap.mapreduce.GridValues}.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
package org.opass.mrap.mapreduce;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
