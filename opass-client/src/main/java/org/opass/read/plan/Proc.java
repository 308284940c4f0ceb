package org.opass.read.plan;

import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * One parallel process (an MPI rank, a map task slot, a reader thread) and the host it runs on.
 * Named {@code Proc} so that it does not shadow {@link java.lang.Process}.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class Proc {
  private final int id;
  private final String host;

  /**
   * @param id   caller's identifier, unique within one planning call
   * @param host the host as the storage names it (for HDFS: {@code BlockLocation#getHosts()},
   *             or {@code getNames()} if the chunks were built that way)
   */
  public Proc(int id, String host) {
    Objects.requireNonNull(host, "host");
    if (host.isEmpty()) {
      throw new IllegalArgumentException("host of process " + id + " is empty");
    }
    this.id = id;
    this.host = host;
  }

  public int id() {
    return id;
  }

  public String host() {
    return host;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Proc)) {
      return false;
    }
    Proc other = (Proc) o;
    return id == other.id
        && Objects.equals(host, other.host);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, host);
  }

  @Override
  public String toString() {
    return "Proc["
        + "id=" + id
        + ", host=" + host
        + "]";
  }
}
