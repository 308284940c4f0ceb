package org.opass.mrap.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.opass.mrap.science.Fixtures;

/**
 * The PySpark example of {@code docs/spark.md} (the Spark page the README links to), run by its
 * Java equivalent (there is no PySpark in the build):
 * PySpark's reader and DataFrame methods call the JVM methods of the same names through py4j,
 * so each call of each statement is invoked by name on Spark's Java API, with the
 * statement's own arguments, over a MiniDFSCluster holding the files the example names. A
 * statement ending in {@code show()} is collected instead and checked: the regions' (logical)
 * offsets, lengths and CRC32s against the file's bytes cut by hand, the slab's mean per file against
 * netCDF-C's figures for the series, the table's means per latitude against xarray's rows. An edit of the page that renames an option, a method or a
 * path fails here.
 */
class ReadmePySparkTest {
  private static final Pattern CALL = Pattern.compile("\\.(\\w+)\\(((?:\\s*\"[^\"]*\"\\s*,?)*)\\)");
  private static final Pattern STRING = Pattern.compile("\"([^\"]*)\"");

  @Test
  void theSparkPagesPySparkExampleRunsAndReadsWhatItSays() throws Exception {
    SparkSession spark = SparkOnHdfs.spark();
    FileSystem fs = SparkOnHdfs.fs();
    List<String> statements = statements(pysparkBlock());
    assertEquals(6, statements.size(), "three reads and three queries: " + statements);
    Map<String, Object> names = new HashMap<>();
    List<List<Row>> shown = new ArrayList<>();
    byte[] data = null;
    for (String statement : statements) {
      String target = null;
      String chain = statement;
      Matcher assign = Pattern.compile("^(\\w+)\\s*=\\s*\\((.*)\\)$", Pattern.DOTALL)
          .matcher(statement);
      if (assign.matches()) {
        target = assign.group(1);
        chain = assign.group(2).trim();
      } else if (chain.startsWith("(") && chain.endsWith(")")) { // a query in parentheses
        chain = chain.substring(1, chain.length() - 1).trim();
      }
      Object receiver;
      if (chain.startsWith("spark.read.")) {
        receiver = spark.read();
        chain = chain.substring("spark.read".length());
      } else {
        String name = chain.substring(0, chain.indexOf('.'));
        receiver = names.get(name);
        assertTrue(receiver != null, "'" + name + "' is not defined before: " + statement);
        chain = chain.substring(name.length());
      }
      Matcher call = CALL.matcher(chain);
      int at = 0;
      while (call.find()) {
        assertEquals(at, call.start(), "not a call in '" + chain + "'");
        at = call.end();
        List<String> args = new ArrayList<>();
        Matcher s = STRING.matcher(call.group(2));
        while (s.find()) {
          args.add(s.group(1));
        }
        String method = call.group(1);
        if (method.equals("load")) { // the files the example names, made here
          data = create(fs, args, data);
        }
        if (method.equals("show")) {
          shown.add(((Dataset<?>) receiver).toDF().collectAsList());
          receiver = null;
        } else {
          receiver = invoke(receiver, method, args);
        }
      }
      assertEquals(chain.length(), at, "not a call in '" + chain.substring(at) + "'");
      if (target != null) {
        names.put(target, receiver);
      }
    }
    assertEquals(3, shown.size());
    checkRegions(shown.get(0), data);
    checkSlabMeans(shown.get(1));
    checkTableMeans(shown.get(2));
  }

  /**
   * The table's means per latitude over the example's box, as xarray's rows of the same box
   * give them (TableLayoutTest's case era5_box: the same filters).
   */
  private static void checkTableMeans(List<Row> rows) throws IOException {
    JsonNode box = null;
    for (JsonNode c : new com.fasterxml.jackson.databind.ObjectMapper().readTree(new java.io.File(
        "../mrap-spark/src/test/resources/science/table/expected_table.json")).get("cases")) {
      if (c.get("name").asText().equals("era5_box")) {
        box = c;
      }
    }
    Map<Double, double[]> want = new HashMap<>(); // latitude -> t2m sum, count, tp sum, count
    for (JsonNode r : box.get("rows")) {
      double[] w = want.computeIfAbsent(r.get(1).asDouble(), x -> new double[4]);
      for (int k = 0; k < 2; k++) {
        if (!r.get(3 + k).isNull()) {
          w[2 * k] += r.get(3 + k).asDouble();
          w[2 * k + 1]++;
        }
      }
    }
    assertEquals(want.size(), rows.size(), rows.toString());
    for (Row r : rows) {
      double[] w = want.get((double) r.getFloat(0));
      assertTrue(w != null, r.getFloat(0) + " is no latitude of the box");
      assertEquals(w[0] / w[1], r.getDouble(1), 1e-9, "t2m at " + r.getFloat(0));
      assertEquals(w[2] / w[3], r.getDouble(2), 1e-9, "tp at " + r.getFloat(0));
    }
  }

  /** The regions' rows: offset, length and CRC32 of each, as the file's bytes cut by hand. */
  private static void checkRegions(List<Row> rows, byte[] data) {
    assertTrue(data != null, "the example reads /data/run.bin");
    // the pattern as the example's options say: 64 KiB every 320 KiB, 16 times
    int region = 64 << 10;
    int stride = 320 << 10;
    assertEquals(16, rows.size(), rows.toString());
    List<Row> sorted = new ArrayList<>(rows);
    sorted.sort((a, b) -> Long.compare(a.getLong(0), b.getLong(0)));
    for (int k = 0; k < 16; k++) {
      CRC32 crc = new CRC32();
      crc.update(data, k * stride, region);
      Row r = sorted.get(k);
      assertEquals((long) k * region, r.getLong(0), "region " + k + "'s logical offset");
      assertEquals(region, r.getInt(1), "region " + k);
      assertEquals(crc.getValue(), r.getLong(2), "region " + k);
    }
  }

  /** The slab's mean per file, as netCDF-C's per-step figures give it. */
  private static void checkSlabMeans(List<Row> rows) throws IOException {
    JsonNode series = Fixtures.expected().get("series");
    Map<String, double[]> want = new HashMap<>(); // file -> {sum, count}
    for (JsonNode step : series.get("steps")) {
      double[] w = want.computeIfAbsent(step.get("file").asText(), f -> new double[2]);
      w[0] += step.get("mean").asDouble() * step.get("count").asLong();
      w[1] += step.get("count").asLong();
    }
    assertEquals(want.size(), rows.size(), rows.toString());
    for (Row r : rows) {
      String file = new Path(r.getString(0)).getName();
      double[] w = want.get(file);
      assertTrue(w != null, file + " is not of the series");
      assertEquals(w[0] / w[1], r.getDouble(1), 1e-9, file);
    }
  }

  /** The files a {@code load} names: random bytes for a .bin, the NetCDF series for a folder. */
  private static byte[] create(FileSystem fs, List<String> paths, byte[] data)
      throws IOException {
    for (String p : paths) {
      if (p.endsWith("era5")) { // the CF fixture netCDF-C wrote (TableLayoutTest's)
        try (FSDataOutputStream out = fs.create(new Path(p, "era5.nc"), (short) 2)) {
          out.write(Files.readAllBytes(Paths.get(
              "../mrap-core/src/test/resources/science/cf/era5.nc")));
        }
      } else if (p.endsWith(".bin")) {
        data = new byte[16 * (320 << 10)];
        new Random(11).nextBytes(data);
        try (FSDataOutputStream out = fs.create(new Path(p), (short) 2)) {
          out.write(data);
        }
      } else {
        for (String f : new String[] {"run_00.nc", "run_01.nc", "run_02.nc", "run_03.nc"}) {
          try (FSDataOutputStream out = fs.create(new Path(p, f), (short) 2)) {
            out.write(Fixtures.bytes("series/" + f));
          }
        }
      }
    }
    return data;
  }

  /** {@code receiver.method(args...)}: string parameters, or strings then a String[] tail. */
  private static Object invoke(Object receiver, String method, List<String> args)
      throws Exception {
    for (Method m : receiver.getClass().getMethods()) {
      Class<?>[] types = m.getParameterTypes();
      if (!m.getName().equals(method) || !Modifier.isPublic(m.getModifiers())) {
        continue;
      }
      boolean strings = true;
      for (int i = 0; i < types.length; i++) {
        boolean tail = i == types.length - 1 && types[i] == String[].class;
        strings &= types[i] == String.class || tail;
      }
      if (!strings) {
        continue;
      }
      boolean varargs = types.length > 0 && types[types.length - 1] == String[].class;
      int fixed = varargs ? types.length - 1 : types.length;
      if (varargs ? args.size() < fixed : args.size() != fixed) {
        continue;
      }
      Object[] values = new Object[types.length];
      for (int i = 0; i < fixed; i++) {
        values[i] = args.get(i);
      }
      if (varargs) {
        values[fixed] = args.subList(fixed, args.size()).toArray(new String[0]);
      }
      return m.invoke(receiver, values);
    }
    throw new AssertionError("no " + receiver.getClass().getSimpleName() + "." + method
        + " takes " + args.size() + " strings");
  }

  /** The ```python block of docs/spark.md's PySpark section. */
  private static String pysparkBlock() throws IOException {
    String page = new String(Files.readAllBytes(Paths.get("../docs/spark.md")),
        StandardCharsets.UTF_8);
    int section = page.indexOf("## From PySpark");
    assertTrue(section >= 0, "docs/spark.md has no PySpark section");
    int start = page.indexOf("```python\n", section);
    assertTrue(start >= 0, "docs/spark.md's PySpark section has no PySpark example");
    start += "```python\n".length();
    return page.substring(start, page.indexOf("```", start));
  }

  /** Statements: paragraphs of the block without comments, one statement each. */
  static List<String> statements(String block) {
    List<String> out = new ArrayList<>();
    for (String paragraph : block.split("\n\\s*\n")) {
      StringBuilder b = new StringBuilder();
      for (String line : paragraph.split("\n")) {
        int hash = line.indexOf('#');
        b.append(hash >= 0 ? line.substring(0, hash) : line).append(' ');
      }
      String s = b.toString().replaceAll("\\s+", " ").replaceAll("\\s*\\.\\s*", ".").trim();
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }
}
