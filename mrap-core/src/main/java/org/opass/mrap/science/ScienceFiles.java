package org.opass.mrap.science;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.mrap.format.ChunkFilters;
import org.opass.mrap.format.FileFormat;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.ObjectStore;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.hdf5.Hdf5Format;
import org.opass.mrap.format.netcdf3.Netcdf3Format;
import org.opass.mrap.format.zarr.ZarrFormat;

/**
 * The formats MRAP reads, and a file opened by the kind a job says its files are, whichever
 * format it is in ({@link #open}), or one variable of it by name ({@link #variable}). A format is
 * a package of {@code org.opass.mrap.format} and a line of {@link #FORMATS}.
 */
public final class ScienceFiles {
  /** What a job says its files are. */
  @InterfaceAudience.Public
  @InterfaceStability.Evolving
  public enum Kind {
    /** NetCDF-3 (classic, 64-bit offset, CDF-5) or NetCDF-4, which is HDF5. */
    NETCDF("NetCDF"),
    /** HDF5; a dataset by its path. */
    HDF5("HDF5"),
    /** A Zarr store (v2 or v3), a folder; an array by its path in the store. */
    ZARR("Zarr");

    private final String label; // as messages name it

    Kind(String label) {
      this.label = label;
    }

    public String key() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** A format, and the kinds of file it serves. */
  private static final class Registered {
    final FileFormat format;
    final Set<Kind> kinds;

    Registered(FileFormat format, Kind first, Kind... more) {
      this.format = format;
      this.kinds = EnumSet.of(first, more);
    }
  }

  /** The formats, in the order a file's first bytes are tried. */
  private static final List<Registered> FORMATS = List.of(
      new Registered(new Netcdf3Format(), Kind.NETCDF),
      new Registered(new Hdf5Format(), Kind.NETCDF, Kind.HDF5),
      new Registered(new ZarrFormat(), Kind.ZARR));

  /** Bytes read at once from the front of a file: most NetCDF-3 headers, HDF5's first page. */
  public static final int HEAD = FileFormat.HEAD;

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
   *     cannot be read
   */
  public static ScienceFile open(Positioned in, String file, Kind kind) throws IOException {
    if (stores(kind)) {
      throw new ScienceFormatException(file + " is a file; kind " + kind.key() + " reads "
          + "stores, folders of objects: name the store's folder");
    }
    byte[] head = in.keepHead(HEAD);
    List<Registered> serving = new ArrayList<>();
    for (Registered r : FORMATS) {
      if (r.format.matches(head)) {
        if (!r.kinds.contains(kind)) {
          throw new ScienceFormatException(file + " is a " + r.format.name() + " file, not "
              + kind.label + ": read it as kind " + r.kinds.iterator().next().key());
        }
        return r.format.open(in, file, kind == Kind.NETCDF);
      }
      if (r.kinds.contains(kind)) {
        serving.add(r);
      }
    }
    if (serving.size() == 1) { // its one format says what is wrong
      return serving.get(0).format.open(in, file, kind == Kind.NETCDF);
    }
    List<String> names = new ArrayList<>();
    for (Registered r : serving) {
      names.add(r.format.name() + " (" + r.format.signature() + ")");
    }
    throw new ScienceFormatException(file + " is neither " + String.join(" nor ", names)
        + ", the formats of kind " + kind.key());
  }

  /** Whether files of {@code kind} are stores of objects (folders), not files. */
  public static boolean stores(Kind kind) {
    for (Registered r : FORMATS) {
      if (r.kinds.contains(kind)) {
        return r.format.readsStores();
      }
    }
    return false;
  }

  /**
   * Opens the store {@code store} of kind {@code kind} ({@link #stores}) to describe its
   * variables.
   *
   * @throws ScienceFormatException naming the store where it is not of {@code kind}
   */
  public static ScienceFile open(ObjectStore store, Kind kind) throws IOException {
    for (Registered r : FORMATS) {
      if (r.kinds.contains(kind) && r.format.readsStores()) {
        return r.format.open(store, kind == Kind.NETCDF);
      }
    }
    throw new ScienceFormatException(store.name() + " is a folder; kind " + kind.key()
        + " reads files");
  }

  /**
   * The filters of format {@code format} ({@link ChunkFilters#format}) from their specs, as a
   * split carries a variable's.
   *
   * @throws ScienceFormatException naming a format not read, or a filter it does not decode
   */
  public static ChunkFilters filters(String format, List<FilterSpec> specs) {
    if (specs.isEmpty()) {
      return ChunkFilters.NONE;
    }
    for (Registered r : FORMATS) {
      if (r.format.name().equals(format)) {
        return r.format.filters(specs);
      }
    }
    throw new ScienceFormatException("filters " + specs + " of a format not read: " + format);
  }
}
