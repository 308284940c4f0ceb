package org.opass.mrap.format.hdf5;

import java.io.IOException;
import java.util.List;
import org.opass.mrap.format.ChunkFilters;
import org.opass.mrap.format.FileFormat;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;

/**
 * HDF5 (and NetCDF-4, which is HDF5): datasets by path, or NetCDF-4 variables in netCDF's data
 * model ({@link Hdf5Header}), chunks through the filters {@link Hdf5Filters} decodes.
 */
public final class Hdf5Format implements FileFormat {
  static final String NAME = "HDF5";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String signature() {
    return "\\x89HDF\\r\\n\\x1a\\n at byte 0 or after a user block";
  }

  @Override
  public boolean matches(byte[] head) {
    return Hdf5File.matches(head);
  }

  @Override
  public ScienceFile open(Positioned in, String file, boolean netcdf) throws IOException {
    return new Hdf5Header(Hdf5Header.open(in, file), file, netcdf);
  }

  @Override
  public ChunkFilters filters(List<FilterSpec> specs) {
    return specs.isEmpty() ? ChunkFilters.NONE : new Hdf5Filters(specs);
  }
}
