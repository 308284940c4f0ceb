package org.opass.read.plan;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * Host to rack, for the rack-local fill of {@link EqualAssignment}. A {@code null} rack means
 * "unknown": an unknown rack never matches anything, so without rack information nothing is
 * counted rack-local (rather than everything, as a single default rack would).
 */
@FunctionalInterface
@InterfaceAudience.Public
@InterfaceStability.Evolving
public interface RackResolver {

  /** The rack of {@code host}, or {@code null} if unknown. */
  String rackOf(String host);

  /** No rack information. */
  static RackResolver none() {
    return host -> null;
  }

  /** Racks from a map; hosts missing from it are unknown. */
  static RackResolver of(Map<String, String> hostToRack) {
    Map<String, String> copy = Map.copyOf(Objects.requireNonNull(hostToRack, "hostToRack"));
    return copy::get;
  }

  /**
   * Reads the two-column file of Hadoop's {@code TableMapping}
   * ({@code net.topology.table.file.name}): one {@code HOST RACK} pair per line, separated by
   * white space; blank lines and lines starting with {@code #} are skipped. Unlike
   * {@code TableMapping}, a malformed line is an error, because a silently dropped host would
   * quietly turn rack-local reads into remote ones.
   *
   * @throws IllegalArgumentException naming the file and line of a malformed entry
   */
  static RackResolver fromTableFile(Path file) throws IOException {
    Map<String, String> map = new HashMap<>();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int no = 0;
      while ((line = r.readLine()) != null) {
        no++;
        line = line.trim();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] cols = line.split("\\s+");
        if (cols.length != 2) {
          throw new IllegalArgumentException(file + " line " + no
              + ": expected 'HOST RACK', got '" + line + "'");
        }
        map.put(cols[0], cols[1]);
      }
    }
    return of(map);
  }
}
