package org.opass.mrap.pattern;

/** A byte range of a file, {@code [offset, offset + length)}; immutable. */
public final class Region {
  private final long offset;
  private final long length;

  private Region(long offset, long length) {
    this.offset = offset;
    this.length = length;
  }

  /** @throws IllegalArgumentException for a negative offset or length, or an end past 2^63 */
  public static Region of(long offset, long length) {
    if (offset < 0 || length < 0 || offset > Long.MAX_VALUE - length) {
      throw new IllegalArgumentException("region [" + offset + ", +" + length + ") is not a "
          + "byte range of a file");
    }
    return new Region(offset, length);
  }

  public long offset() {
    return offset;
  }

  public long length() {
    return length;
  }

  /** One past the last byte. */
  public long end() {
    return offset + length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Region && ((Region) o).offset == offset && ((Region) o).length == length;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(offset) * 31 + Long.hashCode(length);
  }

  @Override
  public String toString() {
    return "[" + offset + ", " + end() + ")";
  }
}
