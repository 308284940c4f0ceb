package org.opass.mrap.format.hdf5;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * HDF5's dimension scales as netCDF-C and h5py use them: a dataset's DIMENSION_LIST (its
 * dimensions' scales), a scale's REFERENCE_LIST (the datasets attached to it), its NAME, and
 * netCDF-C's dimension-only scales. They give a dataset's dimension names, its coordinate
 * variables and, for a NetCDF-4 variable, netCDF's shape along an unlimited dimension.
 */
final class DimensionScales {
  /** Objects a search for a dimension scale's path reads at most. */
  private static final int MAX_WALK = 2000;
  private static final String NETCDF_DIMENSION_ONLY =
      "This is a netCDF dimension but not a netCDF variable";

  private DimensionScales() {
  }


  /**
   * netCDF's shape: along each unlimited dimension, the dimension's length, which netCDF-C takes
   * as the longest of the variables that use it (its scale's attached datasets, through the
   * scale's REFERENCE_LIST, and the scale itself when it is a variable).
   */
  static long[] netcdfShape(Hdf5File h, Hdf5Object o, long[] dims, long[] maxDims,
      String at) {
    long[] shape = dims.clone();
    for (int d = 0; d < dims.length; d++) {
      if (maxDims[d] >= 0) {
        continue;
      }
      Long scale = scale(h, o, d, at);
      if (scale == null) {
        continue; // not a netCDF dimension: HDF5's shape
      }
      Hdf5Object s = scale == o.address() ? o : h.object(scale);
      if (!dimensionOnly(s)) {
        shape[d] = Math.max(shape[d], length(s, 0));
      }
      Hdf5Object.Attribute refs = s.attribute("REFERENCE_LIST");
      if (refs == null) {
        continue;
      }
      long ref = refs.type.memberOffset("dataset");
      long dim = refs.type.memberOffset("dimension");
      if (refs.type.kind != Datatype.COMPOUND || ref < 0 || dim < 0
          || ref + h.sizeOfOffsets() > refs.type.size || dim + 4 > refs.type.size) {
        throw new Hdf5Damage("the REFERENCE_LIST of the dimension scale of " + at
            + " is not a list of (dataset, dimension)");
      }
      Hdf5Bytes b = h.bytes(refs.value, "the REFERENCE_LIST of the dimension scale of " + at);
      Set<Long> seen = new HashSet<>();
      for (long i = 0; i < refs.elements(); i++) {
        int p = (int) (i * refs.type.size);
        long target = b.at(p + (int) ref).address();
        int index = (int) b.at(p + (int) dim).u32();
        if (seen.add(target) && target != o.address()) {
          shape[d] = Math.max(shape[d], length(h.object(target), index));
        }
      }
    }
    return shape;
  }

  /** The address of the dimension scale of dimension {@code d} of {@code o}, or null. */
  static Long scale(Hdf5File h, Hdf5Object o, int d, String at) {
    Hdf5Object.Attribute list = o.attribute("DIMENSION_LIST");
    if (list == null) {
      Hdf5Object.Attribute cls = o.attribute("CLASS");
      return d == 0 && cls != null && text(cls).equals("DIMENSION_SCALE") ? o.address() : null;
    }
    int so = h.sizeOfOffsets();
    long element = 4 + so + 4;
    if (list.type.kind != Datatype.VLEN || list.type.size != element
        || list.value.length < (d + 1) * element) {
      throw new Hdf5Damage("the DIMENSION_LIST of " + at + " is not a list of references per "
          + "dimension");
    }
    Hdf5Bytes b = h.bytes(list.value, "the DIMENSION_LIST of " + at).at((int) (d * element));
    long count = b.u32();
    long collection = b.address();
    long index = b.u32();
    if (count == 0) {
      return null;
    }
    return h.bytes(h.globalHeapObject(collection, index), "the DIMENSION_LIST of " + at)
        .address();
  }

  static long length(Hdf5Object o, int dim) {
    long[] dims = o.space().dims;
    if (dim < 0 || dim >= dims.length) {
      throw new Hdf5Damage("a dimension scale refers to dimension " + dim + " of a dataset of "
          + "rank " + dims.length);
    }
    return dims[dim];
  }

  /** Whether a dimension scale is only a netCDF dimension, not also a variable. */
  static boolean dimensionOnly(Hdf5Object scale) {
    Hdf5Object.Attribute name = scale.attribute("NAME");
    return name != null && text(name).startsWith(NETCDF_DIMENSION_ONLY);
  }

  static String text(Hdf5Object.Attribute a) {
    if (a.type.kind != Datatype.STRING) {
      return "";
    }
    String s = new String(a.value, StandardCharsets.UTF_8);
    int nul = s.indexOf(0);
    return (nul < 0 ? s : s.substring(0, nul)).trim();
  }



  /**
   * Each dimension's name: its dimension scale's NAME (as h5py's {@code make_scale(name)} and
   * netCDF-C for a coordinate variable set it), else (netCDF-C's dimension-only scales, a scale
   * made without a name) the scale dataset's own name, as netCDF-C names a dimension; "" where
   * the dimension has no scale.
   */
  static List<String> dimensionNames(Hdf5File h, Hdf5Object o, String path, int rank,
      String at) {
    int stored = o.space().dims.length;
    List<String> names = new ArrayList<>(rank);
    for (int d = 0; d < rank; d++) {
      Long scale = d < stored ? scale(h, o, d, at) : null;
      names.add(scale == null ? "" : scaleName(h, scale, path, at));
    }
    return names;
  }

  static String scaleName(Hdf5File h, long scale, String near, String at) {
    Hdf5Object s = h.object(scale);
    Hdf5Object.Attribute a = s.attributes(List.of("NAME")).get("NAME");
    String name = a == null ? null : Hdf5Attributes.string(h, a, at);
    if (name != null && !name.isEmpty() && !name.startsWith(NETCDF_DIMENSION_ONLY)) {
      return name;
    }
    String p = pathOf(h, scale, near);
    return p == null ? "" : p.substring(p.lastIndexOf('/') + 1);
  }

  /**
   * The path of the object at {@code address}: looked for among the hard links of the groups on
   * the path {@code near}, innermost first (where netCDF-C puts a dimension's scale: in the
   * group of the dimension, the variable's or an ancestor), then through the file's groups (at
   * most {@link #MAX_WALK} objects); null where it is not found.
   */
  static String pathOf(Hdf5File h, long address, String near) {
    Set<Long> searched = new HashSet<>();
    for (int slash = near.lastIndexOf('/'); slash >= 0;
        slash = slash == 0 ? -1 : near.lastIndexOf('/', slash - 1)) {
      String group = near.substring(0, slash);
      Long g = group.isEmpty() ? Long.valueOf(h.root()) : h.resolve(group);
      if (g == null || !searched.add(g)) {
        continue;
      }
      for (Links.Link l : h.links(g)) {
        if (l.kind == 0 && l.address == address) {
          return group + "/" + l.name;
        }
      }
    }
    List<Long> groups = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    groups.add(h.root());
    paths.add("");
    Set<Long> seen = new HashSet<>(groups);
    for (int i = 0; i < groups.size() && seen.size() < MAX_WALK; i++) {
      for (Links.Link l : h.links(groups.get(i))) {
        if (l.kind != 0) {
          continue;
        }
        if (l.address == address) {
          return paths.get(i) + "/" + l.name;
        }
        if (seen.size() < MAX_WALK && seen.add(l.address) && isGroup(h, l.address)) {
          groups.add(l.address);
          paths.add(paths.get(i) + "/" + l.name);
        }
      }
    }
    return null;
  }

  /** Whether the object at {@code address} is a group; an unreadable one is not searched. */
  static boolean isGroup(Hdf5File h, long address) {
    try {
      return h.object(address).isGroup();
    } catch (Hdf5Damage | Hdf5Unsupported e) {
      return false;
    }
  }

}
