package org.opass.mrap.format;

import java.io.IOException;
import java.util.List;

/**
 * A scientific file format as MRAP reads it: told from a file's first bytes, opened through a
 * bounded positioned reader into its variables ({@link ScienceFile}: dimensions, attributes,
 * coordinates, storage as strided runs or chunks with their index and fill value), and the
 * decoding of its chunks' filters. A format is a package that implements this and one line that
 * registers it ({@code org.opass.mrap.science.ScienceFiles}); the planners and readers see only
 * {@link Variable}s. Implementations are stateless and thread-safe.
 */
public interface FileFormat {
  /** Bytes read at once from the front of a file, which {@link #matches} is given. */
  int HEAD = 64 * 1024;

  /** The format's name, as messages give it ("NetCDF-3", "HDF5"). */
  String name();

  /** What the format's files begin with, for a message ("CDF\1, \2 or \5"). */
  String signature();

  /** Whether {@code head}, the first bytes of a file (at most {@link #HEAD}), is of this format. */
  boolean matches(byte[] head);

  /**
   * Opens {@code file} ({@link #matches} said it is of this format) through {@code in}, whose
   * front the caller holds ({@link Positioned#keepHead}).
   *
   * @param netcdf read in netCDF's data model (an HDF5 file as the NetCDF-4 file it is:
   *     netCDF's shapes, fill values and dimension names), else in the format's own
   * @throws ScienceFormatException naming the file where its header cannot be read
   */
  ScienceFile open(Positioned in, String file, boolean netcdf) throws IOException;

  /**
   * Whether this format's data is a store of objects ({@link ObjectStore}: a Zarr store, a
   * reference set) rather than one file: then {@link #open(ObjectStore, boolean)} opens it, and
   * {@link #matches} is never asked.
   */
  default boolean readsStores() {
    return false;
  }

  /**
   * Opens {@code store} ({@link #readsStores}).
   *
   * @throws ScienceFormatException naming the store where its metadata cannot be read
   */
  default ScienceFile open(ObjectStore store, boolean netcdf) throws IOException {
    throw new ScienceFormatException(store.name() + ": " + name() + " is read from files, not "
        + "stores");
  }

  /**
   * The filters of a variable of this format, from their specs (as a split carries them).
   *
   * @throws ScienceFormatException naming a filter this format does not decode
   */
  ChunkFilters filters(List<FilterSpec> specs);
}
