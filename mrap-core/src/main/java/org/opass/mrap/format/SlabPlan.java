package org.opass.mrap.format;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.opass.mrap.array.IndexRange;
import org.opass.mrap.array.Slab;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.IndexedPattern;
import org.opass.mrap.pattern.StridedPattern;

/**
 * A slab of a variable as MRAP's pattern model: the regions of the file to read, in file order,
 * and how each region read becomes {@link Piece}s of the array. No Hadoop types.
 *
 * <p>Strided storage: the regions are the slab's contiguous runs (a nested strided pattern,
 * runs of whole rows joined up to {@code maxRegion} bytes); each region is one dense box of the
 * array, its origin found from its file offset. A region longer than a record is cut by the
 * reader at element boundaries; each part is then a run along the last dimension.
 *
 * <p>Chunked storage: the regions are the stored chunks that hold a selected element (an
 * indexed pattern); each is decoded whole and gives the slab's part of it, as one piece, or one
 * per block where the slab has blocks of more than one index. The chunks of the slab never
 * written ({@link UnwrittenChunks}), and a stored chunk's elements past the variable's extent,
 * give the fill value; a slab that selects nothing stored has no regions at all.
 */
public final class SlabPlan {
  private final Variable variable;
  private final Slab slab;
  private final AccessPattern pattern;
  private final Variable.Chunks chunks; // the chunks read, for chunked storage
  private final UnwrittenChunks unwritten; // chunks of the slab never written, for chunked storage

  private SlabPlan(Variable variable, Slab slab, AccessPattern pattern, Variable.Chunks chunks,
      UnwrittenChunks unwritten) {
    this.variable = variable;
    this.slab = slab;
    this.pattern = pattern;
    this.chunks = chunks;
    this.unwritten = unwritten;
  }

  /**
   * @param maxRegion most bytes to join into one region (a record's bytes), at least one row
   * @throws ScienceFormatException naming the file and variable where a chunk the slab needs is
   *     longer than {@code maxRegion}
   */
  public static SlabPlan of(Variable v, Slab slab, long maxRegion) {
    if (slab.rank() != v.rank()) {
      throw new IllegalArgumentException("slab of rank " + slab.rank() + " for " + v);
    }
    try {
      return v.chunked() ? chunked(v, slab, maxRegion) : strided(v, slab, maxRegion);
    } catch (ArithmeticException e) { // sizes past 2^63: only a damaged header says so
      throw new ScienceFormatException(v.file() + ": " + v + ": the slab " + slab + " spans "
          + "sizes past 2^63 (bytes or chunks): the header is damaged", e);
    }
  }

  /** Regions of a union's parts merged at most (a row a region for a wrapped longitude). */
  private static final long MAX_UNION_REGIONS = 1L << 24;

  private static SlabPlan strided(Variable v, Slab slab, long maxRegion) {
    if (!slab.regular()) {
      return new SlabPlan(v, slab, union(v, slab, maxRegion), null,
          UnwrittenChunks.none(v.rank()));
    }
    return new SlabPlan(v, slab, regular(v, slab, maxRegion), null,
        UnwrittenChunks.none(v.rank()));
  }

  /**
   * A union slab of strided storage: the regions of each of its regular parts (one hyperslab of
   * each dimension), merged in file order. The parts select disjoint elements, so no two
   * regions overlap.
   */
  private static AccessPattern union(Variable v, Slab slab, long maxRegion) {
    List<AccessPattern> patterns = new ArrayList<>();
    long regions = 0;
    int[] pick = new int[slab.rank()];
    while (true) {
      AccessPattern p = regular(v, slab.part(pick), maxRegion);
      regions += p.regionCount();
      if (regions > MAX_UNION_REGIONS) {
        throw new IllegalArgumentException("the union " + slab + " cuts " + v.name() + " into "
            + "more than " + MAX_UNION_REGIONS + " regions: select fewer, longer runs");
      }
      patterns.add(p);
      int d = slab.rank() - 1;
      while (d >= 0 && ++pick[d] == slab.parts(d)) {
        pick[d] = 0;
        d--;
      }
      if (d < 0) {
        break;
      }
    }
    long[][] all = new long[(int) regions][];
    int k = 0;
    for (AccessPattern p : patterns) {
      org.opass.mrap.pattern.RegionCursor c = p.cursor(0, p.regionCount());
      while (c.next()) {
        all[k++] = new long[] {c.offset(), c.length()};
      }
    }
    Arrays.sort(all, (a, b) -> Long.compare(a[0], b[0]));
    long[] offsets = new long[all.length];
    long[] lengths = new long[all.length];
    for (int i = 0; i < all.length; i++) {
      offsets[i] = all[i][0];
      lengths[i] = all[i][1];
    }
    return IndexedPattern.of(offsets, lengths);
  }

  private static AccessPattern regular(Variable v, Slab slab, long maxRegion) {
    long[] bs = v.byteStrides();
    long start = v.base();
    // levels, outermost first: {count, byte stride}
    List<long[]> levels = new ArrayList<>();
    for (int d = 0; d < v.rank(); d++) {
      start += slab.start(d) * bs[d];
      if (slab.block(d) == 1) {
        levels.add(new long[] {slab.count(d), slab.stride(d) * bs[d]});
      } else if (slab.stride(d) == slab.block(d)) { // blocks that touch: one run
        levels.add(new long[] {slab.count(d) * slab.block(d), bs[d]});
      } else {
        levels.add(new long[] {slab.count(d), slab.stride(d) * bs[d]});
        levels.add(new long[] {slab.block(d), bs[d]});
      }
    }
    long size = v.type().size();
    boolean first = true;
    while (!levels.isEmpty()) {
      long[] inner = levels.get(levels.size() - 1);
      if (inner[0] == 1) {
        levels.remove(levels.size() - 1);
        continue;
      }
      // the innermost run always joins (a region per element would be absurd); outer levels
      // while they stay within a record
      if (inner[1] == size && (first || Math.multiplyExact(size, inner[0]) <= maxRegion)) {
        size = Math.multiplyExact(size, inner[0]);
        levels.remove(levels.size() - 1);
        first = false;
        continue;
      }
      break;
    }
    long[] counts = new long[Math.max(1, levels.size())];
    long[] strides = new long[counts.length];
    counts[0] = 1;
    strides[0] = size;
    for (int i = 0; i < levels.size(); i++) { // innermost first
      long[] l = levels.get(levels.size() - 1 - i);
      counts[i] = l[0];
      strides[i] = l[1];
    }
    return StridedPattern.byStride(start, size, strides, counts);
  }

  private static SlabPlan chunked(Variable v, Slab slab, long maxRegion) {
    Variable.Chunks all = v.chunks();
    int[] cs = v.chunkShape();
    long[] shape = v.shape();
    int n = v.rank();
    long[] first = new long[n];
    long[] count = new long[n];
    for (int d = 0; d < n; d++) { // the box of the chunk grid the slab spans
      first[d] = slab.start(d) / cs[d];
      count[d] = slab.lastIndex(d) / cs[d] - first[d] + 1;
    }
    List<Integer> keep = new ArrayList<>();
    List<Long> stored = new ArrayList<>();
    for (int i = 0; i < all.count(); i++) {
      long[] origin = all.origin(i);
      if (selected(slab, origin, ends(origin, cs, shape)) > 0) {
        if (all.size(i) > maxRegion) {
          throw new ScienceFormatException(v.file() + ": " + v.name() + " has a chunk of "
              + all.size(i) + " stored bytes, more than one record holds (" + maxRegion + ")");
        }
        keep.add(i);
        long at = 0;
        for (int d = 0; d < n; d++) {
          at = at * count[d] + origin[d] / cs[d] - first[d];
        }
        stored.add(at);
      }
    }
    long[] s = new long[stored.size()];
    for (int i = 0; i < s.length; i++) {
      s[i] = stored.get(i);
    }
    UnwrittenChunks unwritten = UnwrittenChunks.complement(first, count, s);
    if (keep.isEmpty()) { // every value it selects is the fill value: nothing to read
      return new SlabPlan(v, slab, null, Variable.Chunks.none(), unwritten);
    }
    int[] k = new int[keep.size()];
    long[] offsets = new long[k.length];
    long[] lengths = new long[k.length];
    for (int i = 0; i < k.length; i++) {
      k[i] = keep.get(i);
      offsets[i] = all.address(k[i]);
      lengths[i] = all.size(k[i]);
    }
    return new SlabPlan(v, slab, IndexedPattern.of(offsets, lengths), all.subset(k), unwritten);
  }

  /** The end (exclusive) of the chunk at {@code origin} in each dimension, within the shape. */
  private static long[] ends(long[] origin, int[] cs, long[] limit) {
    long[] hi = new long[origin.length];
    for (int d = 0; d < hi.length; d++) {
      hi[d] = Math.min(origin[d] + cs[d], limit[d]);
    }
    return hi;
  }

  /** Selected elements in the box {@code [lo, hi)}. */
  private static long selected(Slab slab, long[] lo, long[] hi) {
    long n = 1;
    for (int d = 0; d < slab.rank(); d++) {
      long c = 0;
      if (hi[d] > lo[d]) {
        for (IndexRange r : slab.runs(d, lo[d], hi[d])) {
          c += r.count();
        }
      }
      n *= c;
      if (n == 0) {
        return 0;
      }
    }
    return n;
  }

  public Variable variable() {
    return variable;
  }

  public Slab slab() {
    return slab;
  }

  /**
   * The regions of the file to read, in file order; null where the slab selects only chunks
   * never written (every value it selects is the fill value: {@link #unwritten}).
   */
  public AccessPattern pattern() {
    return pattern;
  }

  /** For chunked storage: the chunks read (the pattern's regions), else null. */
  public Variable.Chunks chunks() {
    return chunks;
  }

  /**
   * The chunks the slab touches that were never written: their elements are the fill value
   * ({@link #fillPieces}).
   */
  public UnwrittenChunks unwritten() {
    return unwritten;
  }

  /** Bytes of the selected elements. */
  public long bytesOfInterest() {
    return slab.elements() * variable.type().size();
  }

  /** What a region read gives. */
  public interface PieceSink {
    void piece(long[] origin, int[] shape, long[] step, byte[] bytes, int offset, int length);
  }

  /**
   * The pieces of bytes read at {@code fileOffset} of this plan's regions, as {@link
   * #pieces(Variable, Slab, long, byte[], int, PieceSink)} gives them for its variable and slab.
   */
  public long pieces(long fileOffset, byte[] bytes, int length, PieceSink out) {
    return pieces(variable, slab, fileOffset, bytes, length, out);
  }

  /**
   * The pieces of bytes read at {@code fileOffset} (a region, or a part of one cut at an
   * element boundary) of {@code v} (its chunks, those stored there, found in {@link
   * Variable#chunks}) and {@code slab}.
   *
   * @return how many of the elements given are the fill value (a stored chunk's elements past
   *     the variable's {@link Variable#extent})
   */
  public static long pieces(Variable v, Slab slab, long fileOffset, byte[] bytes, int length,
      PieceSink out) {
    Variable.Chunks chunks = v.chunks();
    int e = v.type().size();
    if (!v.chunked()) {
      long[] bs = v.byteStrides();
      long rem = fileOffset - v.base();
      long[] origin = new long[v.rank()];
      for (int d = 0; d < origin.length; d++) {
        origin[d] = rem / bs[d];
        rem %= bs[d];
      }
      long n = length / e;
      long[] shape = v.shape();
      int[] box = new int[origin.length];
      Arrays.fill(box, 1);
      long inner = 1;
      int r = origin.length - 1;
      while (r > 0 && origin[r] == 0 && n % (inner * shape[r]) == 0 && n >= inner * shape[r]
          && bs[r - 1] == bs[r] * shape[r]) {
        box[r] = (int) shape[r];
        inner *= shape[r];
        r--;
      }
      box[r] = (int) (n / inner);
      long[] ones = new long[origin.length];
      Arrays.fill(ones, 1);
      out.piece(origin, box, ones, bytes, 0, length);
      return 0;
    }
    int i = chunks.at(fileOffset);
    if (i < 0) {
      throw new IllegalStateException(v.file() + ": " + v.name() + ": no chunk stored at "
          + fileOffset);
    }
    byte[] raw = length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    long chunkBytes = chunkElements(v) * e;
    byte[] data;
    try {
      data = v.filters().decode(raw, chunks.mask(i), chunkBytes);
    } catch (RuntimeException ex) { // a damaged chunk
      String where = !chunks.placed() ? "at " + fileOffset : "in " + chunks.object(i)
          + (chunks.objectOffset(i) == 0 ? "" : " at " + chunks.objectOffset(i));
      throw new ScienceFormatException(v.file() + ": " + v.name() + ": the chunk at "
          + Arrays.toString(chunks.origin(i)) + " (" + length + " bytes " + where
          + ") does not decode through " + v.filters().specs() + ": " + ex.getMessage(), ex);
    }
    if (data.length < chunkBytes) {
      throw new ScienceFormatException(v.file() + ": " + v.name() + ": the chunk at "
          + fileOffset + " decodes to " + data.length + " bytes, not " + chunkBytes);
    }
    long[] co = chunks.origin(i);
    long fill = pastExtent(v, slab, co, data);
    cut(v, slab, co, data, out);
    return fill;
  }

  /**
   * Sets a decoded chunk's elements past the variable's extent to its fill value, as netCDF-C
   * reads them whatever the chunk holds there; gives how many of them the slab selects.
   */
  private static long pastExtent(Variable v, Slab slab, long[] co, byte[] data) {
    long[] extent = v.extent();
    long[] shape = v.shape();
    int[] cs = v.chunkShape();
    long[] hi = ends(co, cs, shape);
    long[] stored = ends(co, cs, extent);
    if (Arrays.equals(hi, stored)) {
      return 0;
    }
    int e = v.type().size();
    byte[] fill = v.fill();
    int n = cs.length;
    long[] idx = new long[n];
    long elements = chunkElements(v);
    for (long k = 0; k < elements; k++) {
      boolean past = false;
      for (int d = 0; d < n; d++) {
        past |= co[d] + idx[d] >= extent[d];
      }
      if (past) {
        for (int b = 0; b < e; b++) {
          data[(int) (k * e + b)] = fill == null ? 0 : fill[b];
        }
      }
      for (int d = n - 1; d >= 0 && ++idx[d] == cs[d]; d--) {
        idx[d] = 0;
      }
    }
    for (int d = 0; d < n; d++) { // a chunk wholly past the extent stores none
      stored[d] = Math.max(stored[d], co[d]);
    }
    return selected(slab, co, hi) - selected(slab, co, stored);
  }

  /** Bytes of fill value given in one piece at most. */
  private static final long FILL_PIECE_BYTES = 1 << 20;

  /**
   * The pieces of a chunk that was never written, at {@code origin}: the slab's elements in it,
   * each the variable's fill value (zeros where it has none), as HDF5 reads them, in pieces of
   * at most a mebibyte.
   *
   * @return the elements given
   */
  public static long fillPieces(Variable v, Slab slab, long[] origin, PieceSink out) {
    int e = v.type().size();
    byte[] fill = v.fill();
    long[] given = {0};
    boxes(v, slab, origin, (o, box, step) -> given[0] += fillBox(o, box, step, e, fill, out));
    return given[0];
  }

  /**
   * A box of fill values, in pieces of at most {@link #FILL_PIECE_BYTES}: single indices of its
   * outer dimensions, and as many indices of the next as fit.
   */
  private static long fillBox(long[] o, int[] box, long[] step, int e, byte[] fill,
      PieceSink out) {
    int n = box.length;
    int d = 0; // the outermost dimension whose inner elements fit a piece
    long inner = 1;
    for (int k = 1; k < n; k++) {
      inner *= box[k];
    }
    while (inner * e > FILL_PIECE_BYTES && d < n - 1) {
      d++;
      inner /= box[d];
    }
    long per = Math.max(1, Math.min(box[d], FILL_PIECE_BYTES / (inner * e)));
    int[] pieceBox = box.clone();
    Arrays.fill(pieceBox, 0, d, 1);
    long given = 0;
    long[] idx = new long[d]; // the outer dimensions' indices within the box
    while (true) {
      for (long k = 0; k < box[d]; k += per) {
        long[] at = o.clone();
        for (int j = 0; j < d; j++) {
          at[j] = o[j] + idx[j] * step[j];
        }
        at[d] = o[d] + k * step[d];
        int[] b = pieceBox.clone();
        b[d] = (int) Math.min(per, box[d] - k);
        byte[] bytes = new byte[(int) (b[d] * inner * e)];
        if (fill != null) {
          for (int p = 0; p < bytes.length; p += e) {
            System.arraycopy(fill, 0, bytes, p, e);
          }
        }
        out.piece(at, b, step, bytes, 0, bytes.length);
        given += b[d] * inner;
      }
      int j = d - 1;
      while (j >= 0 && ++idx[j] == box[j]) {
        idx[j] = 0;
        j--;
      }
      if (j < 0) {
        return given;
      }
    }
  }

  private static long chunkElements(Variable v) {
    long n = 1;
    for (int c : v.chunkShape()) {
      n *= c;
    }
    return n;
  }

  /** The slab's part of a decoded chunk at {@code co}, as pieces. */
  private static void cut(Variable v, Slab slab, long[] co, byte[] data, PieceSink out) {
    int e = v.type().size();
    int[] cs = v.chunkShape();
    long[] cstride = new long[cs.length]; // elements
    long s = 1;
    for (int d = cs.length - 1; d >= 0; d--) {
      cstride[d] = s;
      s *= cs[d];
    }
    DecodedChunk chunk = new DecodedChunk(data, co, cstride, e);
    boxes(v, slab, co, (origin, box, step) -> {
      long elements = 1;
      for (int b : box) {
        elements *= b;
      }
      byte[] piece = new byte[(int) (elements * e)];
      chunk.extract(origin, box, step, piece);
      out.piece(origin, box, step, piece, 0, piece.length);
    });
  }

  /** A box of the slab's elements: its first index, extent and step per dimension. */
  private interface BoxSink {
    void box(long[] origin, int[] box, long[] step);
  }

  /**
   * The boxes of the slab's elements in the chunk at {@code co}: one per combination of the
   * slab's runs in each dimension within the chunk (and the variable's shape), in C order.
   */
  private static void boxes(Variable v, Slab slab, long[] co, BoxSink out) {
    long[] hi = ends(co, v.chunkShape(), v.shape());
    List<List<IndexRange>> runs = new ArrayList<>(v.rank());
    for (int d = 0; d < v.rank(); d++) {
      runs.add(slab.runs(d, co[d], hi[d]));
      if (runs.get(d).isEmpty()) {
        return;
      }
    }
    int[] pick = new int[runs.size()]; // which run per dimension
    while (true) {
      long[] origin = new long[runs.size()];
      int[] box = new int[runs.size()];
      long[] step = new long[runs.size()];
      for (int d = 0; d < runs.size(); d++) {
        IndexRange run = runs.get(d).get(pick[d]);
        origin[d] = run.first();
        box[d] = (int) run.count();
        step[d] = run.step();
      }
      out.box(origin, box, step);
      int d = runs.size() - 1;
      while (d >= 0 && ++pick[d] == runs.get(d).size()) {
        pick[d] = 0;
        d--;
      }
      if (d < 0) {
        return;
      }
    }
  }

  /** A decoded chunk at {@code co}: its bytes, its strides in elements, its element size. */
  private static final class DecodedChunk {
    private final byte[] chunk;
    private final long[] co;
    private final long[] cstride;
    private final int e;

    DecodedChunk(byte[] chunk, long[] co, long[] cstride, int e) {
      this.chunk = chunk;
      this.co = co;
      this.cstride = cstride;
      this.e = e;
    }

    /** Copies the box {@code origin, box, step} out of the chunk, in C order. */
    void extract(long[] origin, int[] box, long[] step, byte[] out) {
      int n = box.length;
      int[] idx = new int[n];
      int last = n - 1;
      int at = 0;
      while (true) {
        long base = 0;
        for (int d = 0; d < last; d++) {
          base += (origin[d] + idx[d] * step[d] - co[d]) * cstride[d];
        }
        long first = base + (origin[last] - co[last]) * cstride[last];
        if (step[last] == 1) {
          System.arraycopy(chunk, (int) (first * e), out, at, box[last] * e);
          at += box[last] * e;
        } else {
          for (int j = 0; j < box[last]; j++) {
            System.arraycopy(chunk, (int) ((first + j * step[last]) * e), out, at, e);
            at += e;
          }
        }
        int d = last - 1;
        while (d >= 0 && ++idx[d] == box[d]) {
          idx[d] = 0;
          d--;
        }
        if (d < 0) {
          return;
        }
      }
    }
  }
}
