/**
 * What a job over scientific files sees: the kinds of file it names and the formats that read
 * them ({@link org.opass.mrap.science.ScienceFiles}: a file opened whichever format it is in,
 * registered here, one line a format), and the records a reader hands out ({@link
 * org.opass.mrap.science.ArrayIndex}, {@link org.opass.mrap.science.ArrayPiece}), marked public
 * of their own with the format names of {@link org.opass.mrap.science.ScienceFiles.Kind}.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.science;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
