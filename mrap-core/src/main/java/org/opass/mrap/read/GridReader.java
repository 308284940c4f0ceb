package org.opass.mrap.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Slab;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;
import org.opass.mrap.fs.HdfsStore;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.task.VariableTask;

/**
 * Reads a {@link VariableTask} of several variables on one grid: the pieces of its first
 * variable through a {@link PieceReader}, and for each piece the same box of every variable
 * read with it ({@link VariableTask.Member#readWith}), from those of its chunks (or runs) that
 * hold the box, decoded as the piece is. Variables chunked alike read each chunk once; a chunk
 * that several pieces need is kept between them ({@value #KEPT_BYTES} bytes at most).
 */
public final class GridReader implements TaskReader {
  /** Bytes of the other variables' regions kept for the next pieces. */
  static final long KEPT_BYTES = 64L << 20;
  private final Configuration conf;
  private final PieceReader pieces;
  private final ReadCounters counters;
  private final boolean decode;
  private final Map<Path, FSDataInputStream> open = new HashMap<>();
  private final Map<String, HdfsStore> stores = new HashMap<>();
  private final Map<Variable, CfDecoding> decodings = new IdentityHashMap<>();
  private final Kept kept = new Kept();
  private final ArrayPiece scratch = new ArrayPiece();
  private final List<BoxValues> with = new ArrayList<>();

  public GridReader(Configuration conf, VariableTask task, ReadCounters counters) {
    this.conf = conf;
    this.pieces = new PieceReader(conf, task, counters);
    this.counters = counters;
    this.decode = pieces.decodes();
  }

  @Override
  public boolean next() throws IOException {
    if (!pieces.next()) {
      return false;
    }
    VariableTask.Member m = pieces.member();
    ArrayPiece first = pieces.value();
    long[] origin = pieces.key().origin();
    int[] shape = first.shape();
    long[] step = first.step();
    for (int k = 0; k < m.readWith().size(); k++) {
      if (with.size() == k) {
        with.add(new BoxValues());
      }
      read(m, m.readWith().get(k), origin, shape, step, with.get(k));
    }
    return true;
  }

  /** The current piece's file and the array index of its first element. */
  public ArrayIndex key() {
    return pieces.key();
  }

  /** The current piece of the first variable. */
  public ArrayPiece value() {
    return pieces.value();
  }

  /**
   * The values of the {@code k}th variable read with the first over the current piece's
   * elements, in the same (C) order.
   */
  public BoxValues with(int k) {
    return with.get(k);
  }

  /** Reads {@code w}'s elements at the box {@code origin, shape, step} into {@code out}. */
  private void read(VariableTask.Member m, Variable w, long[] origin, int[] shape, long[] step,
      BoxValues out) throws IOException {
    int r = shape.length;
    long[] count = new long[r];
    long[] ones = new long[r];
    int n = 1;
    for (int d = 0; d < r; d++) {
      count[d] = shape[d];
      ones[d] = 1;
      n *= shape[d];
    }
    Slab box = Slab.of(w.shape(), origin, step, count, ones);
    CfDecoding decoding = decode ? decodings.computeIfAbsent(w, pieces::decoding)
        : null;
    out.reset(decode ? decoding.decoded() : w.type(), n);
    SlabPlan plan = SlabPlan.of(w, box, Integer.MAX_VALUE - 8);
    SlabPlan.PieceSink sink = (o, s, st, bytes, off, len) -> {
      if (decode) {
        scratch.setDecoded(decoding, w.order(), s, st, ByteBuffer.wrap(bytes, off, len));
      } else {
        scratch.set(w.type(), w.order(), s, st, ByteBuffer.wrap(bytes, off, len));
      }
      counters.add(MrapCounter.MISSING_ELEMENTS, scratch.missing());
      counters.add(MrapCounter.SLAB_BYTES, len);
      out.scatter(scratch, o, st, origin, shape, step);
    };
    AccessPattern regions = plan.pattern();
    if (regions != null) {
      Path path = new Path(m.file()); // a file in place: the planner reads no container
      boolean placed = w.chunked() && w.chunks().placed();
      RegionCursor c = regions.cursor();
      while (c.next()) {
        byte[] bytes;
        if (placed) { // a store's chunk, in its object
          int i = w.chunks().at(c.offset());
          bytes = region(store(w.file()), w.chunks().object(i), w.chunks().objectOffset(i),
              (int) c.length());
        } else {
          bytes = region(path, m.start() + c.offset(), (int) c.length());
        }
        plan.pieces(c.offset(), bytes, bytes.length, sink);
      }
    }
    if (w.chunked() && plan.unwritten() != null && !plan.unwritten().isEmpty()) {
      plan.unwritten().forEach(w.chunkShape(), o -> SlabPlan.fillPieces(w, box, o, sink));
    }
  }

  /** The bytes of a region, read once while kept. */
  private byte[] region(Path path, long offset, int length) throws IOException {
    String key = path + "@" + offset + "+" + length;
    byte[] b = kept.get(key);
    if (b != null) {
      return b;
    }
    FSDataInputStream in = open.get(path);
    if (in == null) {
      in = path.getFileSystem(conf).open(path);
      open.put(path, in);
    }
    b = new byte[length];
    in.readFully(offset, b, 0, length);
    kept.put(key, b);
    return b;
  }

  /** The store {@code root}'s objects, opened once. */
  private HdfsStore store(String root) throws IOException {
    HdfsStore s = stores.get(root);
    if (s == null) {
      s = new HdfsStore(conf, new Path(root));
      stores.put(root, s);
    }
    return s;
  }

  /** The bytes of a store's chunk, read once while kept. */
  private byte[] region(HdfsStore store, String object, long offset, int length)
      throws IOException {
    String key = store.path(object) + "@" + offset + "+" + length;
    byte[] b = kept.get(key);
    if (b == null) {
      b = new byte[length];
      store.readFully(object, offset, b, 0, length);
      kept.put(key, b);
    }
    return b;
  }

  @Override
  public float progress() {
    return pieces.progress();
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (FSDataInputStream in : open.values()) {
      try {
        in.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    open.clear();
    for (HdfsStore s : stores.values()) {
      s.close();
    }
    stores.clear();
    pieces.close();
    if (first != null) {
      throw first;
    }
  }

  /** The regions read last, least recently used dropped past {@link #KEPT_BYTES}. */
  private static final class Kept extends LinkedHashMap<String, byte[]> {
    private static final long serialVersionUID = 1L;
    private long bytes;

    Kept() {
      super(16, 0.75f, true);
    }

    @Override
    public byte[] put(String key, byte[] value) {
      bytes += value.length;
      byte[] old = super.put(key, value);
      bytes -= old == null ? 0 : old.length;
      return old;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, byte[]> eldest) {
      if (bytes > KEPT_BYTES && size() > 1) {
        bytes -= eldest.getValue().length;
        return true;
      }
      return false;
    }
  }

  /**
   * One variable's values over a piece's box, in C order: integers as longs, floating values
   * as doubles, and which are missing.
   */
  public static final class BoxValues {
    private ElementType type = ElementType.FLOAT64;
    private long[] longs = new long[0];
    private double[] doubles = new double[0];
    private boolean[] missing = new boolean[0];
    private int missingCount;

    void reset(ElementType type, int n) {
      this.type = type;
      if (missing.length < n) {
        missing = new boolean[n];
        longs = new long[n];
        doubles = new double[n];
      } else {
        java.util.Arrays.fill(missing, 0, n, false);
      }
      missingCount = 0;
    }

    /**
     * Copies {@code p}'s elements (array indices {@code o[d] + j * st[d]}) to their places in the
     * box {@code origin, shape, step}.
     */
    void scatter(ArrayPiece p, long[] o, long[] st, long[] origin, int[] shape, long[] step) {
      int r = shape.length;
      int[] ps = p.shape();
      int n = p.elements();
      int[] at = new int[r];
      boolean floating = type.floating();
      for (int i = 0; i < n; i++) {
        int flat = 0;
        for (int d = 0; d < r; d++) {
          long index = o[d] + at[d] * st[d];
          flat = flat * shape[d] + (int) ((index - origin[d]) / step[d]);
        }
        if (floating) {
          doubles[flat] = p.getDouble(i);
        } else {
          longs[flat] = p.getLong(i);
        }
        if (p.isMissing(i)) {
          missing[flat] = true;
          missingCount++;
        }
        for (int d = r - 1; d >= 0 && ++at[d] == ps[d]; d--) {
          at[d] = 0;
        }
      }
    }

    /** The element type of the values: decoded, unless the read keeps stored values. */
    public ElementType type() {
      return type;
    }

    public boolean isMissing(int i) {
      return missing[i];
    }

    /** Elements missing. */
    public int missing() {
      return missingCount;
    }

    /** Element {@code i} of an integer type. */
    public long getLong(int i) {
      return type.floating() ? (long) doubles[i] : longs[i];
    }

    /** Element {@code i} as a double (NaN where missing). */
    public double getDouble(int i) {
      if (missing[i]) {
        return Double.NaN;
      }
      return type.floating() ? doubles[i] : longs[i];
    }
  }
}
