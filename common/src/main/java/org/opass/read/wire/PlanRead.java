package org.opass.read.wire;

import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * One read of a plan request: {@code reader} reads {@code [offset, offset+length)} of
 * {@code path}. The reader is a DataNode's host name or IP address, or the IP address of a host
 * that runs no DataNode. The client builds these; the NameNode parses them from the body.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class PlanRead {
  private final String path;
  private final String reader;
  private final long offset;
  private final long length;

  /**
   * @param length bytes to read; {@link Long#MAX_VALUE} for the rest of the file
   * @throws NullPointerException if path or reader is null
   * @throws IllegalArgumentException if offset or length is negative
   */
  public PlanRead(String path, String reader, long offset, long length) {
    this.path = Objects.requireNonNull(path, "path");
    this.reader = Objects.requireNonNull(reader, "reader");
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException("offset and length must be >= 0, got " + offset
          + " and " + length + " for " + path);
    }
    this.offset = offset;
    this.length = length;
  }

  /** The whole file. */
  public static PlanRead wholeFile(String path, String reader) {
    return new PlanRead(path, reader, 0, Long.MAX_VALUE);
  }

  public String path() {
    return path;
  }

  public String reader() {
    return reader;
  }

  public long offset() {
    return offset;
  }

  public long length() {
    return length;
  }

  /** End of the range, exclusive, saturating at {@link Long#MAX_VALUE}. */
  public long end() {
    return length > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + length;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof PlanRead)) {
      return false;
    }
    PlanRead other = (PlanRead) o;
    return path.equals(other.path) && reader.equals(other.reader) && offset == other.offset
        && length == other.length;
  }

  @Override
  public int hashCode() {
    return Objects.hash(path, reader, offset, length);
  }

  @Override
  public String toString() {
    return "PlanRead[path=" + path + ", reader=" + reader + ", offset=" + offset + ", length="
        + length + "]";
  }
}
