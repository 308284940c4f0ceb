package org.opass.mrap.format.netcdf3;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.Storage;
import org.opass.mrap.format.Variable;

/**
 * The header of a NetCDF-3 file (classic, 64-bit offset or CDF-5, as Unidata's "NetCDF Classic
 * and 64-bit Offset Format" and the CDF-5 specification define it), read a page at a time from
 * the front of the file: its variables, each with {@link Storage#strided} storage. Record
 * variables interleave: one record of each, in order, per step of the unlimited dimension; the
 * first stride of each is the record's size. Each variable carries its dimensions' names and
 * its attributes named in {@link Attributes#KEPT}; the values of other attributes are skipped.
 */
public final class NetcdfHeader implements ScienceFile {
  private static final int NC_DIMENSION = 0x0A;
  private static final int NC_VARIABLE = 0x0B;
  private static final int NC_ATTRIBUTE = 0x0C;
  private static final long STREAMING = 0xFFFFFFFFL;
  private static final int PAGE = 8192;

  private final String file;
  private final int version;
  private final long records;
  private final Map<String, Variable> variables;

  private NetcdfHeader(String file, int version, long records, Map<String, Variable> variables) {
    this.file = file;
    this.version = version;
    this.records = records;
    this.variables = variables;
  }

  /** 1 classic, 2 64-bit offset, 5 CDF-5. */
  public int version() {
    return version;
  }

  /** Steps of the unlimited dimension. */
  public long records() {
    return records;
  }

  /** Variables by name, in the header's order. */
  public Map<String, Variable> variables() {
    return variables;
  }

  /**
   * @throws ScienceFormatException naming the file and the variable where it has none of that
   *     name, and the variables it has
   */
  @Override
  public Variable variable(String name) {
    Variable v = variables.get(name);
    if (v == null) {
      throw new ScienceFormatException(file + ": no variable " + name + "; its variables: "
          + String.join(", ", variables.keySet()));
    }
    return v;
  }

  @Override
  public List<String> variableNames() {
    return new java.util.ArrayList<>(variables.keySet());
  }

  /** The variable {@code name}: a NetCDF-3 header is read whole, so {@link #variable}. */
  @Override
  public Variable describe(String name) {
    return variable(name);
  }

  /** The variable named as the dimension whose only dimension is that one, or null. */
  @Override
  public Variable coordinate(Variable v, int d) {
    if (d < 0 || d >= v.rank()) {
      throw new IllegalArgumentException("dimension " + d + " of " + v);
    }
    String name = v.dimensions().get(d);
    Variable c = name.isEmpty() ? null : variables.get(name);
    return c != null && c.dimensions().equals(List.of(name)) ? c : null;
  }

  @Override
  public String file() {
    return file;
  }

  @Override
  public void close() {
    // the header is read whole when opened: nothing is held
  }

  /** Whether {@code head} (at least 4 bytes) begins a NetCDF-3 file. */
  public static boolean matches(byte[] head) {
    return head.length >= 4 && head[0] == 'C' && head[1] == 'D' && head[2] == 'F'
        && (head[3] == 1 || head[3] == 2 || head[3] == 5);
  }

  /**
   * Reads the header of {@code file}.
   *
   * @throws ScienceFormatException naming the file where the header is not NetCDF-3 or does not
   *     fit the file
   */
  public static NetcdfHeader read(Positioned in, String file) throws IOException {
    Cursor c = new Cursor(in, file);
    try {
      return parse(c, in.length(), file);
    } catch (EOFException e) {
      throw new ScienceFormatException(file + ": the NetCDF header runs past the end of the file ("
          + in.length() + " bytes)", e);
    } catch (ScienceFormatException e) {
      throw e;
    } catch (ArithmeticException | IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new ScienceFormatException(file + ": the NetCDF header is damaged: its sizes do not "
          + "fit (" + e.getMessage() + ")", e);
    }
  }

  private static NetcdfHeader parse(Cursor c, long length, String file) throws IOException {
    byte[] magic = c.bytes(4);
    if (!matches(magic)) {
      throw new ScienceFormatException(file + " is not a NetCDF-3 file (it does not start with "
          + "CDF\\1, CDF\\2 or CDF\\5)");
    }
    int version = magic[3];
    boolean cdf5 = version == 5;
    long numrecs = cdf5 ? c.int64() : c.uint32();
    // dimensions
    List<String> dimNames = new ArrayList<>();
    List<Long> dimLengths = new ArrayList<>();
    int tag = c.int32();
    long n = cdf5 ? c.int64() : c.uint32();
    if (tag == NC_DIMENSION) {
      for (long i = 0; i < n; i++) {
        dimNames.add(c.name(cdf5));
        long len = cdf5 ? c.int64() : c.uint32();
        if (len < 0) {
          throw new ScienceFormatException(file + ": dimension " + dimNames.get(dimNames.size() - 1)
              + " has length " + len + ": the header is damaged");
        }
        dimLengths.add(len);
      }
    } else if (tag != 0 || n != 0) {
      throw bad(file, "dimension list");
    }
    attributes(c, cdf5, file, false); // the file's: none kept
    tag = c.int32();
    n = cdf5 ? c.int64() : c.uint32();
    if (tag != NC_VARIABLE && (tag != 0 || n != 0)) {
      throw bad(file, "variable list");
    }
    class Raw {
      String name;
      long[] dims;
      int ncType;
      long begin;
      boolean record;
      Attributes attributes;
    }
    List<Raw> raws = new ArrayList<>();
    for (long i = 0; tag == NC_VARIABLE && i < n; i++) {
      Raw r = new Raw();
      r.name = c.name(cdf5);
      long rank = cdf5 ? c.int64() : c.uint32();
      if (rank < 0 || rank > 1024) { // NC_MAX_VAR_DIMS
        throw new ScienceFormatException(file + ": variable " + r.name + " has " + rank
            + " dimensions (netCDF allows 1024): the header is damaged");
      }
      r.dims = new long[(int) rank];
      for (int d = 0; d < rank; d++) {
        long id = cdf5 ? c.int64() : c.uint32();
        if (id < 0 || id >= dimNames.size()) {
          throw new ScienceFormatException(file + ": variable " + r.name + " names dimension "
              + id + " of " + dimNames.size());
        }
        r.dims[d] = id;
      }
      r.attributes = attributes(c, cdf5, file, true);
      r.ncType = c.int32();
      if (cdf5) {
        c.int64(); // vsize: recomputed below (the header's is capped at 2^32 - 4 in CDF-1/2)
      } else {
        c.uint32();
      }
      r.begin = version == 1 ? c.uint32() : c.int64();
      if (r.begin < 0 || r.begin > length) {
        throw new ScienceFormatException(file + ": variable " + r.name + " begins at byte "
            + r.begin + ", outside the file (" + length + " bytes): the header is damaged");
      }
      r.record = r.dims.length > 0 && dimLengths.get((int) r.dims[0]) == 0;
      raws.add(r);
    }
    // the record: each record variable's slice padded to 4 bytes, unless it is the only one
    long recordSize = 0;
    int recordVars = 0;
    for (Raw r : raws) {
      recordVars += r.record ? 1 : 0;
    }
    Map<String, Long> sliceBytes = new LinkedHashMap<>();
    for (Raw r : raws) {
      ElementType t = type(r.ncType, file, r.name);
      long slice = t.size();
      for (int d = r.record ? 1 : 0; d < r.dims.length; d++) {
        slice = Math.multiplyExact(slice, dimLengths.get((int) r.dims[d]));
      }
      if (r.record) {
        long padded = recordVars == 1 ? slice : (slice + 3) / 4 * 4;
        recordSize = Math.addExact(recordSize, padded);
      }
      sliceBytes.put(r.name, slice);
    }
    long firstRecord = Long.MAX_VALUE;
    for (Raw r : raws) {
      if (r.record) {
        firstRecord = Math.min(firstRecord, r.begin);
      }
    }
    if (numrecs == STREAMING && !cdf5 || cdf5 && numrecs < 0) { // still being written
      numrecs = recordSize == 0 ? 0 : Math.max(0, (length - firstRecord) / recordSize);
    }
    Map<String, Variable> vars = new LinkedHashMap<>();
    for (Raw r : raws) {
      ElementType t = type(r.ncType, file, r.name);
      long[] shape = new long[r.dims.length];
      for (int d = 0; d < shape.length; d++) {
        shape[d] = d == 0 && r.record ? numrecs : dimLengths.get((int) r.dims[d]);
      }
      long[] strides = Variable.rowMajor(shape, t.size());
      if (r.record) {
        strides[0] = recordSize;
      }
      long need = r.begin;
      if (r.record && numrecs > 0) {
        need = Math.addExact(need, Math.addExact(Math.multiplyExact(numrecs - 1, recordSize),
            sliceBytes.get(r.name)));
      } else if (!r.record) {
        need = Math.addExact(need, sliceBytes.get(r.name));
      }
      if (need > length) {
        throw new ScienceFormatException(file + ": variable " + r.name + " ends at byte " + need
            + ", past the end of the file (" + length + " bytes): the file is cut short");
      }
      List<String> names = new ArrayList<>();
      for (long id : r.dims) {
        names.add(dimNames.get((int) id));
      }
      if (shape.length == 0) { // a scalar: one element
        shape = new long[] {1};
        strides = new long[] {t.size()};
        names.add("");
      }
      vars.put(r.name, Variable.of(file, r.name, shape, t, ByteOrder.BIG_ENDIAN,
          Storage.strided(r.begin, strides)).withMetadata(names, r.attributes));
    }
    return new NetcdfHeader(file, version, numrecs, vars);
  }

  /**
   * Reads an attribute list: with {@code keep}, the values of those named in {@link
   * Attributes#KEPT} (NC_CHAR as UTF-8 text, its trailing NULs dropped; numbers as stored,
   * big-endian), up to {@link Attributes#MAX_VALUE_BYTES} each; the others' values are skipped.
   */
  private static Attributes attributes(Cursor c, boolean cdf5, String file, boolean keep)
      throws IOException {
    int tag = c.int32();
    long n = cdf5 ? c.int64() : c.uint32();
    if (tag == 0 && n == 0) {
      return Attributes.none();
    }
    if (tag != NC_ATTRIBUTE) {
      throw bad(file, "attribute list");
    }
    Map<String, Attributes.Attribute> kept = new LinkedHashMap<>();
    for (long i = 0; i < n; i++) {
      String name = c.name(cdf5);
      int t = c.int32();
      long count = cdf5 ? c.int64() : c.uint32();
      ElementType type = type(t, file, "an attribute");
      int size1 = type.size();
      if (count < 0 || count > c.length() / size1) {
        throw new ScienceFormatException(file + ": an attribute of " + count + " values of "
            + size1 + " bytes, more than the file holds: the header is damaged");
      }
      long size = count * size1;
      long padded = (size + 3) / 4 * 4;
      if (!keep || size > Attributes.MAX_VALUE_BYTES || !Attributes.KEPT.contains(name)
          || kept.containsKey(name)) {
        c.skip(padded);
        continue;
      }
      byte[] value = c.bytes((int) size);
      c.skip(padded - size);
      if (type == ElementType.CHAR) {
        int end = value.length;
        while (end > 0 && value[end - 1] == 0) {
          end--;
        }
        kept.put(name, Attributes.Attribute.text(new String(value, 0, end,
            StandardCharsets.UTF_8)));
      } else {
        kept.put(name, Attributes.Attribute.numbers(type, ByteOrder.BIG_ENDIAN, value));
      }
    }
    return Attributes.of(kept);
  }

  private static ElementType type(int ncType, String file, String what) {
    switch (ncType) {
      case 1:
        return ElementType.INT8;
      case 2:
        return ElementType.CHAR;
      case 3:
        return ElementType.INT16;
      case 4:
        return ElementType.INT32;
      case 5:
        return ElementType.FLOAT32;
      case 6:
        return ElementType.FLOAT64;
      case 7:
        return ElementType.UINT8;
      case 8:
        return ElementType.UINT16;
      case 9:
        return ElementType.UINT32;
      case 10:
        return ElementType.INT64;
      case 11:
        return ElementType.UINT64;
      default:
        throw new ScienceFormatException(file + ": " + what + " has type " + ncType
            + ", which is not a NetCDF-3 type");
    }
  }

  private static ScienceFormatException bad(String file, String what) {
    return new ScienceFormatException(file + ": the NetCDF header's " + what + " is malformed");
  }

  /** Big-endian reads through the header, fetching pages as it goes. */
  private static final class Cursor {
    private final Positioned in;
    private final String file;
    private byte[] buf = new byte[0];
    private long pos;

    Cursor(Positioned in, String file) {
      this.in = in;
      this.file = file;
    }

    long length() throws IOException {
      return in.length();
    }

    private void need(long n) throws IOException {
      if (pos + n <= buf.length) {
        return;
      }
      if (n < 0 || pos + n > in.length()) { // before anything is allocated for it
        throw new EOFException();
      }
      long want = Math.max(pos + n, Math.max(PAGE, 2L * buf.length));
      if (want > (1 << 30)) {
        throw new ScienceFormatException(file + ": the NetCDF header is over 1 GiB");
      }
      want = Math.min(want, Math.max(pos + n, in.length()));
      byte[] more = new byte[(int) want];
      System.arraycopy(buf, 0, more, 0, buf.length);
      if (want > in.length()) {
        throw new EOFException();
      }
      in.readFully(buf.length, more, buf.length, (int) want - buf.length);
      buf = more;
    }

    byte[] bytes(int n) throws IOException {
      need(n);
      byte[] b = new byte[n];
      System.arraycopy(buf, (int) pos, b, 0, n);
      pos += n;
      return b;
    }

    int int32() throws IOException {
      need(4);
      int p = (int) pos;
      pos += 4;
      return (buf[p] & 0xff) << 24 | (buf[p + 1] & 0xff) << 16 | (buf[p + 2] & 0xff) << 8
          | buf[p + 3] & 0xff;
    }

    long uint32() throws IOException {
      return int32() & 0xFFFFFFFFL;
    }

    long int64() throws IOException {
      return (long) int32() << 32 | uint32();
    }

    void skip(long n) throws IOException {
      need(n);
      pos += n;
    }

    String name(boolean cdf5) throws IOException {
      long n = cdf5 ? int64() : uint32();
      if (n < 0 || n > 1 << 20) {
        throw new ScienceFormatException(file + ": a name in the NetCDF header is " + n
            + " bytes long");
      }
      String s = new String(bytes((int) n), StandardCharsets.UTF_8);
      skip((n + 3) / 4 * 4 - n);
      return s;
    }
  }
}
