package org.opass.mrap.format;

import java.io.IOException;
import java.util.SortedMap;

/**
 * A store of named objects, the way a Zarr store keeps an array: its metadata and each chunk
 * under a key ({@code t2m/.zarray}, {@code t2m/0.1.2}), the objects being files of a folder in
 * HDFS, a local folder, or ranges of other files a reference set points to. A format of stores
 * ({@link FileFormat#open(ObjectStore, boolean)}) reads through this alone; the planner and the
 * tasks give it HDFS. Not for use by several threads at once.
 */
public interface ObjectStore extends PlacedChunks.Objects {
  /**
   * What the object of a value held inline (in a reference set) begins with, the key after
   * it: read through the store that holds it, at planning (a coordinate), not by a task.
   */
  String INLINE = "inline:";

  /** The store as messages name it (its path, as given). */
  String name();

  /**
   * The bytes of the object {@code key}, or null where the store has none.
   *
   * @throws ScienceFormatException naming the store and the key where it holds more than
   *     {@code max} bytes
   */
  byte[] get(String key, int max) throws IOException;

  /**
   * The objects whose keys begin with {@code prefix}, in key order, each with where its bytes
   * lie.
   */
  SortedMap<String, Place> list(String prefix) throws IOException;

  /**
   * Where a key's bytes lie: bytes {@code [offset, offset + length)} of {@code object}, a key
   * of the store itself (then offset 0 and its whole length) or another file's URI. An
   * immutable value.
   */
  final class Place {
    private final String object;
    private final long offset;
    private final long length;

    public Place(String object, long offset, long length) {
      if (offset < 0 || length < 0) {
        throw new IllegalArgumentException(object + ": " + length + " bytes at " + offset);
      }
      this.object = object;
      this.offset = offset;
      this.length = length;
    }

    public String object() {
      return object;
    }

    public long offset() {
      return offset;
    }

    public long length() {
      return length;
    }

    @Override
    public String toString() {
      return object + (offset == 0 ? "" : "@" + offset) + "+" + length;
    }
  }
}
