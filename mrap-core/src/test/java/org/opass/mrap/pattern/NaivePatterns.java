package org.opass.mrap.pattern;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The oracle: what a pattern configuration names, worked out the obvious way from its keys,
 * with none of the pattern classes: loops over strided levels, a walk over a block's elements
 * merged into contiguous runs, tiles in row-major order, an indexed list sorted by offset.
 * Each region is {offset, length}. In the test-jar: the end-to-end and Spark tests check
 * their readers against it.
 */
public final class NaivePatterns {
  private NaivePatterns() {
  }

  public static List<long[]> regions(Map<String, String> keys) {
    String kind = keys.getOrDefault("mrap.pattern.kind", "strided");
    switch (kind) {
      case "strided":
        return strided(keys);
      case "subarray":
        return subarray(keys, longs(keys.get("mrap.pattern.subarray.origin"), null),
            longs(keys.get("mrap.pattern.subarray.extent"), null));
      case "tiled":
        return tiled(keys);
      default:
        return indexed(keys.get("mrap.pattern.indexed.regions"));
    }
  }

  /**
   * A random pattern of any kind that fits {@code length} bytes, as configuration keys: strided
   * (1-3 levels, by gaps or by strides), subarray, indexed, and unless {@code restructurable}
   * tiled or indexed with overlaps.
   */
  public static Map<String, String> random(Random rnd, long length, boolean restructurable) {
    while (true) {
      Map<String, String> k = new LinkedHashMap<>();
      int kind = rnd.nextInt(restructurable ? 4 : 5);
      switch (kind) {
        case 0:
        case 1: { // strided, by gaps or by strides, 1 to 3 levels
          int levels = 1 + rnd.nextInt(3);
          long size = 1 + rnd.nextInt(rnd.nextBoolean() ? 20 : 3000);
          StringBuilder counts = new StringBuilder();
          StringBuilder steps = new StringBuilder();
          long extent = size;
          for (int l = 0; l < levels; l++) {
            long count = 1 + rnd.nextInt(l == 0 ? 40 : 5);
            long gap = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(kind == 0 ? 3000 : 100);
            counts.append(l == 0 ? "" : ",").append(count);
            steps.append(l == 0 ? "" : ",").append(kind == 0 ? gap : extent + gap);
            extent = (count - 1) * (extent + gap) + extent;
          }
          k.put("strided.region_size", Long.toString(size));
          k.put("strided.region_count", counts.toString());
          k.put(kind == 0 ? "strided.region_spacing" : "strided.region_stride",
              steps.toString());
          k.put("strided.start", Long.toString(rnd.nextInt(2000)));
          break;
        }
        case 2: { // subarray
          int n = 1 + rnd.nextInt(3);
          StringBuilder shape = new StringBuilder();
          StringBuilder origin = new StringBuilder();
          StringBuilder ext = new StringBuilder();
          for (int d = 0; d < n; d++) {
            int s = 1 + rnd.nextInt(n == 1 ? 400 : 25);
            int o = rnd.nextInt(s);
            int e = 1 + rnd.nextInt(s - o);
            shape.append(d == 0 ? "" : ",").append(s);
            origin.append(d == 0 ? "" : ",").append(o);
            ext.append(d == 0 ? "" : ",").append(e);
          }
          k.put("mrap.pattern.kind", "subarray");
          k.put("mrap.pattern.array.shape", shape.toString());
          k.put("mrap.pattern.array.element_size", Integer.toString(1 + rnd.nextInt(16)));
          k.put("mrap.pattern.array.offset", Integer.toString(rnd.nextInt(500)));
          k.put("mrap.pattern.subarray.origin", origin.toString());
          k.put("mrap.pattern.subarray.extent", ext.toString());
          break;
        }
        case 3: { // indexed, apart (overlaps would not restructure)
          int n = 1 + rnd.nextInt(50);
          StringBuilder b = new StringBuilder();
          long at = rnd.nextInt(200);
          for (int i = 0; i < n; i++) {
            long len = 1 + rnd.nextInt(rnd.nextInt(6) == 0 ? 8000 : 500);
            b.append(i == 0 ? "" : ",").append(at).append(':').append(len);
            at += len + rnd.nextInt(rnd.nextBoolean() ? 3 : 3000);
          }
          k.put("mrap.pattern.kind", "indexed");
          k.put("mrap.pattern.indexed.regions", b.toString());
          break;
        }
        default: { // tiled, or indexed with overlaps
          if (rnd.nextBoolean()) {
            int n = 1 + rnd.nextInt(3);
            StringBuilder shape = new StringBuilder();
            StringBuilder tile = new StringBuilder();
            for (int d = 0; d < n; d++) {
              int s = 1 + rnd.nextInt(n == 1 ? 300 : 20);
              shape.append(d == 0 ? "" : ",").append(s);
              tile.append(d == 0 ? "" : ",").append(1 + rnd.nextInt(s));
            }
            k.put("mrap.pattern.kind", "tiled");
            k.put("mrap.pattern.array.shape", shape.toString());
            k.put("mrap.pattern.array.element_size", Integer.toString(1 + rnd.nextInt(8)));
            k.put("mrap.pattern.array.offset", Integer.toString(rnd.nextInt(100)));
            k.put("mrap.pattern.tile.shape", tile.toString());
          } else {
            int n = 1 + rnd.nextInt(30);
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < n; i++) {
              long len = 1 + rnd.nextInt(2000);
              b.append(i == 0 ? "" : ",").append(Math.max(0, rnd.nextInt((int) length) - len))
                  .append(':').append(len);
            }
            k.put("mrap.pattern.kind", "indexed");
            k.put("mrap.pattern.indexed.regions", b.toString());
          }
        }
      }
      List<long[]> regions = regions(k);
      long end = 0;
      for (long[] r : regions) {
        end = Math.max(end, r[0] + r[1]);
      }
      if (end <= length && regions.size() <= 20_000) {
        return k;
      }
    }
  }

  private static long[] longs(String s, long[] dflt) {
    if (s == null) {
      return dflt;
    }
    String[] parts = s.split(",");
    long[] out = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      out[i] = Long.parseLong(parts[i].trim());
    }
    return out;
  }

  private static List<long[]> strided(Map<String, String> keys) {
    long size = Long.parseLong(keys.get("strided.region_size"));
    long start = Long.parseLong(keys.getOrDefault("strided.start", "0"));
    long[] counts = longs(keys.get("strided.region_count"), null);
    long[] spacing = longs(keys.get("strided.region_spacing"), null);
    long[] stride = longs(keys.get("strided.region_stride"), null);
    List<long[]> out = new ArrayList<>();
    level(counts.length - 1, start, size, counts, spacing, stride, out);
    return out;
  }

  /** Element extent of one unit at {@code level} (level -1: a region). */
  private static long extent(int level, long size, long[] counts, long[] spacing,
      long[] stride) {
    long e = size;
    for (int l = 0; l <= level; l++) {
      long step = stride != null ? stride[l] : e + spacing[l];
      e = (counts[l] - 1) * step + e;
    }
    return e;
  }

  private static void level(int level, long at, long size, long[] counts, long[] spacing,
      long[] stride, List<long[]> out) {
    if (level < 0) {
      out.add(new long[] {at, size});
      return;
    }
    long inner = extent(level - 1, size, counts, spacing, stride);
    long step = stride != null ? stride[level] : inner + spacing[level];
    for (long i = 0; i < counts[level]; i++) {
      level(level - 1, at + i * step, size, counts, spacing, stride, out);
    }
  }

  private static List<long[]> subarray(Map<String, String> keys, long[] origin, long[] extent) {
    long[] shape = longs(keys.get("mrap.pattern.array.shape"), null);
    long elem = Long.parseLong(keys.get("mrap.pattern.array.element_size"));
    long base = Long.parseLong(keys.getOrDefault("mrap.pattern.array.offset", "0"));
    int n = shape.length;
    long[] o = origin != null ? origin : new long[n];
    long[] e = extent != null ? extent : shape;
    long total = 1;
    for (long x : e) {
      total *= x;
    }
    List<long[]> out = new ArrayList<>();
    long[] idx = new long[n];
    for (long k = 0; k < total; k++) {
      long rem = k;
      for (int d = n - 1; d >= 0; d--) {
        idx[d] = o[d] + rem % e[d];
        rem /= e[d];
      }
      long linear = 0;
      for (int d = 0; d < n; d++) {
        linear = linear * shape[d] + idx[d];
      }
      long at = base + linear * elem;
      long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && last[0] + last[1] == at) {
        last[1] += elem; // contiguous with the run before: one region
      } else {
        out.add(new long[] {at, elem});
      }
    }
    return out;
  }

  private static List<long[]> tiled(Map<String, String> keys) {
    long[] shape = longs(keys.get("mrap.pattern.array.shape"), null);
    long[] tile = longs(keys.get("mrap.pattern.tile.shape"), null);
    int n = shape.length;
    long[] per = new long[n];
    long tiles = 1;
    for (int d = 0; d < n; d++) {
      per[d] = (shape[d] + tile[d] - 1) / tile[d];
      tiles *= per[d];
    }
    List<long[]> out = new ArrayList<>();
    for (long t = 0; t < tiles; t++) {
      long[] origin = new long[n];
      long[] extent = new long[n];
      long rem = t;
      for (int d = n - 1; d >= 0; d--) {
        origin[d] = (rem % per[d]) * tile[d];
        extent[d] = Math.min(tile[d], shape[d] - origin[d]);
        rem /= per[d];
      }
      out.addAll(subarray(keys, origin, extent));
    }
    return out;
  }

  private static List<long[]> indexed(String list) {
    List<long[]> out = new ArrayList<>();
    for (String item : list.split(",")) {
      String[] p = item.trim().split(":");
      out.add(new long[] {Long.parseLong(p[0].trim()), Long.parseLong(p[1].trim())});
    }
    out.sort((a, b) -> Long.compare(a[0], b[0])); // stable: equal offsets keep their order
    return out;
  }
}
