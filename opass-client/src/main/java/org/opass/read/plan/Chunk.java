package org.opass.read.plan;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * One chunk (HDFS block) of input: a byte range of a file and the hosts that hold a replica.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class Chunk {
  private final int id;
  private final String path;
  private final long offset;
  private final long length;
  private final List<String> hosts;

  /**
   * @param id     caller's identifier, unique within one planning call
   * @param path   file the chunk belongs to (any string; HDFS paths in practice)
   * @param offset first byte of the chunk in the file, &ge; 0
   * @param length bytes in the chunk, &ge; 0
   * @param hosts  hosts holding a replica, without duplicates (duplicates are dropped, first
   *               occurrence kept, because a host reads its replica once however often listed);
   *               may be empty (a chunk with no live replica is never local)
   */
  public Chunk(int id, String path, long offset, long length, List<String> hosts) {
    Objects.requireNonNull(path, "path");
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0, got " + offset + " for " + path);
    }
    if (length < 0) {
      throw new IllegalArgumentException("length must be >= 0, got " + length + " for " + path);
    }
    Objects.requireNonNull(hosts, "hosts");
    for (int i = 0; i < hosts.size(); i++) {
      if (hosts.get(i) == null || hosts.get(i).isEmpty()) {
        throw new IllegalArgumentException("hosts[" + i + "] of chunk " + id + " is null or empty");
      }
    }
    hosts = List.copyOf(new LinkedHashSet<>(hosts));
    this.id = id;
    this.path = path;
    this.offset = offset;
    this.length = length;
    this.hosts = hosts;
  }

  public int id() {
    return id;
  }

  public String path() {
    return path;
  }

  public long offset() {
    return offset;
  }

  public long length() {
    return length;
  }

  public List<String> hosts() {
    return hosts;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof Chunk)) {
      return false;
    }
    Chunk other = (Chunk) o;
    return id == other.id
        && Objects.equals(path, other.path)
        && offset == other.offset
        && length == other.length
        && Objects.equals(hosts, other.hosts);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, path, offset, length, hosts);
  }

  @Override
  public String toString() {
    return "Chunk["
        + "id=" + id
        + ", path=" + path
        + ", offset=" + offset
        + ", length=" + length
        + ", hosts=" + hosts
        + "]";
  }

  /** Convenience for tests and examples. */
  public static Chunk of(int id, long length, String... hosts) {
    return new Chunk(id, "chunk-" + id, 0, length, List.of(hosts));
  }

  /** Whether {@code host} holds a replica of this chunk. */
  public boolean isOn(String host) {
    return hosts.contains(host);
  }
}
