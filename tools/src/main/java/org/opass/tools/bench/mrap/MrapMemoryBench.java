package org.opass.tools.bench.mrap;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.ChildJvm;
import org.opass.tools.mrap.MrapMemoryMain;

/**
 * Heap of one MRAP process against the number of regions it handles (issue 22): a file of
 * 4-byte regions every 8 bytes, restructured by one {@code mrap-copy} client and read by one
 * task through its packed chunks and through its layout, each in a JVM of a map task's default
 * heap (820 MiB), and, for comparison, the same file read by stock
 * {@code FixedLengthInputFormat} in one task. Heap: the most found live after a full
 * collection, four samples a second.
 */
public final class MrapMemoryBench implements Bench {
  private static final String HEAP = "820m";

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    long[] counts = quick ? new long[] {1L << 18, 1L << 21, 1L << 23}
        : new long[] {1L << 18, 1L << 21, 1L << 23, 1L << 25};
    int reps = quick ? 3 : 5;
    File dir = new File(outDir, "mrap-memory");
    dir.mkdirs();
    List<Map<String, Object>> rows = new ArrayList<>();
    double readerMax = 0;
    double copyMax = 0;
    System.out.printf("%nmrap-memory: 4-byte regions every 8 bytes, a JVM of %s per process, "
        + "%d repetitions; live heap MiB, mean +- 95%%%n%12s %16s %16s %16s %16s%n", HEAP, reps,
        "regions", "copy client", "packed reader", "index reader", "stock reader");
    for (long n : counts) {
      File src = new File(dir, "src-" + n);
      MrapMemoryMain.writeRegions(src, n, null, null);
      File dst = new File(dir, "dst-" + n);
      double[][] heap = new double[4][reps];
      String pattern = "strided.region_count=" + n;
      org.apache.hadoop.fs.FileSystem local = org.apache.hadoop.fs.FileSystem.getLocal(
          new org.apache.hadoop.conf.Configuration());
      for (int rep = 0; rep < reps; rep++) {
        local.delete(new org.apache.hadoop.fs.Path(dst.toURI()), false); // and its .crc
        heap[0][rep] = heap(run(dir, "copy", "-D", "dfs.blocksize=128m", "-D",
            "strided.region_size=4", "-D", "strided.region_spacing=4", "-D", pattern,
            "-mode", "single", src.toURI().toString(), dst.toURI().toString()));
        heap[1][rep] = heap(run(dir, "read", dst.toURI().toString(), "strided.region_size=4",
            "strided.region_spacing=4", pattern));
        heap[2][rep] = heap(run(dir, "read", dst.toURI().toString(),
            "mrap.access.restructured=index", "strided.region_size=8",
            "strided.region_spacing=0", pattern));
        heap[3][rep] = heap(run(dir, "stock", src.toURI().toString(), "8"));
      }
      Stats copy = Stats.of(heap[0]);
      Stats packed = Stats.of(heap[1]);
      Stats index = Stats.of(heap[2]);
      Stats stock = Stats.of(heap[3]);
      System.out.printf("%12d %16s %16s %16s %16s%n", n, copy, packed, index, stock);
      readerMax = Math.max(readerMax, Math.max(packed.mean, index.mean));
      copyMax = Math.max(copyMax, copy.mean);
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("region_count", n);
      row.put("copy_client_heap_mib", copy.json());
      row.put("packed_reader_heap_mib", packed.json());
      row.put("index_reader_heap_mib", index.json());
      row.put("stock_fixed_length_reader_heap_mib", stock.json());
      rows.add(row);
      src.delete();
      local.delete(new org.apache.hadoop.fs.Path(dst.toURI()), false);
    }
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("reader_heap_mib_max", readerMax);
    summary.put("copy_client_heap_mib_max", copyMax);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("setup", Map.of("heap", HEAP, "region_bytes", 4, "region_stride", 8,
        "chunk_bytes", 128L << 20, "repetitions", reps, "region_counts", counts));
    doc.put("rows", rows);
    return doc;
  }

  private static ChildJvm.Result run(File dir, String... args) throws Exception {
    ChildJvm.Result r = ChildJvm.run(HEAP, new File(dir, args[0] + ".log"), 1800,
        MrapMemoryMain.class, args);
    if (r.exitCode != 0) {
      throw new IllegalStateException(String.join(" ", args) + " failed: " + r.output);
    }
    return r;
  }

  private static double heap(ChildJvm.Result r) {
    return Double.parseDouble(r.value("heap_mib"));
  }
}
