package org.opass.mrap.settings;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.opass.mrap.cf.Selection;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.science.ScienceFiles;

/**
 * The {@code mrap.science.*} settings of a read of scientific variables, checked before any file
 * is read into an immutable value ({@link #of}) that the planner takes, with the read's {@link
 * AccessSettings}; an engine may hand it a selection as a value ({@link #selecting}).
 * {@code VariableInputFormat}'s constants of the same names are these keys.
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
  /**
   * A series index ({@code bin/mrap index}) the files are planned from in place of their
   * headers: a folder in any file system.
   */
  public static final String INDEX = "mrap.science.index";
  /**
   * The settings of a job's output written as a dataset ({@code ScienceOutputFormat}), which
   * checks them: a job that reads variables may write one.
   */
  public static final String OUTPUT = "mrap.science.output.";
  /** Every setting under {@code mrap.science.} but {@value #OUTPUT}. */
  public static final List<String> KEYS = Arrays.asList(VARIABLE, SLAB, TILE, SELECT, DECODE,
      INDEX);
  /**
   * The settings that say what of a file is read: a copy given one restructures for it. The
   * others ({@value #DECODE}) only change how values are read, and leave a copy plain.
   */
  public static final List<String> SELECTING = Arrays.asList(VARIABLE, SLAB, TILE, SELECT);

  private final ScienceFiles.Kind kind;
  private final String variable;
  private final List<String> readWith;
  private final String slab; // null: the whole variable
  private final String tile; // null: a slab
  private final Selection selection; // null: by index
  private final boolean decode;
  private final String index; // null: each file's header
  private final AccessSettings access;

  private VariableSettings(VariableSettings s, String variable, List<String> readWith,
      Selection selection) {
    this.kind = s.kind;
    this.variable = variable;
    this.readWith = List.copyOf(readWith);
    this.slab = s.slab;
    this.tile = s.tile;
    this.selection = selection;
    this.decode = s.decode;
    this.index = s.index;
    this.access = s.access;
  }

  /** Checks the settings, in the order a user would mend them, as {@link #check} says. */
  private VariableSettings(Configuration conf) throws InvalidSettingsException {
    MrapConf.checkKeys(conf, "mrap.science.", KEYS, OUTPUT);
    MrapConf.checkKeys(conf, "mrap.access.", AccessSettings.KEYS);
    this.kind = kind(conf);
    String v = MrapConf.get(conf, VARIABLE);
    if (v == null || v.trim().isEmpty()) {
      throw new InvalidSettingsException(VARIABLE + " is not set: name the NetCDF variable or "
          + "HDF5 dataset to read");
    }
    this.variable = v.trim();
    this.readWith = List.of();
    this.slab = MrapConf.get(conf, SLAB);
    this.tile = MrapConf.get(conf, TILE);
    if (slab != null && tile != null) {
      throw new InvalidSettingsException(SLAB + " and " + TILE + " are both set: a job reads a "
          + "slab, or the whole variable a tile a task");
    }
    if (MrapConf.get(conf, SELECT) != null && (slab != null || tile != null)) {
      throw new InvalidSettingsException(SELECT + " and " + (slab != null ? SLAB : TILE)
          + " are both set: a job selects by coordinate values or by index, not both");
    }
    this.selection = selection(conf);
    this.decode = decode(conf);
    String i = MrapConf.get(conf, INDEX);
    this.index = i == null || i.trim().isEmpty() ? null : i.trim();
    this.access = AccessSettings.of(conf);
    if (access.recordBytes() % 8 != 0) {
      throw new InvalidSettingsException(AccessSettings.RECORD_BYTES + "="
          + access.recordBytes() + " must be a multiple of 8, so that a record holds whole "
          + "elements");
    }
  }

  /**
   * The settings of a read of {@code conf}, every one checked now, before any file is read
   * ({@link #check}); what the planners take instead of the configuration.
   *
   * @throws InvalidSettingsException naming the key at fault
   */
  public static VariableSettings of(Configuration conf) throws InvalidSettingsException {
    return new VariableSettings(conf);
  }

  /** These settings reading {@code name} instead of the variable the keys name. */
  public VariableSettings withVariable(String name) {
    return new VariableSettings(this, name, readWith, selection);
  }

  /**
   * These settings also reading, for each part of the grid, the variables {@code names} (each
   * with the same dimensions and shape as {@link #variable} in every file, read from files in
   * place).
   */
  public VariableSettings readingWith(List<String> names) {
    return new VariableSettings(this, variable, names, selection);
  }

  /**
   * These settings selecting {@code s} by coordinate values (null: by index) instead of what
   * {@value #SELECT} gives: a selection built from an engine's filters, handed over as a value.
   *
   * @throws InvalidSettingsException where {@code s} is given beside a slab or tiles
   */
  public VariableSettings selecting(Selection s) throws InvalidSettingsException {
    if (s != null && (slab != null || tile != null)) {
      throw new InvalidSettingsException(SELECT + " (" + s + ") and " + (slab != null ? SLAB
          : TILE) + " are both set: a read selects by coordinate values or by index, not both");
    }
    return new VariableSettings(this, variable, readWith, s);
  }

  /** What a job says its files are. */
  public ScienceFiles.Kind kind() {
    return kind;
  }

  /** The variable read ({@value #VARIABLE}), trimmed. */
  public String variable() {
    return variable;
  }

  /** The variables read with {@link #variable} on its grid; empty for a read of one. */
  public List<String> readWith() {
    return readWith;
  }

  /** The slab by index as given ({@value #SLAB}), or null: the whole variable. */
  public String slab() {
    return slab;
  }

  /** The tiles as given ({@value #TILE}), or null: a slab. */
  public String tile() {
    return tile;
  }

  /** The selection by coordinate values, or null: by index. */
  public Selection selection() {
    return selection;
  }

  /** Whether values are decoded as CF says ({@value #DECODE}). */
  public boolean decode() {
    return decode;
  }

  /** The series index the files are planned from ({@value #INDEX}), or null. */
  public String index() {
    return index;
  }

  /** The {@code mrap.access.*} settings of the read. */
  public AccessSettings access() {
    return access;
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
          + "a scientific format") + ": netcdf, hdf5 or zarr (byte patterns are read by "
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
    return of(conf).kind();
  }
}
