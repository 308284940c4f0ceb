package org.opass.mrap.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import org.opass.mrap.format.Positioned;

/**
 * A read-only channel over a {@link Positioned} file that reads whole aligned pages and keeps
 * the last few: a metadata parser's many small reads (HDF5's object headers, B-tree nodes)
 * become a few positioned reads, each one round trip to a DataNode.
 */
final class PagedChannel implements SeekableByteChannel {
  static final int PAGE = 64 * 1024;
  private static final int PAGES = 64;

  private final Positioned in;
  private final long length;
  private long position;
  private boolean open = true;
  private final Map<Long, byte[]> pages = new LinkedHashMap<Long, byte[]>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, byte[]> eldest) {
      return size() > PAGES;
    }
  };

  PagedChannel(Positioned in) throws IOException {
    this.in = in;
    this.length = in.length();
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (position >= length) {
      return -1;
    }
    int done = 0;
    while (dst.hasRemaining() && position < length) {
      long page = position / PAGE;
      byte[] p = pages.get(page);
      if (p == null) {
        p = new byte[(int) Math.min(PAGE, length - page * PAGE)];
        in.readFully(page * PAGE, p, 0, p.length);
        pages.put(page, p);
      }
      int at = (int) (position - page * PAGE);
      int n = Math.min(dst.remaining(), p.length - at);
      dst.put(p, at, n);
      position += n;
      done += n;
    }
    return done;
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public SeekableByteChannel position(long newPosition) {
    position = newPosition;
    return this;
  }

  @Override
  public long size() {
    return length;
  }

  @Override
  public SeekableByteChannel truncate(long size) {
    throw new NonWritableChannelException();
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    open = false;
    pages.clear();
  }
}
