package org.opass.mrap.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.format.PlacedChunks;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;
import org.opass.mrap.fs.HdfsStore;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.science.ArrayIndex;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.task.RegionTask;
import org.opass.mrap.task.VariableTask;

/**
 * Reads a {@link VariableTask}: each part's regions through a {@link RegionReader}
 * (positioned reads of those bytes only, gaps joined as it joins them, the file checked
 * unchanged since submission), and each region read into {@link ArrayPiece}s: a run of a
 * strided variable as it is, a chunk decoded and cut to the slab; then each part's chunks never
 * written, as pieces of the fill value ({@link MrapCounter#FILL_ELEMENTS} counts them).
 */
public final class PieceReader implements TaskReader {
  private final Configuration conf;
  private final VariableTask split;
  private final ReadCounters counters;
  private int part = -1;
  private RegionReader regions;
  private boolean filled; // the current part's fill values are queued
  private final Deque<Pending> pending = new ArrayDeque<>();
  private final ArrayIndex key = new ArrayIndex();
  private final ArrayPiece value = new ArrayPiece();
  private VariableTask.Member member; // the current piece's
  private final boolean decode;
  private final boolean netcdf;

  public PieceReader(Configuration conf, VariableTask task, ReadCounters counters) {
    this.conf = conf;
    this.split = task;
    this.counters = counters;
    // checked when the read was planned
    this.decode = conf.getBoolean(VariableSettings.DECODE, VariableSettings.DECODE_DEFAULT);
    this.netcdf = ScienceFiles.Kind.NETCDF.key().equalsIgnoreCase(
        conf.getTrimmed(VariableSettings.KIND, ""));
  }

  @Override
  public boolean next() throws IOException {
    while (pending.isEmpty()) {
      if (regions != null && regions.next()) {
        VariableTask.Part p = split.parts().get(part);
        BytesWritable b = regions.value();
        long at = originalOffset(p);
        VariableTask.Member m = p.memberAt(at);
        long fill = SlabPlan.pieces(m.variable(), m.slab(), at - m.start(),
            // a strided run's piece is the region reader's buffer itself: it stays as it is
            // until the queue is empty, as the next region is read only then
            b.getBytes(), b.getLength(), (origin, shape, step, bytes, off, len) ->
                pending.add(new Pending(m, origin, shape, step,
                    ByteBuffer.wrap(bytes, off, len))));
        counters.add(MrapCounter.FILL_ELEMENTS, fill);
        continue;
      }
      if (part >= 0 && !filled) { // the part's regions are read: its chunks never written
        filled = true;
        if (regions != null) {
          regions.close();
          regions = null;
        }
        for (VariableTask.Member m : split.parts().get(part).members()) {
          if (m.unwritten().isEmpty()) {
            continue;
          }
          m.unwritten().forEach(m.variable().chunkShape(), origin ->
              counters.add(MrapCounter.FILL_ELEMENTS, SlabPlan.fillPieces(m.variable(),
                  m.slab(), origin, (o, shape, step, bytes, off, len) ->
                      pending.add(new Pending(m, o, shape, step,
                          ByteBuffer.wrap(bytes, off, len))))));
        }
        continue;
      }
      if (++part == split.parts().size()) {
        return false;
      }
      VariableTask.Part p = split.parts().get(part);
      FileStatus now = p.path().getFileSystem(conf).getFileStatus(p.path());
      if (now.getModificationTime() != p.modificationTime()) {
        throw new IOException(p.path() + " changed since the job was submitted (modified at "
            + now.getModificationTime() + ", planned from the file of " + p.modificationTime()
            + "): its header may no longer say where " + p.variable().name() + " lies; run the "
            + "job again");
      }
      filled = false;
      if (p.task() != null) {
        regions = regions(p);
      }
    }
    Pending next = pending.poll();
    member = next.member;
    Variable v = next.member.variable();
    key.set(next.member.file(), next.origin);
    if (decode) {
      value.setDecoded(next.member.decoding(netcdf), v.order(), next.shape, next.step,
          next.bytes);
      counters.add(MrapCounter.MISSING_ELEMENTS, value.missing());
    } else {
      value.set(v.type(), v.order(), next.shape, next.step, next.bytes);
    }
    value.setCoordinates(next.member.coordinates(), next.origin);
    counters.add(MrapCounter.SLAB_BYTES, next.bytes.remaining());
    return true;
  }

  /**
   * The reader of a part's regions: of its file, or of a store's chunks where they lie (a
   * store's part is of one variable: its chunks are the part's regions).
   */
  private RegionReader regions(VariableTask.Part p) throws IOException {
    Variable v = p.members().get(0).variable();
    if (!v.chunked() || !v.chunks().placed()) {
      return new RegionReader(conf, p.task(), counters);
    }
    HdfsStore store = new HdfsStore(conf, new Path(v.file()));
    return new RegionReader(conf, p.task(), counters,
        PlacedChunks.positioned(v.chunks(), store), store);
  }

  /** A piece made from the last region read, not yet handed out. */
  private static final class Pending {
    final VariableTask.Member member;
    final long[] origin;
    final int[] shape;
    final long[] step;
    final ByteBuffer bytes; // a region read's, or a chunk's, not copied

    Pending(VariableTask.Member member, long[] origin, int[] shape, long[] step,
        ByteBuffer bytes) {
      this.member = member;
      this.origin = origin;
      this.shape = shape;
      this.step = step;
      this.bytes = bytes;
    }
  }

  /** Where the current record's bytes lay in the original file (a container's: its members). */
  private long originalOffset(VariableTask.Part p) {
    if (p.layout() != RegionTask.Layout.PACKED) {
      return regions.currentOffset(); // in place, or read through the layout at its offset
    }
    // packed by a restructuring copy: the record's logical offset finds its region
    AccessPattern task = p.regions();
    long at = regions.key() - p.task().logicalStart(0);
    long k = task.regionOfByte(at);
    return task.offsetOf(k) + (at - task.bytesBefore(k));
  }

  /** The current piece's file and the array index of its first element. */
  public ArrayIndex key() {
    return key;
  }

  /** Whether values are decoded ({@link VariableSettings#DECODE}). */
  boolean decodes() {
    return decode;
  }

  /** How the current piece's variable {@code v} decodes, as the task's files are read. */
  CfDecoding decoding(Variable v) {
    return CfDecoding.of(v, netcdf);
  }

  /** The file (or container member) of the current piece, as the task describes it. */
  public VariableTask.Member member() {
    return member;
  }

  /** The current piece; the next one reuses the same object. */
  public ArrayPiece value() {
    return value;
  }

  @Override
  public float progress() {
    int n = split == null ? 0 : split.parts().size();
    if (n == 0) {
      return 1f;
    }
    float inPart = regions == null ? 0f : regions.progress();
    return Math.min(1f, (Math.max(0, part) + inPart) / n);
  }

  @Override
  public void close() throws IOException {
    if (regions != null) {
      regions.close();
    }
  }
}
