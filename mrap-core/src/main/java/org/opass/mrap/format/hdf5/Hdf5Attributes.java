package org.opass.mrap.format.hdf5;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.format.Attributes;

/**
 * A dataset's attributes as MRAP keeps them ({@link Attributes#KEPT}: numbers and strings), the
 * strings HDF5 stores (fixed-length and padded, or variable-length in the global heap), and
 * netCDF's fill value of a NetCDF-4 variable.
 */
final class Hdf5Attributes {
  private Hdf5Attributes() {
  }

  /**
   * netCDF's fill value: the variable's _FillValue, else the dataset's (netCDF-C sets it to the
   * same; a file written without fill has none), else netCDF's default for its type.
   */
  static byte[] netcdfFill(Hdf5Object o, ElementType type, ByteOrder order,
      byte[] hdf5, String at) {
    Hdf5Object.Attribute a = o.attribute("_FillValue");
    ByteBuffer out = ByteBuffer.allocate(type.size()).order(order);
    if (a != null) {
      ElementType t = a.type.element();
      if (t != type || a.value.length != type.size()) {
        throw new Hdf5Damage("the _FillValue of " + at + " is not one element of its type");
      }
      byte[] v = a.value.clone();
      if (a.type.order != order) {
        for (int i = 0; i < v.length / 2; i++) {
          byte x = v[i];
          v[i] = v[v.length - 1 - i];
          v[v.length - 1 - i] = x;
        }
      }
      return v;
    }
    if (hdf5 != null) {
      return hdf5;
    }
    switch (type) { // netcdf.h's NC_FILL_*
      case INT8:
        out.put((byte) -127);
        break;
      case UINT8:
      case CHAR:
        out.put(type == ElementType.CHAR ? (byte) 0 : (byte) 255);
        break;
      case INT16:
        out.putShort((short) -32767);
        break;
      case UINT16:
        out.putShort((short) 65535);
        break;
      case INT32:
        out.putInt(-2147483647);
        break;
      case UINT32:
        out.putInt((int) 4294967295L);
        break;
      case INT64:
        out.putLong(-9223372036854775806L);
        break;
      case UINT64:
        out.putLong(-2L); // 18446744073709551614
        break;
      case FLOAT32:
        out.putFloat(9.9692099683868690e+36f);
        break;
      default:
        out.putDouble(9.9692099683868690e+36);
        break;
    }
    return out.array();
  }

  /**
   * The dataset's attributes named in {@link Attributes#KEPT}: numbers (integers and IEEE
   * floating point, in their own type and byte order) and text (a fixed-length or variable-length
   * string, one element); those of other types (compound, enumerated, references, several
   * strings) and those over {@link Attributes#MAX_VALUE_BYTES} are left out.
   */
  static Attributes attributes(Hdf5File h, Hdf5Object o, String at) {
    Map<String, Attributes.Attribute> out = new LinkedHashMap<>();
    for (Hdf5Object.Attribute a : o.attributes(Attributes.KEPT).values()) {
      ElementType t = a.type.element();
      if (t != null) {
        long bytes = Math.multiplyExact(a.elements(), t.size());
        if (a.value.length != bytes) {
          throw new Hdf5Damage("the attribute " + a.name + " of " + at + " holds "
              + a.value.length + " bytes for " + a.elements() + " numbers of " + t.size());
        }
        if (bytes <= Attributes.MAX_VALUE_BYTES) {
          out.put(a.name, Attributes.Attribute.numbers(t, a.type.order, a.value));
        }
        continue;
      }
      String text = string(h, a, at);
      if (text != null) {
        out.put(a.name, Attributes.Attribute.text(text));
      }
    }
    return Attributes.of(out);
  }

  /**
   * The text of a string attribute of one element (fixed-length, or variable-length in the
   * global heap) or none (a null dataspace: ""), its padding dropped; null for an attribute of
   * another type or of several strings, or over {@link Attributes#MAX_VALUE_BYTES}.
   */
  static String string(Hdf5File h, Hdf5Object.Attribute a, String at) {
    boolean fixed = a.type.kind == Datatype.STRING;
    boolean vlen = a.type.kind == Datatype.VLEN && (a.type.bits & 0x0f) == 1;
    if (!fixed && !vlen) {
      return null;
    }
    if (a.space.isNull) {
      return "";
    }
    if (a.elements() != 1) {
      return null;
    }
    if (a.value.length < a.type.size) {
      throw new Hdf5Damage("the attribute " + a.name + " of " + at + " holds "
          + a.value.length + " bytes for a string of " + a.type.size);
    }
    if (fixed) {
      return a.type.size > Attributes.MAX_VALUE_BYTES ? null
          : unpad(a.value, (int) a.type.size, a.type.bits & 0x0f);
    }
    Hdf5Bytes b = h.bytes(a.value, "the attribute " + a.name + " of " + at);
    long length = b.u32();
    long collection = b.address();
    long index = b.u32();
    if (length == 0) {
      return "";
    }
    if (length > Attributes.MAX_VALUE_BYTES) {
      return null;
    }
    byte[] s = h.globalHeapObject(collection, index);
    if (s.length < length) {
      throw new Hdf5Damage("the attribute " + a.name + " of " + at + " is a string of " + length
          + " bytes held in a global heap object of " + s.length);
    }
    return unpad(s, (int) length, a.type.bits >> 4 & 0x0f);
  }

  /** {@code n} bytes of UTF-8 padded as HDF5 pads strings: 0 NUL-terminated, 1 NULs, 2 spaces. */
  static String unpad(byte[] b, int n, int padding) {
    int end = 0;
    if (padding == 0) {
      while (end < n && b[end] != 0) {
        end++;
      }
    } else {
      end = n;
      while (end > 0 && (b[end - 1] == 0 || padding == 2 && b[end - 1] == ' ')) {
        end--;
      }
    }
    return new String(b, 0, end, StandardCharsets.UTF_8);
  }

}
