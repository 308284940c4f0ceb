package org.opass.mrap.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opass.mrap.read.PieceReader;
import org.opass.mrap.read.ReadCounters;
import org.opass.mrap.science.ArrayPiece;
import org.opass.mrap.settings.VariableSettings;
import org.opass.mrap.task.VariableTask;

/**
 * Every case of science/cf (files written by netCDF-C and h5py, in the shapes of ERA5, CMIP,
 * 360-day, NetCDF-3 unsigned and HDF5 dimension-scale archives; see make_cf_fixtures.py) planned
 * and read as a task reads it, on the local file system: each element's decoded (or stored)
 * value, missing where the oracle masks it, its coordinates, and the element type, equal to
 * what netCDF4-python or xarray read.
 */
public class CfOracleTest {
  public static JsonNode expected() throws IOException {
    try (InputStream in = CfOracleTest.class.getResourceAsStream("/science/cf/expected_cf.json")) {
      return new ObjectMapper().readTree(in);
    }
  }

  public static Path folder() {
    try {
      return Paths.get(CfOracleTest.class.getResource("/science/cf/expected_cf.json").toURI())
          .getParent();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static Stream<JsonNode> cases() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    expected().get("cases").forEach(out::add);
    return out.stream();
  }

  /** The case's settings, as a job gives them. */
  public static Configuration conf(JsonNode c) {
    Configuration conf = new Configuration(false);
    String first = c.get("files").get(0).asText();
    conf.set(VariableSettings.KIND, first.endsWith(".h5") ? "hdf5" : "netcdf");
    conf.set(VariableSettings.VARIABLE, c.get("variable").asText());
    if (!c.get("select").asText().isEmpty()) {
      conf.set(VariableSettings.SELECT, c.get("select").asText());
    }
    conf.setBoolean(VariableSettings.DECODE, c.get("decode").asBoolean());
    return conf;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void readsWhatTheOracleReads(JsonNode c) throws IOException {
    String name = c.get("name").asText();
    Configuration conf = conf(c);
    FileSystem fs = FileSystem.getLocal(new Configuration());
    List<FileStatus> files = new ArrayList<>();
    for (JsonNode f : c.get("files")) {
      files.add(fs.getFileStatus(new org.apache.hadoop.fs.Path(folder().resolve(f.asText())
          .toUri())));
    }
    Result r = new Result(c);
    for (VariableTask task : new VariablePlanner(conf).tasks(files)) {
      PieceReader reader = new PieceReader(conf, task, ReadCounters.NONE);
      while (reader.next()) {
        r.put(reader.key().file(), reader.key().origin(), reader.value());
      }
      reader.close();
    }
    r.check(name);
  }

  /** The assembled result: each file's selection, concatenated along the first dimension. */
  public static final class Result {
    final JsonNode c;
    final long[] shape;
    final double[] values;
    final boolean[] missing;
    final boolean[] seen;
    final Object[][] coords; // per dimension, per position
    String type;

    public Result(JsonNode c) {
      this.c = c;
      JsonNode s = c.get("shape");
      shape = new long[s.size()];
      long n = 1;
      for (int d = 0; d < shape.length; d++) {
        shape[d] = s.get(d).asLong();
        n *= shape[d];
      }
      values = new double[(int) n];
      missing = new boolean[(int) n];
      seen = new boolean[(int) n];
      coords = new Object[shape.length][];
      for (int d = 0; d < shape.length; d++) {
        coords[d] = new Object[(int) shape[d]];
      }
    }

    /** Position along d of array index i of file f's selection (-1: not selected). */
    long position(int f, int d, long i) {
      JsonNode slabs = c.get("index_slabs");
      long before = 0;
      if (d == 0) {
        for (int g = 0; g < f; g++) {
          if (!slabs.get(g).isNull()) {
            for (JsonNode run : slabs.get(g).get(0)) {
              before += run.get(1).asLong() - run.get(0).asLong() + 1;
            }
          }
        }
      }
      for (JsonNode run : slabs.get(f).get(d)) {
        long a = run.get(0).asLong();
        long b = run.get(1).asLong();
        if (i >= a && i <= b) {
          return before + i - a;
        }
        before += b - a + 1;
      }
      return -1;
    }

    public void put(String file, long[] origin, ArrayPiece p) {
      int f = -1;
      for (int k = 0; k < c.get("files").size(); k++) {
        if (file.endsWith("/" + c.get("files").get(k).asText())) {
          f = k;
        }
      }
      assertTrue(f >= 0, file + " is not a file of the case");
      assertTrue(!c.get("index_slabs").get(f).isNull(), file + " is read, but the selection "
          + "picks nothing in it");
      String t = p.type().name().toLowerCase(Locale.ROOT).replace("float32", "float32");
      assertTrue(type == null || type.equals(t), "types " + type + " and " + t);
      type = t;
      int[] box = p.shape();
      long[] step = p.step();
      for (int i = 0; i < p.elements(); i++) {
        long flat = 0;
        int rest = i;
        int[] idx = new int[box.length];
        for (int d = box.length - 1; d >= 0; d--) {
          idx[d] = rest % box[d];
          rest /= box[d];
        }
        for (int d = 0; d < box.length; d++) {
          long pos = position(f, d, origin[d] + idx[d] * step[d]);
          assertTrue(pos >= 0, "index " + (origin[d] + idx[d] * step[d]) + " of dimension " + d
              + " of " + file + " is not selected");
          flat = flat * shape[d] + pos;
          coords[d][(int) pos] = p.coordinate(d, i);
        }
        assertTrue(!seen[(int) flat], "an element given twice");
        seen[(int) flat] = true;
        missing[(int) flat] = p.isMissing(i);
        values[(int) flat] = p.type().floating() ? p.getDouble(i) : p.getLong(i);
      }
    }

    public void check(String name) throws IOException {
      for (int i = 0; i < seen.length; i++) {
        assertTrue(seen[i], name + ": element " + i + " of " + seen.length + " not given");
      }
      boolean decode = c.get("decode").asBoolean();
      assertEquals(c.get("dtype").asText(), type, name + ": element type");
      boolean single = type.equals("float32");
      JsonNode v = c.get("values");
      if (v != null && !v.isNull()) {
        for (int i = 0; i < values.length; i++) {
          JsonNode e = v.get(i);
          if (e.isNull()) {
            assertTrue(missing[i] || Double.isNaN(values[i]), name + ": element " + i
                + " is masked by the oracle, read " + values[i]);
          } else {
            assertTrue(!missing[i], name + ": element " + i + " (" + e.asDouble() + ") read as "
                + "missing");
            assertEquals(e.asDouble(), values[i], single ? Math.ulp((float) e.asDouble()) : 0,
                name + ": element " + i);
          }
        }
      } else {
        ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        boolean floats = decode || type.startsWith("float");
        long masked = 0;
        for (int i = 0; i < values.length; i++) {
          if (floats) {
            b.putDouble(missing[i] ? Double.NaN : values[i]);
          } else {
            b.putLong((long) values[i]);
          }
          masked += missing[i] ? 1 : 0;
        }
        if (c.has("masked")) {
          assertEquals(c.get("masked").asLong(), masked, name + ": elements masked");
        }
        try {
          assertEquals(c.get("sha256").asText(), HexFormat.of().formatHex(
              MessageDigest.getInstance("SHA-256").digest(b.array())), name + ": values");
        } catch (java.security.NoSuchAlgorithmException e) {
          throw new IllegalStateException(e);
        }
      }
      JsonNode dims = c.get("dims");
      for (int d = 0; d < shape.length; d++) {
        JsonNode expect = c.get("coords").get(dims.get(d).asText());
        if (expect == null || expect.isNull()) {
          continue;
        }
        for (int k = 0; k < shape[d]; k++) {
          Object got = coords[d][k];
          JsonNode e = expect.get(k);
          if (e.isTextual()) {
            String text = got instanceof Instant ? DateTimeFormatter.ofPattern(
                "uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC).format((Instant) got)
                : String.valueOf(got);
            assertEquals(e.asText(), text, name + ": " + dims.get(d).asText() + "[" + k + "]");
          } else {
            assertEquals(e.asDouble(), ((Number) got).doubleValue(), 1e-9, name + ": "
                + dims.get(d).asText() + "[" + k + "]");
          }
        }
      }
    }
  }

  static String describe(long[] a) {
    return Arrays.toString(a);
  }
}
