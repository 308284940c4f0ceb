package org.opass.mrap.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.opass.mrap.plan.AccessSettings;
import org.opass.mrap.plan.InvalidSettingsException;
import org.opass.mrap.plan.MrapConf;
import org.opass.mrap.plan.VariableSettings;
import org.opass.mrap.science.ScienceFiles;

/**
 * The options of one read, checked on the driver before anything runs: the paths, and the
 * MRAP settings (a byte pattern, or a variable and slab, and {@code mrap.access.*}); any other
 * option is refused, naming it.
 * Immutable.
 */
final class ReadOptions {
  private final List<String> paths;
  private final Map<String, String> settings;

  private ReadOptions(List<String> paths, Map<String, String> settings) {
    this.paths = paths;
    this.settings = settings;
  }

  /**
   * @throws IllegalArgumentException naming an unknown option, a bad setting, or no path
   */
  static ReadOptions of(Map<String, String> options) {
    List<String> paths = new ArrayList<>();
    Map<String, String> settings = new TreeMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      String key = e.getKey();
      if (!MrapSource.ours(key)) {
        throw new IllegalArgumentException("mrap: unknown option '" + key + "': the source "
            + "takes the pattern's keys (" + String.join("*, ", MrapSource.PREFIXES) + "*) "
            + "and the paths; set Hadoop's own settings as spark.hadoop.* on the session");
      }
      if (key.equalsIgnoreCase("path")) {
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
    ReadOptions o = new ReadOptions(Collections.unmodifiableList(paths),
        Collections.unmodifiableMap(settings));
    Configuration alone = new Configuration(false);
    o.applyTo(alone);
    try { // what can be checked without a file system: unknown keys, the record size
      if (o.variable()) {
        VariableSettings.check(alone);
      } else {
        MrapConf.checkKeys(alone, "mrap.access.", AccessSettings.KEYS);
        AccessSettings.recordBytes(alone);
        for (String key : settings.keySet()) {
          if (key.startsWith("mrap.science.")) {
            throw new IllegalArgumentException("mrap: " + key + " names a variable: set "
                + VariableSettings.KIND + "=netcdf or hdf5 with it");
          }
        }
      }
    } catch (InvalidSettingsException e) {
      throw new IllegalArgumentException("mrap: " + e.getMessage(), e);
    }
    return o;
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

  /** Whether the read is of a NetCDF or HDF5 variable ({@code mrap.pattern.kind}). */
  boolean variable() {
    String kind = settings.get(VariableSettings.KIND);
    return kind != null && (kind.trim().equalsIgnoreCase(ScienceFiles.Kind.NETCDF.key())
        || kind.trim().equalsIgnoreCase(ScienceFiles.Kind.HDF5.key()));
  }

  /** Sets the MRAP settings on {@code conf}. */
  void applyTo(Configuration conf) {
    for (Map.Entry<String, String> e : settings.entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
  }
}
