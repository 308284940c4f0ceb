package org.opass.mrap.fs;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.opass.mrap.format.Positioned;

/**
 * The bytes a planner read from files' headers (metadata, coordinates, chunk indexes), kept in
 * this JVM for the next read of the same files: a Spark session's queries over a series, or a
 * program that plans several jobs, read each file's header once. A file is the same while its
 * path, length and modification time are (what a task checks too); an entry of another is
 * never served. At most {@value #MAX_BYTES} bytes in all, the files least recently planned
 * dropped first. Thread-safe (the planner reads eight headers at once).
 */
public final class HeaderCache {
  /** Bytes kept in all. */
  static final long MAX_BYTES = 64L << 20;
  private static final Map<String, TreeMap<Long, byte[]>> FILES =
      new LinkedHashMap<>(64, 0.75f, true);
  private static long bytes;

  private HeaderCache() {
  }

  /** {@code in}, the stream of {@code file}, read through this cache. */
  public static Positioned of(FSDataInputStream in, FileStatus file) {
    String key = file.getPath() + "|" + file.getLen() + "|" + file.getModificationTime();
    return Positioned.window((pos, b, off, n) -> {
      if (!served(key, pos, b, off, n)) {
        byte[] read = new byte[n];
        in.readFully(pos, read, 0, n);
        System.arraycopy(read, 0, b, off, n);
        keep(key, pos, read);
      }
    }, 0, file.getLen());
  }

  /** Copies bytes {@code [pos, pos + n)} of file {@code key} to b if one entry holds them. */
  private static synchronized boolean served(String key, long pos, byte[] b, int off, int n) {
    TreeMap<Long, byte[]> file = FILES.get(key);
    Map.Entry<Long, byte[]> e = file == null ? null : file.floorEntry(pos);
    if (e == null || e.getKey() + e.getValue().length < pos + n) {
      return false;
    }
    System.arraycopy(e.getValue(), (int) (pos - e.getKey()), b, off, n);
    return true;
  }

  private static synchronized void keep(String key, long pos, byte[] read) {
    if (read.length > MAX_BYTES / 16) {
      return; // a coordinate or an index this long is read again rather than held
    }
    byte[] old = FILES.computeIfAbsent(key, k -> new TreeMap<>()).put(pos, read);
    bytes += read.length - (old == null ? 0 : old.length);
    Iterator<Map.Entry<String, TreeMap<Long, byte[]>>> it = FILES.entrySet().iterator();
    while (bytes > MAX_BYTES && it.hasNext()) {
      Map.Entry<String, TreeMap<Long, byte[]>> eldest = it.next();
      if (eldest.getKey().equals(key)) {
        continue; // the file being read keeps its bytes
      }
      for (byte[] v : eldest.getValue().values()) {
        bytes -= v.length;
      }
      it.remove();
    }
  }

  /** Forgets every file (tests). */
  static synchronized void clear() {
    FILES.clear();
    bytes = 0;
  }
}
