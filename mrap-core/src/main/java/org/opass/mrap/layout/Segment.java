package org.opass.mrap.layout;

/**
 * A run of a restructured file: {@code length} bytes at {@code physical} in the file, holding
 * the original's bytes from {@code logical} (for {@link Kind#REGION} and {@link Kind#REST}),
 * or bytes of the file's own (its header, its trailer, or zeros). Immutable.
 */
public final class Segment {
  /** What a run of the physical file holds. */
  public enum Kind {
    /** Bytes of a region of the pattern. */
    REGION,
    /** Bytes of the original that no region names, filling holes and then following. */
    REST,
    /** Zeros: room in a chunk that no original byte was left to fill. */
    ZEROS,
    /** The file's header (the first bytes of chunk 0). */
    HEADER,
    /** The file's trailer (its layout, after the data). */
    TRAILER
  }

  private final Kind kind;
  private final long logical;
  private final long physical;
  private final long length;

  public Segment(Kind kind, long logical, long physical, long length) {
    if (physical < 0 || length < 1 || (hasLogical(kind) ? logical < 0 : logical != -1)) {
      throw new IllegalArgumentException(kind + " segment: logical " + logical + ", physical "
          + physical + ", length " + length);
    }
    this.kind = kind;
    this.logical = logical;
    this.physical = physical;
    this.length = length;
  }

  static boolean hasLogical(Kind kind) {
    return kind == Kind.REGION || kind == Kind.REST;
  }

  public Kind kind() {
    return kind;
  }

  /** Where the bytes are in the original file; -1 for the file's own bytes. */
  public long logical() {
    return logical;
  }

  public long physical() {
    return physical;
  }

  public long length() {
    return length;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Segment)) {
      return false;
    }
    Segment s = (Segment) o;
    return s.kind == kind && s.logical == logical && s.physical == physical
        && s.length == length;
  }

  @Override
  public int hashCode() {
    return kind.hashCode() * 31 + Long.hashCode(logical * 17 + physical * 7 + length);
  }

  @Override
  public String toString() {
    return kind + "(" + (hasLogical(kind) ? "logical " + logical + ", " : "") + "physical "
        + physical + ", " + length + " bytes)";
  }
}
