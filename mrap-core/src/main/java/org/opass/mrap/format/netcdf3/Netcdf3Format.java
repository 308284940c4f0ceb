package org.opass.mrap.format.netcdf3;

import java.io.IOException;
import java.util.List;
import org.opass.mrap.format.ChunkFilters;
import org.opass.mrap.format.FileFormat;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;

/**
 * NetCDF-3: classic, 64-bit offset and CDF-5 files ({@link NetcdfHeader}), every variable
 * strided, none filtered.
 */
public final class Netcdf3Format implements FileFormat {
  @Override
  public String name() {
    return "NetCDF-3";
  }

  @Override
  public String signature() {
    return "CDF\\1, \\2, \\5";
  }

  @Override
  public boolean matches(byte[] head) {
    return NetcdfHeader.matches(head);
  }

  /** Its one data model is netCDF's, whatever {@code netcdf} asks. */
  @Override
  public ScienceFile open(Positioned in, String file, boolean netcdf) throws IOException {
    return NetcdfHeader.read(in, file);
  }

  @Override
  public ChunkFilters filters(List<FilterSpec> specs) {
    if (!specs.isEmpty()) {
      throw new ScienceFormatException("NetCDF-3 variables have no filters: " + specs);
    }
    return ChunkFilters.NONE;
  }
}
