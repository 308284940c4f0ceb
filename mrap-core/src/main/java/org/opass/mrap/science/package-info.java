/**
 * NetCDF (classic, 64-bit offset, CDF-5, NetCDF-4) and HDF5 files read as MRAP patterns: a
 * variable's header and chunk index ({@link org.opass.mrap.science.ScienceFiles}), its slab as
 * byte regions ({@link org.opass.mrap.science.SlabPlan}), chunks decoded ({@link
 * org.opass.mrap.science.ChunkDecoder}). Internal but for the records a reader hands out,
 * marked public of their own: {@link org.opass.mrap.science.ArrayIndex}, {@link
 * org.opass.mrap.science.ArrayPiece}, {@link org.opass.mrap.science.ElementType}, the
 * calendar dates its coordinates may be ({@link org.opass.mrap.science.CfDate}, {@link
 * org.opass.mrap.science.CfCalendar}) and the format names of {@link
 * org.opass.mrap.science.ScienceFiles.Kind}.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.science;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
