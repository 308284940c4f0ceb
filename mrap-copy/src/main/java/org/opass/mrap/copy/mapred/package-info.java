/**
 * The MapReduce side of {@code mrap-copy}'s parallel copy, laid out as DistCp's {@code mapred}
 * package is: {@link org.opass.mrap.copy.mapred.ChunkInputFormat} gives each writer task its
 * chunks of the client's {@link org.opass.mrap.copy.CopyPlan} as a
 * {@link org.opass.mrap.copy.mapred.ChunkSplit}; {@link org.opass.mrap.copy.mapred.ChunkWriter}
 * writes them as whole-block parts; {@link org.opass.mrap.copy.mapred.CopyCommitter} joins the
 * parts with {@code concat}, checks and publishes the copy, or removes the parts
 * ({@link org.opass.mrap.copy.mapred.CopyOutputFormat} has nothing else to write). They pass
 * each other files in the copy's work folder ({@link org.opass.mrap.copy.mapred.WorkFiles})
 * and settings under {@link org.opass.mrap.copy.CopyJobKeys}. Loaded by the client that submits
 * the job and by its tasks; Java 11 class files.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.copy.mapred;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
