package org.opass.read.balance;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * One chunk read of a batch: a caller-chosen id, unique within the batch, and the DataNodes
 * (string ids) holding a replica of the chunk. Any tenant's read may be in the batch; two reads
 * of the same chunk are two reads.
 *
 * <p>Holders are de-duplicated (keeping the first occurrence) because a repeated holder is
 * harmless and must not count twice towards Algorithm 2's L. Their order is irrelevant to
 * the balancer, which canonicalizes it.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class ChunkRead {
  private final String id;
  private final List<String> holders;

  /**
   * @param id      the read's id; not null
   * @param holders the DataNodes holding a replica; not null, not empty, no null element
   */
  public ChunkRead(String id, List<String> holders) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(holders, () -> "holders of chunk read '" + id + "'");
    if (holders.isEmpty()) {
      throw new IllegalArgumentException("chunk read '" + id + "' has no replica holder");
    }
    Set<String> unique = new LinkedHashSet<>(holders.size() * 2);
    for (String h : holders) {
      if (h == null) {
        throw new IllegalArgumentException("chunk read '" + id + "' has a null replica holder");
      }
      unique.add(h);
    }
    holders = List.copyOf(unique);
    this.id = id;
    this.holders = holders;
  }

  public String id() {
    return id;
  }

  public List<String> holders() {
    return holders;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof ChunkRead)) {
      return false;
    }
    ChunkRead other = (ChunkRead) o;
    return Objects.equals(id, other.id)
        && Objects.equals(holders, other.holders);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, holders);
  }

  @Override
  public String toString() {
    return "ChunkRead["
        + "id=" + id
        + ", holders=" + holders
        + "]";
  }

  /** Convenience factory: {@code ChunkRead.of("r1", "dn1", "dn2")}. */
  public static ChunkRead of(String id, String... holders) {
    return new ChunkRead(id, holders == null ? null : Arrays.asList(holders));
  }
}
