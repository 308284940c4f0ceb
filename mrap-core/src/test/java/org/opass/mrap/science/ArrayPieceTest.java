package org.opass.mrap.science;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.opass.mrap.science.ElementType;

/**
 * A piece's elements read every way it offers give the same numbers, in either byte order: a
 * little-endian file (HDF5, NetCDF-4) as a big-endian one (NetCDF-3).
 */
class ArrayPieceTest {
  @Test
  void everyViewOfTheElementsReadsThemInTheFilesByteOrder() {
    float[] floats = {1.5f, -2.25f, 1e30f, Float.MIN_VALUE};
    int[] ints = {7, -1, Integer.MAX_VALUE, 123456};
    for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
      ByteBuffer f = ByteBuffer.allocate(16).order(order);
      ByteBuffer n = ByteBuffer.allocate(16).order(order);
      for (int i = 0; i < 4; i++) {
        f.putFloat(floats[i]);
        n.putInt(ints[i]);
      }
      ArrayPiece p = new ArrayPiece();
      p.set(ElementType.FLOAT32, order, new int[] {4}, new long[] {1}, f.array(), 0, 16);
      assertArrayEquals(floats, p.toFloats(), order.toString());
      assertEquals(order, p.buffer().order(), "the buffer is in the file's byte order");
      assertEquals(floats[2], p.buffer().getFloat(8), order.toString());
      assertEquals((double) floats[1], p.toDoubles()[1], order.toString());
      p.set(ElementType.INT32, order, new int[] {4}, new long[] {1}, n.array(), 0, 16);
      assertArrayEquals(ints, p.toInts(), order.toString());
      assertEquals(ints[3], p.buffer().getInt(12), order.toString());
    }
  }
}
