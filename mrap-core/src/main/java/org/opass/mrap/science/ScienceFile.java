package org.opass.mrap.science;

import java.io.Closeable;
import java.io.IOException;

/**
 * A NetCDF or HDF5 file opened once ({@link ScienceFiles#open}) to describe several of its
 * variables: a variable by name, and the coordinate variable of a variable's dimension, each from
 * the header reads already made (a NetCDF-3 header is read whole when the file is opened; the
 * pages of HDF5 metadata read are kept while it is open and not read again). Not for use by
 * several threads at once.
 */
public final class ScienceFile implements Closeable {
  private final String file;
  private final ScienceFiles.Kind kind;
  private final NetcdfHeader netcdf; // a NetCDF-3 file, else null
  private final Hdf5File hdf5; // an HDF5 or NetCDF-4 file, else null

  ScienceFile(String file, ScienceFiles.Kind kind, NetcdfHeader netcdf, Hdf5File hdf5) {
    this.file = file;
    this.kind = kind;
    this.netcdf = netcdf;
    this.hdf5 = hdf5;
  }

  /**
   * The variable {@code name}: {@link ScienceFiles#variable} describes it.
   *
   * @throws ScienceFormatException naming the file and the variable where the file has no such
   *     variable or holds it in a way this reader does not read
   */
  public Variable variable(String name) throws IOException {
    return variable(name, true);
  }

  /**
   * The variable {@code name} as {@link #variable} gives it, but for its chunks: a chunked
   * variable's chunk index is not read (its chunks none), so that its shape, dimensions and
   * attributes cost only the reads of its object header. {@link #variable} reads the index
   * after it without reading again what this read.
   */
  public Variable describe(String name) throws IOException {
    return variable(name, false);
  }

  private Variable variable(String name, boolean index) throws IOException {
    if (netcdf == null) {
      return Hdf5Header.variable(hdf5, file, name, kind == ScienceFiles.Kind.NETCDF, index);
    }
    Variable v = netcdf.variables().get(name);
    if (v == null) {
      throw new ScienceFormatException(file + ": no variable " + name + "; its variables: "
          + String.join(", ", netcdf.variables().keySet()));
    }
    return v;
  }

  /**
   * The coordinate variable of dimension {@code d} of {@code v} (a variable of this file), a
   * one-dimensional variable with its own dimensions' names and attributes, or null where that
   * dimension has none. NetCDF-3: the variable named as the dimension whose only dimension is
   * that one. NetCDF-4 and HDF5: the dataset of the dimension's scale (its DIMENSION_LIST entry;
   * a dimension scale is its own), null where there is no scale or the scale is only a netCDF
   * dimension (netCDF-C's dimension without a variable); read as {@link ScienceFiles.Kind#NETCDF},
   * in netCDF's shape.
   *
   * @throws ScienceFormatException naming the file where the scale is a dataset this reader does
   *     not read (strings, a compact dataset...) or the metadata is damaged
   */
  public Variable coordinate(Variable v, int d) throws IOException {
    if (d < 0 || d >= v.rank()) {
      throw new IllegalArgumentException("dimension " + d + " of " + v);
    }
    if (netcdf == null) {
      return Hdf5Header.coordinate(hdf5, file, v, d, kind == ScienceFiles.Kind.NETCDF);
    }
    String name = v.dimensions().get(d);
    Variable c = name.isEmpty() ? null : netcdf.variables().get(name);
    return c != null && c.dimensions().equals(java.util.List.of(name)) ? c : null;
  }

  /** The file's name, as given when it was opened. */
  public String file() {
    return file;
  }

  @Override
  public void close() {
    if (hdf5 != null) {
      hdf5.close();
    }
  }
}
