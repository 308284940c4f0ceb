package org.opass.mrap.pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class PatternCodecTest {
  private static byte[] bytes(AccessPattern p) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PatternCodec.write(new DataOutputStream(out), p);
    return out.toByteArray();
  }

  private static AccessPattern read(byte[] b) throws IOException {
    return PatternCodec.read(new DataInputStream(new ByteArrayInputStream(b)));
  }

  @Test
  void everyKindRoundTripsAndSlicesStaySmall() throws Exception {
    StridedPattern strided = StridedPattern.nested(7, 32, new long[] {5, 900},
        new long[] {10, 1_000_000});
    SubarrayPattern sub = SubarrayPattern.of(64, new long[] {8, 9, 10}, 4, new long[] {1, 2, 3},
        new long[] {2, 3, 4});
    IndexedPattern idx = IndexedPattern.of(new long[] {9, 1, 5}, new long[] {1, 2, 3});
    for (AccessPattern p : List.of(strided, sub, idx, strided.slice(3, 9_000_000),
        sub.slice(1, 5))) {
      AccessPattern back = read(bytes(p));
      assertEquals(p.regions(0, Math.min(50, p.regionCount())),
          back.regions(0, Math.min(50, back.regionCount())), p.toString());
      assertEquals(p.regionCount(), back.regionCount());
      assertEquals(p.totalBytes(), back.totalBytes());
    }
    assertTrue(bytes(strided.slice(3, 9_000_000)).length < 100, "a slice costs its bounds");
    AccessPattern idxSlice = read(bytes(idx.slice(1, 3)));
    assertEquals(List.of(Region.of(5, 3), Region.of(9, 1)), idxSlice.regions(0, 2),
        "an indexed slice carries only its own regions");
  }

  @Test
  void anUnknownVersionOrKindIsRefused() throws Exception {
    byte[] b = bytes(StridedPattern.vector(0, 1, 1, 1));
    b[0] = 9;
    assertTrue(assertThrows(IOException.class, () -> read(b)).getMessage()
        .contains("version 9"));
    byte[] c = bytes(StridedPattern.vector(0, 1, 1, 1));
    c[1] = 42;
    assertTrue(assertThrows(IOException.class, () -> read(c)).getMessage().contains("kind 42"));
  }
}
