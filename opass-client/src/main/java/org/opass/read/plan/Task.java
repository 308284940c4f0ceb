package org.opass.read.plan;

import java.util.List;
import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * A data-processing task that reads several chunks (Opass §4.3, Fig. 1 right), for example a
 * sequence-matching task that reads one chunk of each of two files.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class Task {
  private final int id;
  private final List<Chunk> inputs;

  /**
   * @param id     caller's identifier, unique within one planning call
   * @param inputs the chunks the task reads; may be empty
   */
  public Task(int id, List<Chunk> inputs) {
    Objects.requireNonNull(inputs, "inputs");
    inputs = List.copyOf(inputs);
    this.id = id;
    this.inputs = inputs;
  }

  public int id() {
    return id;
  }

  public List<Chunk> inputs() {
    return inputs;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Task)) {
      return false;
    }
    Task other = (Task) o;
    return id == other.id
        && Objects.equals(inputs, other.inputs);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, inputs);
  }

  @Override
  public String toString() {
    return "Task["
        + "id=" + id
        + ", inputs=" + inputs
        + "]";
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
