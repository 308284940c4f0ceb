package org.opass.mrap.format;

import java.io.EOFException;
import java.io.IOException;

/**
 * A file read with positioned reads (an HDFS stream, a local file), counting them: a header is
 * read a few pages at a time, never whole.
 */
public abstract class Positioned {
  private long reads;
  private long bytes;
  private byte[] head = new byte[0];

  /** The file's length in bytes. */
  public abstract long length() throws IOException;

  /** Reads up to {@code len} bytes at {@code pos}; the count read, -1 at the end. */
  protected abstract int readAt(long pos, byte[] b, int off, int len) throws IOException;

  /**
   * Reads the file's first {@code n} bytes (fewer in a shorter file) with one read and keeps
   * them: later reads within them cost none (a NetCDF-3 header is one read in all).
   *
   * @return the bytes kept
   */
  public final byte[] keepHead(int n) throws IOException {
    byte[] h = new byte[(int) Math.min(n, length())];
    readFully(0, h, 0, h.length);
    head = h;
    return h.clone();
  }

  /** Reads exactly {@code len} bytes at {@code pos}. */
  public final void readFully(long pos, byte[] b, int off, int len) throws IOException {
    if (pos >= 0 && pos + len <= head.length) {
      System.arraycopy(head, (int) pos, b, off, len);
      return;
    }
    reads++;
    int done = 0;
    while (done < len) {
      int n = readAt(pos + done, b, off + done, len - done);
      if (n < 0) {
        throw new EOFException("the file ends at " + (pos + done) + ", before byte "
            + (pos + len));
      }
      done += n;
    }
    bytes += len;
  }

  /** Positioned reads so far (reads served from the kept head aside). */
  public final long reads() {
    return reads;
  }

  /** Bytes read so far. */
  public final long bytesRead() {
    return bytes;
  }

  /** Reads exactly {@code len} bytes at {@code pos}, or fails: a stream, a file's original. */
  public interface Source {
    void readFully(long pos, byte[] b, int off, int len) throws IOException;
  }

  /**
   * Bytes {@code [start, start + length)} of {@code source}, as a file of {@code length} bytes:
   * the one way a positioned file is made over a stream, a cache or a restructured file's
   * original.
   */
  public static Positioned window(Source source, long start, long length) {
    return new Positioned() {
      @Override
      public long length() {
        return length;
      }

      @Override
      protected int readAt(long pos, byte[] b, int off, int len) throws IOException {
        if (pos >= length) {
          return -1;
        }
        int n = (int) Math.min(len, length - pos);
        source.readFully(start + pos, b, off, n);
        return n;
      }
    };
  }

  /** A file of {@code length} bytes read through {@code in} (an HDFS stream). */
  public static Positioned of(org.apache.hadoop.fs.PositionedReadable in, long length) {
    return window(in::readFully, 0, length);
  }

  /** A local file (tests, fixtures). */
  public static Positioned of(java.nio.channels.FileChannel ch) throws IOException {
    return window((pos, b, off, len) -> {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b, off, len);
      while (buf.hasRemaining()) {
        if (ch.read(buf, pos + buf.position() - off) < 0) {
          throw new java.io.EOFException("the file ends at " + (pos + buf.position() - off));
        }
      }
    }, 0, ch.size());
  }
}
