package org.opass.mrap.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opass.mrap.array.Elements;
import org.opass.mrap.array.Slab;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ScienceFiles;

/**
 * A slab that is a union along some dimensions (what a selection by value across the end of a
 * longitude axis gives) reads, on every fixture's storage (strided and chunked, NetCDF-3,
 * NetCDF-4, HDF5), exactly the elements of the union: each equal to the same element read as
 * part of the whole variable, none twice, none missing.
 */
class SlabUnionTest {
  @TempDir
  static Path scratch;

  static Stream<Fixtures.Case> cases() throws IOException {
    return Fixtures.cases().stream().filter(c -> c.slab == null && !c.file.endsWith(".json"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aUnionReadsItsElementsOnly(Fixtures.Case c) throws IOException {
    try (FileChannel ch = FileChannel.open(Fixtures.file(c.file, scratch))) {
      Positioned in = Positioned.of(ch);
      Variable v = ScienceFiles.variable(in, c.file, c.kind(), c.variable);
      long total = 1;
      for (long s : v.shape()) {
        total *= s;
      }
      if (total > 300_000) {
        return;
      }
      Map<String, Double> whole = read(in, v, Slab.whole(v.shape()), 64);
      Random rnd = new Random(c.toString().hashCode());
      for (int trial = 0; trial < 4; trial++) {
        Slab union = randomUnion(v.shape(), rnd);
        Map<String, Double> got = read(in, v, union, trial % 2 == 0 ? 64 : 1 << 20);
        assertEquals(union.elements(), got.size(), c + " " + union + ": elements");
        for (Map.Entry<String, Double> e : got.entrySet()) {
          assertTrue(whole.containsKey(e.getKey()), c + ": " + e.getKey() + " outside the array");
          assertEquals(whole.get(e.getKey()), e.getValue(), c + " " + union + " at " + e.getKey());
        }
        assertEquals(union, Slab.parse(union.toString(), v.shape()), "read back: " + union);
      }
    }
  }

  @Test
  void unionsAreAscendingAndDisjoint() {
    long[] shape = {10};
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Slab.parse("4:8+2:3", shape));
    assertTrue(e.getMessage().contains("dimension 0 ('4:8+2:3')")
        && e.getMessage().contains("index 2 is not after 7"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Slab.parse("0:5+4:6", shape));
    assertThrows(IllegalArgumentException.class, () -> Slab.ofRanges(shape,
        List.of(List.of(new long[] {3, 2}))));
    Slab s = Slab.parse("0:2+8:10", shape);
    assertEquals(4, s.elements());
    assertEquals(0, s.start(0));
    assertEquals(9, s.lastIndex(0));
    assertTrue(!s.regular());
    IllegalStateException st = assertThrows(IllegalStateException.class, () -> s.stride(0));
    assertTrue(st.getMessage().contains("union of 2"), st.getMessage());
    assertEquals(s, Slab.ofRanges(shape, List.of(List.of(new long[] {0, 1}, new long[] {8, 9}))));
  }

  /** Per dimension one to three disjoint ranges, ascending. */
  private static Slab randomUnion(long[] shape, Random rnd) {
    List<List<long[]>> ranges = new ArrayList<>();
    for (long n : shape) {
      List<long[]> dim = new ArrayList<>();
      long at = 0;
      int parts = 1 + rnd.nextInt(3);
      for (int k = 0; k < parts && at < n; k++) {
        long first = at + rnd.nextInt((int) Math.min(n - at, 4));
        long last = first + rnd.nextInt((int) Math.min(n - first, 5));
        dim.add(new long[] {first, last});
        at = last + 2;
      }
      ranges.add(dim);
    }
    return Slab.ofRanges(shape, ranges);
  }

  /** The slab's elements by index, read as a task reads them. */
  static Map<String, Double> read(Positioned in, Variable v, Slab slab, long recordBytes)
      throws IOException {
    Map<String, Double> out = new HashMap<>();
    SlabPlan.PieceSink sink = (origin, shape, step, bytes, off, len) -> {
      int n = shape.length;
      int[] idx = new int[n];
      int e = v.type().size();
      for (int at = off; at < off + len; at += e) {
        long[] i = new long[n];
        for (int d = 0; d < n; d++) {
          i[d] = origin[d] + idx[d] * step[d];
        }
        Double old = out.put(Arrays.toString(i), Elements.asDouble(bytes, at, v.type(),
            v.order()));
        if (old != null) {
          throw new AssertionError(Arrays.toString(i) + " given twice");
        }
        for (int d = n - 1; d >= 0 && ++idx[d] == shape[d]; d--) {
          idx[d] = 0;
        }
      }
    };
    long maxRegion = v.chunked() ? Long.MAX_VALUE : recordBytes;
    SlabPlan plan = SlabPlan.of(v, slab, maxRegion);
    RegionCursor r = plan.pattern() == null ? null : plan.pattern().cursor();
    while (r != null && r.next()) {
      long cut = v.chunked() ? r.length() : Math.max(v.type().size(),
          recordBytes / v.type().size() * v.type().size());
      for (long at = 0; at < r.length(); at += cut) {
        int len = (int) Math.min(cut, r.length() - at);
        byte[] b = new byte[len];
        in.readFully(r.offset() + at, b, 0, len);
        plan.pieces(r.offset() + at, b, len, sink);
      }
    }
    if (v.chunked()) {
      plan.unwritten().forEach(v.chunkShape(), origin ->
          SlabPlan.fillPieces(v, slab, origin, sink));
    }
    return out;
  }
}
