package org.opass.mrap.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.TiledPattern;

/**
 * The tile-major layout against a file re-laid element by element (the oracle: for each tile
 * in grid order, its elements in row-major order, copied from their places in the original),
 * on random arrays of one to four dimensions, edge tiles, element sizes, bytes before and after
 * the array and chunk sizes: the physical runs write that file, the logical runs read the
 * original back from it over random ranges, each task's bytes are its tile's regions end to
 * end, and the trailer reads back as the same layout.
 */
public class TiledLayoutTest {

  /** The oracle: the file re-laid element by element. */
  private static byte[] expected(byte[] original, TiledLayout layout) {
    TiledPattern tiles = layout.tiles();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(layout.header(), 0, RestructuredLayout.HEADER_BYTES);
    int base = (int) tiles.base();
    int element = (int) tiles.elementSize();
    int end = (int) tiles.array().end();
    out.write(original, 0, base);
    long[] shape = tiles.shape();
    for (long t = 0; t < tiles.tileCount(); t++) {
      long[] origin = tiles.tile(t).origin();
      long[] extent = tiles.tile(t).extent();
      long count = 1;
      for (long e : extent) {
        count *= e;
      }
      for (long k = 0; k < count; k++) { // the tile's elements, row-major
        long rest = k;
        long[] idx = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
          idx[d] = origin[d] + rest % extent[d];
          rest /= extent[d];
        }
        long e = 0;
        for (int d = 0; d < shape.length; d++) {
          e = e * shape[d] + idx[d];
        }
        out.write(original, (int) (base + e * element), element);
      }
    }
    out.write(original, end, original.length - end);
    byte[] trailer = layout.trailer();
    out.write(trailer, 0, trailer.length);
    return out.toByteArray();
  }

  public static TiledPattern randomTiles(Random rnd) {
    int n = 1 + rnd.nextInt(4);
    long[] shape = new long[n];
    long[] tile = new long[n];
    for (int d = 0; d < n; d++) {
      shape[d] = 1 + rnd.nextInt(n == 1 ? 200 : 9);
      tile[d] = rnd.nextInt(4) == 0 ? shape[d] : 1 + rnd.nextInt((int) shape[d]);
    }
    return TiledPattern.of(rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(50), shape,
        1 + rnd.nextInt(8), tile);
  }

  @Test
  void randomTilingsReLayTheArrayTileByTileAndReadBack() throws Exception {
    Random rnd = new Random(24);
    for (int c = 0; c < 400; c++) {
      TiledPattern tiles = randomTiles(rnd);
      byte[] original = new byte[(int) tiles.array().end() + rnd.nextInt(60)];
      rnd.nextBytes(original);
      long chunk = RestructuredLayout.HEADER_BYTES + 1 + rnd.nextInt(500);
      TiledLayout layout = TiledLayout.plan(tiles, chunk, original.length);
      String what = "case " + c + ": " + layout;
      byte[] physical = PackedLayoutTest.restructure(original, layout);
      assertArrayEquals(expected(original, layout), physical, what);
      assertEquals(original.length + RestructuredLayout.HEADER_BYTES, layout.dataLength());
      for (int r = 0; r < 20; r++) {
        int from = rnd.nextInt(original.length + 1);
        int to = from + rnd.nextInt(original.length - from + 1);
        assertArrayEquals(Arrays.copyOfRange(original, from, to),
            PackedLayoutTest.logical(physical, layout, from, to), what + " [" + from + ", "
            + to + ")");
      }
      long pos = layout.taskStart(0);
      for (int t = 0; t < layout.tasks().tasks(); t++) { // a tile: its regions end to end, one run
        assertEquals(pos, layout.taskStart(t), what + " tile " + t);
        TaskPlacer placer = layout.placer(t);
        RegionCursor rc = layout.tasks().task(t).cursor();
        long key = layout.tasks().logicalStart(t);
        while (rc.next()) {
          long at = placer.place(rc.length());
          assertEquals(pos, at, what + " tile " + t);
          assertArrayEquals(Arrays.copyOfRange(original, (int) rc.offset(),
              (int) (rc.offset() + rc.length())), Arrays.copyOfRange(physical, (int) at,
              (int) (at + rc.length())), what + " tile " + t);
          pos += rc.length();
          key += rc.length();
        }
        assertEquals(pos, layout.taskEnd(t));
        assertEquals(key, t + 1 < layout.tasks().tasks() ? layout.tasks().logicalStart(t + 1)
            : tiles.array().totalBytes());
        assertTrue(layout.taskChunks(t) >= 1);
        assertEquals(layout.taskStart(t) / chunk, layout.taskFirstChunk(t));
        assertEquals((layout.taskEnd(t) - 1) / chunk,
            layout.taskFirstChunk(t) + layout.taskChunks(t) - 1);
        // what a writer reads with the tile's first byte holds the tile
        AccessPattern band = layout.readTogether(layout.tasks().task(t).offsetOf(0));
        RegionCursor in = layout.tasks().task(t).cursor();
        while (in.next()) {
          long k = band.firstAtOrAfter(in.offset() + 1) - 1;
          assertTrue(band.offsetOf(k) + band.bytesBefore(k + 1) - band.bytesBefore(k)
              >= in.offset() + in.length(), what + " tile " + t + " band " + band);
        }
      }
      assertEquals(layout.dataLength(), pos + original.length - tiles.array().end());
      // the file holds its own layout
      LayoutHeader header = LayoutHeader.parse(physical, physical.length, what);
      assertEquals(TiledLayout.VERSION, header.version());
      byte[] trailer = Arrays.copyOfRange(physical, (int) header.dataLength(), physical.length);
      RestructuredLayout back = RestructuredLayout.read(header, trailer, what);
      assertEquals(layout.toString(), back.toString());
      assertTrue(back.packs(tiles));
      assertFalse(back.packs(tiles.tile(0)));
    }
  }

  @Test
  void aBandOfTilesIsReadTogetherUpToItsBound() {
    // 4 x 1000 x 1000 bytes in 4 x 100 x 100 tiles: a band is 10 tiles of 40000 bytes
    TiledLayout layout = TiledLayout.plan(TiledPattern.of(10, new long[] {4, 1000, 1000}, 1,
        new long[] {4, 100, 100}), 1 << 20, 10 + 4_000_000);
    AccessPattern band = layout.readTogether(10 + 1000 * 200 + 300); // tile (0, 2, 3)
    assertEquals(7 * 40000, band.totalBytes(), "tiles 3 to 9 of the band");
    assertEquals(10 + 1000 * 200 + 300, band.offsetOf(0));
    assertNull(layout.readTogether(5), "before the array");
    // tiles larger than the bound are read as they come
    TiledLayout huge = TiledLayout.plan(TiledPattern.of(0, new long[] {9000, 9000}, 1,
        new long[] {9000, 9000}), 1 << 20, 81_000_000);
    assertNull(huge.readTogether(0));
  }

  @Test
  void badTilingsAndDamagedTrailersAreRefused() throws Exception {
    TiledPattern tiles = TiledPattern.of(0, new long[] {10, 10}, 4, new long[] {5, 5});
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> TiledLayout.plan(tiles, 64, 400)).getMessage().contains("chunk size (64)"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> TiledLayout.plan(tiles, 1024, 399)).getMessage().contains("past the file's 399"));
    byte[] original = new byte[400];
    byte[] physical = PackedLayoutTest.restructure(original, TiledLayout.plan(tiles, 1024,
        400));
    LayoutHeader header = LayoutHeader.parse(physical, physical.length, "/d/t");
    byte[] trailer = Arrays.copyOfRange(physical, (int) header.dataLength(), physical.length);
    trailer[trailer.length - 3] ^= 1;
    assertTrue(assertThrows(IOException.class, () -> RestructuredLayout.read(header, trailer,
        "/d/t")).getMessage().startsWith("/d/t: its MRAP layout (the trailer) does not match"));
  }
}
