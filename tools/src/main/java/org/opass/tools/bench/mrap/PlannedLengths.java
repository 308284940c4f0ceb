package org.opass.tools.bench.mrap;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.opass.mrap.layout.PackedLayout;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.IndexedPattern;
import org.opass.mrap.pattern.StridedPattern;
import org.opass.mrap.pattern.SubarrayPattern;

/** What {@link CopyBench} reports of the packed layout's planning: lengths, no cluster. */
final class PlannedLengths {
  private PlannedLengths() {
  }

  /**
   * The length a restructured file has over its original's, for the layouts the copy plans
   * (the same planning it writes with): issue 22's cases (a 1.1 MB file in 128 MiB chunks;
   * 6.3 MB regions in 64 MiB chunks at 80% and 98% of interest; 36-byte records at 80% and
   * 97%), and random strided, nested, subarray and indexed patterns of up to 90% of interest.
   */
  static Map<String, Double> of(boolean quick) {
    Map<String, Double> out = new LinkedHashMap<>();
    long mib = 1L << 20;
    planned(out, "1.1 MB file, 128 MiB chunks, 32-byte regions 10 KB apart",
        StridedPattern.vector(0, 32, 10_000, 110), 1_100_000, 128 * mib);
    planned(out, "6.3 MB regions in 64 MiB chunks, 80% of interest",
        StridedPattern.vector(0, 6_300_000, 1_575_000, 160), 1_260_000_000L, 64 * mib);
    planned(out, "6.3 MB regions in 64 MiB chunks, 98% of interest",
        StridedPattern.vector(0, 6_300_000, 128_572, 160), 1_028_571_520L, 64 * mib);
    planned(out, "36-byte records in 64 MiB chunks, 80% of interest",
        StridedPattern.vector(0, 36, 9, (quick ? 1 : 4) * 1_500_000), (quick ? 1 : 4)
            * 67_500_000L, 64 * mib);
    planned(out, "36-byte records in 64 MiB chunks, 97% of interest",
        StridedPattern.vector(0, 36, 1, (quick ? 1 : 4) * 1_800_000), (quick ? 1 : 4)
            * 66_600_000L, 64 * mib);
    Random rnd = new Random(22);
    double worst = 0;
    String worstCase = "";
    int cases = quick ? 100 : 400;
    for (int c = 0; c < cases; c++) {
      long length = (16 + rnd.nextInt(48)) * mib;
      long chunk = mib << rnd.nextInt(3);
      AccessPattern p;
      switch (c % 3) {
        case 0: { // strided, 1-90% of interest
          long size = 1 + rnd.nextInt(rnd.nextBoolean() ? 64 : 3 * (int) mib);
          double interest = 0.01 + 0.89 * rnd.nextDouble();
          long spacing = (long) (size / interest) - size;
          p = StridedPattern.vector(rnd.nextInt(1000), size, spacing,
              Math.max(1, (length - 1000) / (size + spacing)));
          break;
        }
        case 1: { // subarray of a 3-d array, a box of it
          long e = 1 + rnd.nextInt(64);
          long n0 = length / (e * 256 * 256);
          long[] shape = {Math.max(1, n0), 256, 256};
          long[] extent = {shape[0], 1 + rnd.nextInt(256), 1 + rnd.nextInt(256)};
          p = SubarrayPattern.of(0, shape, e, new long[3], extent);
          break;
        }
        default: { // indexed, random sizes and gaps, up to 90% of interest
          int n = 1 + rnd.nextInt(5000);
          long[] o = new long[n];
          long[] l = new long[n];
          long at = 0;
          long mean = length / n;
          for (int i = 0; i < n && at < length; i++) {
            l[i] = 1 + (long) (rnd.nextDouble() * 0.9 * mean);
            o[i] = at;
            at += l[i] + (long) (rnd.nextDouble() * (2 * mean - l[i]));
          }
          int used = 0;
          while (used < n && l[used] > 0 && o[used] + l[used] <= length) {
            used++;
          }
          p = IndexedPattern.of(Arrays.copyOf(o,
              Math.max(1, used)), Arrays.copyOf(l, Math.max(1, used)));
        }
      }
      if (p.end() > length || p.totalBytes() > 0.9 * length) {
        continue;
      }
      double r = (double) PackedLayout.plan(p, chunk, length, 1)
          .physicalLength() / length;
      if (r > worst) {
        worst = r;
        worstCase = p + ", chunk " + chunk;
      }
    }
    out.put(cases + " random patterns up to 90% of interest, the worst: " + worstCase, worst);
    return out;
  }

  private static void planned(Map<String, Double> out, String name,
      AccessPattern p, long length, long chunk) {
    PackedLayout l = PackedLayout
        .plan(p, chunk, length, 1);
    out.put(name, (double) l.physicalLength() / length);
  }
}
