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
}
