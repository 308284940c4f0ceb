package org.opass.mrap.index;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The files holding an index's entries: gzip, a member a line, so that the whole file reads as
 * JSON lines through any gzip reader ({@code gzip -dc}, Python's {@code gzip}) and a planner
 * reads one line by its member's position and length alone. Compressed, a line costs a fifth of
 * its bytes: a file's chunk URLs repeat, and a query's first plan reads the lines of the files it
 * picks.
 */
public final class EntriesFile {
  /** What an entries file's name ends with. */
  public static final String SUFFIX = ".jsonl.gz";
  /** The most bytes one line may inflate to. */
  static final int MAX_LINE = 256 << 20;
  private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};

  private EntriesFile() {
  }

  /** Writes {@code line} (no newline in it) as one gzip member of {@code out}; its bytes. */
  public static int write(OutputStream out, String line) throws IOException {
    byte[] text = (line + "\n").getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream b = new ByteArrayOutputStream(text.length / 4 + 64);
    b.write(HEADER);
    b.write(ZarrArray.deflate(text, 9, true));
    CRC32 crc = new CRC32();
    crc.update(text);
    writeInt(b, (int) crc.getValue());
    writeInt(b, text.length);
    b.writeTo(out);
    return b.size();
  }

  private static void writeInt(ByteArrayOutputStream b, int v) {
    b.write(v);
    b.write(v >>> 8);
    b.write(v >>> 16);
    b.write(v >>> 24);
  }

  /** One member of an entries file: its line, where it starts and its bytes. */
  public interface Visitor {
    void line(String line, long offset, int bytes) throws IOException;
  }

  /**
   * Reads every member of an entries file (as {@link #write} wrote them) in turn.
   *
   * @throws IOException naming {@code what} where a member is not such a gzip member
   */
  public static void read(InputStream in, String what, Visitor visitor) throws IOException {
    byte[] all = in.readAllBytes();
    int at = 0;
    while (at < all.length) {
      Member m = member(all, at, all.length - at, what);
      visitor.line(m.line, at, m.bytes);
      at += m.bytes;
    }
  }

  /** A member read: its line and its bytes. */
  private static final class Member {
    final String line;
    final int bytes;

    Member(String line, int bytes) {
      this.line = line;
      this.bytes = bytes;
    }
  }

  /** The member of {@code b} at {@code at} (at most {@code n} bytes long). */
  private static Member member(byte[] b, int at, int n, String what) throws IOException {
    if (n < HEADER.length + 8 || b[at] != 0x1f || b[at + 1] != (byte) 0x8b || b[at + 2] != 8
        || b[at + 3] != 0) {
      throw new IOException(what + ": not an index entries member at byte " + at);
    }
    Inflater f = new Inflater(true);
    try {
      f.setInput(b, at + HEADER.length, n - HEADER.length);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[16384];
      while (!f.finished()) {
        int got = f.inflate(buf);
        if (got == 0 && (f.needsInput() || f.needsDictionary())) {
          throw new IOException(what + ": the entries member at byte " + at + " is cut short");
        }
        out.write(buf, 0, got);
        if (out.size() > MAX_LINE) {
          throw new IOException(what + ": an entry of over " + MAX_LINE + " bytes at byte " + at);
        }
      }
      int used = n - HEADER.length - f.getRemaining();
      String s = out.toString(StandardCharsets.UTF_8);
      return new Member(s.endsWith("\n") ? s.substring(0, s.length() - 1) : s,
          HEADER.length + used + 8);
    } catch (DataFormatException e) {
      throw new IOException(what + ": the entries member at byte " + at + " does not inflate: "
          + e.getMessage(), e);
    } finally {
      f.end();
    }
  }

  /** The line of the member {@code b} holds (one, whole, as read by position). */
  public static String line(byte[] b, String what) throws IOException {
    return member(b, 0, b.length, what).line;
  }
}
