package org.opass.mrap.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.AccessSettings;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.VariableSettings;

/**
 * The options of one read, checked on the driver before anything runs: the paths, and the
 * MRAP settings (a byte pattern, or a variable and slab, and {@code mrap.access.*}); any other
 * option is refused, naming it. The source's own two, {@value #LAYOUT} and {@value #VARIABLES},
 * are not mrap-core's: they shape the rows, and {@link #applyTo} leaves them out.
 * Immutable.
 */
final class ReadOptions {
  /** {@code arrays} (the default: a row a piece) or {@code table} (a row a grid point). */
  static final String LAYOUT = "mrap.science.layout";
  /** The variables of a table, comma-separated, read together on one grid. */
  static final String VARIABLES = "mrap.science.variables";
  private final List<String> paths;
  private final Map<String, String> settings;
  private final boolean table;
  private final List<String> variables; // of a table, else empty

  private ReadOptions(List<String> paths, Map<String, String> settings, boolean table,
      List<String> variables) {
    this.paths = paths;
    this.settings = settings;
    this.table = table;
    this.variables = variables;
  }

  /**
   * @throws IllegalArgumentException naming an unknown option, a bad setting, or no path
   */
  static ReadOptions of(Map<String, String> options) {
    List<String> paths = new ArrayList<>();
    Map<String, String> settings = new TreeMap<>();
    Map<String, String> own = new TreeMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String key = e.getKey();
      if (!MrapSource.ours(key)) {
        throw new IllegalArgumentException("mrap: unknown option '" + key + "': the source "
            + "takes the pattern's keys (" + String.join("*, ", MrapSource.PREFIXES) + "*) "
            + "and the paths; set Hadoop's own settings as spark.hadoop.* on the session");
      }
      if (key.equalsIgnoreCase(LAYOUT) || key.equalsIgnoreCase(VARIABLES)) {
        own.put(key.toLowerCase(java.util.Locale.ROOT), e.getValue());
      } else if (key.equalsIgnoreCase("path")) {
        paths.add(e.getValue());
      } else if (key.equalsIgnoreCase("paths")) {
        paths.addAll(parsePaths(e.getValue()));
      } else {
        settings.put(key, e.getValue());
      }
    }
    if (paths.isEmpty()) {
      throw new IllegalArgumentException("mrap: name the files to read: .load(path) or "
          + ".load(path1, path2, ...)");
    }
    boolean table = table(own.get(LAYOUT));
    List<String> variables = variables(own.get(VARIABLES), settings, table);
    if (!variables.isEmpty()) {
      settings.put(VariableSettings.VARIABLE, variables.get(0));
    }
    ReadOptions o = new ReadOptions(Collections.unmodifiableList(paths),
        Collections.unmodifiableMap(settings), table, variables);
    if (table && !o.variable()) {
      throw new IllegalArgumentException("mrap: " + LAYOUT + "=table reads NetCDF or HDF5 "
          + "variables: set " + VariableSettings.KIND + "=netcdf, hdf5 or zarr with it");
    }
    if (table && settings.containsKey(VariableSettings.TILE)) {
      throw new IllegalArgumentException("mrap: " + LAYOUT + "=table and "
          + VariableSettings.TILE + " are both set: a table is read by its grid's parts, not "
          + "by tiles; leave " + VariableSettings.TILE + " out");
    }
    Configuration alone = new Configuration(false);
    o.applyTo(alone);
    try { // what can be checked without a file system: unknown keys, the record size
      if (o.variable()) {
        VariableSettings.check(alone);
      } else {
        AccessSettings.of(alone);
        for (String key : settings.keySet()) {
          if (key.startsWith("mrap.science.")) {
            throw new IllegalArgumentException("mrap: " + key + " names a variable: set "
                + VariableSettings.KIND + "=netcdf, hdf5 or zarr with it");
          }
        }
      }
    } catch (InvalidSettingsException e) {
      throw new IllegalArgumentException("mrap: " + e.getMessage(), e);
    }
    return o;
  }

  private static boolean table(String layout) {
    if (layout == null || layout.trim().equalsIgnoreCase("arrays")) {
      return false;
    }
    if (layout.trim().equalsIgnoreCase("table")) {
      return true;
    }
    throw new IllegalArgumentException("mrap: " + LAYOUT + "=" + layout + " is neither arrays "
        + "(a row a piece of a variable) nor table (a row a grid point)");
  }

  /** The table's variables: {@value #VARIABLES}, or the one {@code mrap.science.variable}. */
  private static List<String> variables(String list, Map<String, String> settings,
      boolean table) {
    if (list == null) {
      String one = settings.get(VariableSettings.VARIABLE);
      return table && one != null ? List.of(one.trim()) : List.of();
    }
    if (!table) {
      throw new IllegalArgumentException("mrap: " + VARIABLES + " reads several variables "
          + "into one table: set " + LAYOUT + "=table with it (the arrays layout reads one, "
          + VariableSettings.VARIABLE + ")");
    }
    if (settings.containsKey(VariableSettings.VARIABLE)) {
      throw new IllegalArgumentException("mrap: " + VARIABLES + " and "
          + VariableSettings.VARIABLE + " are both set: name the table's variables once, in "
          + VARIABLES);
    }
    List<String> out = new ArrayList<>();
    for (String v : list.split(",", -1)) {
      String name = v.trim();
      if (name.isEmpty()) {
        throw new IllegalArgumentException("mrap: " + VARIABLES + "=" + list + " names an "
            + "empty variable: give names, comma-separated");
      }
      if (out.contains(name)) {
        throw new IllegalArgumentException("mrap: " + VARIABLES + "=" + list + " names " + name
            + " twice");
      }
      out.add(name);
    }
    return Collections.unmodifiableList(out);
  }

  /** Whether rows are grid points ({@value #LAYOUT}{@code =table}). */
  boolean table() {
    return table;
  }

  /** The table's variables, in column order; empty for the arrays layout. */
  List<String> variables() {
    return variables;
  }

  /** A MRAP setting as given, or null. */
  String setting(String key) {
    return settings.get(key);
  }

  private static List<String> parsePaths(String json) {
    try {
      String[] p = new ObjectMapper().readValue(json, String[].class);
      List<String> out = new ArrayList<>();
      Collections.addAll(out, p);
      return out;
    } catch (IOException e) {
      throw new IllegalArgumentException("mrap: option 'paths' is not a JSON list of paths: "
          + json, e);
    }
  }

  List<String> paths() {
    return paths;
  }

  /** Whether the read is of a NetCDF, HDF5 or Zarr variable ({@code mrap.pattern.kind}). */
  boolean variable() {
    String kind = settings.get(VariableSettings.KIND);
    if (kind == null) {
      return false;
    }
    for (ScienceFiles.Kind k : ScienceFiles.Kind.values()) {
      if (kind.trim().equalsIgnoreCase(k.key())) {
        return true;
      }
    }
    return false;
  }

  /** Sets the MRAP settings on {@code conf}. */
  void applyTo(Configuration conf) {
    for (Map.Entry<String, String> e : settings.entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
  }
}
