package org.opass.mrap.format.zarr;

import java.io.IOException;
import java.util.List;
import org.opass.mrap.format.ChunkFilters;
import org.opass.mrap.format.FileFormat;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.ObjectStore;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;

/**
 * Zarr, v2 and v3: a store of objects ({@link ObjectStore}), not a file; its arrays read as
 * NetCDF's variables are, their chunks decoded by {@link ZarrFilters}.
 */
public final class ZarrFormat implements FileFormat {
  @Override
  public String name() {
    return ZarrFilters.FORMAT;
  }

  @Override
  public String signature() {
    return "a folder with zarr.json, .zgroup, .zarray or .zmetadata";
  }

  @Override
  public boolean matches(byte[] head) {
    return false; // a store, not a file
  }

  @Override
  public boolean readsStores() {
    return true;
  }

  @Override
  public ScienceFile open(Positioned in, String file, boolean netcdf) {
    throw new ScienceFormatException(file + " is a file; a Zarr store is a folder");
  }

  @Override
  public ScienceFile open(ObjectStore store, boolean netcdf) throws IOException {
    return ZarrFile.open(store);
  }

  @Override
  public ChunkFilters filters(List<FilterSpec> specs) {
    return ZarrFilters.of(specs);
  }
}
