package org.opass.mrap.format;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;

/**
 * The attributes of a variable that CF decoding and coordinates use ({@link #KEPT}), by name:
 * an immutable value. Only these are kept, so that a variable's description stays small
 * whatever else its header holds (histories, long comments); a header's kept attribute whose
 * value is over {@link #MAX_VALUE_BYTES} is left out as well.
 */
public final class Attributes {
  /** The attributes read from a header; the others are skipped. */
  public static final List<String> KEPT = List.of("_FillValue", "missing_value", "valid_min",
      "valid_max", "valid_range", "scale_factor", "add_offset", "_Unsigned", "units",
      "calendar", "standard_name", "axis", "positive", "coordinates", "bounds");

  /** The largest value of a kept attribute read from a header, in bytes (64 KiB). */
  public static final int MAX_VALUE_BYTES = 64 << 10;

  private static final Attributes NONE = new Attributes(Collections.emptyMap());

  private final Map<String, Attribute> byName;

  private Attributes(Map<String, Attribute> byName) {
    this.byName = byName;
  }

  public static Attributes none() {
    return NONE;
  }

  /** The {@link #KEPT} ones of {@code all}, in their order. */
  public static Attributes of(Map<String, Attribute> all) {
    Map<String, Attribute> kept = new LinkedHashMap<>();
    for (Map.Entry<String, Attribute> e : all.entrySet()) {
      if (KEPT.contains(e.getKey()) && e.getValue() != null) {
        kept.put(e.getKey(), e.getValue());
      }
    }
    return kept.isEmpty() ? NONE : new Attributes(Collections.unmodifiableMap(kept));
  }

  /** The attribute {@code name}, or null. */
  public Attribute get(String name) {
    return byName.get(name);
  }

  /** The text of attribute {@code name}, trimmed, or null where it is absent or not text. */
  public String text(String name) {
    Attribute a = byName.get(name);
    return a == null || !a.isText() ? null : a.text().trim();
  }

  public Set<String> names() {
    return byName.keySet();
  }

  public boolean isEmpty() {
    return byName.isEmpty();
  }

  /** Writes these attributes; {@link #read} reads them back. */
  public void write(DataOutput out) throws IOException {
    out.writeInt(byName.size());
    for (Map.Entry<String, Attribute> e : byName.entrySet()) {
      out.writeUTF(e.getKey());
      Attribute a = e.getValue();
      out.writeByte(a.type == null ? -1 : a.type.ordinal());
      out.writeBoolean(a.order == ByteOrder.BIG_ENDIAN);
      out.writeInt(a.raw.length);
      out.write(a.raw);
    }
  }

  public static Attributes read(DataInput in) throws IOException {
    int n = in.readInt();
    Map<String, Attribute> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String name = in.readUTF();
      int t = in.readByte();
      ByteOrder order = in.readBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
      byte[] raw = new byte[in.readInt()];
      in.readFully(raw);
      m.put(name, t < 0 ? Attribute.text(new String(raw, StandardCharsets.UTF_8))
          : Attribute.numbers(ElementType.values()[t], order, raw));
    }
    return of(m);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Attributes && byName.equals(((Attributes) o).byName);
  }

  @Override
  public int hashCode() {
    return byName.hashCode();
  }

  @Override
  public String toString() {
    return byName.toString();
  }

  /**
   * One attribute: text, or numbers of an element type kept as stored (so that a fill value
   * compares exactly in its own type, whatever its width).
   */
  public static final class Attribute {
    private final ElementType type; // null: text
    private final ByteOrder order;
    private final byte[] raw;

    private Attribute(ElementType type, ByteOrder order, byte[] raw) {
      this.type = type;
      this.order = order;
      this.raw = raw;
    }

    public static Attribute text(String s) {
      return new Attribute(null, ByteOrder.BIG_ENDIAN, s.getBytes(StandardCharsets.UTF_8));
    }

    /** Numbers of {@code type} as stored in {@code order}: whole elements only. */
    public static Attribute numbers(ElementType type, ByteOrder order, byte[] raw) {
      if (type == null || raw.length % type.size() != 0) {
        throw new IllegalArgumentException(raw.length + " bytes are not whole elements of "
            + type);
      }
      return new Attribute(type, order, raw.clone());
    }

    /** Numbers of {@code type} given as doubles (whole numbers for integer types). */
    public static Attribute of(ElementType type, double... values) {
      java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(values.length * type.size());
      for (double v : values) {
        Elements.put(b, type, v);
      }
      return new Attribute(type, ByteOrder.BIG_ENDIAN, b.array());
    }

    public boolean isText() {
      return type == null;
    }

    /** The text of a text attribute (trailing NULs dropped, as netCDF-C pads). */
    public String text() {
      if (type != null) {
        throw new IllegalStateException("a numeric attribute of " + type + " has no text");
      }
      String s = new String(raw, StandardCharsets.UTF_8);
      int end = s.length();
      while (end > 0 && s.charAt(end - 1) == 0) {
        end--;
      }
      return s.substring(0, end);
    }

    /** The byte order the numbers are held in (as the file stores them). */
    public ByteOrder order() {
      return order;
    }

    /** The numbers' type; null for text. */
    public ElementType type() {
      return type;
    }

    /** Numbers held (0 for text). */
    public int count() {
      return type == null ? 0 : raw.length / type.size();
    }

    public double getDouble(int i) {
      return Elements.asDouble(raw, i * type.size(), type, order);
    }

    /** Number {@code i} exactly, for integer types (floats truncated). */
    public long getLong(int i) {
      return Elements.asLong(raw, i * type.size(), type, order);
    }

    /** Number {@code i}'s bytes in {@code order}, as an element of the same type is stored. */
    public byte[] element(int i, ByteOrder to) {
      int s = type.size();
      byte[] e = Arrays.copyOfRange(raw, i * s, (i + 1) * s);
      if (to != order) {
        for (int a = 0, b = s - 1; a < b; a++, b--) {
          byte x = e[a];
          e[a] = e[b];
          e[b] = x;
        }
      }
      return e;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Attribute)) {
        return false;
      }
      Attribute a = (Attribute) o;
      if (type != a.type) {
        return false;
      }
      if (type == null) {
        return text().equals(a.text());
      }
      for (int i = 0; i < count(); i++) {
        if (!Arrays.equals(element(i, ByteOrder.BIG_ENDIAN), a.element(i, ByteOrder.BIG_ENDIAN))) {
          return false;
        }
      }
      return count() == a.count();
    }

    @Override
    public int hashCode() {
      return type == null ? text().hashCode() : type.hashCode() * 31 + count();
    }

    @Override
    public String toString() {
      if (type == null) {
        return "\"" + text() + "\"";
      }
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < count(); i++) {
        b.append(i == 0 ? "" : ", ").append(type.floating() ? String.valueOf(getDouble(i))
            : String.valueOf(getLong(i)));
      }
      return (count() == 1 ? b.toString() : "[" + b + "]") + " (" + type.name()
          .toLowerCase(java.util.Locale.ROOT) + ")";
    }
  }
}
