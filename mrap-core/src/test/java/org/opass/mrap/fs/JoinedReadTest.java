package org.opass.mrap.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The rule that joins runs into one positioned read: whole runs (the readers of restructured
 * files, the copy's band of tiles) and a window filled to its end (the copy's writer), each
 * against the rule as its reader wrote it before the two shared this class.
 */
class JoinedReadTest {
  private static final int REQUEST = JoinedRead.REQUEST;

  @Test
  void aRunThatWouldTakeAReadOfWholeRunsPastItsBytesDoesNotJoin() {
    JoinedRead read = new JoinedRead(100, 1000);
    read.begin(0, 400);
    assertTrue(read.join(450, 400));
    assertFalse(read.join(860, 200), "would end at 1060");
    assertEquals(0, read.start());
    assertEquals(850, read.end());
  }

  @Test
  void aWindowTakesTheRunReachingPastItsEndUpToThereAndThenNothing() {
    JoinedRead window = JoinedRead.window(100, 1000);
    window.begin(0, 400);
    assertTrue(window.join(450, 400));
    assertTrue(window.join(860, 200));
    assertEquals(1000, window.end());
    assertFalse(window.join(1000, 10), "full");
    assertEquals(1000, window.end());
  }

  @Test
  void aRunBehindTheReadTooFarAheadOrBehindTooMuchGapDoesNotJoin() {
    for (JoinedRead read : List.of(new JoinedRead(100, 1 << 20),
        JoinedRead.window(100, 1 << 20))) {
      read.begin(1000, 10);
      assertFalse(read.join(990, 5), "behind the read's start");
      assertFalse(read.join(1111, 5), "a gap of 101");
      assertTrue(read.join(1110, 5), "a gap of 100");
      assertEquals(1115, read.end());
    }
    JoinedRead tiny = new JoinedRead(1 << 20, 1 << 20);
    tiny.begin(0, 1);
    // gaps may reach the runs' bytes and a request's cost, no more
    assertFalse(tiny.join(1 + 1 + 1 + REQUEST + 1, 1));
    assertTrue(tiny.join(1 + 1 + 1 + REQUEST, 1));
  }

  @Test
  void wholeRunsJoinAsTheReadersJoinedThem() {
    Random rnd = new Random(31);
    for (int c = 0; c < 20_000; c++) {
      long maxGap = 1 + rnd.nextInt(300);
      long maxBytes = 1 + rnd.nextInt(3000);
      long[][] runs = ascending(rnd, 1 + rnd.nextInt(12));
      JoinedRead read = new JoinedRead(maxGap, maxBytes);
      Reference ref = new Reference(maxGap, maxBytes);
      read.begin(runs[0][0], runs[0][1]);
      ref.begin(runs[0][0], runs[0][1]);
      for (int i = 1; i < runs.length; i++) {
        boolean joined = ref.joinWhole(runs[i][0], runs[i][1]);
        assertEquals(joined, read.join(runs[i][0], runs[i][1]), "case " + c + " run " + i);
        assertEquals(ref.end, read.end(), "case " + c + " run " + i);
        if (!joined) {
          break;
        }
      }
    }
  }

  @Test
  void aWindowReachesAsTheCopysWriterReachedItsWindows() {
    Random rnd = new Random(32);
    for (int c = 0; c < 20_000; c++) {
      long maxGap = 1 + rnd.nextInt(300);
      long window = 1 + rnd.nextInt(3000);
      long[][] runs = rnd.nextInt(4) == 0 ? shuffledAndOverlapping(rnd) : ascending(rnd,
          1 + rnd.nextInt(12));
      long at = runs[0][0] + (runs[0][1] == 0 ? 0 : rnd.nextInt((int) runs[0][1]));
      long runEnd = runs[0][0] + runs[0][1];
      JoinedRead read = JoinedRead.window(maxGap, window);
      read.begin(at, Math.min(runEnd, at + window) - at);
      for (int i = 1; i < runs.length && read.join(runs[i][0], runs[i][1]); i++) {
        // joined
      }
      assertEquals(Reference.reach(at, runEnd, runs, maxGap, window), read.end(), "case " + c);
    }
  }

  /** Runs in file order, none overlapping, gaps of up to a few hundred bytes. */
  private static long[][] ascending(Random rnd, int n) {
    long[][] runs = new long[n][];
    long at = rnd.nextInt(1000);
    for (int i = 0; i < n; i++) {
      runs[i] = new long[] {at, rnd.nextInt(8) == 0 ? 0 : 1 + rnd.nextInt(800)};
      at += runs[i][1] + rnd.nextInt(400);
    }
    return runs;
  }

  /** Runs as another task's come after a task's: some behind, some overlapping. */
  private static long[][] shuffledAndOverlapping(Random rnd) {
    List<long[]> runs = new ArrayList<>();
    for (int i = 1 + rnd.nextInt(12); i > 0; i--) {
      runs.add(new long[] {rnd.nextInt(4000), 1 + rnd.nextInt(800)});
    }
    return runs.toArray(new long[0][]);
  }

  /** The two rules as their readers wrote them. */
  private static final class Reference {
    final long maxGap;
    final long maxBytes;
    long start;
    long end;
    long needed;
    long gaps;

    Reference(long maxGap, long maxBytes) {
      this.maxGap = maxGap;
      this.maxBytes = maxBytes;
    }

    void begin(long offset, long length) {
      start = offset;
      end = offset + length;
      needed = length;
      gaps = 0;
    }

    /** JoinedRead.join before the copy's writer used it. */
    boolean joinWhole(long offset, long length) {
      long gap = offset - end;
      if (gap > maxGap || gaps + gap > needed + length + REQUEST
          || offset + length - start > maxBytes) {
        return false;
      }
      gaps += gap;
      needed += length;
      end = offset + length;
      return true;
    }

    /** PhysicalWriter.reach before it used JoinedRead: the runs after the first. */
    static long reach(long at, long runEnd, long[][] runs, long maxGap, long window) {
      long end = Math.min(runEnd, at + window);
      long needed = end - at;
      long gaps = 0;
      for (int i = 1; i < runs.length && end < at + window; i++) {
        long gap = runs[i][0] - end;
        if (runs[i][0] < at || gap > maxGap || gaps + gap > needed + runs[i][1] + REQUEST) {
          break;
        }
        long to = Math.min(runs[i][0] + runs[i][1], at + window);
        gaps += Math.max(0, gap);
        needed += Math.max(0, to - Math.max(end, runs[i][0]));
        end = Math.max(end, to);
      }
      return end;
    }
  }
}
