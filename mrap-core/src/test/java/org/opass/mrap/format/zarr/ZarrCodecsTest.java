package org.opass.mrap.format.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.science.Fixtures;

/**
 * The codecs' decoders against numcodecs 0.11 (c-blosc 1.21.3), the oracle: each case of
 * science/zarr/codecs (written by make_codecs.py) decodes to the bytes numcodecs decodes it
 * to, or where numcodecs cannot read a valid input (a zstd frame without a content size,
 * several frames, an empty chunk) to the bytes that were encoded; what numcodecs refuses is
 * refused. Damaged inputs decode or are refused by a {@link ScienceFormatException} naming the
 * codec, in memory bounded by the chunk.
 */
class ZarrCodecsTest {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private static List<JsonNode> cases;

  @BeforeAll
  static void load() throws IOException {
    try (InputStream in = ZarrCodecsTest.class.getResourceAsStream(
        "/science/zarr/codecs/cases.json")) {
      cases = new ArrayList<>();
      new ObjectMapper().readTree(in).get("cases").forEach(cases::add);
    }
  }

  private static byte[] bytes(String name) throws IOException {
    return Fixtures.bytes("zarr/codecs/" + name);
  }

  /** The case's codec on {@code in}, bounded by {@code maxBytes} where the codec is. */
  private static byte[] decode(JsonNode c, byte[] in, long maxBytes) {
    JsonNode args = c.get("args");
    switch (c.get("codec").asText()) {
      case "blosc":
        return Blosc.decode(in, maxBytes);
      case "zstd":
        return Zstd.decode(in, maxBytes);
      case "lz4":
        return Lz4.decode(in, maxBytes);
      case "zlib":
        return Inflate.zlib(in, maxBytes);
      case "gzip":
        return Inflate.gzip(in, maxBytes);
      case "shuffle":
        return Shuffle.decode(in, args.get("elementsize").asInt());
      case "delta":
        return Delta.decode(in, args.get("dtype").asText(), args.get("astype").asText());
      default:
        throw new AssertionError(c.get("codec").asText());
    }
  }

  private static boolean bounded(JsonNode c) {
    String codec = c.get("codec").asText();
    return !codec.equals("shuffle") && !codec.equals("delta");
  }

  @TestFactory
  Stream<DynamicTest> eachCaseDecodesAsNumcodecsDoes() {
    assertTrue(cases.size() > 150, "cases: " + cases.size());
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.get("name").asText(), () -> {
      byte[] in = bytes(c.get("in").asText());
      if (c.has("error")) {
        ScienceFormatException e = assertThrows(ScienceFormatException.class,
            () -> decode(c, in, 1 << 20), "numcodecs: " + c.get("error").asText());
        assertTrue(e.getMessage().startsWith(c.get("codec").asText() + ":"), e.getMessage());
        return;
      }
      byte[] expected = bytes(c.get("out").asText());
      assertArrayEquals(expected, decode(c, in, expected.length), c.toString());
      if (bounded(c)) {
        // a generous bound is no size: the output is what the data hold
        assertArrayEquals(expected, decode(c, in, expected.length + 1000L), c.toString());
        if (expected.length > 0) {
          ScienceFormatException e = assertThrows(ScienceFormatException.class,
              () -> decode(c, in, expected.length - 1), "one byte short");
          assertTrue(e.getMessage().startsWith(c.get("codec").asText() + ":"),
              e.getMessage());
        }
      }
    }));
  }

  @Test
  void everyCodecAndBloscCompressorIsCovered() {
    List<String> seen = new ArrayList<>();
    for (JsonNode c : cases) {
      String codec = c.get("codec").asText();
      String key = codec.equals("blosc") ? "blosc-" + c.get("args").get("cname").asText()
          + "-" + c.get("args").path("shuffle").asText("") : codec;
      if (!seen.contains(key)) {
        seen.add(key);
      }
    }
    for (String cname : new String[] {"blosclz", "lz4", "lz4hc", "zlib", "zstd"}) {
      for (String shuffle : new String[] {"noshuffle", "shuffle", "bitshuffle", "autoshuffle"}) {
        assertTrue(seen.contains("blosc-" + cname + "-" + shuffle), cname + " " + shuffle);
      }
    }
    for (String codec : new String[] {"zstd", "lz4", "zlib", "gzip", "shuffle", "delta"}) {
      assertTrue(seen.contains(codec), codec);
    }
  }

  @Test
  void damagedInputsDecodeOrAreRefusedByNameInBoundedMemory() throws IOException {
    long seed = Long.getLong("opass.fuzz.seed", 11);
    // a first pass links the messages' string concatenations, which allocate once each
    fuzz(new Random(~seed), false);
    int refused = fuzz(new Random(seed), true);
    assertTrue(refused > 3000, "damage is found: " + refused);
  }

  /** Decodes damaged copies of each case's input; the number refused. */
  private static int fuzz(Random rnd, boolean measured) throws IOException {
    int decoded = 0;
    int refused = 0;
    for (JsonNode c : cases) {
      byte[] in = bytes(c.get("in").asText());
      if (in.length == 0) {
        continue;
      }
      long maxBytes = c.has("out") ? Math.max(bytes(c.get("out").asText()).length, 64) : 1 << 16;
      String codec = c.get("codec").asText();
      for (int k = 0; k < 30; k++) {
        String[] how = new String[1];
        byte[] damaged = k % 3 == 2 ? header(in, rnd, how) : Fixtures.damaged(in, rnd, how);
        long thread = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(thread);
        long bound = bounded(c) ? maxBytes : 8L * damaged.length;
        try {
          byte[] out = decode(c, damaged, maxBytes);
          assertTrue(out.length <= bound, c.get("name") + " " + how[0] + ": " + out.length);
          decoded++;
        } catch (ScienceFormatException e) {
          assertTrue(e.getMessage().startsWith(codec + ":"), c.get("name") + " " + how[0]
              + ": " + e.getMessage());
          refused++;
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
          fail(c.get("name") + " " + how[0] + ": " + e, e);
        }
        long allocated = THREADS.getThreadAllocatedBytes(thread) - before;
        assertTrue(!measured || allocated < 4 * bound + 3 * damaged.length + (1 << 20),
            c.get("name") + " " + how[0] + ": " + allocated + " bytes allocated for " + bound);
      }
    }
    if (measured) {
      System.out.println("ZarrCodecsTest: " + decoded + " damaged inputs decoded, " + refused
          + " refused by name");
    }
    return refused;
  }

  /** Damage to the first 32 bytes, where the codecs keep their headers and sizes. */
  private static byte[] header(byte[] in, Random rnd, String[] how) {
    byte[] b = in.clone();
    int at = rnd.nextInt(Math.min(b.length, 32));
    long[] extremes = {0, 1, -1, 0x7F, 0xFF, Integer.MAX_VALUE, Integer.MIN_VALUE, b.length,
        b.length - 16, b.length + 1, rnd.nextInt()};
    long v = extremes[rnd.nextInt(extremes.length)];
    int width = 1 << rnd.nextInt(3);
    for (int j = 0; j < width && at + j < b.length; j++) {
      b[at + j] = (byte) (v >>> (8 * j));
    }
    how[0] = width + " bytes at " + at + " set to " + v;
    return b;
  }

  @Test
  void sizesInHeadersAreNotAllocated() {
    // a Blosc header claiming 2 GiB, and a zstd frame and an LZ4 chunk claiming 4 GiB - 1
    byte[] blosc = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN).put((byte) 2)
        .put((byte) 1).put((byte) 0x21).put((byte) 4).putInt(Integer.MAX_VALUE)
        .putInt(1 << 16).putInt(32).array();
    assertMessage("blosc: the frame holds 2147483647 bytes, past the 4096",
        () -> Blosc.decode(blosc, 4096));
    byte[] zstd = {(byte) 0x28, (byte) 0xB5, (byte) 0x2F, (byte) 0xFD, (byte) 0x80, 0x58, -1,
        -1, -1, -1, 1, 0, 0};
    assertMessage("zstd: the frame at 0 holds 4294967295 bytes, past the 4096",
        () -> Zstd.decode(zstd, 4096));
    byte[] lz4 = {-1, -1, -1, -1, 0};
    assertMessage("lz4: the chunk says it holds 4294967295 bytes, past the 4096",
        () -> Lz4.decode(lz4, 4096));
  }

  @Test
  void aBloscBlockPastTheFrameIsNamed() throws IOException {
    byte[] in = bytes("blosc_lz4_shuffle_bs256_f4.in");
    ByteBuffer b = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(16 + 4 * 3, in.length - 2); // block 3 starts 2 bytes before the frame's end
    assertMessage("blosc: block 3 starts at " + (in.length - 2) + ", outside the frame's "
        + in.length + " bytes", () -> Blosc.decode(in, 1 << 20));
    byte[] cut = Arrays.copyOf(bytes("blosc_zstd_shuffle_f4.in"), 100);
    assertMessage("blosc: the frame says it is", () -> Blosc.decode(cut, 1 << 20));
    byte[] snappy = bytes("blosc_snappy_shuffle_f4.in");
    assertMessage("blosc: snappy-compressed frames are not read",
        () -> Blosc.decode(snappy, 1 << 20));
  }

  @Test
  void deflateBombsStopAtTheBound() {
    Deflater d = new Deflater(9);
    d.setInput(new byte[10 << 20]);
    d.finish();
    ByteArrayOutputStream z = new ByteArrayOutputStream();
    byte[] buf = new byte[65536];
    while (!d.finished()) {
      z.write(buf, 0, d.deflate(buf));
    }
    d.end();
    byte[] bomb = z.toByteArray();
    assertMessage("zlib: the stream decodes past the 1048576 bytes",
        () -> Inflate.zlib(bomb, 1 << 20));
    assertEquals(10 << 20, Inflate.zlib(bomb, 10 << 20).length);
  }

  @Test
  void shuffleAndDeltaRefuseWhatTheyCannotRead() {
    assertMessage("shuffle: a chunk of 7 bytes is not whole elements of 2 bytes",
        () -> Shuffle.decode(new byte[7], 2));
    assertMessage("delta: the type <c8 is not read", () -> Delta.decode(new byte[8], "<c8",
        "<c8"));
    assertMessage("delta: a chunk of 6 bytes is not whole values of <i4",
        () -> Delta.decode(new byte[6], "<i4", "<i4"));
  }

  @Test
  void unshuffleHandlesEveryTypeSizeAndTail() {
    Random rnd = new Random(5);
    for (int typesize = 1; typesize <= 20; typesize++) {
      for (int length : new int[] {0, 1, 7, 64, 65, 1000, 1003}) {
        byte[] plain = new byte[length];
        rnd.nextBytes(plain);
        int n = length / typesize;
        byte[] shuffled = plain.clone();
        for (int i = 0; i < n; i++) {
          for (int j = 0; j < typesize; j++) {
            shuffled[j * n + i] = plain[i * typesize + j];
          }
        }
        byte[] out = new byte[length];
        Shuffle.unshuffle(shuffled, 0, out, 0, length, typesize);
        assertArrayEquals(plain, out, typesize + " " + length);
      }
    }
  }

  @Test
  void bitUnshuffleIsBitshufflesTransposeUndone() {
    Random rnd = new Random(6);
    for (int typesize = 1; typesize <= 20; typesize++) {
      for (int elements : new int[] {0, 3, 8, 64, 72, 136, 1000, 1024, 1027}) {
        int length = elements * typesize + rnd.nextInt(typesize);
        byte[] plain = new byte[length];
        rnd.nextBytes(plain);
        // bitshuffle: bit k of byte j of element i to bit i % 8 of byte i / 8 of row 8 j + k
        byte[] shuffled = plain.clone();
        if (elements % 8 == 0 && elements > 0) {
          Arrays.fill(shuffled, 0, elements * typesize, (byte) 0);
          for (int i = 0; i < elements; i++) {
            for (int j = 0; j < typesize; j++) {
              for (int k = 0; k < 8; k++) {
                if ((plain[i * typesize + j] >> k & 1) != 0) {
                  shuffled[(8 * j + k) * (elements / 8) + i / 8] |= (byte) (1 << (i % 8));
                }
              }
            }
          }
        }
        byte[] out = new byte[length + 3];
        Shuffle.bitUnshuffle(shuffled, 0, out, 3, length, typesize);
        assertArrayEquals(plain, Arrays.copyOfRange(out, 3, length + 3),
            typesize + " " + elements);
      }
    }
  }

  private static void assertMessage(String start, Runnable r) {
    ScienceFormatException e = assertThrows(ScienceFormatException.class, r::run);
    assertTrue(e.getMessage().startsWith(start), e.getMessage());
  }
}
