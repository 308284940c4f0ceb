package org.opass.mrap.layout;

/**
 * Walks segments without an object per segment: {@code while (c.next()) { ...
 * c.physical() ... }}. Not thread-safe; one cursor per reader or writer.
 */
public interface SegmentCursor {
  /** Moves to the next segment; false when there is none. */
  boolean next();

  Segment.Kind kind();

  /** Where the current segment's bytes are in the original file; -1 for the file's own. */
  long logical();

  long physical();

  long length();

  /** The current segment as a value. */
  default Segment segment() {
    return new Segment(kind(), logical(), physical(), length());
  }
}
