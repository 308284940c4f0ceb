package org.opass.read.plan;

import java.util.List;
import java.util.Objects;

/**
 * A data-processing task that reads several chunks (Opass §4.3, Fig. 1 right), for example a
 * sequence-matching task that reads one chunk of each of two files.
 *
 * @param id     caller's identifier, unique within one planning call
 * @param inputs the chunks the task reads; may be empty
 */
public record Task(int id, List<Chunk> inputs) {
  public Task {
    Objects.requireNonNull(inputs, "inputs");
    inputs = List.copyOf(inputs);
  }

  /** Total bytes the task reads. */
  public long bytes() {
    long b = 0;
    for (Chunk c : inputs) {
      b += c.length();
    }
    return b;
  }

  /** Bytes of this task's inputs that have a replica on {@code host} (m_i^j in Algorithm 1). */
  public long bytesOn(String host) {
    long b = 0;
    for (Chunk c : inputs) {
      if (c.isOn(host)) {
        b += c.length();
      }
    }
    return b;
  }
}
