package org.opass.mrap.science;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.cf.CfDecoding;
import org.opass.mrap.cf.Coordinates;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.Storage;
import org.opass.mrap.format.Variable;

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
      p.set(ElementType.FLOAT32, order, new int[] {4}, new long[] {1}, ByteBuffer.wrap(f.array()));
      assertArrayEquals(floats, p.toFloats(), order.toString());
      assertEquals(order, p.buffer().order(), "the buffer is in the file's byte order");
      assertEquals(floats[2], p.buffer().getFloat(8), order.toString());
      assertEquals((double) floats[1], p.toDoubles()[1], order.toString());
      p.set(ElementType.INT32, order, new int[] {4}, new long[] {1}, ByteBuffer.wrap(n.array()));
      assertArrayEquals(ints, p.toInts(), order.toString());
      assertEquals(ints[3], p.buffer().getInt(12), order.toString());
    }
  }

  /**
   * A decoded piece (packed int16 of an ERA5-like variable, one element its fill value) keeps
   * its values, its mask and its coordinates (a CF time as instants, a noleap one as calendar
   * dates, latitude as numbers) through a shuffle: written and read back.
   */
  @Test
  void aDecodedPieceWithItsCoordinatesSurvivesAShuffle() throws IOException {
    Variable v = Variable.of("f.nc", "t2m", new long[] {2, 3}, ElementType.INT16,
        ByteOrder.BIG_ENDIAN, Storage.strided(0, new long[] {6, 2})).withMetadata(
        List.of("time", "lat"),
        Attributes.of(Map.of("scale_factor", Attributes.Attribute.of(ElementType.FLOAT64, 0.5),
            "add_offset", Attributes.Attribute.of(ElementType.FLOAT64, 250),
            "_FillValue", Attributes.Attribute.of(ElementType.INT16, -32767))));
    ByteBuffer stored = ByteBuffer.allocate(12);
    for (short x : new short[] {0, 2, -32767, 4, 6, 8}) {
      stored.putShort(x);
    }
    for (String calendar : new String[] {"gregorian", "noleap"}) {
      Coordinates c = new Coordinates(List.of(
          new Coordinates.Axis("time", 0, new double[] {1051896, 1051920},
              "hours since 1900-01-01 00:00:00.0", calendar, null),
          new Coordinates.Axis("lat", 0, new double[] {45, 42.5, 40}, "degrees_north", null,
              "latitude")));
      ArrayPiece p = new ArrayPiece();
      p.setDecoded(CfDecoding.of(v, true), ByteOrder.BIG_ENDIAN, new int[] {2, 3},
          new long[] {1, 1}, ByteBuffer.wrap(stored.array()));
      p.setCoordinates(c, new long[] {0, 0});
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      p.write(new DataOutputStream(bytes));
      ArrayPiece back = new ArrayPiece();
      back.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
      for (ArrayPiece q : new ArrayPiece[] {p, back}) {
        assertTrue(q.decoded());
        assertEquals(ElementType.FLOAT64, q.type());
        assertEquals(1, q.missing());
        assertTrue(q.isMissing(2));
        assertFalse(q.isMissing(3));
        assertArrayEquals(new double[] {250, 251, Double.NaN, 252, 253, 254}, q.toDoubles());
        assertEquals("lat", q.dimension(1));
        assertEquals(40.0, q.coordinate(1, 5));
        assertEquals(1051920.0, q.coordinateValue(0, 4));
        Object t = q.coordinate(0, 4);
        if (calendar.equals("gregorian")) { // as cftime.num2date gives them
          assertEquals(Instant.parse("2020-01-02T00:00:00Z"), t);
        } else {
          assertEquals("2020-01-31T00:00:00", t.toString());
        }
      }
    }
  }
}
