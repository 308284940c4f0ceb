package org.opass.tools.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.opass.tools.cluster.TestFiles;

/**
 * The files a soak wrote and closed, each with the seed and length of its bytes
 * ({@link TestFiles#randomBytes}), so that any range of it can be checked when read back. A
 * file is entered once {@code close()} returned, and taken out before it is deleted: every
 * file in the ledger must be readable, whole and unchanged.
 */
final class Ledger {
  /** One written file. */
  static final class Entry {
    final String path;
    final long length;
    final long seed;

    Entry(String path, long length, long seed) {
      this.path = path;
      this.length = length;
      this.seed = seed;
    }

    byte[] bytes() {
      return TestFiles.randomBytes(length, seed);
    }
  }

  private final Map<String, Entry> files = new ConcurrentHashMap<>();
  private final List<String> order = new ArrayList<>(); // for random picks

  synchronized void add(Entry e) {
    if (files.put(e.path, e) == null) {
      order.add(e.path);
    }
  }

  /** Takes {@code path} out (before it is deleted); false if it was not in. */
  synchronized boolean remove(String path) {
    if (files.remove(path) == null) {
      return false;
    }
    order.remove(path);
    return true;
  }

  /** A file of the ledger at random, or null when it is empty. */
  synchronized Entry pick(Random rnd) {
    return order.isEmpty() ? null : files.get(order.get(rnd.nextInt(order.size())));
  }

  /** Up to {@code n} distinct files at random. */
  synchronized List<Entry> pick(Random rnd, int n) {
    List<String> copy = new ArrayList<>(order);
    java.util.Collections.shuffle(copy, rnd);
    List<Entry> out = new ArrayList<>();
    for (String p : copy.subList(0, Math.min(n, copy.size()))) {
      out.add(files.get(p));
    }
    return out;
  }

  synchronized List<Entry> all() {
    List<Entry> out = new ArrayList<>();
    for (String p : order) {
      out.add(files.get(p));
    }
    return out;
  }

  boolean contains(String path) {
    return files.containsKey(path);
  }

  int size() {
    return files.size();
  }
}
