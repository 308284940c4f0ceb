package org.opass.mrap.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.layout.PackedLayoutTest;
import org.opass.mrap.layout.TiledLayout;
import org.opass.mrap.pattern.TiledPattern;

/**
 * A tile-major file read back in original order, as {@code mrap-copy} copies it out or reads it
 * for another pattern: in 8 MiB requests, each a row piece from every tile, read in the file's
 * order (a time step's rows lie together in each tile). Reading the runs in original order
 * through four 1 MiB windows read the file 64 times over.
 */
class LogicalReadsTest {
  @TempDir
  File tmp;

  @Test
  void aTileMajorFileReadInOriginalOrderIsReadAboutOnce() throws Exception {
    // 64 tiles of 256 KiB; a request's part of a tile is 128 KiB, the rest of it a gap too
    // long to read through
    TiledPattern tiles = TiledPattern.of(100, new long[] {64, 256, 256}, 4,
        new long[] {64, 32, 32});
    int length = (int) tiles.array().end() + 50;
    byte[] original = new byte[length];
    new Random(27).nextBytes(original);
    TiledLayout layout = TiledLayout.plan(tiles, 4 << 20, length);
    File f = new File(tmp, "tiled");
    Files.write(f.toPath(), PackedLayoutTest.restructure(original, layout));
    byte[] back = new byte[length];
    try (FSDataInputStream in = FileSystem.getLocal(new Configuration(false))
        .open(new Path(f.toURI()))) {
      LogicalReads reads = new LogicalReads(in, layout, 1 << 20);
      for (int at = 0; at < length; at += 8 << 20) {
        reads.read(at, back, at, Math.min(8 << 20, length - at));
      }
      assertArrayEquals(original, back);
      assertTrue(reads.bytesRead() <= length * 1.01, reads.bytesRead() + " bytes read");
      // a read a tile in each of the two requests, and the bytes before and after the array
      assertEquals(2 * tiles.tileCount() + 2, reads.reads(), "reads");
      // small requests still share windows: a region at a time, as a task reads one
      LogicalReads regions = new LogicalReads(in, layout, 64 * 1024);
      byte[] one = new byte[128];
      for (int row = 0; row < 64; row++) { // time step 0, two tiles' rows
        regions.read(100 + row * 1024L, one, 0, one.length);
        assertArrayEquals(Arrays.copyOfRange(original, 100 + row * 1024, 100 + row * 1024
            + 128), one);
      }
      assertEquals(2, regions.reads(), "a window a tile, for the rows of one time step");
    }
  }
}
