package org.opass.mrap.format;

import java.io.IOException;
import java.util.Arrays;

/**
 * The chunks of a variable placed in other objects than its file ({@link Variable.Chunks#placed}:
 * a Zarr store's chunk files, a shard, the files a reference set points into) read as one file
 * of their addresses: a read of an address range is the reads of the chunks' objects it covers.
 * So the planner's regions, a coordinate read whole ({@link VariableValues}) and a task's reads
 * see chunks at addresses, wherever the bytes lie.
 */
public final class PlacedChunks {
  private PlacedChunks() {
  }

  /** Reads bytes of objects by name: a store's keys, or files' URIs. */
  public interface Objects {
    /** Reads exactly {@code len} bytes at {@code pos} of {@code object}. */
    void readFully(String object, long pos, byte[] b, int off, int len) throws IOException;
  }

  /**
   * {@code chunks} (placed) as a file of their addresses, read through {@code objects}. Bytes
   * at no chunk's address are refused: a read never strays into another object.
   */
  public static Positioned positioned(Variable.Chunks chunks, Objects objects) {
    if (!chunks.placed()) {
      throw new IllegalArgumentException("chunks in their variable's own file");
    }
    long[] starts = new long[chunks.count()];
    long end = 0;
    for (int i = 0; i < starts.length; i++) {
      starts[i] = chunks.address(i);
      end = Math.max(end, chunks.address(i) + chunks.size(i));
    }
    return Positioned.window((pos, b, off, len) -> {
      for (int done = 0; done < len; ) { // a chunk at a time: each from its object
        long at = pos + done;
        int i = Arrays.binarySearch(starts, at);
        i = i >= 0 ? i : -i - 2;
        if (i < 0 || at >= chunks.address(i) + chunks.size(i)) {
          throw new IOException("no chunk lies at address " + at + " of " + starts.length
              + " chunks placed in their objects");
        }
        long into = at - chunks.address(i);
        int n = (int) Math.min(len - done, chunks.size(i) - into);
        objects.readFully(chunks.object(i), chunks.objectOffset(i) + into, b, off + done, n);
        done += n;
      }
    }, 0, end);
  }
}
