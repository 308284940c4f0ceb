/**
 * {@code bin/mrap index}: the series index built by a MapReduce job whose tasks read the files'
 * headers where their blocks are ({@link org.opass.mrap.mapreduce.index.IndexJob}), its keys
 * ({@link org.opass.mrap.mapreduce.index.IndexKeys}).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.mapreduce.index;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
