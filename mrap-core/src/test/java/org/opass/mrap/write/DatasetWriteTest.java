package org.opass.mrap.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.format.PlacedChunks;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableValues;
import org.opass.mrap.format.zarr.LocalStore;
import org.opass.mrap.science.ReferenceLibraries;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.write.OutputDataset.Kind;

/**
 * Datasets written part by part as tasks write them ({@link PartWriter}), published by {@link
 * DatasetCommit} into a local folder, then read by the reference libraries (netCDF4-python,
 * zarr 2.13, xarray: write/read_dataset.py) and by our own reader: formats, values, fills,
 * packing, attributes and CF times as they read them; and what a write refuses.
 */
class DatasetWriteTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Configuration CONF = new Configuration();
  /** Hours since 2020-01-01 in the noleap calendar: 1416 is 1 March, 8760 a year on. */
  private static final double[] HOURS = {0, 6, 30, 1416, 8760};
  private static final String[] DATES = {"2020-01-01T00:00:00", "2020-01-01T06:00:00",
      "2020-01-02T06:00:00", "2020-03-01T00:00:00", "2021-01-01T00:00:00"};
  private static final double[] LAT = {-45, -15.5, 15.25, 45};
  private static final double[] LON = {0.1, 120.2, 240.3};
  private static final int POINTS = HOURS.length * LAT.length * LON.length;
  /** Two rows of the grid's 144-byte rows a part, three parts. */
  private static final long PART_BYTES = 300;

  @TempDir
  java.nio.file.Path tmp;

  private static java.nio.file.Path script() {
    try {
      return Paths.get(DatasetWriteTest.class.getResource("/write/read_dataset.py").toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode oracle(String mode, java.nio.file.Path p) throws IOException {
    return JSON.readTree(ReferenceLibraries.run(script(), mode, p.toString()));
  }

  private static Map<String, Object> attrs(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static int at(int t, int y, int x) {
    return (t * LAT.length + y) * LON.length + x;
  }

  /** time (keyed by seconds, written as hours), latitude (float32), longitude (float64). */
  private static List<OutputDimension> grid() {
    double[] seconds = new double[HOURS.length];
    for (int i = 0; i < seconds.length; i++) {
      seconds[i] = HOURS[i] * 3600; // rows are placed by the column's value, not the hours
    }
    return List.of(
        OutputDimension.of("time", ElementType.FLOAT64, seconds, HOURS, attrs("standard_name",
            "time", "units", "hours since 2020-01-01 00:00:00", "calendar", "noleap")),
        OutputDimension.of("latitude", ElementType.FLOAT32, LAT, LAT,
            attrs("units", "degrees_north")),
        OutputDimension.of("longitude", ElementType.FLOAT64, LON, LON,
            attrs("units", "degrees_east")));
  }

  private static List<OutputVariable> fields() {
    return List.of(
        OutputVariable.of("tas", ElementType.FLOAT32, Double.NaN,
            attrs("units", "K", "long_name", "near-surface air temperature")),
        OutputVariable.of("pr", ElementType.FLOAT64, Double.NaN,
            attrs("units", "kg m-2 s-1", "long_name", "precipitation")));
  }

  private static OutputDataset fieldsDataset(Kind kind, int[] chunks) {
    return OutputDataset.of(kind, grid(), fields(), attrs("title", "mrap write test",
        "Conventions", "CF-1.8", "version", 3), chunks, PART_BYTES, 3);
  }

  /**
   * What the tasks put, by variable and point (null: never put). tas: a row of latitude 15.25
   * at time 30 never put, NaN at one point, and two points that make the Zarr chunk {2,3,2}'s
   * chunk 1/1/1 all fill; pr: its first point and its last (alone in chunk 2/1/1) never put.
   */
  private static Double[][] fieldPuts() {
    Double[][] p = new Double[2][POINTS];
    for (int t = 0; t < HOURS.length; t++) {
      for (int y = 0; y < LAT.length; y++) {
        for (int x = 0; x < LON.length; x++) {
          p[0][at(t, y, x)] = 250.0 + 10 * t + y + 0.25 * x; // exact in float32
          p[1][at(t, y, x)] = 1e-3 * t + 1e-4 * y + 1e-5 * x + 1e-6;
        }
      }
    }
    for (int x = 0; x < LON.length; x++) {
      p[0][at(2, 2, x)] = null;
    }
    p[0][at(3, 0, 1)] = Double.NaN;
    p[0][at(2, 3, 2)] = null;
    p[0][at(3, 3, 2)] = null;
    p[1][0] = null;
    p[1][POINTS - 1] = null;
    return p;
  }

  /** The values a reader should see: NaN where none was put or NaN was, as {@code type}. */
  private static double[] expected(Double[] puts, ElementType type) {
    double[] e = new double[puts.length];
    for (int i = 0; i < e.length; i++) {
      e[i] = puts[i] == null ? Double.NaN : type == ElementType.FLOAT32
          ? (double) (float) (double) puts[i] : puts[i];
    }
    return e;
  }

  /**
   * The tasks: a writer a part, the points put in a shuffled order (rows come in any order),
   * each part written under its own attempt name; the names all of them wrote.
   */
  private static List<String> tasks(DatasetCommit c, OutputDataset ds, Double[][] puts)
      throws IOException {
    FileSystem fs = c.work().getFileSystem(CONF);
    PartWriter[] w = new PartWriter[ds.parts()];
    for (int p = 0; p < w.length; p++) {
      w[p] = new PartWriter(ds, p);
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < puts[0].length; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(7));
    for (int i : order) {
      for (int v = 0; v < puts.length; v++) {
        if (puts[v][i] != null) {
          w[ds.part((int) (i / ds.rowElements()))].put(v, i, puts[v][i]);
        }
      }
    }
    List<String> names = new ArrayList<>();
    for (PartWriter p : w) {
      names.addAll(p.write(fs, c.work(), "attempt_0001_m_00000" + p.part() + "_0"));
    }
    return names;
  }

  /** {@code name} in the temp folder as a file: URI (an existing folder's ends in "/"). */
  private Path dst(String name) {
    return new Path(tmp.resolve(name).toUri());
  }

  /** Writes {@code ds} to {@code name} in the temp folder, all parts, and commits. */
  private java.nio.file.Path write(OutputDataset ds, String name, Double[][] puts,
      boolean overwrite) throws IOException {
    DatasetCommit c = DatasetCommit.begin(CONF, dst(name), overwrite);
    c.commit(ds, tasks(c, ds, puts));
    assertFalse(Files.exists(tmp.resolve("." + name + ".mrap-write")),
        "the work folder is gone after the commit");
    return tmp.resolve(name);
  }

  /** {@code got} (null: masked or NaN) against {@code want} (NaN: masked), within {@code tol}. */
  private static void assertValues(String what, double[] want, JsonNode got, double tol) {
    assertEquals(want.length, got.size(), what + ": elements");
    for (int i = 0; i < want.length; i++) {
      if (Double.isNaN(want[i])) {
        assertTrue(got.get(i).isNull(), what + " [" + i + "] is masked, not " + got.get(i));
      } else {
        assertFalse(got.get(i).isNull(), what + " [" + i + "] is " + want[i] + ", not masked");
        assertEquals(want[i], got.get(i).asDouble(), tol, what + " [" + i + "]");
      }
    }
  }

  private static void assertText(List<String> want, JsonNode got, String what) {
    List<String> g = new ArrayList<>();
    got.forEach(n -> g.add(n.asText()));
    assertEquals(want, g, what);
  }

  private static void assertDoubles(double[] want, JsonNode got, String what) {
    assertValues(what, want, got, 0);
  }

  @Test
  void netcdfInPartsReadsAsNetcdf4AndXarrayReadIt() throws Exception {
    OutputDataset ds = fieldsDataset(Kind.NETCDF, null);
    assertEquals(3, ds.parts(), "parts of two rows, two rows and one");
    Double[][] puts = fieldPuts();
    JsonNode r = oracle("netcdf", write(ds, "fields.nc", puts, false));

    assertEquals("NETCDF3_64BIT_OFFSET", r.get("format").asText());
    assertEquals(JSON.readTree("{\"time\": 5, \"latitude\": 4, \"longitude\": 3}"),
        r.get("dims"));
    assertEquals("mrap write test", r.get("attrs").get("title").asText());
    assertEquals("CF-1.8", r.get("attrs").get("Conventions").asText());
    assertEquals(3.0, r.get("attrs").get("version").asDouble(), 0);
    JsonNode v = r.get("vars");
    JsonNode time = v.get("time");
    assertEquals("float64", time.get("dtype").asText());
    assertDoubles(HOURS, time.get("raw"), "time");
    assertEquals("hours since 2020-01-01 00:00:00", time.get("attrs").get("units").asText());
    assertEquals("noleap", time.get("attrs").get("calendar").asText());
    assertEquals("float32", v.get("latitude").get("dtype").asText());
    assertDoubles(LAT, v.get("latitude").get("values"), "latitude");
    assertEquals("degrees_north", v.get("latitude").get("attrs").get("units").asText());
    assertEquals("float64", v.get("longitude").get("dtype").asText());
    assertDoubles(LON, v.get("longitude").get("values"), "longitude");

    String[] names = {"tas", "pr"};
    ElementType[] types = {ElementType.FLOAT32, ElementType.FLOAT64};
    String[] units = {"K", "kg m-2 s-1"};
    for (int i = 0; i < 2; i++) {
      JsonNode x = v.get(names[i]);
      String type = types[i] == ElementType.FLOAT32 ? "float32" : "float64";
      assertEquals(type, x.get("dtype").asText(), names[i]);
      assertText(List.of("time", "latitude", "longitude"), x.get("dims"), names[i]);
      assertTrue(x.get("attrs").has("_FillValue") && x.get("attrs").get("_FillValue").isNull(),
          names[i] + ": _FillValue NaN " + x.get("attrs"));
      assertEquals(type, x.get("attr_types").get("_FillValue").asText(), names[i]);
      assertEquals(units[i], x.get("attrs").get("units").asText(), names[i]);
      assertTrue(x.get("attrs").get("long_name").asText().length() > 0, names[i]);
      assertValues(names[i], expected(puts[i], types[i]), x.get("values"), 0);
    }

    JsonNode xr = r.get("xarray");
    JsonNode xt = xr.get("vars").get("time");
    assertText(List.of(DATES), xt.get("values"), "time decoded by xarray");
    assertEquals("noleap", xt.get("calendar").asText());
    assertEquals("noleap", xt.get("encoding").get("calendar").asText());
    assertValues("xarray tas", expected(puts[0], ElementType.FLOAT32),
        xr.get("vars").get("tas").get("values"), 0);
    assertEquals("float32", xr.get("vars").get("tas").get("dtype").asText());
    assertValues("xarray pr", expected(puts[1], ElementType.FLOAT64),
        xr.get("vars").get("pr").get("values"), 0);
    assertEquals("CF-1.8", xr.get("attrs").get("Conventions").asText());
  }

  /** Integer types: 15 points, so int8 and int16 variables end padded; int64 needs CDF-5. */
  @ParameterizedTest(name = "int64 {0}")
  @ValueSource(booleans = {true, false})
  void integersAreExactAndInt64MakesCdf5(boolean int64) throws Exception {
    List<OutputDimension> dims = List.of(
        OutputDimension.of("station", ElementType.INT32, new double[] {101, 205, 309},
            new double[] {101, 205, 309}, attrs("cf_role", "timeseries_id")),
        OutputDimension.of("level", ElementType.FLOAT64, new double[] {10, 20, 30, 40, 50},
            new double[] {10, 20, 30, 40, 50}, attrs("units", "m")));
    List<OutputVariable> vars = new ArrayList<>();
    vars.add(OutputVariable.of("flag", ElementType.INT8, Double.NaN, attrs()));
    vars.add(OutputVariable.of("code", ElementType.INT16, Double.NaN, attrs("units", "1")));
    if (int64) {
      vars.add(OutputVariable.of("id", ElementType.INT64, Double.NaN, attrs()));
    }
    vars.add(OutputVariable.of("count", ElementType.INT32, Double.NaN, attrs()));
    OutputDataset ds = OutputDataset.of(Kind.NETCDF, dims, vars, attrs(), null, 1, 3);
    assertEquals(3, ds.parts());
    assertEquals(int64, ds.needsCdf5());
    int n = 15;
    // the types' extremes and small numbers, never their fill; the last point never put
    double[][] want = new double[vars.size()][n];
    double[] flag = {-128, 127, 0, 1, -1, -126, 126, 5, -5, 64, -64, 100, -100, 2};
    double[] code = {-32768, 32767, 0, 1, -1, -32766, 32766, 300, -300, 12345, -12345, 7, -7,
        255};
    double[] id = {-(double) (1L << 62), (double) (1L << 62), 0, 1, -1, 9007199254740992.0,
        -9007199254740992.0, 1234567890123456.0, -1234567890123456.0, 42, -42, 1e15, -1e15,
        4294967296.0};
    double[] count = {-2147483648.0, 2147483647, 0, 1, -1, -2147483646, 2147483646, 65536,
        -65536, 123456789, -123456789, 9, -9, 32768};
    List<double[]> columns = new ArrayList<>(List.of(flag, code));
    if (int64) {
      columns.add(id);
    }
    columns.add(count);
    Double[][] puts = new Double[vars.size()][n];
    for (int v = 0; v < vars.size(); v++) {
      for (int i = 0; i < n; i++) {
        puts[v][i] = i < n - 1 ? columns.get(v)[i] : null;
        want[v][i] = i < n - 1 ? columns.get(v)[i] : Double.NaN;
      }
    }
    JsonNode r = oracle("netcdf", write(ds, "ints.nc", puts, false));
    assertEquals(int64 ? "NETCDF3_64BIT_DATA" : "NETCDF3_64BIT_OFFSET", r.get("format").asText());
    assertEquals("int32", r.get("vars").get("station").get("dtype").asText());
    assertDoubles(new double[] {101, 205, 309}, r.get("vars").get("station").get("raw"),
        "station");
    assertDoubles(new double[] {10, 20, 30, 40, 50}, r.get("vars").get("level").get("raw"),
        "level");
    for (int v = 0; v < vars.size(); v++) {
      OutputVariable var = vars.get(v);
      JsonNode x = r.get("vars").get(var.name());
      String type = var.type().name().toLowerCase(java.util.Locale.ROOT);
      assertEquals(type, x.get("dtype").asText(), var.name());
      assertEquals(type, x.get("attr_types").get("_FillValue").asText(), var.name());
      JsonNode fill = x.get("attrs").get("_FillValue");
      JsonNode values = x.get("values");
      JsonNode raw = x.get("raw");
      for (int i = 0; i < n - 1; i++) {
        // compared as longs: int64's values beyond 2^53 exactly
        assertEquals((long) want[v][i], values.get(i).asLong(), var.name() + " [" + i + "]");
        assertEquals((long) want[v][i], raw.get(i).asLong(), var.name() + " raw [" + i + "]");
      }
      assertTrue(values.get(n - 1).isNull(), var.name() + ": the point never put is masked");
      assertEquals(fill.asLong(), raw.get(n - 1).asLong(), var.name() + " holds its fill");
      if (var.type() != ElementType.INT64) { // netCDF-C's default fill of the type
        assertEquals((long) OutputVariable.defaultFill(var.type()), fill.asLong(), var.name());
      }
      assertValues("xarray " + var.name(), want[v],
          r.get("xarray").get("vars").get(var.name()).get("values"), 0);
    }
  }

  /** An int16 packing: decoded within half a step of what was put; missing as NaN. */
  @ParameterizedTest
  @EnumSource(Kind.class)
  void packedInt16DecodesWithinHalfAStep(Kind kind) throws Exception {
    double min = 180.5;
    double max = 330.25;
    OutputVariable t2m = OutputVariable.packed("t2m", min, max, Double.NaN, 0,
        attrs("units", "K"));
    OutputDataset ds = OutputDataset.of(kind, grid(), List.of(t2m), attrs(), null, 100, 3);
    Double[][] puts = new Double[1][POINTS];
    for (int i = 0; i < POINTS; i++) {
      puts[0][i] = min + (max - min) * i / (POINTS - 1); // min and max themselves included
    }
    puts[0][7] = null;
    puts[0][11] = Double.NaN;
    double[] want = expected(puts[0], ElementType.FLOAT64);
    java.nio.file.Path out = write(ds, kind == Kind.NETCDF ? "packed.nc" : "packed.zarr",
        puts, false);
    JsonNode r = oracle(kind.lowerName(), out);
    double half = t2m.scale() / 2 * (1 + 1e-9);
    JsonNode x = r.get("vars").get("t2m");
    JsonNode xr = r.get("xarray").get("vars").get("t2m");
    if (kind == Kind.NETCDF) {
      assertEquals("int16", x.get("dtype").asText());
      assertEquals("float64", x.get("attr_types").get("scale_factor").asText());
      assertEquals(t2m.scale(), x.get("attrs").get("scale_factor").asDouble(), 0);
      assertEquals(t2m.offset(), x.get("attrs").get("add_offset").asDouble(), 0);
      assertEquals(-32767, x.get("attrs").get("_FillValue").asInt());
      assertValues("netCDF4 t2m", want, x.get("values"), half);
    } else {
      assertEquals("<i2", x.get("dtype").asText());
      assertEquals(-32767, x.get("fill_value").asInt());
      assertEquals(t2m.scale(), x.get("attrs").get("scale_factor").asDouble(), 0);
      assertEquals(t2m.offset(), x.get("attrs").get("add_offset").asDouble(), 0);
    }
    // the stored integers span the packing's range: min at -32766, max at 32767
    assertEquals(-32766, x.get("raw").get(0).asInt());
    assertEquals(32767, x.get("raw").get(POINTS - 1).asInt());
    assertEquals(-32767, x.get("raw").get(7).asInt());
    assertEquals("int16", xr.get("encoding").get("dtype").asText());
    assertValues("xarray t2m", want, xr.get("values"), half);
  }

  /** The chunk files of {@code array} in {@code store}: "c0/c1/c2" (checksums left out). */
  private static Set<String> chunkFiles(java.nio.file.Path store, String array)
      throws IOException {
    Set<String> out = new TreeSet<>();
    java.nio.file.Path a = store.resolve(array);
    try (Stream<java.nio.file.Path> s = Files.walk(a)) {
      s.filter(Files::isRegularFile).map(p -> a.relativize(p).toString())
          .filter(k -> !k.startsWith(".") && !k.contains("/.")).forEach(out::add);
    }
    return out;
  }

  private static Set<String> allChunks(int[] grid, String... absent) {
    Set<String> out = new TreeSet<>();
    for (int i = 0; i < grid[0]; i++) {
      for (int j = 0; j < grid[1]; j++) {
        for (int k = 0; k < grid[2]; k++) {
          out.add(i + "/" + j + "/" + k);
        }
      }
    }
    out.removeAll(List.of(absent));
    return out;
  }

  @ParameterizedTest(name = "chunks {0}")
  @ValueSource(strings = {"default", "2,3,2"})
  void zarrReadsAsZarrAndXarrayReadIt(String chunking) throws Exception {
    int[] chunks = chunking.equals("default") ? null : new int[] {2, 3, 2};
    OutputDataset ds = fieldsDataset(Kind.ZARR, chunks);
    int[] want = chunks == null ? new int[] {5, 4, 3} : chunks;
    assertArrayEquals(want, ds.chunks());
    if (chunks != null) {
      assertEquals(3, ds.parts(), "a row of chunks a part");
      for (int p = 0; p < ds.parts(); p++) {
        assertEquals(0, ds.partStart(p) % 2, "part " + p + " begins at a chunk row");
      }
    }
    Double[][] puts = fieldPuts();
    java.nio.file.Path store = write(ds, "fields.zarr", puts, false);
    assertTrue(Files.isRegularFile(store.resolve(".zmetadata")));
    JsonNode r = oracle("zarr", store);
    JsonNode v = r.get("vars");

    JsonNode time = v.get("time");
    assertEquals("<f8", time.get("dtype").asText());
    assertDoubles(HOURS, time.get("raw"), "time");
    assertText(List.of("time"), time.get("attrs").get("_ARRAY_DIMENSIONS"), "time");
    assertEquals("noleap", time.get("attrs").get("calendar").asText());
    assertEquals("<f4", v.get("latitude").get("dtype").asText());
    assertDoubles(LAT, v.get("latitude").get("raw"), "latitude");
    assertDoubles(LON, v.get("longitude").get("raw"), "longitude");
    String[] names = {"tas", "pr"};
    ElementType[] types = {ElementType.FLOAT32, ElementType.FLOAT64};
    for (int i = 0; i < 2; i++) {
      JsonNode x = v.get(names[i]);
      assertEquals(types[i] == ElementType.FLOAT32 ? "<f4" : "<f8", x.get("dtype").asText());
      assertEquals("[5,4,3]", x.get("shape").toString(), names[i]);
      assertEquals(JSON.valueToTree(want), x.get("chunks"), names[i]);
      assertEquals("NaN", x.get("fill_value").asText(), names[i]);
      assertText(List.of("time", "latitude", "longitude"), x.get("attrs").get("_ARRAY_DIMENSIONS"),
          names[i]);
      assertTrue(x.get("attrs").get("units").asText().length() > 0, names[i]);
      assertValues("zarr " + names[i], expected(puts[i], types[i]), x.get("raw"), 0);
      assertValues("xarray " + names[i], expected(puts[i], types[i]),
          r.get("xarray").get("vars").get(names[i]).get("values"), 0);
      assertText(List.of("time", "latitude", "longitude"),
          r.get("xarray").get("vars").get(names[i]).get("dims"), "xarray " + names[i]);
    }
    JsonNode xt = r.get("xarray").get("vars").get("time");
    assertText(List.of(DATES), xt.get("values"), "time decoded by xarray");
    assertEquals("noleap", xt.get("calendar").asText());
    assertEquals("mrap write test", r.get("xarray").get("attrs").get("title").asText());

    // a chunk of only the fill is not in the store
    if (chunks == null) {
      assertEquals(Set.of("0/0/0"), chunkFiles(store, "tas"));
      assertEquals(Set.of("0/0/0"), chunkFiles(store, "pr"));
    } else {
      assertEquals(allChunks(new int[] {3, 2, 2}, "1/1/1"), chunkFiles(store, "tas"));
      assertEquals(allChunks(new int[] {3, 2, 2}, "2/1/1"), chunkFiles(store, "pr"));
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void ourReaderReadsWhatWasWritten(Kind kind) throws Exception {
    OutputDataset ds = fieldsDataset(kind, kind == Kind.ZARR ? new int[] {2, 3, 2} : null);
    Double[][] puts = fieldPuts();
    java.nio.file.Path out = write(ds, kind == Kind.NETCDF ? "ours.nc" : "ours.zarr", puts,
        false);
    double[][] got = new double[2][];
    double[] time;
    List<String> dims;
    String units;
    if (kind == Kind.NETCDF) {
      try (FileChannel ch = FileChannel.open(out)) {
        Positioned in = Positioned.of(ch);
        try (ScienceFile f = ScienceFiles.open(in, "ours.nc", ScienceFiles.Kind.NETCDF)) {
          Variable tas = f.variable("tas");
          got[0] = VariableValues.read(in, tas);
          got[1] = VariableValues.read(in, f.variable("pr"));
          time = f.values(in, f.coordinate(tas, 0));
          dims = tas.dimensions();
          units = tas.attributes().text("units");
        }
      }
    } else {
      LocalStore store = new LocalStore(out);
      try (ScienceFile f = ScienceFiles.open(store, ScienceFiles.Kind.ZARR)) {
        Variable tas = f.variable("tas");
        got[0] = VariableValues.read(PlacedChunks.positioned(tas.chunks(), store), tas);
        Variable pr = f.variable("pr");
        got[1] = VariableValues.read(PlacedChunks.positioned(pr.chunks(), store), pr);
        Variable t = f.coordinate(tas, 0);
        time = VariableValues.read(PlacedChunks.positioned(t.chunks(), store), t);
        dims = tas.dimensions();
        units = tas.attributes().text("units");
      }
    }
    assertArrayEquals(HOURS, time, 0);
    assertEquals(List.of("time", "latitude", "longitude"), dims);
    assertEquals("K", units);
    ElementType[] types = {ElementType.FLOAT32, ElementType.FLOAT64};
    for (int v = 0; v < 2; v++) {
      assertArrayEquals(expected(puts[v], types[v]), got[v], 0, kind + " " + v);
    }
  }

  @Test
  void aPointPutTwiceIsRefusedNamingVariableAndPoint() {
    OutputDataset ds = fieldsDataset(Kind.NETCDF, null);
    PartWriter w = new PartWriter(ds, ds.part(3));
    int i = at(3, 2, 1);
    w.put(1, i, 1.5);
    w.put(0, i, 1.5); // another variable's point is another point
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> w.put(1, i, 2.5));
    String m = e.getMessage();
    assertTrue(m.contains("pr") && m.contains("time=" + HOURS[3] * 3600)
        && m.contains("latitude=15.25") && m.contains("longitude=120.2"), m);
  }

  @Test
  void aPointOutsideThePartIsRefused() {
    OutputDataset ds = fieldsDataset(Kind.ZARR, new int[] {2, 3, 2});
    PartWriter w = new PartWriter(ds, 0);
    int inPart1 = at(2, 0, 0);
    assertFalse(w.holds(inPart1));
    String m = assertThrows(IllegalArgumentException.class, () -> w.put(0, inPart1, 1))
        .getMessage();
    assertTrue(m.contains("tas") && m.contains("time=" + HOURS[2] * 3600)
        && m.contains("outside part 0"), m);
    for (long outside : new long[] {-1, POINTS}) {
      m = assertThrows(IllegalArgumentException.class, () -> w.put(1, outside, 1))
          .getMessage();
      assertTrue(m.contains("pr") && m.contains(String.valueOf(outside)), m);
    }
  }

  @Test
  void aValueThatDoesNotFitIsRefusedAndThePointStaysFree() {
    OutputVariable t2m = OutputVariable.packed("t2m", 0, 10, Double.NaN, 0, attrs());
    OutputVariable flag = OutputVariable.of("flag", ElementType.INT8, Double.NaN, attrs());
    OutputDataset ds = OutputDataset.of(Kind.NETCDF, grid(), List.of(t2m, flag), attrs(),
        null, PART_BYTES, 3);
    PartWriter w = new PartWriter(ds, 0);
    String m = assertThrows(IllegalArgumentException.class, () -> w.put(0, 0, 400))
        .getMessage();
    assertTrue(m.contains("t2m"), m);
    m = assertThrows(IllegalArgumentException.class, () -> w.put(1, 0, 300)).getMessage();
    assertTrue(m.contains("flag") && m.contains("300"), m);
    // the refused value took no point: the right one is put there after
    w.put(0, 0, 5);
    w.put(1, 0, 100);
  }

  @Test
  void anExistingDestinationIsRefusedWithoutOverwrite() throws Exception {
    java.nio.file.Path old = Files.write(tmp.resolve("taken.nc"),
        "old".getBytes(StandardCharsets.UTF_8));
    FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
        () -> DatasetCommit.begin(CONF, dst("taken.nc"), false));
    assertTrue(e.getMessage().contains(old.toString()), e.getMessage());
    assertEquals("old", Files.readString(old));
    assertFalse(Files.exists(tmp.resolve(".taken.nc.mrap-write")));
  }

  @Test
  void overwriteReplacesAFileAndAStore() throws Exception {
    Double[][] puts = fieldPuts();
    Files.write(tmp.resolve("again.nc"), "old".getBytes(StandardCharsets.UTF_8));
    JsonNode nc = oracle("netcdf", write(fieldsDataset(Kind.NETCDF, null), "again.nc", puts,
        true));
    assertEquals("NETCDF3_64BIT_OFFSET", nc.get("format").asText());
    assertValues("replaced tas", expected(puts[0], ElementType.FLOAT32),
        nc.get("vars").get("tas").get("values"), 0);

    java.nio.file.Path old = tmp.resolve("again.zarr");
    Files.createDirectories(old.resolve("tas/9/9"));
    Files.write(old.resolve("tas/9/9/9"), new byte[] {1});
    Files.write(old.resolve("stale"), new byte[] {1});
    // the store exists, so its URI ends in "/": still the work folder lies beside it
    java.nio.file.Path store = write(fieldsDataset(Kind.ZARR, new int[] {2, 3, 2}), "again.zarr",
        puts, true);
    assertFalse(Files.exists(store.resolve("stale")), "the old store is gone");
    assertEquals(allChunks(new int[] {3, 2, 2}, "1/1/1"), chunkFiles(store, "tas"));
    JsonNode z = oracle("zarr", store);
    assertValues("replaced zarr pr", expected(puts[1], ElementType.FLOAT64),
        z.get("vars").get("pr").get("raw"), 0);
    try (Stream<java.nio.file.Path> s = Files.list(tmp)) {
      s.forEach(p -> assertFalse(p.getFileName().toString().endsWith(".mrap-write"),
          p + " is left"));
    }
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void abortLeavesNothing(Kind kind) throws Exception {
    OutputDataset ds = fieldsDataset(kind, null);
    DatasetCommit c = DatasetCommit.begin(CONF, dst("aborted"), false);
    assertTrue(Files.isDirectory(tmp.resolve(".aborted.mrap-write")));
    tasks(c, ds, fieldPuts());
    c.abort();
    assertFalse(Files.exists(tmp.resolve(".aborted.mrap-write")));
    assertFalse(Files.exists(tmp.resolve("aborted")));
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aCommitMissingAPartNamesItAndPublishesNothing(Kind kind) throws Exception {
    OutputDataset ds = fieldsDataset(kind, kind == Kind.ZARR ? new int[] {2, 3, 2} : null);
    DatasetCommit c = DatasetCommit.begin(CONF, dst("partial"), false);
    List<String> names = tasks(c, ds, fieldPuts());
    List<String> without1 = new ArrayList<>();
    for (String n : names) {
      // NetCDF: v<var>.p1.<attempt>; Zarr: <attempt of part 1>/... and part-1
      if (!n.contains(".p1.") && !n.equals("part-1") && !n.startsWith("attempt_0001_m_000001")) {
        without1.add(n);
      }
    }
    assertTrue(without1.size() < names.size());
    IOException e = assertThrows(IOException.class, () -> c.commit(ds, without1));
    assertTrue(e.getMessage().contains("part 1"), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("partial")), "nothing is published");
    c.abort();
    assertFalse(Files.exists(tmp.resolve(".partial.mrap-write")));
  }
}
