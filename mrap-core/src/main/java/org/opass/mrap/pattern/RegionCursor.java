package org.opass.mrap.pattern;

/**
 * Walks regions in file order without an object per region: {@code while (c.next()) {
 * read(c.offset(), c.length()); }}. Not thread-safe; one cursor per reader.
 */
public interface RegionCursor {
  /** Moves to the next region; false when there is none. */
  boolean next();

  /** Offset of the current region. */
  long offset();

  /** Length of the current region. */
  long length();
}
