package org.opass.e2e.mrap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The oracle: what a pattern configuration names, worked out the obvious way from its keys,
 * with none of the pattern classes: loops over strided levels, a walk over a block's elements
 * merged into contiguous runs, tiles in row-major order, an indexed list sorted by offset.
 * Each region is {offset, length}.
 */
final class NaivePatterns {
  private NaivePatterns() {
  }

  static List<long[]> regions(Map<String, String> keys) {
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

  /**
   * The records a reader gives for these regions of {@code data}: each region in pieces of at
   * most {@code recordBytes}, keyed by logical offset (the regions laid end to end).
   */
  static List<MrapReads.Rec> records(byte[] data, List<long[]> regions, long recordBytes) {
    List<MrapReads.Rec> out = new ArrayList<>();
    long key = 0;
    for (long[] r : regions) {
      for (long done = 0; done < r[1]; ) {
        int n = (int) Math.min(recordBytes, r[1] - done);
        byte[] b = new byte[n];
        System.arraycopy(data, (int) (r[0] + done), b, 0, n);
        out.add(new MrapReads.Rec(key, b));
        key += n;
        done += n;
      }
    }
    return out;
  }
}
