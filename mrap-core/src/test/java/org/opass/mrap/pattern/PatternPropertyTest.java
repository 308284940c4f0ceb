package org.opass.mrap.pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every pattern kind against a naive expansion, on random shapes, whole and by index range. */
class PatternPropertyTest {
  private static final int CASES = 300;

  /** Regions of a nested strided pattern, expanded the obvious recursive way. */
  private static void naiveStrided(long at, long size, long[] spacing, long[] count, int level,
      List<Region> out) {
    if (level < 0) {
      out.add(Region.of(at, size));
      return;
    }
    long unit = extent(size, spacing, count, level - 1);
    for (long i = 0; i < count[level]; i++) {
      naiveStrided(at + i * (unit + spacing[level]), size, spacing, count, level - 1, out);
    }
  }

  private static long extent(long size, long[] spacing, long[] count, int level) {
    long unit = size;
    for (int l = 0; l <= level; l++) {
      unit = count[l] * unit + (count[l] - 1) * spacing[l];
    }
    return unit;
  }

  private static void assertSameRegions(List<Region> expected, AccessPattern p) {
    assertEquals(expected.size(), p.regionCount(), p.toString());
    assertEquals(expected, p.regions(0, p.regionCount()), p.toString());
    long bytes = 0;
    long end = 0;
    for (Region r : expected) {
      bytes += r.length();
      end = Math.max(end, r.end());
    }
    assertEquals(bytes, p.totalBytes(), p.toString());
    assertEquals(end, p.end(), p.toString());
    Random rnd = new Random(expected.size());
    for (int k = 0; k < 5 && !expected.isEmpty(); k++) {
      int from = rnd.nextInt(expected.size());
      int to = from + rnd.nextInt(expected.size() - from + 1);
      assertEquals(expected.subList(from, to), p.regions(from, to), p + " [" + from + ":" + to
          + "]");
      assertEquals(expected.subList(from, to), p.slice(from, to).regions(0, to - from));
    }
    for (int i = 1; i < expected.size(); i++) {
      assertTrue(expected.get(i - 1).offset() <= expected.get(i).offset(), "file order");
    }
  }

  @Test
  void stridedPatternsMatchTheNaiveExpansion() {
    Random rnd = new Random(1);
    for (int c = 0; c < CASES; c++) {
      int levels = 1 + rnd.nextInt(3);
      long[] count = new long[levels];
      long[] spacing = new long[levels];
      for (int l = 0; l < levels; l++) {
        count[l] = 1 + rnd.nextInt(6);
        spacing[l] = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(100);
      }
      long start = rnd.nextBoolean() ? 0 : rnd.nextInt(1000);
      long size = 1 + rnd.nextInt(50);
      List<Region> expected = new ArrayList<>();
      naiveStrided(start, size, spacing, count, levels - 1, expected);
      StridedPattern p = StridedPattern.nested(start, size, spacing, count);
      assertSameRegions(expected, p);
      for (int k = 0; k < expected.size(); k++) {
        assertEquals(expected.get(k).offset(), p.offsetOf(k));
      }
    }
  }

  @Test
  void offsetsAbove4GiBAreExact() {
    long gib = 1L << 30;
    StridedPattern p = StridedPattern.nested(5 * gib + 3, 4096, new long[] {gib, 7 * gib},
        new long[] {3, 4});
    List<Region> expected = new ArrayList<>();
    naiveStrided(5 * gib + 3, 4096, new long[] {gib, 7 * gib}, new long[] {3, 4}, 1, expected);
    assertSameRegions(expected, p);
    assertTrue(p.end() > 30 * gib);
    // a pattern of 10^9 regions costs nothing until read, and reads from anywhere
    StridedPattern huge = StridedPattern.vector(0, 1, 63, 1_000_000_000L);
    assertEquals(1_000_000_000L, huge.regionCount());
    assertEquals(List.of(Region.of(63_999_999_936L, 1)),
        huge.regions(999_999_999L, 1_000_000_000L));
    assertThrows(IllegalArgumentException.class,
        () -> StridedPattern.vector(0, 1L << 40, 1L << 40, 1L << 30), "past 2^63");
  }

  /** Elements of a block of a row-major array, one region each, in file order. */
  private static List<Region> naiveElements(long base, long[] shape, long elem, long[] origin,
      long[] extent) {
    List<Region> out = new ArrayList<>();
    int n = shape.length;
    long[] idx = new long[n];
    long total = 1;
    for (long e : extent) {
      total *= e;
    }
    for (long k = 0; k < total; k++) {
      long rem = k;
      for (int d = n - 1; d >= 0; d--) {
        idx[d] = origin[d] + rem % extent[d];
        rem /= extent[d];
      }
      long linear = 0;
      for (int d = 0; d < n; d++) {
        linear = linear * shape[d] + idx[d];
      }
      out.add(Region.of(base + linear * elem, elem));
    }
    return out;
  }

  private static List<Region> elements(AccessPattern p, long elem) {
    List<Region> out = new ArrayList<>();
    for (Region r : p.regions(0, p.regionCount())) {
      assertEquals(0, r.length() % elem);
      for (long o = r.offset(); o < r.end(); o += elem) {
        out.add(Region.of(o, elem));
      }
    }
    return out;
  }

  @Test
  void subarraysMatchTheNaiveElementWalk() {
    Random rnd = new Random(2);
    for (int c = 0; c < CASES; c++) {
      int n = 1 + rnd.nextInt(4);
      long[] shape = new long[n];
      long[] origin = new long[n];
      long[] extent = new long[n];
      for (int d = 0; d < n; d++) {
        shape[d] = 1 + rnd.nextInt(6);
        origin[d] = rnd.nextInt((int) shape[d]);
        extent[d] = rnd.nextInt(3) == 0 ? shape[d] - origin[d]
            : 1 + rnd.nextInt((int) (shape[d] - origin[d]));
        if (rnd.nextInt(4) == 0) {
          origin[d] = 0;
          extent[d] = shape[d];
        }
      }
      long elem = 1 + rnd.nextInt(9);
      long base = rnd.nextInt(3) == 0 ? rnd.nextInt(100) : 0;
      SubarrayPattern p = SubarrayPattern.of(base, shape, elem, origin, extent);
      List<Region> expected = naiveElements(base, shape, elem, origin, extent);
      assertEquals(expected, elements(p, elem), p.toString());
      List<Region> runs = p.regions(0, p.regionCount());
      long runBytes = runs.get(0).length();
      for (Region r : runs) {
        assertEquals(runBytes, r.length(), "every run has one length");
      }
      assertEquals(expected.get(expected.size() - 1).end(), p.end());
      assertEquals(expected.size() * elem, p.totalBytes());
      for (int k = 0; k < 3; k++) {
        int from = rnd.nextInt(runs.size());
        int to = from + rnd.nextInt(runs.size() - from + 1);
        assertEquals(runs.subList(from, to), p.regions(from, to));
      }
    }
  }

  @Test
  void blocksOfWholeRowsAreOneRegion() {
    SubarrayPattern rows = SubarrayPattern.of(0, new long[] {8, 16}, 4, new long[] {2, 0},
        new long[] {3, 16});
    assertEquals(List.of(Region.of(2 * 16 * 4, 3 * 16 * 4)), rows.regions(0, 1));
    SubarrayPattern column = SubarrayPattern.of(0, new long[] {8, 16}, 4, new long[] {0, 5},
        new long[] {8, 1});
    assertEquals(8, column.regionCount());
  }

  @Test
  void tilesCoverTheArrayExactlyOnce() {
    Random rnd = new Random(3);
    for (int c = 0; c < 100; c++) {
      int n = 1 + rnd.nextInt(3);
      long[] shape = new long[n];
      long[] tile = new long[n];
      for (int d = 0; d < n; d++) {
        shape[d] = 1 + rnd.nextInt(9);
        tile[d] = 1 + rnd.nextInt((int) shape[d]);
      }
      long elem = 1 + rnd.nextInt(4);
      TiledPattern t = TiledPattern.of(0, shape, elem, tile);
      boolean[] seen = new boolean[(int) (t.array().totalBytes() / elem)];
      for (long i = 0; i < t.tileCount(); i++) {
        for (Region e : elements(t.tile(i), elem)) {
          int at = (int) (e.offset() / elem);
          assertFalse(seen[at], "element " + at + " in two tiles of " + t);
          seen[at] = true;
        }
      }
      for (boolean s : seen) {
        assertTrue(s, "every element in a tile of " + t);
      }
    }
  }

  @Test
  void indexedPatternsAreSortedAndParsed() throws Exception {
    IndexedPattern p = IndexedPattern.of(new long[] {500, 0, 100, 0}, new long[] {5, 10, 1, 3});
    assertEquals(List.of(Region.of(0, 10), Region.of(0, 3), Region.of(100, 1),
        Region.of(500, 5)), p.regions(0, 4), "file order, stable for equal offsets");
    assertEquals(505, p.end());
    IndexedPattern parsed = IndexedPattern.parse(new StringReader(
        "# offset length\n500 5\n0:10, 100:1\n\n0:3  # a comment\n"), "test");
    assertEquals(p, parsed);
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> IndexedPattern.parse(new StringReader("0:10\n7:x\n"), "side.txt"));
    assertTrue(bad.getMessage().contains("side.txt line 2") && bad.getMessage().contains("7:x"),
        bad.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> IndexedPattern.parse(new StringReader("0:0"), "s"), "empty region");
    assertThrows(IllegalArgumentException.class,
        () -> IndexedPattern.parse(new StringReader("# nothing"), "s"));
    Random rnd = new Random(4);
    for (int c = 0; c < CASES; c++) {
      int n = 1 + rnd.nextInt(40);
      long[] o = new long[n];
      long[] l = new long[n];
      List<Region> expected = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        o[i] = (rnd.nextBoolean() ? 5L << 30 : 0) + rnd.nextInt(10_000);
        l[i] = 1 + rnd.nextInt(300);
        expected.add(Region.of(o[i], l[i]));
      }
      expected.sort((a, b) -> Long.compare(a.offset(), b.offset()));
      assertSameRegions(expected, IndexedPattern.of(o, l));
    }
  }

  @Test
  void patternsAreValuesWithCanonicalText() {
    assertEquals(StridedPattern.vector(0, 32, 10000, 100),
        StridedPattern.nested(0, 32, new long[] {10000}, new long[] {100}));
    assertEquals("strided(start=0, size=32, count=[100], spacing=[10000])",
        StridedPattern.vector(0, 32, 10000, 100).toString());
    assertNotEquals(StridedPattern.vector(0, 32, 10000, 100),
        StridedPattern.vector(0, 32, 10000, 101));
    assertEquals(SubarrayPattern.whole(0, new long[] {4, 4}, 8),
        SubarrayPattern.of(0, new long[] {4, 4}, 8, new long[] {0, 0}, new long[] {4, 4}));
  }

  @Test
  void badArgumentsNameTheValue() {
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> StridedPattern.vector(0, 0, 1, 1)).getMessage().contains("size (0)"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> StridedPattern.vector(0, 1, -2, 1)).getMessage().contains("spacing[0] (-2)"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> SubarrayPattern.of(0, new long[] {4, 4}, 1, new long[] {3, 0},
            new long[] {2, 4})).getMessage().contains("dimension 0: origin 3 and extent 2"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> TiledPattern.of(0, new long[] {4}, 1, new long[] {5})).getMessage()
        .contains("tile[0] (5)"));
  }

  /** Every lookup of {@code p} against the same worked out from its regions one by one. */
  static void assertLookups(AccessPattern p, Random rnd) {
    List<Region> rs = p.regions(0, p.regionCount());
    long[] before = new long[rs.size() + 1];
    for (int i = 0; i < rs.size(); i++) {
      before[i + 1] = before[i] + rs.get(i).length();
      assertEquals(rs.get(i).offset(), p.offsetOf(i), p + " offsetOf " + i);
    }
    for (int k = 0; k <= rs.size(); k++) {
      assertEquals(before[k], p.bytesBefore(k), p + " bytesBefore " + k);
    }
    long total = before[rs.size()];
    for (int c = 0; c < 40; c++) {
      long b = rnd.nextInt((int) Math.min(Integer.MAX_VALUE, total + 3));
      long k = 0;
      while (k < rs.size() && before[(int) k + 1] <= b) {
        k++;
      }
      assertEquals(k, p.regionOfByte(b), p + " regionOfByte " + b);
      long x = rnd.nextInt((int) Math.min(Integer.MAX_VALUE, p.end() + 5));
      long starting = 0;
      long below = 0;
      for (Region r : rs) {
        starting += r.offset() < x ? 1 : 0;
        below += Math.max(0, Math.min(r.end(), x) - r.offset());
      }
      assertEquals(starting, p.firstAtOrAfter(x), p + " firstAtOrAfter " + x);
      assertEquals(below, p.bytesBelow(x), p + " bytesBelow " + x);
    }
  }

  /** A small random pattern of a kind: 0 strided, 1 subarray, 2 indexed. */
  static AccessPattern random(Random rnd, int kind) {
    if (kind == 0) {
      int levels = 1 + rnd.nextInt(3);
      long[] count = new long[levels];
      long[] spacing = new long[levels];
      for (int l = 0; l < levels; l++) {
        count[l] = 1 + rnd.nextInt(5);
        spacing[l] = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(60);
      }
      return StridedPattern.nested(rnd.nextInt(50), 1 + rnd.nextInt(20), spacing, count);
    }
    if (kind == 1) {
      long[] shape = {1 + rnd.nextInt(5), 1 + rnd.nextInt(6), 1 + rnd.nextInt(4)};
      long[] origin = new long[3];
      long[] extent = new long[3];
      for (int d = 0; d < 3; d++) {
        origin[d] = rnd.nextInt((int) shape[d]);
        extent[d] = 1 + rnd.nextInt((int) (shape[d] - origin[d]));
      }
      return SubarrayPattern.of(rnd.nextInt(30), shape, 1 + rnd.nextInt(5), origin, extent);
    }
    int n = 1 + rnd.nextInt(30);
    long[] o = new long[n];
    long[] l = new long[n];
    for (int i = 0; i < n; i++) {
      o[i] = rnd.nextInt(2000);
      l[i] = 1 + rnd.nextInt(40);
    }
    return IndexedPattern.of(o, l);
  }

  @Test
  void concatenationsLookUpAsTheirPartsShifted() throws Exception {
    Random rnd = new Random(11);
    for (int c = 0; c < CASES; c++) {
      int n = 1 + rnd.nextInt(4);
      long[] starts = new long[n];
      AccessPattern[] parts = new AccessPattern[n];
      long end = 0;
      for (int i = 0; i < n; i++) {
        AccessPattern part = random(rnd, rnd.nextInt(2)); // an overlapping part cannot be packed
        starts[i] = end + rnd.nextInt(3) * rnd.nextInt(100);
        parts[i] = part;
        end = starts[i] + part.end() + rnd.nextInt(2) * rnd.nextInt(50); // the file's tail
      }
      ConcatenatedPattern p = ConcatenatedPattern.of(starts, parts);
      List<Region> expected = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        for (Region r : parts[i].regions(0, parts[i].regionCount())) {
          expected.add(Region.of(starts[i] + r.offset(), r.length()));
        }
      }
      assertEquals(expected, p.regions(0, p.regionCount()), p.toString());
      assertLookups(p, rnd);
      long from = rnd.nextInt((int) p.regionCount());
      long to = from + rnd.nextInt((int) (p.regionCount() - from + 1));
      assertLookups(p.slice(from, to), rnd);
      assertEquals(expected.subList((int) from, (int) to), p.regions(from, to));
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      PatternCodec.write(new java.io.DataOutputStream(bytes), p.slice(from, to));
      AccessPattern back = PatternCodec.read(new java.io.DataInputStream(
          new java.io.ByteArrayInputStream(bytes.toByteArray())));
      assertEquals(p.slice(from, to), back, "round trip of " + p);
      int i = p.partOfRegion(from);
      assertTrue(p.firstRegion(i) <= from && from < p.firstRegion(i) + parts[i].regionCount());
    }
    AccessPattern a = StridedPattern.vector(10, 4, 8, 5);
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ConcatenatedPattern.of(new long[] {0, 40}, new AccessPattern[] {a, a}))
        .getMessage().contains("part 1 starts at 40, before part 0 ends (" + a.end() + ")"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ConcatenatedPattern.of(new long[0], new AccessPattern[0])).getMessage()
        .contains("at least one part"));
  }

  @Test
  void lookupsAreTheNaiveOnesForEveryKindAndSlice() {
    Random rnd = new Random(5);
    for (int c = 0; c < CASES; c++) {
      AccessPattern p = random(rnd, c % 3);
      assertLookups(p, rnd);
      long from = rnd.nextInt((int) p.regionCount());
      long to = from + rnd.nextInt((int) (p.regionCount() - from + 1));
      assertLookups(p.slice(from, to), rnd);
    }
  }

  @Test
  void patternsNamingTheSameRegionsAreEqualHoweverWritten() {
    StridedPattern vector = StridedPattern.vector(8, 4, 12, 100);
    // an extra level of count 1, and the same by strides
    assertEquals(vector, StridedPattern.nested(8, 4, new long[] {12, 999}, new long[] {100, 1}));
    assertEquals(vector, StridedPattern.byStride(8, 4, new long[] {16}, new long[] {100}));
    // a level that continues its inner stride evenly is the same vector
    StridedPattern split = StridedPattern.byStride(8, 4, new long[] {16, 160},
        new long[] {10, 10});
    assertEquals(vector, split);
    assertEquals(vector.hashCode(), split.hashCode());
    // a column of a row-major array is a vector too
    SubarrayPattern column = SubarrayPattern.of(8, new long[] {100, 4}, 4, new long[] {0, 0},
        new long[] {100, 1});
    assertEquals(vector, column);
    assertEquals(column, vector);
    assertEquals(vector.hashCode(), column.hashCode());
    long[] o = new long[100];
    long[] l = new long[100];
    for (int i = 0; i < 100; i++) {
      o[i] = 8 + 16L * i;
      l[i] = 4;
    }
    IndexedPattern listed = IndexedPattern.of(o, l);
    assertEquals(vector, listed);
    assertEquals(listed, vector);
    assertEquals(vector.hashCode(), listed.hashCode());
    assertTrue(AccessPattern.sameRegions(listed, column));
    l[99] = 5;
    assertNotEquals(vector, IndexedPattern.of(o, l));
    assertFalse(AccessPattern.sameRegions(vector, IndexedPattern.of(o, l)));
    assertNotEquals(vector, StridedPattern.vector(8, 4, 12, 99));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> StridedPattern.byStride(0, 8, new long[] {4}, new long[] {3})).getMessage()
        .contains("stride[0] (4)"));
  }
}
