package org.opass.mrap.format;

import java.io.IOException;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;
import org.opass.mrap.array.Slab;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.RegionCursor;

/**
 * Reads a small variable whole, as doubles: a coordinate at planning. Regions less than {@link
 * #GAP} apart are read in one positioned read (a NetCDF-3 record variable's values lie one a
 * record apart), up to {@link #SPAN} bytes at once.
 */
public final class VariableValues {
  /** Most elements read this way: a coordinate, not a field. */
  public static final long MAX_ELEMENTS = 1L << 24;
  static final long GAP = 64 * 1024;
  static final long SPAN = 4L << 20;

  private VariableValues() {
  }

  /**
   * The stored values of {@code v} (C order), read through {@code in}.
   *
   * @throws ScienceFormatException naming the variable where it holds more than {@link
   *     #MAX_ELEMENTS} elements
   */
  public static double[] read(Positioned in, Variable v) throws IOException {
    long n = 1;
    for (long s : v.shape()) {
      n *= s;
      if (n > MAX_ELEMENTS) {
        throw new ScienceFormatException(v.file() + ": " + v + " has more than " + MAX_ELEMENTS
            + " elements, too many to read as a coordinate");
      }
    }
    double[] out = new double[(int) n];
    long[] shape = v.shape();
    Slab whole = Slab.whole(shape);
    ElementType t = v.type();
    SlabPlan.PieceSink sink = (origin, box, step, bytes, off, len) -> {
      int[] idx = new int[box.length];
      for (int at = off; at < off + len; at += t.size()) {
        long flat = 0;
        for (int d = 0; d < box.length; d++) {
          flat = flat * shape[d] + origin[d] + idx[d] * step[d];
        }
        out[(int) flat] = Elements.asDouble(bytes, at, t, v.order());
        for (int d = box.length - 1; d >= 0 && ++idx[d] == box[d]; d--) {
          idx[d] = 0;
        }
      }
    };
    SlabPlan plan = SlabPlan.of(v, whole, Long.MAX_VALUE);
    AccessPattern p = plan.pattern();
    if (p != null) {
      long k = 0;
      long count = p.regionCount();
      while (k < count) {
        // regions k..j-1 in one read
        long from = p.offsetOf(k);
        long j = k;
        long end = from;
        RegionCursor c = p.cursor(k, count);
        while (c.next()) {
          if (j > k && (c.offset() - end > GAP || c.offset() + c.length() - from > SPAN)) {
            break;
          }
          end = c.offset() + c.length();
          j++;
        }
        byte[] buf = new byte[(int) (end - from)];
        in.readFully(from, buf, 0, buf.length);
        RegionCursor r = p.cursor(k, j);
        while (r.next()) {
          int at = (int) (r.offset() - from);
          byte[] region = at == 0 && r.length() == buf.length ? buf
              : java.util.Arrays.copyOfRange(buf, at, at + (int) r.length());
          plan.pieces(r.offset(), region, region.length, sink);
        }
        k = j;
      }
    }
    if (v.chunked()) {
      plan.unwritten().forEach(v.chunkShape(), origin ->
          SlabPlan.fillPieces(v, whole, origin, sink));
    }
    return out;
  }
}
