package org.opass.mrap.spark;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructType;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.cf.CfCalendar;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.cf.CfTime;
import org.opass.mrap.cf.Coordinates;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.Variable;
import org.opass.mrap.plan.StoreInput;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.VariableSettings;

/**
 * The columns of {@code mrap.science.layout=table}, from the first file: a column per dimension
 * of the variables, named as it and holding its coordinate ({@link Kind}), then a column per
 * variable holding its values (decoded unless {@code mrap.science.decode=false}), null where
 * missing. Immutable.
 */
final class TableColumns implements Serializable {
  private static final long serialVersionUID = 1L;

  /** What a dimension's column holds. */
  enum Kind {
    /** A CF time in a calendar of instants: a {@code TimestampType} (UTC). */
    INSTANT,
    /** A CF time in an idealized calendar (noleap, 360_day...): its ISO text, a string. */
    DATE_TEXT,
    /** Another coordinate variable's values, in its own type. */
    NUMBER,
    /** No coordinate variable: the index, a long. */
    INDEX
  }

  private final String[] dimensions;
  private final Kind[] kinds;
  private final ElementType[] dimensionTypes; // a NUMBER's stored type
  private final String[] variables;
  private final ElementType[] types; // each variable's values'
  private final long[] shape; // the first file's
  private final Metadata[] metadata; // each column's CF attributes, dimensions first

  private TableColumns(String[] dimensions, Kind[] kinds, ElementType[] dimensionTypes,
      String[] variables, ElementType[] types, long[] shape, Metadata[] metadata) {
    this.metadata = metadata;
    this.dimensions = dimensions;
    this.kinds = kinds;
    this.dimensionTypes = dimensionTypes;
    this.variables = variables;
    this.types = types;
    this.shape = shape;
  }

  /**
   * The columns of {@code variables} in {@code first}.
   *
   * @throws InvalidSettingsException naming the file and the variable that it lacks, that lies
   *     on another grid than the first variable, or whose dimension has a name no column can
   *     take (none, or a variable's)
   */
  static TableColumns of(Configuration conf, FileStatus first, List<String> variables)
      throws IOException {
    ScienceFiles.Kind kind = VariableSettings.kind(conf);
    boolean decode = VariableSettings.decode(conf);
    String name = first.getPath().toString();
    try (Opened opened = open(conf, first, kind)) {
      ScienceFile sf = opened.file;
      List<Variable> vs = new ArrayList<>();
      for (String v : variables) {
        vs.add(sf.describe(v));
      }
      Variable grid = vs.get(0);
      int r = grid.rank();
      String[] dims = new String[r];
      Kind[] kinds = new Kind[r];
      ElementType[] dimTypes = new ElementType[r];
      Metadata[] meta = new Metadata[r + variables.size()];
      java.util.Arrays.fill(meta, Metadata.empty());
      for (int d = 0; d < r; d++) {
        dims[d] = grid.dimensions().size() > d ? grid.dimensions().get(d) : "";
        if (dims[d].isEmpty() || variables.contains(dims[d])) {
          throw new InvalidSettingsException(name + ": dimension " + d + " of " + grid.name()
              + (dims[d].isEmpty() ? " has no name" : ", " + dims[d] + ", is also a variable "
              + "read") + ", and a table has a column a dimension: read " + (dims[d].isEmpty()
              ? "it with the arrays layout" : dims[d] + " as a coordinate, not a variable"));
        }
        Variable c = sf.coordinate(grid, d);
        if (c == null || c.rank() != 1) {
          kinds[d] = Kind.INDEX;
          continue;
        }
        meta[d] = cf(c);
        String units = c.attributes().text("units");
        CfCalendar calendar = null;
        if (units != null && CfTime.isTime(units)) {
          try {
            calendar = CfTime.of(units, c.attributes().text("calendar")).calendar();
          } catch (IllegalArgumentException e) {
            calendar = null; // carried as plain numbers, as the planner does
          }
        }
        kinds[d] = calendar == null ? Kind.NUMBER
            : calendar.instants() ? Kind.INSTANT : Kind.DATE_TEXT;
        dimTypes[d] = c.type();
      }
      String[] names = variables.toArray(new String[0]);
      ElementType[] types = new ElementType[names.length];
      for (int k = 0; k < types.length; k++) {
        Variable v = vs.get(k);
        if (!v.dimensions().equals(grid.dimensions())
            || !java.util.Arrays.equals(v.shape(), grid.shape())) {
          throw new InvalidSettingsException(name + ": " + v.name() + " lies on "
              + v.dimensions() + " " + java.util.Arrays.toString(v.shape()) + ", "
              + grid.name() + " on " + grid.dimensions() + " "
              + java.util.Arrays.toString(grid.shape()) + ": the variables of a table share "
              + "their dimensions; read " + v.name() + " apart");
        }
        meta[r + k] = cf(v);
        types[k] = decode ? CfDecoding.of(v, kind == ScienceFiles.Kind.NETCDF).decoded()
            : v.type();
      }
      return new TableColumns(dims, kinds, dimTypes, names, types, grid.shape(), meta);
    } catch (ScienceFormatException e) {
      throw new InvalidSettingsException(VariableSettings.VARIABLE + "=" + String.join(",",
          variables) + ": " + e.getMessage(), e);
    }
  }

  /** The first input opened: a file, or a store (Zarr). */
  private static final class Opened implements java.io.Closeable {
    final ScienceFile file;
    final java.io.Closeable resource;

    Opened(ScienceFile file, java.io.Closeable resource) {
      this.file = file;
      this.resource = resource;
    }

    @Override
    public void close() throws IOException {
      file.close();
      resource.close();
    }
  }

  private static Opened open(Configuration conf, FileStatus first, ScienceFiles.Kind kind)
      throws IOException {
    if (ScienceFiles.stores(kind)) {
      StoreInput in = StoreInput.open(conf, first, kind);
      return new Opened(in.file(), in);
    }
    FSDataInputStream in = first.getPath().getFileSystem(conf).open(first.getPath());
    try {
      return new Opened(ScienceFiles.open(Positioned.of(in, first.getLen()),
          first.getPath().toString(), kind), in);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /**
   * A column's metadata: the CF attributes of its variable that say what its values are
   * ({@link #CF_TEXT}), which a write of the column gives its variable again.
   */
  private static Metadata cf(Variable v) {
    MetadataBuilder b = new MetadataBuilder();
    for (String key : CF_TEXT) {
      String text = v.attributes().text(key);
      if (text != null) {
        b.putString(key, text);
      }
    }
    return b.build();
  }

  /** The attributes a column carries as metadata. */
  static final String[] CF_TEXT = {"units", "calendar", "long_name", "standard_name"};

  /**
   * The table's schema: the dimensions' columns, then the variables', each with its CF
   * attributes as metadata.
   */
  StructType schema() {
    StructType s = new StructType();
    for (int d = 0; d < dimensions.length; d++) {
      s = s.add(dimensions[d], dimensionType(d), false, metadata[d]);
    }
    for (int k = 0; k < variables.length; k++) {
      s = s.add(variables[k], ElementColumns.of(types[k]), true,
          metadata[dimensions.length + k]);
    }
    return s;
  }

  private DataType dimensionType(int d) {
    switch (kinds[d]) {
      case INSTANT:
        return DataTypes.TimestampType;
      case DATE_TEXT:
        return DataTypes.StringType;
      case NUMBER:
        return ElementColumns.of(dimensionTypes[d]);
      default:
        return DataTypes.LongType;
    }
  }

  int rank() {
    return dimensions.length;
  }

  String dimension(int d) {
    return dimensions[d];
  }

  Kind kind(int d) {
    return kinds[d];
  }

  /** The stored type of a {@link Kind#NUMBER} dimension's coordinate. */
  ElementType numberType(int d) {
    return dimensionTypes[d];
  }

  /** The dimension column named {@code name}, or -1. */
  int dimensionIndex(String name) {
    for (int d = 0; d < dimensions.length; d++) {
      if (dimensions[d].equals(name)) {
        return d;
      }
    }
    return -1;
  }

  /** The variables' names, in column order. */
  List<String> variables() {
    return List.of(variables);
  }

  /** The values' type of variable {@code name}. */
  ElementType type(String name) {
    return types[variables().indexOf(name)];
  }

  /** The first file's grid. */
  long[] shape() {
    return shape.clone();
  }

  /**
   * Refuses, naming the file and dimension, coordinates that do not fit this table's columns
   * (a time in another kind of calendar, a coordinate variable where the first file had none).
   */
  void check(String file, Coordinates coordinates) throws InvalidSettingsException {
    for (int d = 0; d < dimensions.length; d++) {
      Coordinates.Axis a = coordinates.axis(d);
      Kind k = !a.present() ? Kind.INDEX : a.time() == null ? Kind.NUMBER
          : a.time().calendar().instants() ? Kind.INSTANT : Kind.DATE_TEXT;
      if (k != kinds[d] || !a.name().equals(dimensions[d])) {
        throw new InvalidSettingsException(file + "'s dimension " + d + " (" + a.name() + ") "
            + "holds " + describe(k) + ", the first file's " + dimensions[d] + " "
            + describe(kinds[d]) + ": one column holds one kind; read them apart");
      }
    }
  }

  private static String describe(Kind k) {
    switch (k) {
      case INSTANT:
        return "times of a calendar of instants";
      case DATE_TEXT:
        return "times of an idealized calendar";
      case NUMBER:
        return "coordinate values";
      default:
        return "no coordinate variable";
    }
  }
}
