package org.opass.tools.demo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.opass.tools.cluster.ProcessHdfs;

/**
 * The tour's write step: {@code bin/bench write} (Opass §5.1.5) in small, on the tour's HDFS in
 * processes. More writers than DataNodes, spread evenly over the DataNode hosts (writer
 * {@code p} on host {@code p mod n}, as the bench's), each writing its own file of whole blocks,
 * all released at once, on DataNodes whose writes are throttled as the bench's are, so that a
 * DataNode given more pipelines than the others is slower and its writers with it. The first
 * replica of every block is the writer's own DataNode; where the other two go is placement's.
 *
 * <p>Each block is timed from its first byte until its pipeline acknowledged it (hflush; close
 * for the last), as the bench's {@code Workload.writeFiles} does, and its replicas' DataNodes
 * are read from the NameNode once all are reported. From these, exactly, how many writes each
 * DataNode received at once at each moment, and each writer's bandwidth.
 */
final class ParallelWrites {
  /** One block written: by whom, when (ns from the release), and the DataNodes holding it. */
  record Block(int writer, long startNanos, long endNanos, List<String> holders) {
  }

  /**
   * What one run measured.
   *
   * @param hosts the DataNodes' addresses
   * @param writerMiBps each writer's bytes over the time it took, MiB/s, in writer order
   * @param blocks every block written
   */
  record Result(List<String> hosts, double[] writerMiBps, List<Block> blocks,
      long makespanNanos) {

    /** The writers' bandwidth, max - min, MiB/s: the paper's and the bench's imbalance. */
    double imbalance() {
      return Arrays.stream(writerMiBps).max().orElse(0)
          - Arrays.stream(writerMiBps).min().orElse(0);
    }

    /** The writers' bandwidth, standard deviation over the mean. */
    double bandwidthCv() {
      double mean = Arrays.stream(writerMiBps).average().orElse(0);
      double var = Arrays.stream(writerMiBps).map(b -> (b - mean) * (b - mean)).average()
          .orElse(0);
      return mean == 0 ? 0 : Math.sqrt(var) / mean;
    }

    /** The writers' bandwidth, sorted, for a chart. */
    double[] sortedMiBps() {
      return Arrays.stream(writerMiBps).sorted().toArray();
    }

    /** Replicas each DataNode holds, by address. */
    Map<String, Integer> stored() {
      Map<String, Integer> out = new TreeMap<>();
      hosts.forEach(h -> out.put(h, 0));
      for (Block b : blocks) {
        b.holders().forEach(h -> out.merge(h, 1, Integer::sum));
      }
      return out;
    }

    /**
     * While every writer was writing, {from, to} in ns: from the moment the last writer began
     * its first block until the first writer was done.
     */
    long[] allWriting() {
      long[] first = new long[writerMiBps.length];
      long[] last = new long[writerMiBps.length];
      Arrays.fill(first, Long.MAX_VALUE);
      for (Block b : blocks) {
        first[b.writer()] = Math.min(first[b.writer()], b.startNanos());
        last[b.writer()] = Math.max(last[b.writer()], b.endNanos());
      }
      long from = Arrays.stream(first).max().orElse(0);
      long to = Arrays.stream(last).min().orElse(0);
      return new long[] {from, Math.max(from, to)};
    }

    /**
     * The busiest DataNode's writes at once over the mean of all DataNodes', averaged over the
     * time every writer was writing (a moment with nothing in flight counts as even).
     */
    double busiestOverMean() {
      double[] sum = {0};
      long window = sweep(allWriting(), (load, nanos) -> {
        int max = Arrays.stream(load).max().orElse(0);
        double mean = Arrays.stream(load).average().orElse(0);
        sum[0] += nanos * (mean == 0 ? 1 : max / mean);
      });
      return window == 0 ? 0 : sum[0] / window;
    }

    /**
     * The share of the DataNodes' time (each DataNode, while every writer was writing) spent
     * receiving k writes at once, for k = 0, 1, ... up to the most seen.
     */
    double[] writesAtOnceShares() {
      List<Double> nanosAt = new ArrayList<>();
      long window = sweep(allWriting(), (load, nanos) -> {
        for (int k : load) {
          while (nanosAt.size() <= k) {
            nanosAt.add(0.0);
          }
          nanosAt.set(k, nanosAt.get(k) + nanos);
        }
      });
      double total = (double) window * hosts.size();
      return nanosAt.stream().mapToDouble(n -> total == 0 ? 0 : n / total).toArray();
    }

    /**
     * Walks the time from {@code window[0]} to {@code window[1]}: each stretch with the same
     * writes in flight, as each DataNode's count of them and the stretch's length. Returns the
     * time walked.
     */
    private long sweep(long[] window, Stretch each) {
      List<long[]> events = new ArrayList<>(); // time, +1 or -1, block index
      for (int i = 0; i < blocks.size(); i++) {
        events.add(new long[] {blocks.get(i).startNanos(), 1, i});
        events.add(new long[] {blocks.get(i).endNanos(), -1, i});
      }
      // at one instant, ends before starts
      events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
      int[] load = new int[hosts.size()];
      long at = window[0];
      for (long[] e : events) {
        long t = Math.min(e[0], window[1]);
        if (t > at) {
          each.accept(load, t - at);
          at = t;
        }
        if (e[0] >= window[1]) {
          break;
        }
        for (String h : blocks.get((int) e[2]).holders()) {
          load[hosts.indexOf(h)] += (int) e[1];
        }
      }
      if (window[1] > at) {
        each.accept(load, window[1] - at);
        at = window[1];
      }
      return at - window[0];
    }
  }

  private interface Stretch {
    void accept(int[] load, long nanos);
  }

  private ParallelWrites() {
  }

  /**
   * {@code writers} writers, writer {@code p} on DataNode {@code p mod n}'s host, each writing
   * {@code blocks} blocks of {@code blockBytes} to {@code folder/w<p>}, all at once.
   */
  static Result run(ProcessHdfs hdfs, String folder, int writers, int blocks, int blockBytes)
      throws Exception {
    List<String> hosts = hdfs.hosts();
    List<List<long[]>> times = new ArrayList<>(); // per writer: per block {start, end}
    for (int p = 0; p < writers; p++) {
      times.add(Collections.synchronizedList(new ArrayList<>()));
    }
    CountDownLatch ready = new CountDownLatch(writers);
    CountDownLatch release = new CountDownLatch(1);
    long origin;
    Writes writes = new Writes(hdfs, folder, blocks, blockBytes);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int p = 0; p < writers; p++) {
        int writer = p;
        done.add(pool.submit(() -> {
          writes.write(writer, ready, release, times.get(writer));
          return null;
        }));
      }
      ready.await();
      origin = System.nanoTime();
      release.countDown();
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    double[] mibps = new double[writers];
    List<Block> written = new ArrayList<>();
    long makespan = 0;
    try (FileSystem fs = FileSystem.newInstance(hdfs.clientConf())) {
      for (int p = 0; p < writers; p++) {
        Path file = new Path(folder + "/w" + p);
        FileStatus st = fs.getFileStatus(file);
        // the NameNode knows a replica once its DataNode has reported it
        DFSTestUtil.waitReplication(fs, file, st.getReplication());
        BlockLocation[] located = fs.getFileBlockLocations(st, 0, st.getLen());
        List<long[]> t = times.get(p);
        if (located.length != t.size()) {
          throw new IOException(file + ": " + located.length + " blocks, " + t.size()
              + " written");
        }
        long end = 0;
        for (int k = 0; k < located.length; k++) {
          List<String> holders = new ArrayList<>();
          for (String name : located[k].getNames()) {
            String ip = name.substring(0, name.indexOf(':'));
            if (!hosts.contains(ip)) {
              throw new IOException(file + ": a replica on " + name + ", no DataNode host");
            }
            holders.add(ip);
          }
          long s = t.get(k)[0] - origin;
          long e = t.get(k)[1] - origin;
          written.add(new Block(p, s, e, holders));
          end = Math.max(end, e);
        }
        mibps[p] = (double) blocks * blockBytes / (1 << 20) / (end / 1e9);
        makespan = Math.max(makespan, end);
      }
    }
    return new Result(hosts, mibps, written, makespan);
  }

  /** Every writer's part: {@code blocks} blocks of {@code blockBytes}, a file in {@code folder}. */
  private record Writes(ProcessHdfs hdfs, String folder, int blocks, int blockBytes) {

    /** One writer: its host's client, its own file, each block timed until acknowledged. */
    void write(int writer, CountDownLatch ready, CountDownLatch release, List<long[]> times)
        throws Exception {
      Configuration conf = hdfs.hostConf(writer % hdfs.hosts().size());
      conf.setLong("dfs.blocksize", blockBytes);
      byte[] data = new byte[64 * 1024];
      new Random(writer).nextBytes(data);
      FileSystem client;
      try {
        client = FileSystem.newInstance(conf);
      } finally {
        ready.countDown(); // the others go ahead, and this writer's failure shows
      }
      try (FileSystem fs = client) {
        release.await();
        try (FSDataOutputStream out = fs.create(new Path(folder + "/w" + writer), true,
            data.length, (short) 3, blockBytes)) {
          for (int k = 0; k < blocks; k++) {
            long start = System.nanoTime();
            for (int left = blockBytes; left > 0; left -= data.length) {
              out.write(data, 0, Math.min(left, data.length));
            }
            if (k < blocks - 1) {
              out.hflush(); // without waiting for the acknowledgement, the time to queue it
            } else {
              out.close();
            }
            times.add(new long[] {start, System.nanoTime()});
          }
        }
      }
    }
  }
}
