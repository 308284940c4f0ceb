package org.opass.mrap.task;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Slab;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.FilterSpec;
import org.opass.mrap.format.Storage;
import org.opass.mrap.format.UnwrittenChunks;
import org.opass.mrap.format.Variable;
import org.opass.mrap.science.ScienceFiles;

/**
 * Writes a variable (with only the chunks a task reads, its dimensions' names and its kept
 * attributes) and a slab into a split, and back.
 */
public final class VariableCodec {
  private static final int VERSION = 6;

  private VariableCodec() {
  }

  /** Writes {@code v} with {@code chunks} (a task's share) and {@code slab}. */
  public static void write(DataOutput out, Variable v, Variable.Chunks chunks, Slab slab)
      throws IOException {
    out.writeByte(VERSION);
    out.writeUTF(v.file());
    out.writeUTF(v.name());
    writeMetadata(out, v);
    out.writeByte(v.type().ordinal());
    out.writeBoolean(v.order() == ByteOrder.BIG_ENDIAN);
    longs(out, v.shape());
    byte[] slabText = slab.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.writeInt(slabText.length); // its HDF5 form, which Slab.parse reads back
    out.write(slabText);
    out.writeBoolean(v.chunked());
    if (!v.chunked()) {
      out.writeLong(v.base());
      longs(out, v.byteStrides());
      return;
    }
    for (int c : v.chunkShape()) {
      out.writeInt(c);
    }
    for (long x : v.extent()) {
      out.writeLong(x);
    }
    out.writeUTF(v.filters().format());
    out.writeInt(v.filters().specs().size());
    for (FilterSpec f : v.filters().specs()) {
      out.writeInt(f.id());
      out.writeUTF(f.name());
      int[] data = f.data();
      out.writeInt(data.length);
      for (int x : data) {
        out.writeInt(x);
      }
    }
    byte[] fill = v.fill();
    out.writeInt(fill == null ? -1 : fill.length);
    if (fill != null) {
      out.write(fill);
    }
    out.writeInt(chunks.count());
    for (int i = 0; i < chunks.count(); i++) {
      out.writeLong(chunks.address(i));
      out.writeLong(chunks.size(i));
      out.writeInt(chunks.mask(i));
      for (long o : chunks.origin(i)) {
        out.writeLong(o);
      }
    }
    out.writeBoolean(chunks.placed());
    if (chunks.placed()) { // each object once, then each chunk's by number
      java.util.Map<String, Integer> numbers = new java.util.LinkedHashMap<>();
      for (int i = 0; i < chunks.count(); i++) {
        numbers.putIfAbsent(chunks.object(i), numbers.size());
      }
      out.writeInt(numbers.size());
      for (String o : numbers.keySet()) {
        out.writeUTF(o);
      }
      for (int i = 0; i < chunks.count(); i++) {
        out.writeInt(numbers.get(chunks.object(i)));
        out.writeLong(chunks.objectOffset(i));
      }
    }
  }

  /** What {@link #read} gives: the variable (its chunks, those of the task) and the slab. */
  public static final class Read {
    public final Variable variable;
    public final Slab slab;

    Read(Variable variable, Slab slab) {
      this.variable = variable;
      this.slab = slab;
    }
  }

  public static Read read(DataInput in) throws IOException {
    int version = in.readByte();
    if (version != VERSION) {
      throw new IOException("a variable written by version " + version + " of this codec; "
          + "this one reads " + VERSION);
    }
    String file = in.readUTF();
    String name = in.readUTF();
    List<String> dimensions = new ArrayList<>();
    for (int d = in.readInt(); d > 0; d--) {
      dimensions.add(in.readUTF());
    }
    Attributes attributes = Attributes.read(in);
    Read r = read(in, file, name);
    try {
      return new Read(r.variable.withMetadata(dimensions, attributes), r.slab);
    } catch (IllegalArgumentException e) {
      throw new IOException("a variable written into a split is damaged: " + e.getMessage(), e);
    }
  }

  /** A variable's dimensions' names and its attributes. */
  private static void writeMetadata(DataOutput out, Variable v) throws IOException {
    out.writeInt(v.dimensions().size());
    for (String d : v.dimensions()) {
      out.writeUTF(d);
    }
    v.attributes().write(out);
  }

  /** The rest of a variable, from its element type on, and the slab. */
  private static Read read(DataInput in, String file, String name) throws IOException {
    ElementType type = ElementType.values()[in.readByte()];
    ByteOrder order = in.readBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    long[] shape = longs(in);
    int n = shape.length;
    byte[] slabText = new byte[in.readInt()];
    in.readFully(slabText);
    Slab slab;
    try {
      slab = Slab.parse(new String(slabText, java.nio.charset.StandardCharsets.UTF_8), shape);
    } catch (IllegalArgumentException e) {
      throw new IOException("a slab, as written into a split, is damaged: " + e.getMessage(), e);
    }
    if (!in.readBoolean()) {
      long base = in.readLong();
      return new Read(Variable.of(file, name, shape, type, order, Storage.strided(base,
          longs(in))), slab);
    }
    int[] chunkShape = new int[n];
    for (int d = 0; d < n; d++) {
      chunkShape[d] = in.readInt();
    }
    long[] extent = new long[n];
    for (int d = 0; d < n; d++) {
      extent[d] = in.readLong();
    }
    String format = in.readUTF();
    int filterCount = in.readInt();
    List<FilterSpec> filters = new ArrayList<>();
    for (int i = 0; i < filterCount; i++) {
      int id = in.readInt();
      String fname = in.readUTF();
      int[] data = new int[in.readInt()];
      for (int k = 0; k < data.length; k++) {
        data[k] = in.readInt();
      }
      filters.add(new FilterSpec(id, fname, data));
    }
    int fillLength = in.readInt();
    byte[] fill = fillLength < 0 ? null : new byte[fillLength];
    if (fill != null) {
      in.readFully(fill);
    }
    int count = in.readInt();
    long[][] origins = new long[count][n];
    long[] addresses = new long[count];
    long[] sizes = new long[count];
    int[] masks = new int[count];
    for (int i = 0; i < count; i++) {
      addresses[i] = in.readLong();
      sizes[i] = in.readLong();
      masks[i] = in.readInt();
      for (int d = 0; d < n; d++) {
        origins[i][d] = in.readLong();
      }
    }
    Variable.Chunks chunks;
    if (in.readBoolean()) {
      String[] names = new String[in.readInt()];
      for (int i = 0; i < names.length; i++) {
        names[i] = in.readUTF();
      }
      String[] objects = new String[count];
      long[] offsets = new long[count];
      for (int i = 0; i < count; i++) {
        int k = in.readInt();
        if (k < 0 || k >= names.length) {
          throw new IOException("a chunk's object, as written into a split, is damaged: " + k
              + " of " + names.length);
        }
        objects[i] = names[k];
        offsets[i] = in.readLong();
      }
      chunks = Variable.Chunks.placed(origins, addresses, sizes, objects, offsets);
    } else {
      chunks = new Variable.Chunks(origins, addresses, sizes, masks);
    }
    Storage storage = Storage.chunked(extent, chunkShape, chunks,
        ScienceFiles.filters(format, filters), fill);
    return new Read(Variable.of(file, name, shape, type, order, storage), slab);
  }

  /** Writes chunks never written (their box and runs). */
  public static void write(DataOutput out, UnwrittenChunks u) throws IOException {
    longs(out, u.first());
    longs(out, u.count());
    longs(out, u.runs());
  }

  public static UnwrittenChunks readUnwritten(DataInput in) throws IOException {
    long[] first = longs(in);
    long[] count = longs(in);
    try {
      return UnwrittenChunks.of(first, count, longs(in));
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new IOException("chunks never written, as written into a split, are damaged: "
          + e.getMessage(), e);
    }
  }

  private static void longs(DataOutput out, long[] v) throws IOException {
    out.writeInt(v.length);
    for (long x : v) {
      out.writeLong(x);
    }
  }

  private static long[] longs(DataInput in) throws IOException {
    long[] v = new long[in.readInt()];
    for (int i = 0; i < v.length; i++) {
      v[i] = in.readLong();
    }
    return v;
  }
}
