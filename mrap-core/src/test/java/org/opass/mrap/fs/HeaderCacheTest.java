package org.opass.mrap.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opass.mrap.format.Positioned;

/**
 * The planner's header cache: a file planned again is not read again while its path, length
 * and modification time are the same; another version of it is read; the bytes kept stay
 * bounded.
 */
class HeaderCacheTest {
  private static final int LENGTH = 1 << 20;
  private final byte[] file = new byte[LENGTH];
  private final AtomicLong read = new AtomicLong();

  @BeforeEach
  void fresh() {
    HeaderCache.clear();
    new Random(5).nextBytes(file);
  }

  /** A stream over {@link #file} counting the bytes it serves. */
  private FSDataInputStream stream() {
    return new FSDataInputStream(new FSInputStream() {
      private long pos;

      @Override
      public void seek(long p) {
        pos = p;
      }

      @Override
      public long getPos() {
        return pos;
      }

      @Override
      public boolean seekToNewSource(long target) {
        return false;
      }

      @Override
      public int read() {
        return pos < LENGTH ? file[(int) pos++] & 0xff : -1;
      }

      @Override
      public int read(long position, byte[] b, int off, int len) {
        int n = (int) Math.min(len, LENGTH - position);
        System.arraycopy(file, (int) position, b, off, n);
        read.addAndGet(n);
        return n;
      }
    });
  }

  private static FileStatus status(String path, long modified) {
    return new FileStatus(LENGTH, false, 3, 128 << 20, modified, new Path(path));
  }

  private byte[] readThrough(FileStatus s, long pos, int len) throws IOException {
    Positioned p = HeaderCache.of(stream(), s);
    byte[] b = new byte[len];
    p.readFully(pos, b, 0, len);
    byte[] want = new byte[len];
    System.arraycopy(file, (int) pos, want, 0, len);
    assertArrayEquals(want, b);
    return b;
  }

  @Test
  void aFilePlannedAgainIsNotReadAgainUnlessItChanged() throws IOException {
    readThrough(status("/a.nc", 7), 0, 65536);
    readThrough(status("/a.nc", 7), 200_000, 4096);
    assertEquals(65536 + 4096, read.get());
    readThrough(status("/a.nc", 7), 0, 65536);
    readThrough(status("/a.nc", 7), 100, 1000); // within what was read
    readThrough(status("/a.nc", 7), 200_000, 4096);
    assertEquals(65536 + 4096, read.get(), "the same file is served from the cache");
    readThrough(status("/a.nc", 8), 0, 65536);
    assertEquals(2 * 65536 + 4096, read.get(), "another version of the file is read");
    readThrough(status("/b.nc", 7), 0, 65536);
    assertEquals(3 * 65536 + 4096, read.get(), "another file is read");
    readThrough(status("/a.nc", 7), 60_000, 10_000); // past the end of what was read
    assertEquals(3 * 65536 + 4096 + 10_000, read.get());
  }

  @Test
  void theBytesKeptStayBounded() throws IOException {
    int files = (int) (HeaderCache.MAX_BYTES / 65536) + 64;
    for (int i = 0; i < files; i++) {
      readThrough(status("/f" + i, 1), 0, 65536);
    }
    long first = read.get();
    assertEquals((long) files * 65536, first);
    readThrough(status("/f" + (files - 1), 1), 0, 65536); // the latest: kept
    assertEquals(first, read.get());
    readThrough(status("/f0", 1), 0, 65536); // the eldest: dropped
    assertEquals(first + 65536, read.get());
  }
}
