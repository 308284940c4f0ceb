package org.opass.tools.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;
import org.opass.tools.cluster.ProcessHdfs;

/**
 * The tour's readers: one on each DataNode host, all reading at once, each its own chunks block
 * by block, noting which DataNode served each block and whether it was the reader's own.
 */
final class TourReads {
  private final ProcessHdfs hdfs;
  private final int block;

  TourReads(ProcessHdfs hdfs, int block) {
    this.hdfs = hdfs;
    this.block = block;
  }

  /** Each file of {@code folder} whole to a reader at random (seeded), as tasks get them. */
  List<List<Chunk>> shuffled(String folder) throws IOException {
    List<List<Chunk>> byReader = readers();
    try (FileSystem fs = FileSystem.newInstance(hdfs.clientConf())) {
      List<FileStatus> files = new ArrayList<>();
      var it = fs.listFiles(new Path(folder), true);
      while (it.hasNext()) {
        files.add(it.next());
      }
      Collections.shuffle(files, new Random(42));
      for (int i = 0; i < files.size(); i++) {
        byReader.get(i % byReader.size()).add(new Chunk(files.get(i).getPath().toUri().getPath(),
            0, files.get(i).getLen()));
      }
    }
    return byReader;
  }

  /** What a read plan ({@code bin/opass plan --json}) gave each host's reader. */
  List<List<Chunk>> planned(JsonNode plan) {
    List<List<Chunk>> byReader = new ArrayList<>();
    for (String h : hdfs.hosts()) {
      List<Chunk> mine = new ArrayList<>();
      for (JsonNode p : plan.get("processes")) {
        if (p.get("host").asText().equals(h)) {
          for (JsonNode c : p.get("chunks")) {
            mine.add(new Chunk(c.get("path").asText(), c.get("offset").asLong(),
                c.get("length").asLong()));
          }
        }
      }
      byReader.add(mine);
    }
    return byReader;
  }

  /** The readers read their chunks, all at once. */
  Result read(List<List<Chunk>> byReader) throws Exception {
    Result r = new Result(hdfs.hosts());
    ExecutorService pool = Executors.newFixedThreadPool(byReader.size());
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (int k = 0; k < byReader.size(); k++) {
        int host = k;
        done.add(pool.submit(() -> {
          readOnHost(host, byReader.get(host), r);
          return null;
        }));
      }
      for (Future<Void> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return r;
  }

  private void readOnHost(int k, List<Chunk> chunks, Result r) throws IOException {
    byte[] buf = new byte[64 * 1024];
    Configuration c = hdfs.hostConf(k);
    c.setLong("dfs.blocksize", block);
    try (FileSystem fs = FileSystem.newInstance(c)) {
      for (Chunk chunk : chunks) {
        try (FSDataInputStream in = fs.open(new Path(chunk.path()))) {
          long at = chunk.offset();
          long end = chunk.offset() + chunk.length();
          while (at < end) {
            long blockEnd = Math.min(end, (at / block + 1) * block);
            in.seek(at);
            long got = 0;
            String servedBy = null;
            while (at + got < blockEnd) {
              int n = in.read(buf, 0, (int) Math.min(buf.length, blockEnd - at - got));
              if (n < 0) {
                throw new IOException("end of " + chunk.path() + " at " + (at + got));
              }
              if (servedBy == null) {
                servedBy = ((HdfsDataInputStream) in).getCurrentDatanode().getIpAddr();
              }
              got += n;
            }
            r.add(servedBy, got, servedBy.equals(hdfs.hosts().get(k)));
            at = blockEnd;
          }
        }
      }
    }
  }

  private List<List<Chunk>> readers() {
    List<List<Chunk>> byReader = new ArrayList<>();
    for (int k = 0; k < hdfs.hosts().size(); k++) {
      byReader.add(new ArrayList<>());
    }
    return byReader;
  }

  /** Bytes {@code [offset, offset + length)} of a file, for one reader. */
  record Chunk(String path, long offset, long length) {
  }

  /** Bytes served per DataNode, and how many of them went to a reader on its own host. */
  static final class Result {
    final Map<String, Double> served = new TreeMap<>();
    private long local;
    private long total;

    Result(List<String> hosts) {
      for (String h : hosts) {
        served.put(h, 0.0);
      }
    }

    synchronized void add(String dataNode, long bytes, boolean isLocal) {
      served.merge(dataNode, bytes / 1048576.0, Double::sum);
      total += bytes;
      if (isLocal) {
        local += bytes;
      }
    }

    double maxOverMean() {
      return Tour.maxOverMean(served);
    }

    double localFraction() {
      return total == 0 ? 0 : local / (double) total;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "MiB served per DataNode max/mean %.2f, %.0f%% read on "
          + "the reader's own host", maxOverMean(), 100 * localFraction());
    }
  }
}
