package org.opass.mrap.science;

import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * Opens a variable of a NetCDF or HDF5 file by name, whichever format the file is in ({@link
 * #variable}), or the file itself to describe several variables and their coordinates from one
 * reading of its header ({@link #open}).
 */
public final class ScienceFiles {
  /** What a job says its files are. */
  @InterfaceAudience.Public
  @InterfaceStability.Evolving
  public enum Kind {
    /** NetCDF-3 (classic, 64-bit offset, CDF-5) or NetCDF-4, which is HDF5. */
    NETCDF,
    /** HDF5; a dataset by its path. */
    HDF5;

    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Bytes read at once from the front of a file: most NetCDF-3 headers, HDF5's first page. */
  public static final int HEAD = PagedChannel.PAGE;

  private ScienceFiles() {
  }

  /**
   * The variable {@code name} of {@code file}, read with a few positioned reads of its front; an
   * HDF5 file read as {@link Kind#NETCDF} is a NetCDF-4 file, its variables in netCDF's shape.
   * Each variable carries its dimensions' names and the attributes CF uses ({@link
   * Variable#attributes}).
   *
   * @throws ScienceFormatException naming the file and the variable where the file is not of
   *     {@code kind}, has no such variable, or holds it in a way this reader does not read
   */
  public static Variable variable(Positioned in, String file, Kind kind, String name)
      throws IOException {
    try (ScienceFile f = open(in, file, kind)) {
      return f.variable(name);
    }
  }

  /**
   * Opens {@code file} to describe several of its variables with the header reads made once:
   * for a planner that needs a variable and the coordinate variables of its dimensions ({@link
   * ScienceFile#coordinate}) without reopening the file for each. Close it when done.
   *
   * @throws ScienceFormatException naming the file where it is not of {@code kind} or its header
   *     (NetCDF-3) or superblock (HDF5) cannot be read
   */
  public static ScienceFile open(Positioned in, String file, Kind kind) throws IOException {
    byte[] head = in.keepHead(HEAD);
    if (NetcdfHeader.matches(head)) {
      if (kind == Kind.HDF5) {
        throw new ScienceFormatException(file + " is a NetCDF-3 file, not HDF5: read it as "
            + "kind netcdf");
      }
      return new ScienceFile(file, kind, NetcdfHeader.read(in, file), null);
    }
    if (kind == Kind.NETCDF && !Hdf5Header.matches(head)) {
      throw new ScienceFormatException(file + " is neither NetCDF-3 (CDF\\1, \\2, \\5) nor "
          + "NetCDF-4 (HDF5)");
    }
    return new ScienceFile(file, kind, null, Hdf5Header.open(in, file));
  }
}
