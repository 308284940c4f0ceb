package org.opass.mrap.settings;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;
import org.opass.conf.StrictConf;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.PatternException;

/**
 * The pattern and settings a job's (or a read's) Hadoop configuration holds, checked: a bad value
 * is refused by an {@link InvalidSettingsException} naming its key.
 */
public final class MrapConf {
  private MrapConf() {
  }

  /**
   * Loads and checks the job's pattern (every {@code strided.*} and {@code mrap.pattern.*}
   * property; an indexed side file is read from its file system).
   *
   * @throws InvalidSettingsException naming the property at fault
   */
  public static PatternConfig pattern(Configuration conf) throws IOException {
    Map<String, String> props = properties(conf, PatternConfig.PREFIXES);
    try {
      return PatternConfig.load(props, file -> {
        Path p = new Path(file);
        try {
          return new InputStreamReader(p.getFileSystem(conf).open(p), StandardCharsets.UTF_8);
        } catch (FileNotFoundException | AccessControlException e) {
          throw new PatternException(PatternConfig.INDEXED_FILE, "=" + file + ": "
              + (e instanceof FileNotFoundException ? "no such file" : "not readable ("
              + firstLine(e.getMessage()) + ")"));
        } catch (IllegalArgumentException e) { // a path Hadoop cannot parse
          throw new PatternException(PatternConfig.INDEXED_FILE, "=" + file + ": "
              + e.getMessage());
        }
      });
    } catch (PatternException e) {
      throw invalid(e);
    }
  }

  /**
   * Every property of {@code conf} under {@code prefixes}, each value read as Hadoop reads it
   * (variables substituted).
   *
   * @throws InvalidSettingsException naming a property whose value Hadoop cannot read (a
   *     variable that refers to itself, say)
   */
  public static Map<String, String> properties(Configuration conf, String... prefixes)
      throws InvalidSettingsException {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, String> e : conf) { // raw values: nothing substituted yet
      String key = e.getKey();
      for (String prefix : prefixes) {
        if (key.startsWith(prefix)) {
          try {
            out.put(key, conf.get(key));
          } catch (IllegalStateException | IllegalArgumentException bad) {
            throw new InvalidSettingsException(key + "=" + StrictConf.shorten(e.getValue())
                + " cannot be read: " + bad.getMessage());
          }
          break;
        }
      }
    }
    return out;
  }

  /**
   * Refuses a property under {@code prefix} that is not one of {@code known}: a misspelt key
   * would otherwise be ignored.
   */
  public static void checkKeys(Configuration conf, String prefix, Collection<String> known)
      throws InvalidSettingsException {
    checkKeys(conf, prefix, known, null);
  }

  /**
   * As {@link #checkKeys(Configuration, String, Collection)}, but for the properties under
   * {@code others} (a prefix under {@code prefix}, or null): those are another component's
   * settings, checked by it.
   */
  public static void checkKeys(Configuration conf, String prefix, Collection<String> known,
      String others) throws InvalidSettingsException {
    for (String key : properties(conf, prefix).keySet()) {
      if (!known.contains(key) && (others == null || !key.startsWith(others))) {
        throw new InvalidSettingsException(key + " is not a setting; the " + prefix
            + "* settings are " + String.join(", ", new java.util.TreeSet<>(known)));
      }
    }
  }

  private static InvalidSettingsException invalid(PatternException e) {
    return new InvalidSettingsException(e.getMessage(), e);
  }

  /** A byte count of at least {@code min}, or the default; a bad value names the key. */
  public static long bytes(Configuration conf, String key, long dflt, long min)
      throws InvalidSettingsException {
    String raw = get(conf, key);
    try {
      return raw == null ? dflt : StrictConf.parseBytes(key, raw, min);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingsException(e.getMessage(), e);
    }
  }

  /** A whole number from {@code min} to {@code max}; a bad or missing value names the key. */
  public static long number(Configuration conf, String key, long min, long max)
      throws InvalidSettingsException {
    String raw = get(conf, key);
    try {
      return StrictConf.parseNumber(key, raw == null ? "" : raw, min, max);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingsException(e.getMessage(), e);
    }
  }

  /** A non-negative byte count, or the default; a bad value names the key. */
  public static long bytes(Configuration conf, String key, long dflt) throws InvalidSettingsException {
    return bytes(conf, key, dflt, 0);
  }

  /** One of {@code choices} (the first is the default); another value names the key. */
  public static String choice(Configuration conf, String key, String... choices)
      throws InvalidSettingsException {
    String raw = get(conf, key);
    if (raw == null) {
      return choices[0];
    }
    raw = raw.trim();
    for (String c : choices) {
      if (c.equals(raw)) {
        return c;
      }
    }
    throw new InvalidSettingsException(key + "=" + StrictConf.shorten(raw) + " must be "
        + String.join(" or ", choices));
  }

  /** A value as Hadoop reads it (variables substituted); one it cannot read names the key. */
  public static String get(Configuration conf, String key) throws InvalidSettingsException {
    try {
      return conf.get(key);
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new InvalidSettingsException(key + " cannot be read: " + e.getMessage());
    }
  }

  public static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
