package org.opass.mrap.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.IndexedPattern;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.StridedPattern;
import org.opass.mrap.pattern.SubarrayPattern;

class RestructuredLayoutTest {

  /** The restructured file's bytes, as the copy tool writes them: each segment moved. */
  static byte[] restructure(byte[] original, RestructuredLayout layout) {
    byte[] out = new byte[(int) layout.physicalLength()];
    for (long[] s : layout.segments()) {
      System.arraycopy(original, (int) s[0], out, (int) s[1], (int) s[2]);
    }
    return out;
  }

  /** The original bytes, read back through the index. */
  static byte[] logical(byte[] physical, RestructuredLayout layout) {
    byte[] out = new byte[(int) layout.logicalLength()];
    for (long[] s : layout.segments()) {
      System.arraycopy(physical, (int) s[1], out, (int) s[0], (int) s[2]);
    }
    return out;
  }

  private static AccessPattern randomPattern(Random rnd, int length) {
    while (true) {
      try {
        AccessPattern p;
        switch (rnd.nextInt(3)) {
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
          default: {
            int n = 1 + rnd.nextInt(40);
            long[] o = new long[n];
            long[] l = new long[n];
            long at = rnd.nextInt(100);
            for (int i = 0; i < n; i++) {
              o[i] = at;
              l[i] = 1 + rnd.nextInt(4000);
              at += l[i] + rnd.nextInt(3000);
            }
            p = IndexedPattern.of(o, l);
          }
        }
        if (p.end() <= length) {
          return p;
        }
      } catch (IllegalArgumentException e) {
        // a random subarray that does not fit its array: draw again
      }
    }
  }

  private static long[] randomTasks(Random rnd, long regions) {
    int tasks = 1 + rnd.nextInt((int) Math.min(8, regions));
    Set<Long> cuts = new HashSet<>();
    while (cuts.size() < tasks - 1) {
      cuts.add(1 + (long) rnd.nextInt((int) regions));
    }
    long[] bounds = new long[tasks + 1];
    int i = 1;
    for (long c : cuts.stream().sorted().toList()) {
      bounds[i++] = c;
    }
    bounds[tasks] = regions;
    Arrays.sort(bounds, 1, tasks);
    return bounds;
  }

  @Test
  void everyByteKeepsItsPlaceAndRegionsAreChunkAligned() throws Exception {
    Random rnd = new Random(3);
    for (int c = 0; c < 300; c++) {
      int length = 1 + rnd.nextInt(200_000);
      byte[] original = new byte[length];
      rnd.nextBytes(original);
      AccessPattern p = randomPattern(rnd, length);
      long chunk = 256L << rnd.nextInt(7);
      long[] tasks = randomTasks(rnd, p.regionCount());
      RestructuredLayout layout = RestructuredLayout.plan(p, tasks, chunk, length);
      String what = "case " + c + " " + layout;
      byte[] physical = restructure(original, layout);
      assertArrayEquals(original, logical(physical, layout), what);
      // segments tile the original exactly, and never overlap physically
      List<long[]> segs = layout.segments();
      long expect = 0;
      for (long[] s : segs) {
        assertEquals(expect, s[0], what);
        expect += s[2];
      }
      assertEquals(length, expect, what);
      long[][] byPhysical = segs.toArray(new long[0][]);
      Arrays.sort(byPhysical, (a, b) -> Long.compare(a[1], b[1]));
      for (int i = 1; i < byPhysical.length; i++) {
        assertTrue(byPhysical[i - 1][1] + byPhysical[i - 1][2] <= byPhysical[i][1], what);
      }
      // a task's regions are in its own chunks; none straddles a chunk unless longer than one
      for (int t = 0; t < layout.tasks(); t++) {
        long[] placed = layout.place(t);
        long lo = layout.taskStart(t);
        long hi = t + 1 < layout.tasks() ? layout.taskStart(t + 1) : Long.MAX_VALUE;
        RegionCursor rc = p.cursor(layout.taskFrom(t), layout.taskTo(t));
        for (int i = 0; rc.next(); i++) {
          long at = placed[i];
          assertTrue(at >= lo && at + rc.length() <= hi, what + " task " + t);
          if (rc.length() <= chunk) {
            assertEquals(at / chunk, (at + rc.length() - 1) / chunk, what + " straddles");
          } else {
            assertEquals(0, at % chunk, what + " a long region starts a chunk");
          }
          assertArrayEquals(Arrays.copyOfRange(original, (int) rc.offset(),
              (int) (rc.offset() + rc.length())), Arrays.copyOfRange(physical, (int) at,
              (int) (at + rc.length())), what + " region bytes where place() says");
        }
      }
      RestructuredLayout back = read(bytes(layout));
      assertEquals(layout.toString(), back.toString());
    }
  }

  @Test
  void equalRegionsPackIntoAsFewChunksAsFit() {
    // 100 regions of 300 bytes per task, 1 KiB chunks: 3 a chunk, 34 chunks a task
    StridedPattern p = StridedPattern.vector(0, 300, 700, 200);
    RestructuredLayout layout = RestructuredLayout.plan(p, new long[] {0, 100, 200}, 1024,
        p.end() + 5000);
    assertEquals(34 * 1024, layout.taskStart(1));
    assertEquals(p.end() + 5000, layout.physicalLength(), "the holes take bytes of no region");
  }

  private static byte[] bytes(RestructuredLayout l) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    l.write(new DataOutputStream(out));
    return out.toByteArray();
  }

  private static RestructuredLayout read(byte[] b) throws IOException {
    return RestructuredLayout.read(new DataInputStream(new ByteArrayInputStream(b)), "test");
  }

  @Test
  void aLayoutOfAnotherVersionOrPlacementIsRefused() throws Exception {
    RestructuredLayout l = RestructuredLayout.plan(StridedPattern.vector(0, 10, 10, 10),
        new long[] {0, 5, 10}, 64, 1000);
    byte[] b = bytes(l);
    b[11] = 9; // version
    assertTrue(assertThrows(IOException.class, () -> read(b)).getMessage()
        .contains("version 9"));
    byte[] c = bytes(l);
    c[c.length - 1] ^= 1; // the last task's stored start
    assertTrue(assertThrows(IOException.class, () -> read(c)).getMessage()
        .contains("does not match"));
    assertTrue(assertThrows(IOException.class, () -> read(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}))
        .getMessage().contains("not an MRAP layout"));
  }

  @Test
  void overlappingRegionsCannotBeRestructured() {
    IndexedPattern p = IndexedPattern.of(new long[] {0, 5}, new long[] {10, 10});
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> RestructuredLayout.plan(p, new long[] {0, 2}, 64, 100)).getMessage()
        .contains("overlap at byte 5"));
  }
}
