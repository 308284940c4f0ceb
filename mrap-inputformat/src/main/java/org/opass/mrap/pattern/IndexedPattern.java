package org.opass.mrap.pattern;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;

/**
 * A list of regions given one by one (MPI's {@code MPI_Type_indexed}): any offsets and
 * lengths, kept sorted by offset (file order), overlaps allowed. Held as two primitive arrays,
 * 16 bytes a region.
 *
 * <p>Text form, inline or in a side file: {@code offset:length} items separated by commas or
 * line breaks (a side file may also use {@code offset length} lines and {@code #} comments).
 */
public final class IndexedPattern implements AccessPattern {
  private final long[] offsets;
  private final long[] lengths;
  private final long totalBytes;
  private final long end;

  private IndexedPattern(long[] offsets, long[] lengths) {
    this.offsets = offsets;
    this.lengths = lengths;
    long bytes = 0;
    long last = 0;
    for (int i = 0; i < offsets.length; i++) {
      bytes = Math.addExact(bytes, lengths[i]);
      last = Math.max(last, offsets[i] + lengths[i]);
    }
    this.totalBytes = bytes;
    this.end = last;
  }

  /**
   * @throws IllegalArgumentException naming the first bad region (index from 0 as given)
   */
  public static IndexedPattern of(long[] offsets, long[] lengths) {
    if (offsets.length != lengths.length) {
      throw new IllegalArgumentException(offsets.length + " offsets but " + lengths.length
          + " lengths");
    }
    if (offsets.length == 0) {
      throw new IllegalArgumentException("an indexed pattern needs at least one region");
    }
    for (int i = 0; i < offsets.length; i++) {
      check(i, offsets[i], lengths[i]);
    }
    Integer[] order = new Integer[offsets.length];
    boolean sorted = true;
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      sorted &= i == 0 || offsets[i - 1] <= offsets[i];
    }
    if (sorted) {
      return new IndexedPattern(offsets.clone(), lengths.clone());
    }
    Arrays.sort(order, (a, b) -> Long.compare(offsets[a], offsets[b])); // stable
    long[] o = new long[order.length];
    long[] l = new long[order.length];
    for (int i = 0; i < order.length; i++) {
      o[i] = offsets[order[i]];
      l[i] = lengths[order[i]];
    }
    return new IndexedPattern(o, l);
  }

  private static void check(long index, long offset, long length) {
    if (offset < 0 || length < 1 || offset > Long.MAX_VALUE - length) {
      throw new IllegalArgumentException("region " + index + " (offset " + offset + ", length "
          + length + ") needs offset >= 0 and length >= 1");
    }
  }

  /**
   * Parses the text form.
   *
   * @param source what to call the text in a message (a property name, a file)
   * @throws IllegalArgumentException naming the source, the line and the item
   */
  public static IndexedPattern parse(Reader text, String source) throws IOException {
    long[] o = new long[16];
    long[] l = new long[16];
    int n = 0;
    BufferedReader in = new BufferedReader(text);
    int lineNo = 0;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      lineNo++;
      int hash = line.indexOf('#');
      String body = (hash >= 0 ? line.substring(0, hash) : line).trim();
      if (body.isEmpty()) {
        continue;
      }
      for (String item : body.split(",")) {
        String t = item.trim();
        if (t.isEmpty()) {
          continue;
        }
        String[] parts = t.split("[:\\s]+");
        long off;
        long len;
        try {
          if (parts.length != 2) {
            throw new NumberFormatException();
          }
          off = Long.parseLong(parts[0]);
          len = Long.parseLong(parts[1]);
          check(n, off, len);
        } catch (IllegalArgumentException e) { // NumberFormatException is one too
          throw new IllegalArgumentException(source + " line " + lineNo + ": '" + t
              + "' is not offset:length with offset >= 0 and length >= 1");
        }
        if (n == o.length) {
          o = Arrays.copyOf(o, n * 2);
          l = Arrays.copyOf(l, n * 2);
        }
        o[n] = off;
        l[n] = len;
        n++;
      }
    }
    if (n == 0) {
      throw new IllegalArgumentException(source + " lists no region");
    }
    return of(Arrays.copyOf(o, n), Arrays.copyOf(l, n));
  }

  @Override
  public long regionCount() {
    return offsets.length;
  }

  @Override
  public long totalBytes() {
    return totalBytes;
  }

  @Override
  public long end() {
    return end;
  }

  /** Region {@code i} in file order. */
  public Region region(int i) {
    return Region.of(offsets[i], lengths[i]);
  }

  @Override
  public RegionCursor cursor(long from, long to) {
    AccessPattern.checkRange(from, to, offsets.length);
    return new RegionCursor() {
      private int i = (int) from - 1;

      @Override
      public boolean next() {
        if (i + 1 >= to) {
          return false;
        }
        i++;
        return true;
      }

      @Override
      public long offset() {
        return offsets[i];
      }

      @Override
      public long length() {
        return lengths[i];
      }
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IndexedPattern && Arrays.equals(((IndexedPattern) o).offsets, offsets)
        && Arrays.equals(((IndexedPattern) o).lengths, lengths);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(offsets) * 31 + Arrays.hashCode(lengths);
  }

  /** {@code indexed(n regions, <hash>)}: the regions are too many to print. */
  @Override
  public String toString() {
    return "indexed(" + offsets.length + " regions, " + totalBytes + " bytes, ends at " + end
        + ", hash " + Integer.toHexString(hashCode()) + ")";
  }
}
