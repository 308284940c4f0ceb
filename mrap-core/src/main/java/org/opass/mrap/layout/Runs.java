package org.opass.mrap.layout;

/**
 * The current run of a layout's cursor, what {@link SegmentCursor}'s accessors give: the
 * cursors of {@link PackedLayout} and {@link TiledLayout} set it on each {@code next()}.
 */
abstract class Runs implements SegmentCursor {
  Segment.Kind kind;
  long logical;
  long physical;
  long length;

  @Override
  public Segment.Kind kind() {
    return kind;
  }

  @Override
  public long logical() {
    return logical;
  }

  @Override
  public long physical() {
    return physical;
  }

  @Override
  public long length() {
    return length;
  }
}
