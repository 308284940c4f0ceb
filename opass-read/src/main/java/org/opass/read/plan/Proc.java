package org.opass.read.plan;

import java.util.Objects;

/**
 * One parallel process (an MPI rank, a map task slot, a reader thread) and the host it runs on.
 * Named {@code Proc} so that it does not shadow {@link java.lang.Process}.
 *
 * @param id   caller's identifier, unique within one planning call
 * @param host the host as the storage names it (for HDFS: {@code BlockLocation#getHosts()},
 *             or {@code getNames()} if the chunks were built that way)
 */
public record Proc(int id, String host) {
  public Proc {
    Objects.requireNonNull(host, "host");
    if (host.isEmpty()) {
      throw new IllegalArgumentException("host of process " + id + " is empty");
    }
  }
}
