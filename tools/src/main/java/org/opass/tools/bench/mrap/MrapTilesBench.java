package org.opass.tools.bench.mrap;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.copy.CopyOptions;
import org.opass.mrap.copy.RestructuringCopy;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.TiledPattern;
import org.opass.mrap.settings.MrapConf;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Tile-major restructuring (issue 24, part 3) on the emulated cluster: a climate-shaped array
 * of 4-byte values (T time steps x 512 latitudes x 512 longitudes) read a task a tile, each
 * tile every time step over a 32 x 32 box, by tasks pinned to DataNode hosts as in
 * {@link MrapStridedBench}, three ways: {@code plain}, {@code AccessInputFormat} on the file
 * as it is (a tile is a 128-byte row piece per time step and latitude; rows joined across gaps
 * up to 64 KiB, the default), {@code plain-nojoin} (the same reading exactly the rows), and
 * {@code restructured}, the same tiled job on a copy {@code mrap-copy} stored tile by tile (a
 * tile one read); the speedup is against the faster plain way. The copy's own time is
 * reported too: it is paid once. Every run checks the records' checksum against the tiles'
 * bytes.
 */
public final class MrapTilesBench implements Bench {
  private static final int DATANODES = 8;
  private static final int BLOCK = 4 << 20;
  private static final long READ_BANDWIDTH = 8L << 20; // per DataNode
  private static final int LAT = 512;
  private static final int LON = 512;
  private static final int BOX = 32;

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int steps = quick ? 16 : 64;
    int reps = quick ? 3 : 5;
    long[] shape = {steps, LAT, LON};
    long[] tile = {steps, BOX, BOX};
    TiledPattern tiles = TiledPattern.of(0, shape, 4, tile);
    int length = (int) tiles.array().end();
    Configuration keys = new Configuration(false);
    keys.set(PatternConfig.KIND, "tiled");
    keys.set(PatternConfig.ARRAY_SHAPE, steps + "," + LAT + "," + LON);
    keys.set(PatternConfig.ARRAY_ELEMENT, "4");
    keys.set(PatternConfig.TILE_SHAPE, steps + "," + BOX + "," + BOX);
    Map<String, Object> doc = new LinkedHashMap<>();
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(READ_BANDWIDTH)
        .baseDir(new File(outDir, "mrap-tiles-cluster")).start()) {
      byte[] data = new byte[length];
      new Random(24).nextBytes(data);
      Path original = new Path("/tiles/data");
      try (FSDataOutputStream out = cluster.offClusterFileSystem().create(original, (short) 3)) {
        out.write(data);
      }
      cluster.replicas().waitFor(original, (short) 3);
      long expected = 0;
      for (long t = 0; t < tiles.tileCount(); t++) {
        expected += MrapStridedBench.checksum(data, tiles.tile(t));
      }
      Path packed = new Path("/tiles/restructured");
      Configuration copyConf = new Configuration(cluster.conf());
      copyConf.setInt("dfs.replication", 3);
      Configuration withKeys = new Configuration(copyConf);
      keys.forEach(e -> withKeys.set(e.getKey(), e.getValue()));
      long t0 = System.nanoTime();
      RestructuringCopy.copy(copyConf, original, packed, CopyOptions.builder()
          .pattern(MrapConf.pattern(withKeys)).mode(CopyOptions.Mode.SINGLE).build(), null);
      double copySeconds = (System.nanoTime() - t0) / 1e9;
      cluster.replicas().waitFor(packed, (short) 3);
      String[] systems = {"plain", "plain-nojoin", "restructured"};
      Map<String, double[]> time = new LinkedHashMap<>();
      Map<String, double[]> bytes = new LinkedHashMap<>();
      Map<String, double[]> calls = new LinkedHashMap<>();
      for (String s : systems) {
        time.put(s, new double[reps]);
        bytes.put(s, new double[reps]);
        calls.put(s, new double[reps]);
      }
      System.out.printf("%nmrap-tiles: %d MiB array (%d x %d x %d floats), %d tiles of %d KiB, "
          + "%d DataNodes at %d MiB/s, %d repetitions; the copy took %.1f s%n%-13s %10s %12s "
          + "%11s %14s%n", length >> 20, steps, LAT, LON, tiles.tileCount(),
          steps * BOX * BOX * 4 >> 10, DATANODES, READ_BANDWIDTH >> 20, reps, copySeconds,
          "system", "time s", "MiB read", "read/int.", "reads a tile");
      for (String s : systems) { // a pass of each first, not measured: JIT, caches
        read(cluster, s, s.startsWith("plain") ? original : packed, keys, expected);
      }
      for (int rep = 0; rep < reps; rep++) {
        for (int k = 0; k < systems.length; k++) {
          String s = systems[(k + rep) % systems.length]; // who goes first rotates
          MrapStridedBench.Result res = read(cluster, s,
              s.startsWith("plain") ? original : packed, keys, expected);
          time.get(s)[rep] = res.seconds;
          bytes.get(s)[rep] = res.bytesRead;
          calls.get(s)[rep] = res.calls;
        }
      }
      Map<String, Object> bySystem = new LinkedHashMap<>();
      for (String s : systems) {
        Stats t = Stats.of(time.get(s));
        Stats b = Stats.of(bytes.get(s));
        double perTile = Stats.of(calls.get(s)).mean / tiles.tileCount();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", t.json());
        m.put("bytes_read", b.json());
        m.put("bytes_read_over_interest", b.mean / length);
        m.put("reads_per_tile", perTile);
        bySystem.put(s, m);
        System.out.printf("%-13s %10s %12.1f %11.2f %14.1f%n", s, t, b.mean / (1 << 20),
            b.mean / length, perTile);
      }
      // against the faster of the two plain ways
      String best = Stats.of(time.get("plain")).mean <= Stats.of(time.get("plain-nojoin")).mean
          ? "plain" : "plain-nojoin";
      Stats speedup = Stats.ratio(time.get(best), time.get("restructured"));
      System.out.println("restructured over " + best + ": " + speedup + " x faster");
      Map<String, Object> summary = new LinkedHashMap<>();
      speedup.putInto(summary, "tiles_speedup_restructured_vs_plain");
      summary.put("tiles_reads_per_tile_restructured",
          Stats.of(calls.get("restructured")).mean / tiles.tileCount());
      summary.put("tiles_reads_per_tile_plain",
          Stats.of(calls.get(best)).mean / tiles.tileCount());
      summary.put("tiles_copy_seconds", copySeconds);
      doc.put("summary", summary);
      doc.put("setup", Map.of("datanodes", DATANODES, "block_bytes", BLOCK,
          "read_bandwidth_per_datanode", READ_BANDWIDTH, "array", steps + " x " + LAT + " x "
          + LON + " floats", "tile", steps + " x " + BOX + " x " + BOX, "repetitions", reps,
          "readers", "eight at once, each on a DataNode host"));
      doc.put("by_system", bySystem);
    }
    return doc;
  }

  /** One tiled read of {@code file}, its records checked against the tiles' bytes. */
  private static MrapStridedBench.Result read(EmulatedCluster cluster, String system, Path file,
      Configuration keys, long expected) throws Exception {
    Configuration pattern = new Configuration(keys);
    if (system.equals("plain-nojoin")) {
      pattern.setLong(AccessInputFormat.COALESCE_GAP, 0);
    }
    MrapStridedBench.Result res = MrapStridedBench.read(cluster, "access", file, pattern, 0);
    if (res.checksum != expected) {
      throw new IllegalStateException(system + " delivered other bytes than the tiles'");
    }
    return res;
  }
}
