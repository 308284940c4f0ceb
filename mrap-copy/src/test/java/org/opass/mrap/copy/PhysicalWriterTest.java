package org.opass.mrap.copy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.layout.PackedLayout;
import org.opass.mrap.layout.PackedLayoutTest;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.layout.TiledLayout;
import org.opass.mrap.layout.TiledLayoutTest;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.StridedPattern;
import org.opass.mrap.pattern.TiledPattern;

/**
 * The copy's writer against the layout's own description of the file, on random layouts and
 * on a whole file written at once or chunk by chunk (as the copy job's writers do): the same
 * bytes, the CRC32C of what it wrote, and its chunks' parts of the original's CRC32C adding up
 * to the original's.
 */
class PhysicalWriterTest {
  @TempDir
  File tmp;

  private static int crc(byte[] b) {
    CRC32C c = new CRC32C();
    c.update(b);
    return (int) c.getValue();
  }

  @Test
  void writesTheLayoutsBytesWholeOrByChunk() throws Exception {
    Random rnd = new Random(21);
    Configuration conf = localConf();
    for (int c = 0; c < 150; c++) {
      int length = 1 + rnd.nextInt(120_000);
      byte[] original = new byte[length];
      rnd.nextBytes(original);
      File f = new File(tmp, "src" + c);
      Files.write(f.toPath(), original);
      SourceFile source = SourceFile.of(conf, new Path(f.toURI()));
      AccessPattern p = c % 3 == 0 ? StridedPattern.vector(rnd.nextInt(10), 1 + rnd.nextInt(40),
          rnd.nextInt(3), 1) : PackedLayoutTest.randomPattern(rnd, length);
      if (p.end() > length) {
        continue;
      }
      long chunk = RestructuredLayout.HEADER_BYTES + 1 + rnd.nextInt(rnd.nextBoolean() ? 300
          : 20_000);
      assertWritesWholeAndByChunk(source, original, PackedLayout.plan(p, chunk, length,
          1 + rnd.nextInt(3)), "case " + c);
      // a plain copy is the original
      try (SourceFile.Reader in = source.open()) {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        PhysicalWriter.Sums sums = new PhysicalWriter(in, null, length).write(0, length, plain,
            null);
        assertArrayEquals(original, plain.toByteArray());
        assertEquals(crc(original), sums.original);
        assertEquals(crc(original), sums.written);
      }
      assertEquals(0, Arrays.compare(original, Files.readAllBytes(f.toPath())));
    }
  }

  @Test
  void readsTheSourceAboutOnceNotOncePerKindOfRun() throws Exception {
    // a fifth of the file in 4 KiB regions 16 KiB apart: reading through every gap under
    // GAP would read the whole source for the regions, and again for the rest of the file
    Configuration conf = localConf();
    int length = 4 << 20;
    byte[] original = new byte[length];
    new Random(22).nextBytes(original);
    File f = new File(tmp, "fifth");
    Files.write(f.toPath(), original);
    AccessPattern p = StridedPattern.vector(0, 4096, 16 * 1024, length / (20 * 1024));
    PackedLayout layout = PackedLayout.plan(p, 1 << 20, length, 1);
    org.apache.hadoop.fs.StorageStatistics stats =
        org.apache.hadoop.fs.FileSystem.getGlobalStorageStatistics().get("file");
    try (SourceFile.Reader in = SourceFile.of(conf, new Path(f.toURI())).open()) {
      long before = stats.getLong("bytesRead");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      new PhysicalWriter(in, layout, length).write(0, layout.physicalLength(), out, null);
      assertArrayEquals(PackedLayoutTest.restructure(original, layout), out.toByteArray());
      double read = (stats.getLong("bytesRead") - before) / (double) length;
      org.junit.jupiter.api.Assertions.assertTrue(read >= 1 && read <= 1.3,
          "read " + read + " times the source");
    }
  }

  @Test
  void writesTileMajorLayoutsWholeOrByChunk() throws Exception {
    Random rnd = new Random(25);
    Configuration conf = localConf();
    for (int c = 0; c < 150; c++) {
      TiledPattern tiles = TiledLayoutTest.randomTiles(rnd);
      int length = (int) tiles.array().end() + rnd.nextInt(60);
      byte[] original = new byte[length];
      rnd.nextBytes(original);
      File f = new File(tmp, "tiles" + c);
      Files.write(f.toPath(), original);
      long chunk = RestructuredLayout.HEADER_BYTES + 1 + rnd.nextInt(300);
      assertWritesWholeAndByChunk(SourceFile.of(conf, new Path(f.toURI())), original,
          TiledLayout.plan(tiles, chunk, length), "case " + c);
    }
  }

  /**
   * The writer gives the layout's own description of the file, written whole and chunk by
   * chunk, with the CRC32C of what it wrote and its parts of the original's.
   */
  private static void assertWritesWholeAndByChunk(SourceFile source, byte[] original,
      RestructuredLayout layout, String what) throws Exception {
    what += " " + layout;
    byte[] expected = PackedLayoutTest.restructure(original, layout);
    long length = original.length;
    try (SourceFile.Reader in = source.open()) {
      ByteArrayOutputStream whole = new ByteArrayOutputStream();
      PhysicalWriter.Sums sums = new PhysicalWriter(in, layout, length).write(0,
          layout.physicalLength(), whole, null);
      assertArrayEquals(expected, whole.toByteArray(), what);
      assertEquals(crc(expected), sums.written, what);
      assertEquals(crc(original), sums.original, what);
      Crc32c.Accumulator byChunk = new Crc32c.Accumulator(length);
      ByteArrayOutputStream joined = new ByteArrayOutputStream();
      long chunk = layout.chunkSize();
      for (long lo = 0; lo < layout.physicalLength(); lo += chunk) {
        long hi = Math.min(layout.physicalLength(), lo + chunk);
        ByteArrayOutputStream part = new ByteArrayOutputStream();
        PhysicalWriter.Sums s = new PhysicalWriter(in, layout, length).write(lo, hi, part,
            null);
        assertEquals(crc(part.toByteArray()), s.written, what + " chunk at " + lo);
        byChunk.addValue(s.original);
        joined.write(part.toByteArray());
      }
      assertArrayEquals(expected, joined.toByteArray(), what + " by chunk");
      assertEquals(crc(original), byChunk.value(), what + " by chunk");
    }
  }

  @Test
  void readsATiledSourceAboutOnce() throws Exception {
    // the climate case: (time, lat, lon) floats in tiles of every time step over a 10 x 10
    // box: a tile's rows are 40 bytes, a time step apart; read as they come that is a read
    // a row, 40 x 10 of them a tile; band by band it is the source once, a read a time step
    Configuration conf = localConf();
    TiledPattern tiles = TiledPattern.of(100, new long[] {200, 60, 120}, 4,
        new long[] {200, 10, 10});
    int length = (int) tiles.array().end() + 100;
    byte[] original = new byte[length];
    new Random(26).nextBytes(original);
    File f = new File(tmp, "climate");
    Files.write(f.toPath(), original);
    TiledLayout layout = TiledLayout.plan(tiles, 1 << 20, length);
    try (SourceFile.Reader in = SourceFile.of(conf, new Path(f.toURI())).open()) {
      org.apache.hadoop.fs.StorageStatistics stats =
          org.apache.hadoop.fs.FileSystem.getGlobalStorageStatistics().get("file");
      long before = stats.getLong("bytesRead");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      new PhysicalWriter(in, layout, length).write(0, layout.physicalLength(), out, null);
      assertArrayEquals(PackedLayoutTest.restructure(original, layout), out.toByteArray());
      double read = (stats.getLong("bytesRead") - before) / (double) length;
      org.junit.jupiter.api.Assertions.assertTrue(read >= 1 && read <= 1.3,
          "read " + read + " times the source");
      // 6 bands of 200 time steps, 4800 bytes each, with another band's between them
      assertEquals(6 * 200 + 2, in.reads(), "reads: a time step of a band each, and the "
          + "bytes before and after the array");
    }
  }

  /** The local file system, uncached: not the cached file:// of other tests. */
  static Configuration localConf() {
    Configuration conf = new Configuration(false);
    conf.set("fs.file.impl", org.apache.hadoop.fs.RawLocalFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    return conf;
  }
}
