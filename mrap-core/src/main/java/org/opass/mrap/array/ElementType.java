package org.opass.mrap.array;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/** The element types a NetCDF variable or an HDF5 dataset of numbers can hold. */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public enum ElementType {
  INT8(1, true, false), UINT8(1, false, false), CHAR(1, false, false),
  INT16(2, true, false), UINT16(2, false, false),
  INT32(4, true, false), UINT32(4, false, false),
  INT64(8, true, false), UINT64(8, false, false),
  FLOAT32(4, true, true), FLOAT64(8, true, true);

  private final int size;
  private final boolean signed;
  private final boolean floating;

  ElementType(int size, boolean signed, boolean floating) {
    this.size = size;
    this.signed = signed;
    this.floating = floating;
  }

  /** Bytes per element. */
  public int size() {
    return size;
  }

  public boolean signed() {
    return signed;
  }

  public boolean floating() {
    return floating;
  }

  /** The type of a fixed-point number of {@code bytes} bytes. */
  public static ElementType integer(int bytes, boolean signed) {
    switch (bytes) {
      case 1:
        return signed ? INT8 : UINT8;
      case 2:
        return signed ? INT16 : UINT16;
      case 4:
        return signed ? INT32 : UINT32;
      case 8:
        return signed ? INT64 : UINT64;
      default:
        return null;
    }
  }
}
