package org.opass.mrap.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.IndexedPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.StridedPattern;
import org.opass.mrap.pattern.SubarrayPattern;

/**
 * The restructured layout against the original it was planned for, on random patterns of every
 * kind, chunk sizes and task sizes: the file its physical runs describe reads back as the
 * original through its logical runs and task by task through first fit replayed; it is the
 * original's length plus the header, the trailer and at most a region's worth of zeros per
 * chunk; and its trailer reads back as the same layout.
 */
public class PackedLayoutTest {

  /** The restructured file's bytes, as the copy tool writes them: run by run. */
  public static byte[] restructure(byte[] original, RestructuredLayout layout) {
    byte[] out = new byte[(int) layout.physicalLength()];
    byte[] header = layout.header();
    byte[] trailer = layout.trailer();
    long pos = 0;
    SegmentCursor c = layout.physical(0, layout.physicalLength());
    while (c.next()) {
      assertEquals(pos, c.physical(), "runs follow each other");
      int at = (int) c.physical();
      int n = (int) c.length();
      switch (c.kind()) {
        case HEADER:
          System.arraycopy(header, at, out, at, n);
          break;
        case TRAILER:
          System.arraycopy(trailer, (int) (at - layout.dataLength()), out, at, n);
          break;
        case ZEROS:
          break;
        default:
          System.arraycopy(original, (int) c.logical(), out, at, n);
      }
      pos += n;
    }
    assertEquals(layout.physicalLength(), pos);
    return out;
  }

  /** The original bytes {@code [from, to)}, read back through the logical runs. */
  static byte[] logical(byte[] physical, RestructuredLayout layout, long from, long to) {
    byte[] out = new byte[(int) (to - from)];
    long pos = from;
    SegmentCursor c = layout.logical(from, to);
    while (c.next()) {
      assertEquals(pos, c.logical(), "runs follow each other");
      System.arraycopy(physical, (int) c.physical(), out, (int) (c.logical() - from),
          (int) c.length());
      pos += c.length();
    }
    assertEquals(to, pos);
    return out;
  }

  public static AccessPattern randomPattern(Random rnd, int length) {
    while (true) {
      try {
        AccessPattern p;
        switch (rnd.nextInt(4)) {
          case 0:
            p = StridedPattern.nested(rnd.nextInt(500), 1 + rnd.nextInt(3000),
                new long[] {rnd.nextInt(2000), rnd.nextInt(5000)},
                new long[] {1 + rnd.nextInt(12), 1 + rnd.nextInt(4)});
            break;
          case 1:
            p = SubarrayPattern.of(rnd.nextInt(100), new long[] {1 + rnd.nextInt(40),
                1 + rnd.nextInt(40)}, 1 + rnd.nextInt(16), new long[] {rnd.nextInt(2), 0},
                new long[] {1, 1 + rnd.nextInt(20)});
            break;
          case 2: // dense: small regions, small gaps
            p = StridedPattern.vector(rnd.nextInt(10), 1 + rnd.nextInt(40), rnd.nextInt(3),
                1 + rnd.nextInt(3000));
            break;
          default: {
            int n = 1 + rnd.nextInt(60);
            long[] o = new long[n];
            long[] l = new long[n];
            long at = rnd.nextInt(300);
            for (int i = 0; i < n; i++) {
              o[i] = at;
              l[i] = 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 20_000 : 2000);
              at += l[i] + rnd.nextInt(1500);
            }
            p = IndexedPattern.of(o, l);
          }
        }
        if (p.end() <= length) {
          return p;
        }
      } catch (IllegalArgumentException tooBig) {
        // draw again
      }
    }
  }

  /** The longest region of a pattern. */
  private static long longest(AccessPattern p) {
    long m = 0;
    RegionCursor c = p.cursor();
    while (c.next()) {
      m = Math.max(m, c.length());
    }
    return m;
  }

  private static void check(byte[] original, AccessPattern p, long chunk, long perTask,
      String what) throws IOException {
    check(original, PackedLayout.plan(p, chunk, original.length, perTask), perTask, what);
  }

  private static void check(byte[] original, PackedLayout layout, long perTask, String what)
      throws IOException {
    AccessPattern p = layout.pattern();
    long chunk = layout.chunkSize();
    layout.checkPlacement();
    byte[] physical = restructure(original, layout);
    assertArrayEquals(original, logical(physical, layout, 0, original.length), what);
    Random rnd = new Random(original.length);
    for (int k = 0; k < 5; k++) {
      int from = rnd.nextInt(original.length + 1);
      int to = from + rnd.nextInt(original.length - from + 1);
      assertArrayEquals(Arrays.copyOfRange(original, from, to),
          logical(physical, layout, from, to), what + " [" + from + ", " + to + ")");
    }
    // each task's regions where its first fit puts them, none across a chunk it fits in
    for (int t = 0; t < layout.tasks().tasks(); t++) {
      TaskPlacer placer = layout.placer(t);
      RegionCursor c = layout.tasks().task(t).cursor();
      while (c.next()) {
        long at = placer.place(c.length());
        int o = (int) c.offset();
        int n = (int) c.length();
        assertArrayEquals(Arrays.copyOfRange(original, o, o + n),
            Arrays.copyOfRange(physical, (int) at, (int) at + n), what + " task " + t);
        if (n <= chunk - RestructuredLayout.HEADER_BYTES && !layout.contiguous()) {
          assertEquals(at / chunk, (at + n - 1) / chunk, what + ": a region of " + n
              + " bytes across a chunk");
        }
        assertTrue(at >= layout.taskStart(t) && at + n <= layout.taskEnd(t), what
            + ": task " + t + "'s region outside its bytes");
      }
      if (layout.contiguous()) {
        continue; // tasks cut by bytes, not chunks
      }
      long first = layout.tasks().regionFrom(t);
      long firstAlone = ((layout.taskFirstChunk(t) == 0 ? RestructuredLayout.HEADER_BYTES : 0)
          + p.bytesBefore(first + 1) - p.bytesBefore(first) - 1)
          / chunk + 1; // what the task's first region needs on its own
      assertTrue(layout.taskChunks(t) <= Math.max(perTask, firstAlone), what + ": task " + t
          + " takes " + layout.taskChunks(t) + " chunks");
    }
    // the original's length, the header and trailer, and zeros only where no byte was left:
    // at most 1% of the original (else the layout is contiguous, with none)
    assertEquals(original.length + RestructuredLayout.HEADER_BYTES + layout.zeros(),
        layout.dataLength(), what);
    assertTrue(layout.zeros() * 100 <= original.length, what + ": " + layout.zeros()
        + " zeros");
    assertTrue(layout.zeros() <= (layout.chunks() - 1) * longest(p), what + ": "
        + layout.zeros() + " zeros in " + layout.chunks() + " chunks");
    assertArrayEquals(layout.header(), Arrays.copyOf(physical, RestructuredLayout.HEADER_BYTES));
    // and the file holds its own layout
    LayoutHeader header = LayoutHeader.parse(physical, physical.length, what);
    byte[] trailer = Arrays.copyOfRange(physical, (int) header.dataLength(), physical.length);
    RestructuredLayout back = RestructuredLayout.read(header, trailer, what);
    assertEquals(layout.toString(), back.toString());
    assertEquals(layout.tasks().tasks(), back.tasks().tasks());
    for (int t = 0; t < layout.tasks().tasks(); t++) {
      assertEquals(layout.tasks().logicalStart(t), back.tasks().logicalStart(t));
      assertEquals(layout.taskFirstChunk(t), back.taskFirstChunk(t));
    }
    assertArrayEquals(physical, restructure(original, back), what);
    assertEquals(layout.members(), back.members(), what);
    assertEquals(layout.members() == null ? PackedLayout.VERSION : PackedLayout.CONTAINER,
        header.version(), what);
  }

  /** Files of random lengths and patterns, as a container packs them: the files end to end. */
  private static PackedLayout container(Random rnd, int files, int maxLength, byte[][] out,
      long chunk, long perTask) {
    java.util.List<String> names = new java.util.ArrayList<>();
    long[] lengths = new long[files];
    long[] starts = new long[files];
    AccessPattern[] parts = new AccessPattern[files];
    java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < files; i++) {
      int length = 1 + rnd.nextInt(maxLength);
      byte[] b = new byte[length];
      rnd.nextBytes(b);
      all.write(b, 0, length);
      names.add("file_" + i + ".nc");
      lengths[i] = length;
      starts[i] = i == 0 ? 0 : starts[i - 1] + lengths[i - 1];
      parts[i] = randomPattern(rnd, length);
    }
    out[0] = all.toByteArray();
    return PackedLayout.container(org.opass.mrap.pattern.ConcatenatedPattern.of(starts, parts),
        Members.of(names, lengths), chunk, perTask);
  }

  @Test
  void containersOfManyFilesHoldTheirMembersEndToEndAndTheirTable() throws Exception {
    Random rnd = new Random(44);
    for (int c = 0; c < 150; c++) {
      byte[][] original = new byte[1][];
      long chunk = RestructuredLayout.HEADER_BYTES + 1 + rnd.nextInt(rnd.nextBoolean() ? 300
          : 40_000);
      long perTask = 1 + rnd.nextInt(3);
      PackedLayout layout = container(rnd, 1 + rnd.nextInt(8), 30_000, original, chunk,
          perTask);
      check(original[0], layout, perTask, "container " + c + " " + layout);
    }
  }

  @Test
  void theRegionsOfTenFilesShareAChunk() throws Exception {
    // the thesis's halo catalogues (§4.4.3), scaled: ten files, each a 100,000-byte region
    // of interest after its header, one 1 MiB chunk holds all ten
    java.util.List<String> names = new java.util.ArrayList<>();
    long[] lengths = new long[10];
    long[] starts = new long[10];
    AccessPattern[] parts = new AccessPattern[10];
    for (int i = 0; i < 10; i++) {
      names.add("halos_" + i);
      lengths[i] = 180_000;
      starts[i] = 180_000L * i;
      parts[i] = StridedPattern.vector(4096, 100_000, 0, 1);
    }
    PackedLayout layout = PackedLayout.container(
        org.opass.mrap.pattern.ConcatenatedPattern.of(starts, parts), Members.of(names, lengths),
        1 << 20, 1);
    assertEquals(1, layout.tasks().tasks(), layout.toString());
    assertEquals(1, layout.taskChunks(0), "one chunk");
    assertEquals(3 * 180_000, layout.members().start(3));
    byte[] original = new byte[10 * 180_000];
    new Random(3).nextBytes(original);
    check(original, layout, 1, "ten files");
    // a part that is not its member's is refused, naming it
    starts[3] += 1;
    String said = assertThrows(IllegalArgumentException.class, () -> PackedLayout.container(
        org.opass.mrap.pattern.ConcatenatedPattern.of(starts, parts), Members.of(names, lengths),
        1 << 20, 1)).getMessage();
    assertTrue(said.contains("member 'halos_3'"), said);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Members.of(
        java.util.List.of("a", "a"), new long[] {1, 1})).getMessage().contains("'a'"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Members.of(
        java.util.List.of("a/b"), new long[] {1})).getMessage().contains("'a/b'"));
  }

  @Test
  void randomLayoutsHoldTheOriginalAndNothingMore() throws Exception {
    Random rnd = new Random(12);
    for (int c = 0; c < 400; c++) {
      int length = 1 + rnd.nextInt(150_000);
      byte[] original = new byte[length];
      rnd.nextBytes(original);
      AccessPattern p = randomPattern(rnd, length);
      long chunk = RestructuredLayout.HEADER_BYTES + 1 + rnd.nextInt(rnd.nextBoolean() ? 300
          : 40_000);
      check(original, p, chunk, 1 + rnd.nextInt(4), "case " + c + " " + p + " chunk " + chunk);
    }
  }

  @Test
  void tenRegionsThatDoNotDivideTheChunkShareOne() throws Exception {
    // the thesis's ten 6.3 MB regions in a 64 MiB chunk, scaled: 100,000 bytes in 1 MiB
    int chunk = 1 << 20;
    StridedPattern p = StridedPattern.vector(0, 100_000, 25_000, 100);
    PackedLayout layout = PackedLayout.plan(p, chunk, p.end(), 1);
    assertEquals(10, layout.tasks().tasks());
    for (int t = 0; t < 10; t++) {
      assertEquals(10, layout.tasks().task(t).regionCount());
      assertEquals(1, layout.taskChunks(t));
    }
    assertEquals(0, layout.zeros(), "the room in each chunk holds other bytes");
    assertEquals(p.end() + RestructuredLayout.HEADER_BYTES, layout.dataLength());
  }

  @Test
  void regionsThatLeaveMoreRoomThanOtherBytesLieEndToEnd() throws Exception {
    // 80% of interest in regions of 0.56 of a chunk: first fit would leave 44% of every chunk
    // empty and have 20% of the bytes to fill it
    int chunk = 1 << 20;
    StridedPattern p = StridedPattern.vector(338, 587_000, 146_750, 40);
    byte[] original = new byte[(int) p.end() + 1000];
    new Random(5).nextBytes(original);
    PackedLayout layout = PackedLayout.plan(p, chunk, original.length, 2);
    assertTrue(layout.contiguous(), layout.toString());
    assertEquals(0, layout.zeros());
    assertEquals(original.length + RestructuredLayout.HEADER_BYTES, layout.dataLength());
    for (int t = 0; t + 1 < layout.tasks().tasks(); t++) {
      assertEquals(layout.taskEnd(t), layout.taskStart(t + 1), "tasks follow each other");
      assertTrue(layout.taskEnd(t) - layout.taskStart(t) >= 2L * chunk, "two chunks' worth");
    }
    check(original, p, chunk, 2, "contiguous");
  }

  @Test
  void aFileSmallerThanAChunkIsNotPadded() {
    StridedPattern dense = StridedPattern.vector(0, 36, 1, 29_000); // 97% of interest
    PackedLayout layout = PackedLayout.plan(dense, 128L << 20, dense.end() + 77, 1);
    assertEquals(1, layout.tasks().tasks());
    assertEquals(0, layout.zeros());
    assertEquals(dense.end() + 77 + RestructuredLayout.HEADER_BYTES, layout.dataLength());
    assertTrue(layout.physicalLength() < 1.01 * (dense.end() + 77));
  }

  @Test
  void overlapsAndPatternsPastTheEndAreRefused() {
    AccessPattern overlapping = IndexedPattern.of(new long[] {0, 5}, new long[] {10, 10});
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> PackedLayout.plan(overlapping, 1024, 100, 1)).getMessage()
        .contains("overlap"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> PackedLayout.plan(StridedPattern.vector(0, 10, 0, 11), 1024, 100, 1))
        .getMessage().contains("past the file's 100"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> PackedLayout.plan(StridedPattern.vector(0, 10, 0, 1), 64, 100, 1))
        .getMessage().contains("chunk size (64)"));
  }

  @Test
  void aDamagedHeaderOrTrailerIsRefusedNamingTheFile() throws Exception {
    byte[] original = new byte[5000];
    new Random(3).nextBytes(original);
    PackedLayout layout = PackedLayout.plan(StridedPattern.vector(0, 10, 90, 50),
        1024, original.length, 1);
    byte[] physical = restructure(original, layout);
    byte[] bad = physical.clone();
    bad[20] ^= 1;
    assertTrue(assertThrows(IOException.class, () -> LayoutHeader.parse(bad, bad.length,
        "/d/f")).getMessage().startsWith("/d/f starts like an MRAP restructured file but its "
        + "header is damaged"));
    LayoutHeader header = LayoutHeader.parse(physical, physical.length, "/d/f");
    byte[] trailer = Arrays.copyOfRange(physical, (int) header.dataLength(), physical.length);
    trailer[trailer.length - 1] ^= 1;
    assertTrue(assertThrows(IOException.class, () -> RestructuredLayout.read(header, trailer,
        "/d/f")).getMessage().startsWith("/d/f: its MRAP layout (the trailer) does not match"));
    assertTrue(LayoutHeader.looksLikeOne(physical, physical.length));
    assertTrue(!LayoutHeader.looksLikeOne(original, original.length));
  }
}
