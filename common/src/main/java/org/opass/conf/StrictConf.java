package org.opass.conf;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads the configuration keys of our plugins strictly: a value that does not parse or is out
 * of range is an {@link IllegalArgumentException} naming the key, never a silent default
 * (Hadoop's own {@code getBoolean} returns the default for "ture") or a bare
 * NumberFormatException.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class StrictConf {
  private StrictConf() {
  }

  public static int atLeast(Configuration conf, String key, int min, int defaultValue) {
    long v = atLeast(conf, key, (long) min, defaultValue);
    if (v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(key + " must be an integer >= " + min + " and <= "
          + Integer.MAX_VALUE + ", got '" + conf.getTrimmed(key) + "'");
    }
    return (int) v;
  }

  public static long atLeast(Configuration conf, String key, long min, long defaultValue) {
    String raw = conf.getTrimmed(key);
    if (raw == null) {
      return defaultValue;
    }
    try {
      long v = Long.parseLong(raw);
      if (v >= min) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(key + " must be an integer >= " + min + ", got '" + raw
        + "'");
  }

  public static double positive(Configuration conf, String key, double defaultValue) {
    String raw = conf.getTrimmed(key);
    if (raw == null) {
      return defaultValue;
    }
    try {
      double v = Double.parseDouble(raw);
      if (v > 0 && !Double.isNaN(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(key + " must be a number > 0, got '" + raw + "'");
  }

  public static boolean bool(Configuration conf, String key, boolean defaultValue) {
    String raw = conf.getTrimmed(key);
    if (raw == null) {
      return defaultValue;
    }
    if (raw.equalsIgnoreCase("true") || raw.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(raw);
    }
    throw new IllegalArgumentException(key + " must be true or false, got '" + raw + "'");
  }

  public static String oneOf(Configuration conf, String key, String defaultValue,
      String... allowed) {
    String v = conf.getTrimmed(key, defaultValue);
    for (String a : allowed) {
      if (a.equals(v)) {
        return v;
      }
    }
    throw new IllegalArgumentException(key + " must be one of " + String.join(", ", allowed)
        + ", got '" + v + "'");
  }
}
