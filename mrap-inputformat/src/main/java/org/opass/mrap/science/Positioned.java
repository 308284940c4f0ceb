package org.opass.mrap.science;

import java.io.EOFException;
import java.io.IOException;

/**
 * A file read with positioned reads (an HDFS stream, a local file), counting them: a header is
 * read a few pages at a time, never whole.
 */
public abstract class Positioned {
  private long reads;
  private long bytes;

  /** The file's length in bytes. */
  public abstract long length() throws IOException;

  /** Reads up to {@code len} bytes at {@code pos}; the count read, -1 at the end. */
  protected abstract int readAt(long pos, byte[] b, int off, int len) throws IOException;

  /** Reads exactly {@code len} bytes at {@code pos}. */
  public final void readFully(long pos, byte[] b, int off, int len) throws IOException {
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

  /** Positioned reads so far. */
  public final long reads() {
    return reads;
  }

  /** Bytes read so far. */
  public final long bytesRead() {
    return bytes;
  }

  /** A local file (tests, fixtures). */
  public static Positioned of(java.nio.channels.FileChannel ch) {
    return new Positioned() {
      @Override
      public long length() throws IOException {
        return ch.size();
      }

      @Override
      protected int readAt(long pos, byte[] b, int off, int len) throws IOException {
        return ch.read(java.nio.ByteBuffer.wrap(b, off, len), pos);
      }
    };
  }
}
