package org.opass.mrap.write;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;

/**
 * The bytes of a CF NetCDF-3 file of an {@link OutputDataset}, laid out as netCDF-C lays out a
 * file without a record dimension: the header, the coordinate variables, then each data
 * variable whole, in order, each padded to 4 bytes. The header and the coordinates are the
 * driver's; a data variable's bytes are its parts' ({@link PartWriter}), joined in order.
 */
public final class Netcdf3Writer {
  private static final int NC_DIMENSION = 0x0A;
  private static final int NC_VARIABLE = 0x0B;
  private static final int NC_ATTRIBUTE = 0x0C;
  private static final int NC_CHAR = 2;
  private static final int NC_DOUBLE = 6;

  private final OutputDataset dataset;
  private final boolean cdf5;
  private final long headLength;

  public Netcdf3Writer(OutputDataset dataset) {
    this.dataset = dataset;
    this.cdf5 = dataset.needsCdf5();
    long coordinates = 0;
    for (OutputDimension d : dataset.dimensions()) {
      coordinates += padded((long) d.length() * d.type().size());
    }
    this.headLength = header(new long[count()]).length + coordinates;
  }

  /** Whether the file is CDF-5 (else 64-bit offset, CDF-2). */
  public boolean cdf5() {
    return cdf5;
  }

  /** The bytes of the header and the coordinate variables: where the data variables begin. */
  public long headLength() {
    return headLength;
  }

  /** The bytes of data variable {@code v}, padding included. */
  public long variableLength(int v) {
    return padded(dataset.rowElements() * dataset.dimensions().get(0).length()
        * dataset.variables().get(v).type().size());
  }

  /** The whole file's bytes. */
  public long length() {
    long n = headLength;
    for (int v = 0; v < dataset.variables().size(); v++) {
      n += variableLength(v);
    }
    return n;
  }

  /** The header and the coordinate variables' values: the file's first {@link #headLength}. */
  public byte[] head() {
    long[] begins = new long[count()];
    List<OutputDimension> dims = dataset.dimensions();
    long at = header(begins).length;
    int i = 0;
    for (OutputDimension d : dims) {
      begins[i++] = at;
      at += padded((long) d.length() * d.type().size());
    }
    for (int v = 0; v < dataset.variables().size(); v++) {
      begins[i++] = at;
      at += variableLength(v);
    }
    byte[] header = header(begins);
    ByteBuffer out = ByteBuffer.allocate((int) headLength).order(ByteOrder.BIG_ENDIAN);
    out.put(header);
    for (OutputDimension d : dims) {
      for (double x : d.values()) {
        Elements.put(out, d.type(), x);
      }
      while (out.position() % 4 != 0) {
        out.put((byte) 0);
      }
    }
    return out.array();
  }

  /** The padding a variable's last part ends with. */
  public static int padding(long bytes) {
    return (int) (padded(bytes) - bytes);
  }

  private int count() {
    return dataset.dimensions().size() + dataset.variables().size();
  }

  private static long padded(long bytes) {
    return (bytes + 3) & ~3L;
  }

  private byte[] header(long[] begins) {
    Header h = new Header();
    h.out.write('C');
    h.out.write('D');
    h.out.write('F');
    h.out.write(cdf5 ? 5 : 2);
    h.count(0); // numrecs: no record dimension
    List<OutputDimension> dims = dataset.dimensions();
    h.int32(NC_DIMENSION);
    h.count(dims.size());
    for (OutputDimension d : dims) {
      h.name(d.name());
      h.count(d.length());
    }
    h.attributes(dataset.attributes(), null, Double.NaN);
    h.int32(NC_VARIABLE);
    h.count(count());
    int i = 0;
    for (int d = 0; d < dims.size(); d++) {
      OutputDimension dim = dims.get(d);
      h.name(dim.name());
      h.count(1);
      h.count(d);
      h.attributes(dim.attributes(), null, Double.NaN);
      h.int32(ncType(dim.type()));
      h.vsize(padded((long) dim.length() * dim.type().size()));
      h.int64(begins[i++]);
    }
    for (int v = 0; v < dataset.variables().size(); v++) {
      OutputVariable var = dataset.variables().get(v);
      h.name(var.name());
      h.count(dims.size());
      for (int d = 0; d < dims.size(); d++) {
        h.count(d);
      }
      h.attributes(var.attributes(), var, var.fill());
      h.int32(ncType(var.type()));
      h.vsize(variableLength(v));
      h.int64(begins[i++]);
    }
    return h.out.toByteArray();
  }

  private static int ncType(ElementType t) {
    switch (t) {
      case INT8:
        return 1;
      case INT16:
        return 3;
      case INT32:
        return 4;
      case FLOAT32:
        return 5;
      case FLOAT64:
        return 6;
      case UINT8:
        return 7;
      case UINT16:
        return 8;
      case UINT32:
        return 9;
      case INT64:
        return 10;
      case UINT64:
        return 11;
      default:
        throw new IllegalArgumentException("no NetCDF variable is written as " + t);
    }
  }

  /** The header's encoding: big-endian, counts 32-bit in CDF-2 and 64-bit in CDF-5. */
  private final class Header {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    void int32(int x) {
      out.write(x >>> 24);
      out.write(x >>> 16);
      out.write(x >>> 8);
      out.write(x);
    }

    void int64(long x) {
      int32((int) (x >>> 32));
      int32((int) x);
    }

    void count(long n) {
      if (cdf5) {
        int64(n);
      } else {
        int32((int) n);
      }
    }

    void vsize(long n) {
      count(cdf5 ? n : Math.min(n, 0xFFFFFFFFL));
    }

    void bytes(byte[] b) {
      out.write(b, 0, b.length);
      for (int i = b.length; i % 4 != 0; i++) {
        out.write(0);
      }
    }

    void name(String name) {
      byte[] b = name.getBytes(StandardCharsets.UTF_8);
      count(b.length);
      bytes(b);
    }

    /** The attributes; a variable's {@code _FillValue} (of its type) first. */
    void attributes(Map<String, Object> attrs, OutputVariable var, double fill) {
      boolean fillDeclared = var != null && var.declaresFill();
      int n = attrs.size() + (fillDeclared ? 1 : 0) + (var != null && var.isPacked() ? 2 : 0);
      if (n == 0) {
        int32(0);
        count(0);
        return;
      }
      int32(NC_ATTRIBUTE);
      count(n);
      if (fillDeclared) {
        name("_FillValue");
        int32(ncType(var.type()));
        count(1);
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.BIG_ENDIAN);
        Elements.put(b, var.type(), fill);
        byte[] raw = new byte[b.position()];
        b.flip();
        b.get(raw);
        bytes(raw);
      }
      if (var != null && var.isPacked()) {
        number("scale_factor", var.scale());
        number("add_offset", var.offset());
      }
      for (Map.Entry<String, Object> a : attrs.entrySet()) {
        if (a.getValue() instanceof Number) {
          number(a.getKey(), ((Number) a.getValue()).doubleValue());
        } else {
          name(a.getKey());
          int32(NC_CHAR);
          byte[] b = String.valueOf(a.getValue()).getBytes(StandardCharsets.UTF_8);
          count(b.length);
          bytes(b);
        }
      }
    }

    void number(String name, double x) {
      name(name);
      int32(NC_DOUBLE);
      count(1);
      int64(Double.doubleToRawLongBits(x));
    }
  }
}
