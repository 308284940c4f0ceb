package org.opass.mrap.format;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The chunks of a slab that were never written (they read as the fill value), held in a size
 * bounded by the chunks that were: the box of the chunk grid the slab spans ({@code first},
 * {@code count} chunks per dimension) and the runs of it, in C order, that no stored chunk
 * covers. An immutable value; chunks are given one at a time, never listed.
 */
public final class UnwrittenChunks {
  private final long[] first;
  private final long[] count;
  private final long[] runs; // from, to (exclusive) pairs over the box's C-order index

  private UnwrittenChunks(long[] first, long[] count, long[] runs) {
    this.first = first;
    this.count = count;
    this.runs = runs;
  }

  /**
   * @param runs pairs {@code from, to} of box indices in C order, ascending and disjoint
   * @throws IllegalArgumentException naming the value at fault
   */
  public static UnwrittenChunks of(long[] first, long[] count, long[] runs) {
    if (first.length != count.length || runs.length % 2 != 0) {
      throw new IllegalArgumentException("a box of " + first.length + " and " + count.length
          + " dimensions, " + runs.length + " run bounds");
    }
    long total = 1;
    for (int d = 0; d < count.length; d++) {
      if (first[d] < 0 || count[d] < 0) {
        throw new IllegalArgumentException("dimension " + d + ": a box from chunk " + first[d]
            + " of " + count[d] + " chunks");
      }
      total = count[d] == 0 ? 0 : Math.multiplyExact(total, count[d]);
    }
    long last = 0;
    for (int i = 0; i < runs.length; i += 2) {
      if (runs[i] < last || runs[i + 1] <= runs[i] || runs[i + 1] > total) {
        throw new IllegalArgumentException("run " + i / 2 + " [" + runs[i] + ", " + runs[i + 1]
            + ") of a box of " + total + " chunks");
      }
      last = runs[i + 1];
    }
    return new UnwrittenChunks(first.clone(), count.clone(), runs.clone());
  }

  /** No chunk left unwritten. */
  public static UnwrittenChunks none(int rank) {
    return new UnwrittenChunks(new long[rank], new long[rank], new long[0]);
  }

  /**
   * The chunks of the box {@code first, count} not among {@code stored} (box indices in C order,
   * any order, repeats allowed).
   */
  static UnwrittenChunks complement(long[] first, long[] count, long[] stored) {
    long total = 1;
    for (long c : count) {
      total = Math.multiplyExact(total, c);
    }
    long[] s = stored.clone();
    Arrays.sort(s);
    long[] runs = new long[2 * (s.length + 1)];
    int n = 0;
    long from = 0;
    for (long i : s) {
      if (i > from) {
        runs[n++] = from;
        runs[n++] = i;
      }
      from = Math.max(from, i + 1);
    }
    if (from < total) {
      runs[n++] = from;
      runs[n++] = total;
    }
    return of(first, count, Arrays.copyOf(runs, n));
  }

  public boolean isEmpty() {
    return runs.length == 0;
  }

  public long[] first() {
    return first.clone();
  }

  public long[] count() {
    return count.clone();
  }

  public long[] runs() {
    return runs.clone();
  }

  /** Chunks never written, counted (the box's unstored chunks, selected or not). */
  public long chunks() {
    long n = 0;
    for (int i = 0; i < runs.length; i += 2) {
      n += runs[i + 1] - runs[i];
    }
    return n;
  }

  /** Gives each unwritten chunk's origin (the array index of its first element), in C order. */
  public void forEach(int[] chunkShape, Consumer<long[]> origin) {
    int n = first.length;
    for (int r = 0; r < runs.length; r += 2) {
      for (long i = runs[r]; i < runs[r + 1]; i++) {
        long[] o = new long[n];
        long rem = i;
        for (int d = n - 1; d >= 0; d--) {
          o[d] = (first[d] + rem % count[d]) * chunkShape[d];
          rem /= count[d];
        }
        origin.accept(o);
      }
    }
  }

  @Override
  public String toString() {
    return chunks() + " chunks never written in a box of " + Arrays.toString(count)
        + " from " + Arrays.toString(first);
  }
}
