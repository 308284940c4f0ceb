package org.opass.mrap.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

class Crc32cTest {
  private static int crc(byte[] b, int from, int to) {
    CRC32C c = new CRC32C();
    c.update(b, from, to - from);
    return (int) c.getValue();
  }

  @Test
  void composedCrcsAreTheCrcOfTheJoinedBytes() {
    Random rnd = new Random(5);
    byte[] data = new byte[100_000];
    rnd.nextBytes(data);
    for (int t = 0; t < 200; t++) {
      int cut = rnd.nextInt(data.length + 1);
      int end = cut + rnd.nextInt(data.length - cut + 1);
      assertEquals(crc(data, 0, end),
          Crc32c.compose(crc(data, 0, cut), crc(data, cut, end), end - cut), "cut " + cut);
    }
  }

  @Test
  void refusesANegativeLength() {
    assertThrows(IllegalArgumentException.class, () -> Crc32c.compose(0, 0, -1));
  }

  @Test
  void runsAddedInAnyOrderGiveTheWholeFilesCrc() {
    Random rnd = new Random(6);
    byte[] data = new byte[50_000];
    rnd.nextBytes(data);
    for (int t = 0; t < 100; t++) {
      java.util.List<int[]> runs = new java.util.ArrayList<>(); // {from, to}
      for (int at = 0; at < data.length; ) {
        int to = Math.min(data.length, at + 1 + rnd.nextInt(t % 2 == 0 ? 40 : 9000));
        runs.add(new int[] {at, to});
        at = to;
      }
      if (t % 3 != 0) { // ascending (one product a run) or shuffled (streams closed)
        java.util.Collections.shuffle(runs, rnd);
      }
      Crc32c.Accumulator acc = new Crc32c.Accumulator(data.length);
      Crc32c.Accumulator half = new Crc32c.Accumulator(data.length);
      for (int i = 0; i < runs.size(); i++) {
        int[] r = runs.get(i);
        (i % 2 == 0 ? acc : half).add(crc(data, r[0], r[1]), r[1]);
      }
      acc.addValue(half.value());
      assertEquals(crc(data, 0, data.length), acc.value(), "trial " + t);
    }
  }
}
