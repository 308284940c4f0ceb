package org.opass.mrap.format;

import java.util.List;

/**
 * The filters a chunked variable's chunks went through when written, and how they decode: each
 * format gives its own ({@link FileFormat#filters}). Decoding is bounded: no stage may give more
 * than a chunk's bytes, so a damaged chunk costs memory bounded by the chunk, never by a number
 * read from it.
 */
public interface ChunkFilters {
  /** No filter: chunks are stored as they are. */
  ChunkFilters NONE = new ChunkFilters() {
    @Override
    public String format() {
      return "";
    }

    @Override
    public List<FilterSpec> specs() {
      return List.of();
    }

    @Override
    public byte[] decode(byte[] stored, int mask, long chunkBytes) {
      return stored;
    }

    @Override
    public String toString() {
      return "[]";
    }
  };

  /** The name of the format that decodes these filters ({@link FileFormat#name}). */
  String format();

  /** The filters, first applied first. */
  List<FilterSpec> specs();

  /**
   * A stored chunk's bytes as written before filtering.
   *
   * @param mask bit i set: filter i was skipped when this chunk was written
   * @param chunkBytes the chunk's bytes unfiltered
   * @throws ScienceFormatException naming the filter, where the chunk does not decode or would
   *     decode to more than a chunk
   */
  byte[] decode(byte[] stored, int mask, long chunkBytes);
}
