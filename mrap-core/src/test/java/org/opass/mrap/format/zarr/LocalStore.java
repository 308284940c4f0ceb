package org.opass.mrap.format.zarr;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.opass.mrap.format.ObjectStore;
import org.opass.mrap.format.ScienceFormatException;

/** A local folder as an {@link ObjectStore}: the fixtures' stores, read as HDFS is. */
public final class LocalStore implements ObjectStore {
  private final Path root;
  private int reads;

  public LocalStore(Path root) {
    this.root = root;
  }

  @Override
  public String name() {
    return root.toString();
  }

  @Override
  public byte[] get(String key, int max) throws IOException {
    Path p = root.resolve(key);
    if (!Files.isRegularFile(p)) {
      return null;
    }
    reads++;
    if (Files.size(p) > max) {
      throw new ScienceFormatException(name() + ": " + key + " holds more than " + max);
    }
    return Files.readAllBytes(p);
  }

  @Override
  public SortedMap<String, Place> list(String prefix) throws IOException {
    SortedMap<String, Place> out = new TreeMap<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (Files.isRegularFile(p)) {
          String key = root.relativize(p).toString().replace('\\', '/');
          if (key.startsWith(prefix)) {
            out.put(key, new Place(key, 0, Files.size(p)));
          }
        }
      }
    }
    return out;
  }

  @Override
  public void readFully(String object, long pos, byte[] b, int off, int len)
      throws IOException {
    reads++;
    try (FileChannel ch = FileChannel.open(root.resolve(object), StandardOpenOption.READ)) {
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b, off, len);
      while (buf.hasRemaining()) {
        if (ch.read(buf, pos + buf.position() - off) < 0) {
          throw new java.io.EOFException(object + " ends before byte " + (pos + len));
        }
      }
    }
  }

  /** Reads made so far. */
  public int reads() {
    return reads;
  }
}
