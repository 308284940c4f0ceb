/**
 * The series index: each file's header read once into its entry, a kerchunk reference set of the
 * file ({@link org.opass.mrap.index.FileEntry}: Zarr v2 metadata and a {@code [url, offset,
 * length]} per chunk, what xarray opens through fsspec's {@code reference://}) with the binding
 * to the file and what the planner needs exactly; a series joined along time into one set where
 * its files allow it, else refused by name ({@code SeriesCombination}); an index published in one
 * rename ({@link org.opass.mrap.index.IndexBuilder}); and the index as the planner reads it in
 * place of headers ({@link org.opass.mrap.index.SeriesIndex}, {@link
 * org.opass.mrap.index.IndexedFile}).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
package org.opass.mrap.index;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
