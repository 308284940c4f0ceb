package org.opass.read.plan;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/** Where a process reads a chunk from, seen from the process. */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public enum Locality {
  /** A replica is on the process's own host. */
  LOCAL,
  /** No replica on the host, but one in the same rack. */
  RACK_LOCAL,
  /** Every replica is in another rack (or the racks are unknown). */
  REMOTE;

  /** Lower-case name with a dash, as printed and written to JSON. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
