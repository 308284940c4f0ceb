package org.opass.mrap.mapreduce;

import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.PatternException;

/** Hadoop glue of {@link PatternConfig}: the pattern a job's configuration describes. */
public final class MrapConf {
  private MrapConf() {
  }

  /**
   * Loads and checks the job's pattern (every {@code strided.*} and {@code mrap.pattern.*}
   * property; an indexed side file is read from its file system).
   *
   * @throws InvalidJobConfException naming the property at fault
   */
  public static PatternConfig pattern(Configuration conf) throws IOException {
    Map<String, String> props = new HashMap<>();
    for (String prefix : PatternConfig.PREFIXES) {
      for (Map.Entry<String, String> e : conf.getPropsWithPrefix(prefix).entrySet()) {
        props.put(prefix + e.getKey(), e.getValue());
      }
    }
    try {
      return PatternConfig.load(props, file -> {
        Path p = new Path(file);
        return new InputStreamReader(p.getFileSystem(conf).open(p), StandardCharsets.UTF_8);
      });
    } catch (PatternException e) {
      throw invalid(e);
    }
  }

  static InvalidJobConfException invalid(PatternException e) {
    InvalidJobConfException out = new InvalidJobConfException(e.getMessage());
    out.initCause(e);
    return out;
  }

  /** A non-negative byte count, or the default; a bad value names the key. */
  static long bytes(Configuration conf, String key, long dflt) throws InvalidJobConfException {
    String raw = conf.getTrimmed(key);
    if (raw == null) {
      return dflt;
    }
    try {
      long v = conf.getLongBytes(key, dflt);
      if (v >= 0) {
        return v;
      }
    } catch (IllegalArgumentException e) { // Hadoop's parse errors, NumberFormatException too
      // below
    }
    throw new InvalidJobConfException(key + "=" + raw + " must be a byte count >= 0 (k, m, g "
        + "suffixes allowed)");
  }
}
