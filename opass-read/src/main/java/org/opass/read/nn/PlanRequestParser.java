package org.opass.read.nn;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;
import org.opass.read.wire.PlanWire;

/**
 * Reads a plan request, {@code {"reads": [{"path": "/d/f", "reader": "host", "offset": 0,
 * "length": 1048576}, ...]}}, with limits that hold whatever the body is: one pass over a
 * streaming parser, no tree, nothing recursive; a number longer than a {@code long} is refused
 * before it is converted (a 1 MB number costs a scan, not the quadratic conversion of
 * {@code readTree}); a container where a value should be is refused at once, so nesting costs
 * nothing; strings are capped (HDFS's longest path, DNS's longest name), fields are checked
 * (unknown, duplicate and missing ones are refused by name), and at most {@code maxReads}
 * reads are accepted. Invalid UTF-8 is a parse error. Every refusal is a 400 (413 for too many
 * reads) whose message says where and what, never the parser's own text.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class PlanRequestParser {
  /** HDFS's longest path ({@code HdfsServerConstants.MAX_PATH_LENGTH}). */
  static final int MAX_PATH_CHARS = 8000;
  /** The longest DNS name, and far longer than any IP address. */
  static final int MAX_READER_CHARS = 255;
  /** {@link Long#MAX_VALUE} has 19 digits. */
  static final int MAX_NUMBER_CHARS = 19;

  // Field names are not interned (a request could name many). Canonicalization stays on: it
  // is what selects the byte parser, which refuses invalid UTF-8 instead of replacing it;
  // its table is bounded, and a request with an unknown field name is refused at that name.
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .disable(JsonFactory.Feature.INTERN_FIELD_NAMES).build();

  private PlanRequestParser() {
  }

  /**
   * The reads of a request body, at most {@code maxReads} of them.
   *
   * @throws PlanRefusedException 400 (or 413 for too many reads) naming what is wrong
   */
  public static List<PlanRead> parse(byte[] body, int maxReads) throws PlanRefusedException {
    try (JsonParser p = FACTORY.createParser(body)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        throw new PlanRefusedException(400, "the request body is empty: send {\"reads\": "
            + "[{\"path\": ..., \"reader\": ...}, ...]}");
      }
      if (first != JsonToken.START_OBJECT) {
        throw bad(p, "the request must be a JSON object: {\"reads\": [{\"path\": ..., "
            + "\"reader\": ...}, ...]}");
      }
      List<PlanRead> reads = null;
      for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
        String field = p.getCurrentName();
        if (!PlanWire.READS.equals(field)) {
          throw bad(p, "unknown field " + quoted(field) + " (the request has one field, "
              + "\"reads\")");
        }
        if (reads != null) {
          throw bad(p, "duplicate field \"reads\"");
        }
        reads = reads(p, maxReads);
      }
      if (p.nextToken() != null) {
        throw bad(p, "content after the request object");
      }
      if (reads == null) {
        throw bad(p, "the request has no \"reads\": [{\"path\": ..., \"reader\": ...}, ...]");
      }
      if (reads.isEmpty()) {
        throw new PlanRefusedException(400, "\"reads\" is empty: a plan needs at least one read");
      }
      return reads;
    } catch (PlanRefusedException e) { // an IOException too: thrown above, naming the problem
      throw e;
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw new PlanRefusedException(400, "the request is not valid JSON (UTF-8)"
          + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr()));
    } catch (IOException e) {
      throw new PlanRefusedException(400, "the request is not valid JSON (UTF-8)");
    }
  }

  private static List<PlanRead> reads(JsonParser p, int maxReads)
      throws IOException, PlanRefusedException {
    if (p.nextToken() != JsonToken.START_ARRAY) {
      throw bad(p, "\"reads\" must be an array of {\"path\": ..., \"reader\": ...}");
    }
    List<PlanRead> out = new ArrayList<>();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      int i = out.size();
      if (i == maxReads) {
        throw new PlanRefusedException(413, "the request has more than " + maxReads
            + " reads (" + ReadBalanceKeys.PLAN_MAX_REQUEST_READS + "); split it");
      }
      if (t != JsonToken.START_OBJECT) {
        throw bad(p, "reads[" + i + "] must be an object {\"path\": ..., \"reader\": ...}");
      }
      out.add(read(p, i));
    }
    return out;
  }

  private static PlanRead read(JsonParser p, int i) throws IOException, PlanRefusedException {
    String path = null;
    String reader = null;
    long offset = -1;
    long length = -1;
    String read = "reads[" + i + "]";
    for (JsonToken t = next(p, read); t != JsonToken.END_OBJECT; t = next(p, read)) {
      String field = p.getCurrentName();
      String where = read + "." + field;
      next(p, where);
      if (PlanWire.PATH_FIELD.equals(field)) {
        path = once(p, where, path, string(p, where, MAX_PATH_CHARS));
      } else if (PlanWire.READER.equals(field)) {
        reader = once(p, where, reader, string(p, where, MAX_READER_CHARS));
      } else if (PlanWire.OFFSET.equals(field)) {
        offset = onceNumber(p, where, offset);
      } else if (PlanWire.LENGTH.equals(field)) {
        length = onceNumber(p, where, length);
      } else {
        throw bad(p, "reads[" + i + "] has an unknown field " + quoted(field)
            + " (expected path, reader, offset, length)");
      }
    }
    if (path == null || reader == null) {
      throw new PlanRefusedException(400, "reads[" + i + "]." + (path == null ? "path" : "reader")
          + " is missing");
    }
    return new PlanRead(path, reader, Math.max(0, offset), length < 0 ? Long.MAX_VALUE : length);
  }

  /**
   * The next token, within {@code where}. Jackson 2.15 on (Hadoop 3.5) refuses a number of
   * more than 1,000 digits by itself, and reads the value after a field name with the name.
   */
  private static JsonToken next(JsonParser p, String where)
      throws IOException, PlanRefusedException {
    try {
      return p.nextToken();
    } catch (JsonProcessingException e) {
      if ("StreamConstraintsException".equals(e.getClass().getSimpleName())) {
        throw new PlanRefusedException(400, where + " has a number of more than 1000 digits; "
            + "at most " + MAX_NUMBER_CHARS + " (a 64-bit byte count)");
      }
      throw e;
    }
  }

  private static String string(JsonParser p, String where, int maxChars)
      throws IOException, PlanRefusedException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw bad(p, where + " must be a string");
    }
    int len = p.getTextLength();
    if (len == 0) {
      throw bad(p, where + " is empty");
    }
    if (len > maxChars) {
      throw bad(p, where + " is " + len + " characters long; at most " + maxChars);
    }
    return p.getText();
  }

  private static long number(JsonParser p, String where) throws IOException, PlanRefusedException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) {
      throw bad(p, where + " must be a non-negative integer");
    }
    // Checked before conversion: converting a huge number costs quadratic time.
    if (p.getTextLength() > MAX_NUMBER_CHARS) {
      throw bad(p, where + " has " + p.getTextLength() + " digits; at most "
          + MAX_NUMBER_CHARS + " (a 64-bit byte count)");
    }
    if (p.getNumberType() != JsonParser.NumberType.INT
        && p.getNumberType() != JsonParser.NumberType.LONG) {
      throw bad(p, where + " is larger than " + Long.MAX_VALUE);
    }
    long v = p.getLongValue();
    if (v < 0) {
      throw bad(p, where + " must be a non-negative integer, got " + v);
    }
    return v;
  }

  private static String once(JsonParser p, String where, String old, String value)
      throws PlanRefusedException {
    if (old != null) {
      throw bad(p, "duplicate field " + where);
    }
    return value;
  }

  private static long onceNumber(JsonParser p, String where, long old)
      throws IOException, PlanRefusedException {
    if (old >= 0) {
      throw bad(p, "duplicate field " + where);
    }
    return number(p, where);
  }

  private static String quoted(String field) {
    if (field == null) {
      return "(none)";
    }
    String shown = field.length() > 64 ? field.substring(0, 64) + "..." : field;
    return "\"" + shown + "\"";
  }

  private static PlanRefusedException bad(JsonParser p, String message) {
    JsonLocation at = p.getTokenLocation();
    return new PlanRefusedException(400, message
        + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
  }
}
