package org.opass.mrap.read;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/** What MRAP's readers did, in the job's counters. */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public enum MrapCounter {
  /** Positioned reads issued to the file system. */
  READ_CALLS,
  /** Bytes those reads returned (regions, and the gaps read to join them). */
  BYTES_READ,
  /** Bytes of the regions themselves. */
  BYTES_OF_INTEREST,
  /** Bytes of the variable's selected elements in {@link VariableInputFormat}'s records (of a
   * chunked variable, less than the chunks read, and after decoding). */
  SLAB_BYTES,
  /** Elements of those records that are the fill value, nothing having been stored for them:
   * in chunks never written, or past a NetCDF-4 variable's own records. */
  FILL_ELEMENTS,
  /** Elements of decoded records that are missing: a fill or missing value, or outside the
   * valid range ({@code ArrayPiece.isMissing}). */
  MISSING_ELEMENTS
}
