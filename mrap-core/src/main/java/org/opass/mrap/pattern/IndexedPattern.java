package org.opass.mrap.pattern;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.Arrays;
import org.opass.conf.StrictConf;

/**
 * A list of regions given one by one (MPI's {@code MPI_Type_indexed}): any offsets and
 * lengths, kept sorted by offset (file order), overlaps allowed. Held as two primitive arrays
 * (offsets, and the bytes before each region laid end to end), 16 bytes a region; lookups are
 * binary searches.
 *
 * <p>Text form, inline or in a side file: {@code offset:length} items separated by commas or
 * line breaks (a side file may also use {@code offset length} lines and {@code #} comments).
 */
public final class IndexedPattern implements AccessPattern {
  private final long[] offsets;
  /** before[i]: bytes of regions [0, i); before[n] is the total. */
  private final long[] before;
  private final long end;
  private final boolean disjoint;
  private volatile StridedPattern strided; // the canonical form, if the list is a vector
  private volatile boolean stridedKnown;

  private IndexedPattern(long[] offsets, long[] lengths) {
    this.offsets = offsets;
    this.before = new long[offsets.length + 1];
    long last = 0;
    boolean apart = true;
    for (int i = 0; i < offsets.length; i++) {
      try {
        before[i + 1] = Math.addExact(before[i], lengths[i]);
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("the regions add up to more than 2^63 bytes (at "
            + "region " + i + ")");
      }
      apart &= offsets[i] >= last;
      last = Math.max(last, offsets[i] + lengths[i]);
    }
    this.end = last;
    this.disjoint = apart;
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
    boolean sorted = true;
    for (int i = 0; i < offsets.length; i++) {
      check(i, offsets[i], lengths[i]);
      sorted &= i == 0 || offsets[i - 1] <= offsets[i];
    }
    if (sorted) {
      return new IndexedPattern(offsets.clone(), lengths.clone());
    }
    Integer[] order = new Integer[offsets.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
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
          + length + ") needs offset >= 0, length >= 1 and an end within 2^63");
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
      String[] items = body.split(",", -1);
      for (int k = 0; k < items.length; k++) {
        String t = items[k].trim();
        if (t.isEmpty() && k == items.length - 1 && k > 0) {
          continue; // a line may end with the comma before the next line's items
        }
        String[] parts = t.split("[:\\s]+", -1);
        long off;
        long len;
        try {
          if (parts.length != 2) {
            throw new NumberFormatException();
          }
          off = StrictConf.parseDigits(parts[0]);
          len = StrictConf.parseDigits(parts[1]);
          check(n, off, len);
        } catch (IllegalArgumentException e) { // NumberFormatException is one too
          throw new IllegalArgumentException(source + " line " + lineNo + ": '"
              + PatternConfig.shorten(t) + "' is not offset:length with offset >= 0 and length "
              + ">= 1");
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
    return before[offsets.length];
  }

  @Override
  public long end() {
    return end;
  }

  /** Region {@code i} in file order. */
  public Region region(int i) {
    return Region.of(offsets[i], length(i));
  }

  private long length(int i) {
    return before[i + 1] - before[i];
  }

  @Override
  public long offsetOf(long k) {
    AccessPattern.checkRange(k, k + 1, offsets.length);
    return offsets[(int) k];
  }

  @Override
  public long bytesBefore(long k) {
    AccessPattern.checkRange(0, k, offsets.length);
    return before[(int) k];
  }

  @Override
  public long regionOfByte(long b) {
    if (b >= totalBytes()) {
      return offsets.length;
    }
    int i = Arrays.binarySearch(before, 0, offsets.length, Math.max(0, b));
    // equal: region i starts there (the first of equal keys cannot occur: lengths >= 1)
    return i >= 0 ? i : -i - 2;
  }

  @Override
  public long firstAtOrAfter(long offset) {
    int lo = 0;
    int hi = offsets.length;
    while (lo < hi) { // the first index whose offset is >= offset
      int mid = (lo + hi) >>> 1;
      if (offsets[mid] < offset) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public long bytesBelow(long offset) {
    int i = (int) firstAtOrAfter(offset); // regions [0, i) start below the offset
    if (disjoint) { // regions before i - 1 end before it starts
      return i == 0 ? 0 : before[i - 1] + Math.min(length(i - 1), offset - offsets[i - 1]);
    }
    long b = 0;
    for (int k = 0; k < i; k++) {
      b += Math.min(length(k), offset - offsets[k]);
    }
    return b;
  }

  @Override
  public boolean disjoint() {
    return disjoint;
  }

  /** The list as a vector (one size, one stride) when it is one; null otherwise. */
  @Override
  public StridedPattern asStrided() {
    if (!stridedKnown) {
      StridedPattern s = null;
      long size = length(0);
      long stride = offsets.length > 1 ? offsets[1] - offsets[0] : size;
      boolean regular = stride >= size;
      for (int i = 1; regular && i < offsets.length; i++) {
        regular = length(i) == size && offsets[i] - offsets[i - 1] == stride;
      }
      if (regular) {
        s = StridedPattern.byStride(offsets[0], size, new long[] {stride},
            new long[] {offsets.length});
      }
      strided = s;
      stridedKnown = true;
    }
    return strided;
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
        return before[i + 1] - before[i];
      }
    };
  }

  @Override
  public boolean equals(Object o) {
    if (o instanceof IndexedPattern) {
      return Arrays.equals(((IndexedPattern) o).offsets, offsets)
          && Arrays.equals(((IndexedPattern) o).before, before);
    }
    return o instanceof AccessPattern && asStrided() != null && asStrided().equals(o);
  }

  @Override
  public int hashCode() {
    return asStrided() != null ? asStrided().hashCode()
        : Arrays.hashCode(offsets) * 31 + Arrays.hashCode(before);
  }

  /** {@code indexed(n regions, <hash>)}: the regions are too many to print. */
  @Override
  public String toString() {
    return "indexed(" + offsets.length + " regions, " + totalBytes() + " bytes, ends at " + end
        + ", hash " + Integer.toHexString(hashCode()) + ")";
  }
}
