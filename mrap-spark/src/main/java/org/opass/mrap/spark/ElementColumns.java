package org.opass.mrap.spark;

import java.math.BigDecimal;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.science.ArrayPiece;

/**
 * A variable's elements as a Spark array column: each element type as the Spark type that
 * holds every value of it (an unsigned type as the next wider signed one, UINT64 as a decimal
 * of 20 digits), so that no value is read wrong.
 */
final class ElementColumns {
  private ElementColumns() {
  }

  /** The Spark type of one element. */
  static DataType of(ElementType t) {
    switch (t) {
      case INT8:
        return DataTypes.ByteType;
      case UINT8:
      case CHAR:
      case INT16:
        return DataTypes.ShortType;
      case UINT16:
      case INT32:
        return DataTypes.IntegerType;
      case UINT32:
      case INT64:
        return DataTypes.LongType;
      case UINT64:
        return DataTypes.createDecimalType(20, 0);
      case FLOAT32:
        return DataTypes.FloatType;
      default:
        return DataTypes.DoubleType;
    }
  }

  /**
   * A piece's elements (C order), as an array of {@link #of}{@code (piece.type())}; a missing
   * element of a decoded piece of integers is null (of floats, NaN).
   */
  static ArrayData values(ArrayPiece piece) {
    int n = piece.elements();
    if (piece.missing() > 0 && !piece.type().floating()) {
      ArrayData all = values(piece.type(), piece, n);
      Object[] v = new Object[n];
      DataType t = of(piece.type());
      for (int i = 0; i < n; i++) {
        v[i] = piece.isMissing(i) ? null : all.get(i, t);
      }
      return new GenericArrayData(v);
    }
    return values(piece.type(), piece, n);
  }

  private static ArrayData values(ElementType type, ArrayPiece piece, int n) {
    switch (type) {
      case FLOAT64:
        return UnsafeArrayData.fromPrimitiveArray(piece.toDoubles());
      case FLOAT32:
        return UnsafeArrayData.fromPrimitiveArray(piece.toFloats());
      case INT8: {
        byte[] v = new byte[n];
        for (int i = 0; i < n; i++) {
          v[i] = (byte) piece.getLong(i);
        }
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case UINT8:
      case CHAR:
      case INT16: {
        short[] v = new short[n];
        for (int i = 0; i < n; i++) {
          v[i] = (short) piece.getLong(i);
        }
        return UnsafeArrayData.fromPrimitiveArray(v);
      }
      case UINT16:
      case INT32:
        return UnsafeArrayData.fromPrimitiveArray(piece.toInts());
      case UINT64: {
        Object[] v = new Object[n];
        for (int i = 0; i < n; i++) {
          v[i] = Decimal.apply(new BigDecimal(Long.toUnsignedString(piece.getLong(i))), 20, 0);
        }
        return new GenericArrayData(v);
      }
      default: // UINT32, INT64
        return UnsafeArrayData.fromPrimitiveArray(piece.toLongs());
    }
  }
}
