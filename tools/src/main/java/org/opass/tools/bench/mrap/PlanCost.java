package org.opass.tools.bench.mrap;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableValues;
import org.opass.mrap.science.ScienceFiles;

/** The bench's split of one file's planning: the open, the header, the coordinates. */
final class PlanCost {
  final LongAdder openNanos = new LongAdder();
  final LongAdder headerNanos = new LongAdder();
  final LongAdder headerReads = new LongAdder();
  final LongAdder headerBytes = new LongAdder();
  final LongAdder coordinateNanos = new LongAdder();
  final LongAdder coordinateReads = new LongAdder();
  final LongAdder coordinateBytes = new LongAdder();

  /** Per file, in ms, reads and KiB. */
  Map<String, Object> json(int files) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("open_ms", openNanos.sum() / 1e6 / files);
    m.put("header_ms", headerNanos.sum() / 1e6 / files);
    m.put("header_reads", (double) headerReads.sum() / files);
    m.put("header_kib", headerBytes.sum() / 1024.0 / files);
    m.put("coordinates_ms", coordinateNanos.sum() / 1e6 / files);
    m.put("coordinates_reads", (double) coordinateReads.sum() / files);
    m.put("coordinates_kib", coordinateBytes.sum() / 1024.0 / files);
    return m;
  }

  String line(int files) {
    return String.format(java.util.Locale.ROOT, "open %.1f ms; header %.1f reads, %.0f KiB, "
        + "%.1f ms; coordinates %.1f reads, %.1f KiB, %.1f ms (a file, 8 at once)",
        openNanos.sum() / 1e6 / files, (double) headerReads.sum() / files,
        headerBytes.sum() / 1024.0 / files, headerNanos.sum() / 1e6 / files,
        (double) coordinateReads.sum() / files, coordinateBytes.sum() / 1024.0 / files,
        coordinateNanos.sum() / 1e6 / files);
  }

  /**
   * What planning a selection costs a file, split as the planner does it (eight files at a
   * time): the open (a NameNode call), the header with the variable's chunk index
   * ({@code ScienceFiles.open}, {@code variable}), and each dimension's coordinate variable read
   * whole ({@code VariableValues.read}).
   */
  static PlanCost of(FileSystem fs, List<FileStatus> files) throws Exception {
    PlanCost cost = new PlanCost();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (FileStatus f : files) {
        done.add(pool.submit(() -> {
          long t0 = System.nanoTime();
          try (FSDataInputStream in = fs.open(f.getPath())) {
            long t1 = System.nanoTime();
            Positioned p = Positioned.of(in, f.getLen());
            try (ScienceFile sf = ScienceFiles.open(p, f.getPath().toString(),
                ScienceFiles.Kind.NETCDF)) {
              Variable v = sf.variable(SelectionCase.SERIES_VARIABLE);
              long t2 = System.nanoTime();
              long reads = p.reads();
              long bytes = p.bytesRead();
              for (int d = 0; d < v.rank(); d++) {
                Variable c = sf.coordinate(v, d);
                if (c != null) {
                  VariableValues.read(p, c);
                }
              }
              long t3 = System.nanoTime();
              cost.openNanos.add(t1 - t0);
              cost.headerNanos.add(t2 - t1);
              cost.headerReads.add(reads);
              cost.headerBytes.add(bytes);
              cost.coordinateNanos.add(t3 - t2);
              cost.coordinateReads.add(p.reads() - reads);
              cost.coordinateBytes.add(p.bytesRead() - bytes);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    return cost;
  }
}
