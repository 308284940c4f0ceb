package org.opass.tools.bench.mrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.util.ToolRunner;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.Variable;
import org.opass.mrap.fs.HdfsStore;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.plan.FilePlan;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.science.ScienceFiles;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.ReferencePython;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Zarr stores in HDFS, on the emulated cluster (8 DataNodes at 16 MiB/s each, readers on the
 * DataNode hosts): an ERA5-shaped store written by xarray and zarr 2.13
 * (tools/src/main/resources/bench/make_zarr_data.py: t2m packed int16, 1-degree grid, 1,168 chunk
 * files of (T, 46, 90)), in a blosc-lz4 and a zstd variant, each copied into HDFS by {@code
 * mrap-copy} as it is and packed ({@code -pack}). A season over a region, {@code
 * time=2021-06-01:2021-08-31T23:00, latitude=20:40, longitude=100:120}, read three ways through
 * {@code VariableInputFormat}'s splits, submission included:
 * <ul>
 *   <li>{@code whole}: the whole variable, every chunk file (what a reader without selection
 *   does);</li>
 *   <li>{@code select}: the selection by value, the chunk files holding it;</li>
 *   <li>{@code packed}: the selection from the packed store.</li>
 * </ul>
 * The selection's elements, masked elements and sum must be xarray's (the script writes them)
 * in both stores, or the bench fails. Bytes are the DataNodes' counters of the tasks' reads (4
 * checksum bytes of every 512 taken out) over the stored bytes of the chunks holding the
 * selection. Last, decode speed on one core of a chunk of each variant, ours against numcodecs'
 * C decoders on the same bytes (the script times numcodecs).
 */
public final class ZarrBench implements Bench {
  private static final int DATANODES = 8;
  private static final int BLOCK = 16 << 20;
  private static final long READ_BANDWIDTH = 16L << 20;
  static final String SELECT = "time=2021-06-01:2021-08-31T23:00, latitude=20:40, "
      + "longitude=100:120";
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int reps = 5;
    File data = generate(new File(outDir, "zarr-data"), quick);
    JsonNode expected = JSON.readTree(new File(data, "expected.json"));
    Map<String, Object> variants = new LinkedHashMap<>();
    Stats slowest = null;
    Stats packedSlowest = null;
    double worstBytes = 0;
    double worstObjects = 0;
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(READ_BANDWIDTH)
        .baseDir(new File(outDir, "zarr-cluster")).start()) {
      FileSystem fs = cluster.offClusterFileSystem();
      System.out.printf("%nzarr: %s; %d DataNodes at %d MiB/s, %d repetitions%n%-5s %-7s %10s "
          + "%12s%n", SELECT, DATANODES, READ_BANDWIDTH >> 20, reps, "store", "read", "time s",
          "MiB read");
      for (String v : new String[] {"lz4", "zstd"}) {
        File local = new File(data, "era5-" + v + ".zarr");
        Path store = new Path("/zarr/era5-" + v + ".zarr");
        Path packed = new Path("/zarr/era5-" + v + "-packed");
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("copy_seconds", copy(cluster, local, store, false));
        row.put("pack_seconds", copy(cluster, local, packed, true));
        long chunkFiles = 0;
        for (RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(store, "t2m"), false);
            it.hasNext(); ) {
          if (!it.next().getPath().getName().startsWith(".")) {
            chunkFiles++;
          }
        }
        ContentSummary cs = fs.getContentSummary(packed);
        double objects = (double) (cs.getFileCount() + cs.getDirectoryCount()) / chunkFiles;
        row.put("chunk_files", chunkFiles);
        row.put("packed_namenode_objects", cs.getFileCount() + cs.getDirectoryCount());
        Configuration whole = new Configuration(cluster.conf());
        whole.set(VariableInputFormat.KIND, "zarr");
        whole.set(VariableInputFormat.VARIABLE, "t2m");
        Configuration select = new Configuration(whole);
        select.set(VariableInputFormat.SELECT, SELECT);
        long interest = 0;
        for (FilePlan p : VariablePlanner.plan(select, List.of(fs.getFileStatus(store)))) {
          Variable.Chunks c = p.plan().chunks();
          for (int i = 0; i < c.count(); i++) {
            interest += c.size(i);
          }
        }
        String[] ways = {"whole", "select", "packed"};
        Map<String, double[]> time = new LinkedHashMap<>();
        Map<String, double[]> bytes = new LinkedHashMap<>();
        for (String w : ways) {
          time.put(w, new double[reps]);
          bytes.put(w, new double[reps]);
          read(cluster, w.equals("whole") ? whole : select, w.equals("packed") ? packed : store,
              () -> { }); // a pass not measured: the JIT and connections warm up
        }
        for (int rep = 0; rep < reps; rep++) {
          for (int k = 0; k < ways.length; k++) {
            String w = ways[(k + rep) % ways.length];
            long[][] before = {cluster.counters().perDataNode(DataNodeCounter.BYTES_READ)};
            long t0 = System.nanoTime();
            MrapScienceBench.Tally t = read(cluster, w.equals("whole") ? whole : select,
                w.equals("packed") ? packed : store,
                () -> before[0] = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ));
            time.get(w)[rep] = (System.nanoTime() - t0) / 1e9;
            Thread.sleep(200); // DataNode counters settle after the last packet
            bytes.get(w)[rep] = Arrays.stream(cluster.counters().since(
                DataNodeCounter.BYTES_READ, before[0])).sum();
            if (!w.equals("whole")) {
              check(v + " " + w, t, expected);
            }
          }
        }
        for (String w : ways) {
          Stats t = Stats.of(time.get(w));
          Stats b = Stats.of(bytes.get(w));
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("seconds", t.json());
          m.put("bytes_read", b.json());
          row.put(w, m);
          System.out.printf("%-5s %-7s %10s %12.2f%n", v, w, t, b.mean / 1048576.0);
        }
        Stats speedup = Stats.ratio(time.get("whole"), time.get("select"));
        Stats packedRatio = Stats.ratio(time.get("select"), time.get("packed"));
        double overSelection = Stats.of(bytes.get("select")).mean
            * MrapScienceBench.DATA_SHARE / interest;
        speedup.putInto(row, "select_speedup_vs_whole_store");
        packedRatio.putInto(row, "packed_read_ratio");
        row.put("selection_chunk_bytes", interest);
        row.put("bytes_over_selection", overSelection);
        row.put("packed_namenode_objects_ratio", objects);
        System.out.printf("%-5s select %.1f +- %.1f x faster than whole; bytes over the "
            + "selection's chunks %.4f; packed: %d objects for %d chunk files (%.4f), read "
            + "%.2f +- %.2f x unpacked's speed%n", v, speedup.mean, speedup.ci95, overSelection,
            cs.getFileCount() + cs.getDirectoryCount(), chunkFiles, objects, packedRatio.mean,
            packedRatio.ci95);
        slowest = slowest == null || speedup.mean < slowest.mean ? speedup : slowest;
        packedSlowest = packedSlowest == null || packedRatio.mean < packedSlowest.mean
            ? packedRatio : packedSlowest;
        worstBytes = Math.max(worstBytes, overSelection);
        worstObjects = Math.max(worstObjects, objects);
        variants.put(v, row);
      }
    }
    Map<String, Object> decode = decodeSpeeds(data);
    double decodeRatio = Double.MAX_VALUE;
    for (Object o : decode.values()) {
      @SuppressWarnings("unchecked")
      Map<String, Object> m = (Map<String, Object>) o;
      decodeRatio = Math.min(decodeRatio, (Double) m.get("ratio"));
    }
    Map<String, Object> summary = new LinkedHashMap<>();
    slowest.putInto(summary, "zarr_select_speedup_vs_whole_store");
    summary.put("zarr_bytes_over_selection", worstBytes);
    summary.put("zarr_packed_namenode_objects_ratio", worstObjects);
    packedSlowest.putInto(summary, "zarr_packed_read_ratio");
    summary.put("zarr_decode_mb_per_s_vs_numcodecs", decodeRatio);
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("summary", summary);
    doc.put("setup", Map.of("datanodes", DATANODES, "block_bytes", BLOCK,
        "read_bandwidth_per_datanode", READ_BANDWIDTH, "repetitions", reps, "select", SELECT,
        "data", quick ? "daily 2021, chunks (5, 46, 90)" : "6-hourly 2021, chunks (20, 46, 90)"));
    doc.put("variants", variants);
    doc.put("decode", decode);
    return doc;
  }

  /** mrap-copy of a local store into HDFS, as it is or packed; its seconds. */
  private static double copy(EmulatedCluster cluster, File local, Path to, boolean pack)
      throws Exception {
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(said, true, StandardCharsets.UTF_8);
    String src = local.toURI().toString();
    long t0 = System.nanoTime();
    int rc = ToolRunner.run(new Configuration(cluster.conf()), new MrapCopy(ps, ps),
        pack ? new String[] {"-pack", src, to.toString()} : new String[] {src, to.toString()});
    if (rc != 0) {
      throw new IOException("mrap-copy " + (pack ? "-pack " : "") + local + ": exit " + rc
          + ": " + said.toString(StandardCharsets.UTF_8));
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  /** Reads {@code store} as {@code conf} says, every DataNode host a reader. */
  private static MrapScienceBench.Tally read(EmulatedCluster cluster, Configuration conf,
      Path store, Runnable submitted) throws Exception {
    FileStatus st = cluster.offClusterFileSystem().getFileStatus(store);
    List<InputSplit> splits = MrapScienceBench.variableSplits(conf, List.of(st));
    submitted.run();
    MrapScienceBench.Tally tally = new MrapScienceBench.Tally();
    MrapScienceBench.onHosts(cluster, conf, MrapStridedBench.assign(cluster, splits),
        (split, hostFs, hostConf) -> MrapScienceBench.readVariable(split, hostConf, tally));
    return tally;
  }

  /** Fails unless a read gave xarray's elements, masked elements and sum. */
  private static void check(String what, MrapScienceBench.Tally t, JsonNode expected) {
    long elements = expected.get("elements").asLong();
    long masked = expected.get("masked").asLong();
    double sum = expected.get("sum").asDouble();
    if (t.elements.sum() != elements || t.missing.sum() != masked
        || Math.abs(t.sum.sum() - sum) > 1e-6 * Math.abs(sum)) {
      throw new IllegalStateException(what + ": " + t.elements.sum() + " elements, "
          + t.missing.sum() + " masked, sum " + t.sum.sum() + "; xarray reads " + elements
          + ", " + masked + ", " + sum);
    }
  }

  /**
   * One core's decode speed of a chunk of each variant, ours (best of 8 timed runs) over
   * numcodecs' on the same bytes.
   */
  private static Map<String, Object> decodeSpeeds(File data) throws IOException {
    JsonNode numcodecs = JSON.readTree(new File(data, "numcodecs.json"));
    Map<String, Object> out = new LinkedHashMap<>();
    Configuration local = new Configuration();
    for (String v : new String[] {"lz4", "zstd"}) {
      byte[] stored = Files.readAllBytes(new File(data, "chunks/" + v + ".in").toPath());
      Variable t2m;
      HdfsStore store = new HdfsStore(local, new Path(new File(data, "era5-" + v + ".zarr")
          .toURI()));
      try (ScienceFile f = ScienceFiles.open(store, ScienceFiles.Kind.ZARR)) {
        t2m = f.describe("t2m");
      } finally {
        store.close();
      }
      long bytes = t2m.type().size();
      for (int c : t2m.chunkShape()) {
        bytes *= c;
      }
      int n = (int) Math.max(1, 200_000_000L / bytes);
      double best = Double.MAX_VALUE;
      for (int run = 0; run < 10; run++) {
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          t2m.filters().decode(stored, 0, bytes);
        }
        if (run >= 2) { // two runs warm the JIT up
          best = Math.min(best, (System.nanoTime() - t0) / 1e9 / n);
        }
      }
      double ours = bytes / best / 1e6;
      double theirs = numcodecs.get(v).get("mb_per_s").asDouble();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("chunk_bytes", bytes);
      m.put("stored_bytes", stored.length);
      m.put("ours_mb_per_s", ours);
      m.put("numcodecs_mb_per_s", theirs);
      m.put("ratio", ours / theirs);
      out.put(v, m);
      System.out.printf("zarr decode %-4s: %.0f MB/s, numcodecs %.0f MB/s (%.2f)%n", v, ours,
          theirs, ours / theirs);
    }
    return out;
  }

  /** The stores, written by the reference libraries once per size. */
  static File generate(File dir, boolean quick) throws Exception {
    File marker = new File(dir, "made-" + (quick ? "quick" : "full"));
    if (marker.exists()) {
      return dir;
    }
    File script = new File("tools/src/main/resources/bench/make_zarr_data.py");
    String python = ReferencePython.find();
    Process p = new ProcessBuilder(python, script.getPath(), dir.getPath(),
        quick ? "quick" : "full").inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IOException(script + " failed with " + python + " (exit " + p.exitValue()
          + "): the stores are written by xarray, zarr and numcodecs");
    }
    Files.createFile(marker.toPath());
    return dir;
  }
}
