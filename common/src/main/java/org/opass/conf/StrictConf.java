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

  /**
   * {@code key}'s byte count ({@link #parseBytes}), or {@code defaultValue} where it is not set.
   *
   * @throws IllegalArgumentException naming the key and the value
   */
  public static long bytes(Configuration conf, String key, long min, long defaultValue) {
    String raw = conf.get(key);
    return raw == null ? defaultValue : parseBytes(key, raw, min);
  }

  /**
   * A byte count: ASCII digits, optionally with a binary suffix {@code k}, {@code m}, {@code g}
   * or {@code t} (any case; 1k is 1024), at least {@code min} and below 2^63. The one parser of
   * byte counts, for configuration keys, pattern files and command-line flags alike.
   *
   * @throws IllegalArgumentException whose message begins with {@code key=value}
   */
  public static long parseBytes(String key, String raw, long min) {
    String s = raw.trim();
    long scale = 1;
    String digits = s;
    char last = s.isEmpty() ? ' ' : Character.toLowerCase(s.charAt(s.length() - 1));
    int shift = "kmgt".indexOf(last);
    if (shift >= 0) {
      scale = 1L << (10 * (shift + 1));
      digits = s.substring(0, s.length() - 1).trim();
    }
    try {
      long v = Math.multiplyExact(parseDigits(digits), scale);
      if (v >= min) {
        return v;
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // below
    }
    throw new IllegalArgumentException(key + "=" + shorten(s) + " must be a byte count from "
        + min + " (ASCII digits, k, m, g or t suffix) below 2^63");
  }

  /**
   * A whole number in ASCII digits from {@code min} to {@code max}.
   *
   * @throws IllegalArgumentException whose message begins with {@code key=value}
   */
  public static long parseNumber(String key, String raw, long min, long max) {
    String s = raw.trim();
    try {
      long v = parseDigits(s);
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(key + "=" + shorten(s) + " must be a whole number from "
        + min + (max == Long.MAX_VALUE ? " below 2^63" : " to " + max) + " in ASCII digits");
  }

  /**
   * A whole number written in ASCII digits (no sign, no other script's digits).
   *
   * @throws NumberFormatException otherwise, or past 2^63 - 1
   */
  public static long parseDigits(String s) {
    if (s.isEmpty() || s.length() > 19) {
      throw new NumberFormatException(s);
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw new NumberFormatException(s);
      }
    }
    return Long.parseLong(s); // 19 digits may still overflow: NumberFormatException
  }

  /** At most 80 characters of {@code s}, for a message. */
  public static String shorten(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
