/**
 * Files in a Hadoop file system as MRAP sees them, on the client and in tasks: a restructured
 * file told from a plain one and its layout checked ({@link
 * org.opass.mrap.fs.RestructuredFiles}), its original bytes read through the layout ({@link
 * org.opass.mrap.fs.LogicalReads}, runs joined into one read by {@link
 * org.opass.mrap.fs.JoinedRead}), a file's blocks and their hosts ({@link
 * org.opass.mrap.fs.FileBlocks}), a read's input listed ({@link org.opass.mrap.fs.InputFiles}),
 * headers kept for the next plan of the same files ({@link org.opass.mrap.fs.HeaderCache}), and
 * work over many files a few at a time ({@link org.opass.mrap.fs.InParallel}).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.fs;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
