package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.mapreduce.TaskCounters;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.mapreduce.VariableRecordReader;
import org.opass.mrap.mapreduce.VariableSplit;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ReferenceLibraries;
import org.opass.mrap.task.VariableTask;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Zarr stores in HDFS read through VariableInputFormat's splits as a task reads them, against
 * what xarray and zarr-python read from the same stores (science/zarr, written by zarr 2.13 and
 * xarray; v3 by the specification's text): a whole variable decoded, a selection by coordinate
 * values reading only the chunk files (or inner chunks of shards) that hold it, tasks placed on
 * the hosts of the chunk files; and the store after what users do to it with {@code hdfs dfs}.
 */
class ZarrReadTest {
  private static final int BLOCK = 64 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static EmulatedCluster cluster;
  private static FileSystem fs;
  private static java.nio.file.Path local; // the fixtures, as files for the oracle

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = cluster.offClusterFileSystem();
    local = Files.createTempDirectory("zarr-fixtures");
    String listing = new String(Fixtures.bytes("zarr/files.txt"), StandardCharsets.UTF_8);
    for (String f : listing.split("\n")) {
      if (f.isBlank()) {
        continue;
      }
      byte[] b = Fixtures.bytes("zarr/" + f);
      java.nio.file.Path p = local.resolve(f);
      Files.createDirectories(p.getParent());
      Files.write(p, b);
    }
    fs.copyFromLocalFile(false, true, new Path(local.resolve("v2").toUri()),
        new Path("/zarr/v2"));
    fs.copyFromLocalFile(false, true, new Path(local.resolve("v3").toUri()),
        new Path("/zarr/v3"));
  }

  /** The job's configuration reading {@code variable} of Zarr stores. */
  private static Configuration conf(String name, String variable) {
    Configuration conf = AccessJobTest.jobConf(cluster, "zarr-" + name);
    conf.set(VariableInputFormat.KIND, "zarr");
    conf.set(VariableInputFormat.VARIABLE, variable);
    return conf;
  }

  /** What a read gave: each element's value by its index, and the counters. */
  static final class Read {
    final TreeMap<List<Long>, Double> values = new TreeMap<>((a, b) -> {
      for (int i = 0; i < a.size(); i++) {
        int c = Long.compare(a.get(i), b.get(i));
        if (c != 0) {
          return c;
        }
      }
      return 0;
    });
    final Map<MrapCounter, Long> counters = new HashMap<>();
    final List<VariableTask> tasks = new ArrayList<>();
  }

  /** Every split of the job over {@code inputs}, read as its task reads it. */
  static Read read(Configuration conf, String... inputs) throws Exception {
    Job job = Job.getInstance(conf);
    for (String in : inputs) {
      FileInputFormat.addInputPath(job, new Path(in));
    }
    Read r = new Read();
    for (InputSplit s : new VariableInputFormat().getSplits(job)) {
      VariableSplit split = (VariableSplit) MrapReads.reserialized(s);
      r.tasks.add(((VariableSplit) s).task()); // as planned: hosts are not sent to tasks
      TaskCounters counters = new TaskCounters();
      try (VariableRecordReader reader = new VariableRecordReader()) {
        reader.initialize(split, new TaskAttemptContextImpl(conf, new TaskAttemptID(),
            counters));
        while (reader.nextKeyValue()) {
          long[] origin = reader.getCurrentKey().origin();
          ArrayPiece p = reader.getCurrentValue();
          int[] shape = p.shape();
          long[] step = p.step();
          int[] idx = new int[shape.length];
          for (int i = 0; i < p.elements(); i++) {
            List<Long> at = new ArrayList<>();
            for (int d = 0; d < shape.length; d++) {
              at.add(origin[d] + idx[d] * step[d]);
            }
            r.values.put(at, p.isMissing(i) ? Double.NaN : p.getDouble(i));
            for (int d = shape.length - 1; d >= 0 && ++idx[d] == shape[d]; d--) {
              idx[d] = 0;
            }
          }
        }
      }
      for (MrapCounter m : MrapCounter.values()) {
        r.counters.merge(m, counters.get(m), Long::sum);
      }
    }
    return r;
  }

  /** The oracle's answer: oracle.py's JSON for a mode, a store and an array. */
  private static JsonNode oracle(String mode, String store, String array, String... more)
      throws IOException {
    List<String> args = new ArrayList<>(List.of(mode, local.resolve(store).toString()));
    if (!mode.equals("all")) {
      args.add(array);
    }
    args.addAll(List.of(more));
    return JSON.readTree(ReferenceLibraries.run(local.resolve("oracle.py"),
        args.toArray(new String[0])));
  }

  private static double number(JsonNode v) {
    return v.isTextual() ? Double.parseDouble(v.asText()) : v.asDouble();
  }

  /** Asserts the read holds exactly the oracle's values over its whole array, in C order. */
  private static void assertValues(JsonNode expected, Read got, double tolerance, String what) {
    JsonNode values = expected.get("values");
    assertEquals(values.size(), got.values.size(), what + ": elements read");
    int i = 0;
    for (Map.Entry<List<Long>, Double> e : got.values.entrySet()) {
      double want = number(values.get(i++));
      double have = e.getValue();
      if (Double.isNaN(want)) {
        assertTrue(Double.isNaN(have), what + " at " + e.getKey() + ": " + have + ", not NaN");
      } else if (tolerance == 0 || Double.isInfinite(want)) {
        assertEquals(want, have, what + " at " + e.getKey());
      } else {
        assertEquals(want, have, tolerance * Math.max(1, Math.abs(want)),
            what + " at " + e.getKey());
      }
    }
  }

  @Test
  void aWholeVariableDecodedAsXarrayReadsIt() throws Exception {
    for (String store : List.of("v2/era5.zarr", "v2/era5_zstd.zarr")) {
      for (String var : List.of("t2m", "tp")) {
        Read r = read(conf("whole", var), "/zarr/" + store);
        assertValues(oracle("xarray", store, var), r, 1e-6, store + " " + var);
        assertTrue(r.counters.get(MrapCounter.MISSING_ELEMENTS) > 0, store + " " + var
            + ": the fixture's NaNs read as missing");
      }
    }
  }

  @Test
  void rawValuesOfEveryDtypeAsZarrPythonReadsThem() throws Exception {
    JsonNode all = oracle("all", "v2/dtypes.zarr", "").get("arrays");
    assertEquals(19, all.size(), "arrays: 8 types in both orders, int8, uint8 and bool");
    for (JsonNode a : all) {
      Configuration conf = conf("raw", a.get("path").asText());
      conf.setBoolean(VariableInputFormat.DECODE, false);
      Read r = read(conf, "/zarr/v2/dtypes.zarr");
      assertValues(a.get("read"), r, 0, "dtypes " + a.get("path").asText());
    }
  }

  @Test
  void aSelectionReadsOnlyTheChunkFilesHoldingIt() throws Exception {
    Configuration conf = conf("select", "t2m");
    conf.set("mrap.science.select", "latitude=30:45, longitude=90:180");
    Read r = read(conf, "/zarr/v2/era5.zarr");
    assertFalse(r.values.isEmpty());
    long chunkBytes = 0;
    Set<String> read = new HashSet<>();
    for (VariableTask t : r.tasks) {
      for (VariableTask.Part p : t.parts()) {
        for (VariableTask.Member m : p.members()) {
          for (int i = 0; i < m.variable().chunks().count(); i++) {
            if (read.add(m.variable().chunks().object(i))) {
              chunkBytes += m.variable().chunks().size(i);
            }
          }
        }
      }
    }
    assertEquals(chunkBytes, (long) r.counters.get(MrapCounter.BYTES_READ), "bytes read");
    // each task runs where its chunk files are: its host holds a replica of every one
    int placed = 0;
    for (VariableTask t : r.tasks) {
      for (String host : t.hosts()) {
        for (VariableTask.Part p : t.parts()) {
          for (VariableTask.Member m : p.members()) {
            for (int i = 0; i < m.variable().chunks().count(); i++) {
              Path chunk = new Path("/zarr/v2/era5.zarr/" + m.variable().chunks().object(i));
              org.apache.hadoop.fs.BlockLocation[] b = fs.getFileBlockLocations(
                  fs.getFileStatus(chunk), 0, 1);
              assertTrue(List.of(b[0].getHosts()).contains(host), host + " holds no replica "
                  + "of " + chunk + ": " + List.of(b[0].getHosts()));
              placed++;
            }
          }
        }
      }
    }
    assertTrue(placed > 0, "tasks are placed on hosts");
  }

  @Test
  void aStoreMovedCopiedAndCutByHdfsDfsReadsAsZarrDoes() throws Exception {
    FsShell shell = new FsShell(new Configuration(fs.getConf()));
    assertEquals(0, ToolRunner.run(shell, new String[] {"-cp", "/zarr/v2/era5.zarr",
        "/zarr/copied.zarr"}));
    assertEquals(0, ToolRunner.run(shell, new String[] {"-mv", "/zarr/copied.zarr",
        "/zarr/moved.zarr"}));
    Read moved = read(conf("moved", "t2m"), "/zarr/moved.zarr");
    Read original = read(conf("original", "t2m"), "/zarr/v2/era5.zarr");
    assertEquals(original.values, moved.values);
    // a chunk file removed reads as the fill value, as zarr-python reads it
    assertEquals(0, ToolRunner.run(shell, new String[] {"-rm", "/zarr/moved.zarr/t2m/0.0.0"}));
    Read cut = read(conf("cut", "t2m"), "/zarr/moved.zarr");
    assertEquals(original.values.size(), cut.values.size());
    assertTrue(cut.counters.get(MrapCounter.FILL_ELEMENTS) > 0);
  }

  @Test
  void aFileOrAFolderThatIsNoStoreIsRefusedByName() throws Exception {
    fs.mkdirs(new Path("/zarr/empty"));
    Exception e = assertThrows(IOException.class, () -> read(conf("none", "t2m"),
        "/zarr/empty"));
    assertTrue(e.getMessage().contains("/zarr/empty"), e.getMessage());
  }

  @Test
  void aSeriesIndexsReferenceSetReadsAsZarrLikeTheFilesItIndexes() throws Exception {
    List<org.apache.hadoop.fs.FileStatus> files = new ArrayList<>();
    for (String f : new String[] {"era_0.nc", "era_1.nc", "era_2.nc"}) {
      Path p = new Path("/zarr/series/" + f);
      try (org.apache.hadoop.fs.FSDataOutputStream out = fs.create(p)) {
        out.write(Fixtures.bytes("index/joins/" + f));
      }
      files.add(fs.getFileStatus(p));
    }
    org.opass.mrap.index.IndexBuilder.build(fs.getConf(), files,
        org.opass.mrap.science.ScienceFiles.Kind.NETCDF, List.of("t2m"), fs.getUri().toString(),
        new Path("/zarr/series-index"));
    Read fromSet = read(conf("refs", "t2m"), "/zarr/series-index/refs.json");
    Configuration nc = conf("nc", "t2m");
    nc.set(VariableInputFormat.KIND, "netcdf");
    // the set joins the files along time: the files' values, one after another
    List<Double> joined = new ArrayList<>();
    for (String f : new String[] {"era_0.nc", "era_1.nc", "era_2.nc"}) {
      for (Map.Entry<List<Long>, Double> e : read(nc, "/zarr/series/" + f).values.entrySet()) {
        joined.add(e.getValue());
      }
    }
    assertEquals(joined.size(), fromSet.values.size());
    List<Double> got = new ArrayList<>(fromSet.values.values());
    for (int i = 0; i < got.size(); i++) {
      double want = joined.get(i);
      if (Double.isNaN(want)) {
        assertTrue(Double.isNaN(got.get(i)), "element " + i + ": " + got.get(i));
      } else {
        assertEquals(want, got.get(i), 1e-6 * Math.max(1, Math.abs(want)), "element " + i);
      }
    }
  }

  /** Runs mrap-copy; its exit code and what it said. */
  private static Object[] mrapCopy(String... args) throws Exception {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    java.io.PrintStream ps = new java.io.PrintStream(out, true, StandardCharsets.UTF_8);
    int rc = ToolRunner.run(new Configuration(fs.getConf()),
        new org.opass.mrap.copy.MrapCopy(ps, ps), args);
    return new Object[] {rc, out.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void aStorePackedByMrapCopyReadsAsTheStoreFromFewFiles() throws Exception {
    String src = local.resolve("v2/era5.zarr").toUri().toString();
    Object[] r = mrapCopy("-pack", src, "/zarr/packed.zarr");
    assertEquals(0, r[0], (String) r[1]);
    long objects = 0;
    for (org.apache.hadoop.fs.RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> it =
        fs.listFiles(new Path("/zarr/v2/era5.zarr"), true); it.hasNext(); it.next()) {
      objects++;
    }
    long packedFiles = fs.getContentSummary(new Path("/zarr/packed.zarr")).getFileCount();
    assertTrue(packedFiles * 5 < objects, packedFiles + " files for " + objects + " objects");
    // a chunk within a block: a task reads it from one host
    JsonNode refs = JSON.readTree(fs.open(new Path("/zarr/packed.zarr/refs.json")))
        .get("refs");
    long block = fs.getFileStatus(new Path("/zarr/packed.zarr/chunks-00000")).getBlockSize();
    int chunks = 0;
    for (java.util.Iterator<JsonNode> it = refs.elements(); it.hasNext(); ) {
      JsonNode ref = it.next();
      if (ref.isArray()) {
        long at = ref.get(1).asLong();
        long len = ref.get(2).asLong();
        assertTrue(len > block || at / block == (at + len - 1) / block, ref.toString());
        chunks++;
      }
    }
    long largest = 0;
    for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(new Path("/zarr/packed.zarr"))) {
      largest = Math.max(largest, f.getLen());
    }
    assertTrue(largest > block, "a container of several blocks, joined from its parts");
    assertTrue(chunks >= 10, chunks + " chunks");
    for (String var : List.of("t2m", "tp")) {
      Read packed = read(conf("packed", var), "/zarr/packed.zarr");
      assertValues(oracle("xarray", "v2/era5.zarr", var), packed, 1e-6, "packed " + var);
    }
    // xarray opens the packed store as the docs say: reference:// over WebHDFS
    java.nio.file.Path refsCopy = local.resolve("packed-refs.json");
    fs.copyToLocalFile(new Path("/zarr/packed.zarr/refs.json"),
        new Path(refsCopy.toUri()));
    Map<String, Object> web = SeriesIndexTest.webhdfs(cluster);
    java.nio.file.Path options = local.resolve("webhdfs.json");
    JSON.writeValue(options.toFile(), web);
    JsonNode xarray = JSON.readTree(ReferenceLibraries.run(local.resolve("check_packed.py"),
        refsCopy.toString(), local.resolve("v2/era5.zarr").toString(), "webhdfs://127.0.0.1:"
        + web.get("port") + "/zarr/packed.zarr", options.toString()));
    assertEquals("[]", xarray.get("problems").toString(), xarray.toString());
    assertTrue(xarray.get("variables").toString().contains("t2m"), xarray.toString());
    // moved, it still reads: the set's containers are found beside it
    FsShell shell = new FsShell(new Configuration(fs.getConf()));
    assertEquals(0, ToolRunner.run(shell, new String[] {"-mv", "/zarr/packed.zarr",
        "/zarr/packed-moved.zarr"}));
    Read moved = read(conf("packed-moved", "t2m"), "/zarr/packed-moved.zarr");
    assertEquals(read(conf("plain", "t2m"), "/zarr/v2/era5.zarr").values, moved.values);
    // a container changed is refused, naming it
    try (org.apache.hadoop.fs.FSDataOutputStream out = fs.append(
        new Path("/zarr/packed-moved.zarr/chunks-00000"))) {
      out.write(new byte[] {1, 2, 3});
    }
    IOException e = assertThrows(IOException.class, () -> read(conf("changed", "t2m"),
        "/zarr/packed-moved.zarr"));
    assertTrue(e.getMessage().contains("chunks-00000") && e.getMessage().contains(
        "changed since mrap-copy packed it"), e.getMessage());
    // copied as it is, the store is the store; an existing destination is refused (exit 2)
    assertEquals(0, mrapCopy(src, "/zarr/asis.zarr")[0]);
    assertEquals(read(conf("plain", "tp"), "/zarr/v2/era5.zarr").values,
        read(conf("asis", "tp"), "/zarr/asis.zarr").values);
    Object[] again = mrapCopy(src, "/zarr/asis.zarr");
    assertEquals(2, again[0], (String) again[1]);
    assertTrue(((String) again[1]).contains("/zarr/asis.zarr exists"), (String) again[1]);
    assertFalse(fs.exists(new Path("/zarr/.asis.zarr.mrap-copy")));
  }

  @Test
  void aSlabByIndexIsWhatZarrPythonReads() throws Exception {
    Configuration conf = conf("slab", "t2m");
    conf.setBoolean(VariableInputFormat.DECODE, false);
    conf.set(VariableInputFormat.SLAB, "5:30:3, 2:19, 7:33:5");
    Read r = read(conf, "/zarr/v2/era5.zarr");
    JsonNode want = oracle("zarr", "v2/era5.zarr", "t2m", "5:9:3,2:17,7:6:5");
    assertEquals(want.get("values").size(), r.values.size());
    int i = 0;
    for (double v : r.values.values()) {
      assertEquals(number(want.get("values").get(i++)), v, 0, "element " + i);
    }
  }

  @Test
  void aSelectionOfAShardedV3StoreReadsItsInnerChunksOnly() throws Exception {
    Configuration conf = conf("select-v3", "t2m");
    conf.set("mrap.science.select", "latitude=30:45, longitude=90:180");
    Read v3 = read(conf, "/zarr/v3/era5.zarr");
    Configuration twin = conf("select-v2", "t2m");
    twin.set("mrap.science.select", "latitude=30:45, longitude=90:180");
    Read v2 = read(twin, "/zarr/v2/era5.zarr");
    assertEquals(v2.values, v3.values);
    long inner = 0;
    for (VariableTask t : v3.tasks) {
      for (VariableTask.Part p : t.parts()) {
        for (VariableTask.Member m : p.members()) {
          for (int i = 0; i < m.variable().chunks().count(); i++) {
            inner += m.variable().chunks().size(i);
          }
        }
      }
    }
    assertEquals(inner, (long) v3.counters.get(MrapCounter.BYTES_READ), "the inner chunks' "
        + "bytes, not their shards'");
  }

  @Test
  void aShardedV3StoreReadsAsItsV2Twin() throws Exception {
    Read v3 = read(conf("v3", "t2m"), "/zarr/v3/era5.zarr");
    Read v2 = read(conf("v2", "t2m"), "/zarr/v2/era5.zarr");
    assertEquals(v2.values.keySet(), v3.values.keySet());
    double[] a = v2.values.values().stream().mapToDouble(Double::doubleValue).toArray();
    double[] b = v3.values.values().stream().mapToDouble(Double::doubleValue).toArray();
    assertArrayEquals(a, b, 1e-6);
  }
}
