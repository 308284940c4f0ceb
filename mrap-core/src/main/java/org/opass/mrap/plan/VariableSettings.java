package org.opass.mrap.plan;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.opass.mrap.cf.Selection;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.science.ScienceFiles;

/**
 * The {@code mrap.science.*} settings of a read of scientific variables, and their check before
 * any file is read. {@code VariableInputFormat}'s constants of the same names are these.
 */
public final class VariableSettings {
  public static final String KIND = PatternConfig.KIND;
  public static final String VARIABLE = "mrap.science.variable";
  public static final String SLAB = "mrap.science.slab";
  /** Per dimension a tile extent or {@code *}: a task a tile instead of a slab. */
  public static final String TILE = "mrap.science.tile";
  /**
   * Per dimension a range of coordinate values or one value ({@link Selection}): the slab of
   * each file, from its own coordinates.
   */
  public static final String SELECT = "mrap.science.select";
  /** Whether values are decoded as CF says ({@link org.opass.mrap.cf.CfDecoding}). */
  public static final String DECODE = "mrap.science.decode";
  public static final boolean DECODE_DEFAULT = true;
  /** Every setting under {@code mrap.science.}. */
  public static final List<String> KEYS = Arrays.asList(VARIABLE, SLAB, TILE, SELECT, DECODE);
  /**
   * The settings that say what of a file is read: a copy given one restructures for it. The
   * others ({@value #DECODE}) only change how values are read, and leave a copy plain.
   */
  public static final List<String> SELECTING = Arrays.asList(VARIABLE, SLAB, TILE, SELECT);

  private VariableSettings() {
  }

  /** The job's kind, checked: a bad value or a byte-pattern key beside it names the key. */
  public static ScienceFiles.Kind kind(Configuration conf) throws InvalidSettingsException {
    String k = MrapConf.get(conf, KIND);
    ScienceFiles.Kind kind = null;
    for (ScienceFiles.Kind c : ScienceFiles.Kind.values()) {
      if (k != null && c.key().equals(k.trim().toLowerCase(Locale.ROOT))) {
        kind = c;
      }
    }
    if (kind == null) {
      throw new InvalidSettingsException(KIND + (k == null ? " is not set" : "=" + k + " is not "
          + "a scientific format") + ": netcdf or hdf5 (byte patterns are read by "
          + "AccessInputFormat)");
    }
    for (Map.Entry<String, String> e : MrapConf.properties(conf, PatternConfig.PREFIXES)
        .entrySet()) {
      if (!e.getKey().equals(KIND)) {
        throw new InvalidSettingsException(e.getKey() + " does not apply to " + KIND + "="
            + kind.key() + ": name the variable (" + VARIABLE + ") and the slab (" + SLAB
            + ") instead of bytes");
      }
    }
    return kind;
  }

  /** The selection by value, or null where none is set. */
  public static Selection selection(Configuration conf) throws InvalidSettingsException {
    String text = MrapConf.get(conf, SELECT);
    if (text == null) {
      return null;
    }
    try {
      return Selection.parse(text);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingsException(SELECT + "=" + text + ": " + e.getMessage(), e);
    }
  }

  /** Whether values are decoded ({@value #DECODE}, default true). */
  public static boolean decode(Configuration conf) throws InvalidSettingsException {
    String v = MrapConf.get(conf, DECODE);
    if (v == null) {
      return DECODE_DEFAULT;
    }
    if (!v.trim().equalsIgnoreCase("true") && !v.trim().equalsIgnoreCase("false")) {
      throw new InvalidSettingsException(DECODE + "=" + v + " is neither true nor false");
    }
    return Boolean.parseBoolean(v.trim());
  }

  /**
   * Checks the settings a job can check before it reads a file: the kind, the variable named,
   * no byte-pattern key, no unknown {@code mrap.science.} or {@code mrap.access.} key, the
   * record size.
   *
   * @throws InvalidSettingsException naming the key at fault
   */
  public static ScienceFiles.Kind check(Configuration conf)
      throws InvalidSettingsException {
    MrapConf.checkKeys(conf, "mrap.science.", KEYS);
    MrapConf.checkKeys(conf, "mrap.access.", AccessSettings.KEYS);
    ScienceFiles.Kind kind = kind(conf);
    String variable = MrapConf.get(conf, VARIABLE);
    if (variable == null || variable.trim().isEmpty()) {
      throw new InvalidSettingsException(VARIABLE + " is not set: name the NetCDF variable or "
          + "HDF5 dataset to read");
    }
    if (MrapConf.get(conf, SLAB) != null && MrapConf.get(conf, TILE) != null) {
      throw new InvalidSettingsException(SLAB + " and " + TILE + " are both set: a job reads a "
          + "slab, or the whole variable a tile a task");
    }
    if (MrapConf.get(conf, SELECT) != null) {
      for (String other : new String[] {SLAB, TILE}) {
        if (MrapConf.get(conf, other) != null) {
          throw new InvalidSettingsException(SELECT + " and " + other + " are both set: a job "
              + "selects by coordinate values or by index, not both");
        }
      }
      selection(conf);
    }
    decode(conf);
    long record = AccessSettings.recordBytes(conf);
    if (record % 8 != 0) {
      throw new InvalidSettingsException(AccessSettings.RECORD_BYTES + "=" + record + " must "
          + "be a multiple of 8, so that a record holds whole elements");
    }
    return kind;
  }
}
