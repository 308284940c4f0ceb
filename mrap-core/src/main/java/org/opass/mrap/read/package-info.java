/**
 * Reading files in HDFS as MRAP does, whatever the engine: a restructured file told from a
 * plain one and its layout checked ({@link org.opass.mrap.read.RestructuredFiles}), its
 * original bytes read through the layout ({@link org.opass.mrap.read.LogicalReads}), reads
 * joined across gaps ({@link org.opass.mrap.read.JoinedRead}). Internal but for the counters
 * ({@link org.opass.mrap.read.MrapCounter}) and the key of paired reads ({@link
 * org.opass.mrap.read.SideKey}), marked public of their own.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.read;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
