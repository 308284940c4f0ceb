package org.opass.tools.bench.mrap;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.CombineFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.opass.mrap.locality.SplitLocality;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Stats;

/**
 * MRAP §4.3.3 / §4.4.4: where map tasks whose input spans several chunks run, on data placed at
 * random (3 replicas on distinct hosts of a 64-host, 4-rack cluster; the block locations are
 * given to the real split code, no cluster is started):
 * <ul>
 *   <li>independent chunks (4 a task): MRAP's virtual splits against stock
 *   {@code CombineFileInputFormat} (the stock way to give a task several blocks), fraction of
 *   bytes on the task's preferred host, tasks per host, and the time to compute the splits;</li>
 *   <li>chunks read together (4 consecutive blocks a task): Algorithm 4.3.2's primary host
 *   against stock {@code FileInputFormat}'s choice (the hosts of the split's first block) and
 *   against the best any single host can do (found by trying every host).</li>
 * </ul>
 */
public final class MrapSplitsBench implements Bench {
  private static final int HOSTS = 64;
  private static final int RACKS = 4;
  private static final long CHUNK = 128L << 20;
  private static final int PER_TASK = 4;

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int chunks = 10_000;
    int reps = quick ? 3 : 7;
    double[] oursLocal = new double[reps];
    double[] stockLocal = new double[reps];
    double[] oursSeconds = new double[reps];
    double[] stockSeconds = new double[reps];
    double[] oursMaxTasks = new double[reps];
    double[] stockMaxTasks = new double[reps];
    double[] coverOurs = new double[reps];
    double[] coverStock = new double[reps];
    double[] coverBest = new double[reps];
    double[] coverAtOptimum = new double[reps];
    // the same with each chunk holding 1 to all of its bytes of interest (a pattern's split):
    // Algorithm 4.3.2 iterated (cover) against one sort by price (the previous release)
    // primary-local fraction, bytes from off its rack, bytes its fallback (second location) holds
    double[][] cover = new double[3][reps];
    double[][] sort = new double[3][reps];
    for (int rep = -1; rep < reps; rep++) { // rep -1 warms the code up
      Random rnd = new Random(1000 + rep);
      String[][] holders = new String[chunks][];
      for (int c = 0; c < chunks; c++) {
        Set<String> hs = new HashSet<>();
        while (hs.size() < 3) {
          hs.add(host(rnd.nextInt(HOSTS)));
        }
        holders[c] = hs.toArray(new String[0]);
      }
      // independent chunks
      List<SplitLocality.Piece> pieces = new ArrayList<>(chunks);
      for (String[] h : holders) {
        pieces.add(new SplitLocality.Piece(CHUNK, List.of(h)));
      }
      long t0 = System.nanoTime();
      List<SplitLocality.Group> groups = SplitLocality.virtualSplits(pieces, PER_TASK * CHUNK);
      double ours = (System.nanoTime() - t0) / 1e9;
      long local = 0;
      Map<String, Integer> tasks = new HashMap<>();
      for (SplitLocality.Group g : groups) {
        tasks.merge(g.host(), 1, Integer::sum);
        for (int c : g.chunks()) {
          local += List.of(holders[c]).contains(g.host()) ? CHUNK : 0;
        }
      }
      long t1 = System.nanoTime();
      List<InputSplit> stock = combineSplits(holders);
      double stockTime = (System.nanoTime() - t1) / 1e9;
      long stockLocalBytes = 0;
      Map<String, Integer> stockTasks = new HashMap<>();
      for (InputSplit s : stock) {
        CombineFileSplit cs = (CombineFileSplit) s;
        String preferred = cs.getLocations().length > 0 ? cs.getLocations()[0] : "";
        stockTasks.merge(preferred, 1, Integer::sum);
        for (int i = 0; i < cs.getNumPaths(); i++) {
          int c = (int) (cs.getOffset(i) / CHUNK);
          stockLocalBytes += List.of(holders[c]).contains(preferred) ? cs.getLength(i) : 0;
        }
      }
      // chunks read together: PER_TASK consecutive blocks a task
      double oursSum = 0;
      double stockSum = 0;
      double bestSum = 0;
      int atOptimum = 0;
      int n = 0;
      for (int c = 0; c + PER_TASK <= chunks; c += PER_TASK, n++) {
        List<SplitLocality.Piece> split = pieces.subList(c, c + PER_TASK);
        String primary = SplitLocality.rank(split, MrapSplitsBench::rack, 2).get(0).host();
        double best = 0;
        for (int h = 0; h < HOSTS; h++) {
          best = Math.max(best, held(split, host(h)));
        }
        double mine = held(split, primary);
        oursSum += mine;
        stockSum += held(split, holders[c][0]);
        bestSum += best;
        atOptimum += mine == best ? 1 : 0;
      }
      double[] coverSum = new double[3];
      double[] sortSum = new double[3];
      for (int c = 0; c + PER_TASK <= chunks; c += PER_TASK) {
        List<SplitLocality.Piece> split = new ArrayList<>();
        for (int k = c; k < c + PER_TASK; k++) {
          split.add(new SplitLocality.Piece(1 + (long) (rnd.nextDouble() * CHUNK),
              List.of(holders[k])));
        }
        List<String> ranked = new ArrayList<>();
        for (SplitLocality.HostPrice h : SplitLocality.rank(split, MrapSplitsBench::rack, 2)) {
          ranked.add(h.host());
        }
        // the cover's hosts as locations (primary, then secondaries), against one sort's
        List<String> covered = new ArrayList<>(SplitLocality.cover(split, MrapSplitsBench::rack,
            2).hosts());
        add(coverSum, reads(split, covered));
        add(sortSum, reads(split, ranked));
      }
      if (rep < 0) {
        continue;
      }
      for (int k = 0; k < 3; k++) {
        cover[k][rep] = coverSum[k] / n;
        sort[k][rep] = sortSum[k] / n;
      }
      oursLocal[rep] = (double) local / (chunks * CHUNK);
      stockLocal[rep] = (double) stockLocalBytes / (chunks * CHUNK);
      oursSeconds[rep] = ours;
      stockSeconds[rep] = stockTime;
      oursMaxTasks[rep] = tasks.values().stream().mapToInt(Integer::intValue).max().orElse(0)
          / ((double) groups.size() / HOSTS);
      stockMaxTasks[rep] = stockTasks.values().stream().mapToInt(Integer::intValue).max()
          .orElse(0) / ((double) stock.size() / HOSTS);
      coverOurs[rep] = oursSum / n;
      coverStock[rep] = stockSum / n;
      coverBest[rep] = bestSum / n;
      coverAtOptimum[rep] = (double) atOptimum / n;
    }
    Stats vLocal = Stats.of(oursLocal);
    Stats cLocal = Stats.of(stockLocal);
    Stats vTime = Stats.of(oursSeconds);
    Stats cTime = Stats.of(stockSeconds);
    System.out.printf("%nmrap-splits: %d chunks of %d MiB, 3 replicas at random over %d hosts "
        + "in %d racks, %d chunks a task, %d repetitions%n", chunks, CHUNK >> 20, HOSTS, RACKS,
        PER_TASK, reps);
    System.out.printf("independent chunks   local bytes   max/mean tasks per host   split time"
        + " s%n  virtual splits     %-13s %-25.2f %s%n  CombineFileInput.  %-13s %-25.2f %s%n",
        vLocal, Stats.of(oursMaxTasks).mean, vTime, cLocal, Stats.of(stockMaxTasks).mean, cTime);
    System.out.printf("chunks read together   bytes on the preferred host (mean fraction)%n"
        + "  Algorithm 4.3.2    %s (at the single-host optimum for %.0f%% of tasks)%n"
        + "  stock FileInputFormat (first block's host) %s%n  best single host   %s%n",
        Stats.of(coverOurs), 100 * Stats.of(coverAtOptimum).mean, Stats.of(coverStock),
        Stats.of(coverBest));
    System.out.printf("a pattern's split (1 to all bytes of each chunk)   on the primary   off "
        + "its rack   on the fallback%n  Algorithm 4.3.2, iterated  %-15s %-12s %s%n"
        + "  one sort by price          %-15s %-12s %s%n", Stats.of(cover[0]),
        Stats.of(cover[1]), Stats.of(cover[2]), Stats.of(sort[0]), Stats.of(sort[1]),
        Stats.of(sort[2]));
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("virtual_local_fraction", vLocal.mean);
    summary.put("combine_local_fraction", cLocal.mean);
    summary.put("splits_seconds_10k", vTime.mean);
    summary.put("combine_splits_seconds_10k", cTime.mean);
    summary.put("setcover_local_fraction", Stats.of(coverOurs).mean);
    summary.put("setcover_optimum_fraction", Stats.of(coverBest).mean);
    summary.put("stock_first_block_local_fraction", Stats.of(coverStock).mean);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("setup", Map.of("chunks", chunks, "chunk_bytes", CHUNK, "hosts", HOSTS, "racks",
        RACKS, "replicas", 3, "chunks_per_task", PER_TASK, "repetitions", reps));
    Map<String, Object> detail = new LinkedHashMap<>();
    detail.put("virtual_local_fraction", vLocal.json());
    detail.put("combine_local_fraction", cLocal.json());
    detail.put("virtual_max_over_mean_tasks_per_host", Stats.of(oursMaxTasks).json());
    detail.put("combine_max_over_mean_tasks_per_host", Stats.of(stockMaxTasks).json());
    detail.put("virtual_split_seconds", vTime.json());
    detail.put("combine_split_seconds", cTime.json());
    detail.put("setcover_local_fraction", Stats.of(coverOurs).json());
    detail.put("setcover_at_optimum_fraction", Stats.of(coverAtOptimum).json());
    detail.put("first_block_local_fraction", Stats.of(coverStock).json());
    detail.put("best_single_host_fraction", Stats.of(coverBest).json());
    detail.put("cover_primary_local_fraction", Stats.of(cover[0]).json());
    detail.put("cover_off_rack_fraction", Stats.of(cover[1]).json());
    detail.put("cover_fallback_local_fraction", Stats.of(cover[2]).json());
    detail.put("sort_primary_local_fraction", Stats.of(sort[0]).json());
    detail.put("sort_off_rack_fraction", Stats.of(sort[1]).json());
    detail.put("sort_fallback_local_fraction", Stats.of(sort[2]).json());
    doc.put("detail", detail);
    return doc;
  }

  private static void add(double[] sum, double[] x) {
    for (int k = 0; k < sum.length; k++) {
      sum[k] += x[k];
    }
  }

  /**
   * Where a task's bytes come from, given its locations (primary first), as HDFS reads them
   * (the nearest replica): {on the primary, from off the primary's rack, held by the second
   * location, where a scheduler that cannot use the primary runs it}, as fractions.
   */
  private static double[] reads(List<SplitLocality.Piece> split, List<String> hosts) {
    String primary = hosts.get(0);
    String fallback = hosts.size() > 1 ? hosts.get(1) : primary;
    long all = 0;
    long local = 0;
    long offRack = 0;
    long second = 0;
    for (SplitLocality.Piece p : split) {
      all += p.bytes();
      second += p.hosts().contains(fallback) ? p.bytes() : 0;
      if (p.hosts().contains(primary)) {
        local += p.bytes();
      } else if (p.hosts().stream().noneMatch(h -> rack(h).equals(rack(primary)))) {
        offRack += p.bytes();
      }
    }
    return new double[] {(double) local / all, (double) offRack / all, (double) second / all};
  }

  private static String host(int h) {
    return "host" + h;
  }

  private static String rack(String host) {
    return "/rack" + Integer.parseInt(host.substring(4)) % RACKS;
  }

  private static double held(List<SplitLocality.Piece> split, String host) {
    long mine = 0;
    long all = 0;
    for (SplitLocality.Piece p : split) {
      all += p.bytes();
      mine += p.hosts().contains(host) ? p.bytes() : 0;
    }
    return (double) mine / all;
  }

  /** Stock CombineFileInputFormat's splits of one file whose blocks are the chunks. */
  private static List<InputSplit> combineSplits(String[][] holders) throws IOException {
    BlockLocation[] blocks = new BlockLocation[holders.length];
    for (int c = 0; c < holders.length; c++) {
      String[] topo = new String[holders[c].length];
      String[] names = new String[holders[c].length];
      for (int i = 0; i < topo.length; i++) {
        topo[i] = rack(holders[c][i]) + "/" + holders[c][i];
        names[i] = holders[c][i] + ":9866";
      }
      blocks[c] = new BlockLocation(names, holders[c], topo, c * CHUNK, CHUNK);
    }
    Path file = new Path("file:///mrap-splits/data");
    LocatedFileStatus status = new LocatedFileStatus(new FileStatus(holders.length * CHUNK,
        false, 3, CHUNK, 0, file), blocks);
    CombineFileInputFormat<Object, Object> format = new CombineFileInputFormat<Object, Object>() {
      @Override
      protected List<FileStatus> listStatus(JobContext job) {
        return List.of(status);
      }

      @Override
      public RecordReader<Object, Object> createRecordReader(InputSplit split,
          TaskAttemptContext context) {
        throw new UnsupportedOperationException("splits only");
      }
    };
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "file:///");
    conf.setLong("mapreduce.input.fileinputformat.split.maxsize", PER_TASK * CHUNK);
    return format.getSplits(Job.getInstance(conf));
  }
}
