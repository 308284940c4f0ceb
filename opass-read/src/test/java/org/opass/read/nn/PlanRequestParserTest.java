package org.opass.read.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;

class PlanRequestParserTest {

  private static List<PlanRead> parse(String json) throws PlanRefusedException {
    return PlanRequestParser.parse(json.getBytes(StandardCharsets.UTF_8), 100);
  }

  /** Asserts the body is refused with {@code status} and a message containing {@code what}. */
  private static void refused(int status, String what, byte[] body) {
    PlanRefusedException e = assertThrows(PlanRefusedException.class,
        () -> PlanRequestParser.parse(body, 100));
    assertEquals(status, e.status(), e.getMessage());
    assertTrue(e.getMessage().contains(what), e.getMessage());
  }

  private static void refused(int status, String what, String json) {
    refused(status, what, json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsAreParsedWithDefaultsForOffsetAndLength() throws Exception {
    List<PlanRead> reads = parse("{\"reads\": [{\"path\": \"/a\", \"reader\": "
        + "\"h1\"}, {\"reader\": \"h2\", \"length\": 5, \"path\": \"/b\", \"offset\": 7}]}");
    assertEquals(2, reads.size());
    assertEquals("/a", reads.get(0).path());
    assertEquals(0, reads.get(0).offset());
    assertEquals(Long.MAX_VALUE, reads.get(0).end());
    assertEquals("h2", reads.get(1).reader());
    assertEquals(12, reads.get(1).end());
  }

  @Test
  void aMegabyteNumberIsRefusedWithoutConvertingIt() {
    StringBuilder digits = new StringBuilder(1 << 20);
    for (int i = 0; i < 1 << 20; i++) {
      digits.append((char) ('1' + i % 9));
    }
    String json = "{\"reads\": [{\"path\": \"/a\", \"reader\": \"h\", \"offset\": " + digits
        + "}]}";
    // readTree took about 15 minutes on a number this long (quadratic conversion). With
    // Hadoop 3.4's Jackson the message names the field and the count; 3.5's Jackson stops at
    // 1,000 digits while reading the field's name, so it names the read
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> refused(400, "reads[0]", json));
    refused(400, "digits; at most 19", json);
  }

  @Test
  void deepNestingIsRefusedAtOnce() {
    int depth = 100_000;
    StringBuilder b = new StringBuilder();
    b.append("{\"reads\": [{\"path\": ");
    for (int i = 0; i < depth; i++) {
      b.append('[');
    }
    for (int i = 0; i < depth; i++) {
      b.append(']');
    }
    b.append("}]}");
    assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> refused(400, "reads[0].path must be a string", b.toString()));
    StringBuilder root = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      root.append("[{\"a\":");
    }
    assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> refused(400, "must be a JSON object", root.toString()));
    StringBuilder inReads = new StringBuilder("{\"reads\": [");
    for (int i = 0; i < depth; i++) {
      inReads.append("[");
    }
    assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> refused(400, "reads[0] must be an object", inReads.toString()));
  }

  @Test
  void badValuesAndFieldsAreNamed() {
    refused(400, "reads[0].offset must be a non-negative integer",
        "{\"reads\": [{\"path\": \"/a\", \"reader\": \"h\", \"offset\": -1}]}");
    refused(400, "reads[0].length must be a non-negative integer",
        "{\"reads\": [{\"path\": \"/a\", \"reader\": \"h\", \"length\": 1.5}]}");
    refused(400, "reads[0].length must be a non-negative integer",
        "{\"reads\": [{\"path\": \"/a\", \"reader\": \"h\", \"length\": \"7\"}]}");
    refused(400, "reads[0].offset is larger than",
        "{\"reads\": [{\"path\": \"/a\", \"reader\": \"h\", \"offset\": 9999999999999999999}]}");
    refused(400, "reads[1].reader is missing",
        "{\"reads\": [{\"path\": \"/a\", \"reader\": \"h\"}, {\"path\": \"/b\"}]}");
    refused(400, "reads[0].path is empty", "{\"reads\": [{\"path\": \"\", \"reader\": \"h\"}]}");
    refused(400, "unknown field \"lenght\"",
        "{\"reads\": [{\"path\": \"/a\", \"reader\": \"h\", \"lenght\": 5}]}");
    refused(400, "duplicate field reads[0].path",
        "{\"reads\": [{\"path\": \"/a\", \"path\": \"/b\", \"reader\": \"h\"}]}");
    refused(400, "unknown field \"read\"", "{\"read\": []}");
    refused(400, "duplicate field \"reads\"", "{\"reads\": [], \"reads\": []}");
    refused(400, "\"reads\" is empty", "{\"reads\": []}");
    refused(400, "has no \"reads\"", "{}");
    refused(400, "must be a JSON object", "[]");
    refused(400, "content after the request object",
        "{\"reads\": [{\"path\": \"/a\", \"reader\": \"h\"}]} {}");
    refused(400, "not valid JSON", "{\"reads\": [{\"path\": \"/a\", ");
    refused(400, "the request body is empty", "");
    refused(400, "the request body is empty", "  ");
  }

  @Test
  void longStringsAreRefusedByLength() {
    String path = "/" + "p".repeat(PlanRequestParser.MAX_PATH_CHARS);
    refused(400, "reads[0].path is 8001 characters long",
        "{\"reads\": [{\"path\": \"" + path + "\", \"reader\": \"h\"}]}");
    refused(400, "reads[0].reader is 256 characters long",
        "{\"reads\": [{\"path\": \"/a\", \"reader\": \"" + "h".repeat(256) + "\"}]}");
  }

  @Test
  void invalidUtf8IsAParseError() {
    byte[] body = "{\"reads\": [{\"path\": \"/a\u00e9\", \"reader\": \"h\"}]}"
        .getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < body.length; i++) {
      if (body[i] == (byte) 0xc3) {
        body[i + 1] = (byte) 0x28; // a lead byte without its continuation
      }
    }
    refused(400, "not valid JSON (UTF-8) at line 1", body);
  }

  @Test
  void moreReadsThanAllowedAre413() {
    StringBuilder b = new StringBuilder("{\"reads\": [");
    for (int i = 0; i <= 100; i++) {
      b.append(i == 0 ? "" : ",").append("{\"path\": \"/a\", \"reader\": \"h\"}");
    }
    refused(413, ReadBalanceKeys.PLAN_MAX_REQUEST_READS, b.append("]}").toString());
  }
}
