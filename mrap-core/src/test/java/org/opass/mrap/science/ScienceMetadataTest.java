package org.opass.mrap.science;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.opass.mrap.array.ElementType;
import org.opass.mrap.array.Elements;
import org.opass.mrap.array.Slab;
import org.opass.mrap.format.Attributes;
import org.opass.mrap.format.Positioned;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.format.Variable;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.task.VariableCodec;

/**
 * Each variable's kept attributes, its dimensions' names and its dimensions' coordinate
 * variables, read from the fixtures of science/attrs (NetCDF-3 classic and NetCDF-4 written by
 * netCDF-C, HDF5 with dimension scales written by h5py, through make_attrs.py), equal what
 * netCDF4-python and h5py read from them (expected_attrs.json); and a variable's description in
 * a split carries them.
 */
class ScienceMetadataTest {
  private static JsonNode expected() throws IOException {
    try (InputStream in = ScienceMetadataTest.class.getResourceAsStream(
        "/science/attrs/expected_attrs.json")) {
      return new ObjectMapper().readTree(in);
    }
  }

  static Stream<Arguments> variables() throws IOException {
    List<Arguments> out = new ArrayList<>();
    JsonNode files = expected().get("files");
    for (Iterator<Map.Entry<String, JsonNode>> f = files.fields(); f.hasNext(); ) {
      Map.Entry<String, JsonNode> file = f.next();
      for (Iterator<Map.Entry<String, JsonNode>> v = file.getValue().fields(); v.hasNext(); ) {
        Map.Entry<String, JsonNode> var = v.next();
        out.add(Arguments.of(file.getKey(), var.getKey(), var.getValue()));
      }
    }
    return out.stream();
  }

  private static ScienceFiles.Kind kind(String file) {
    return file.endsWith(".h5") ? ScienceFiles.Kind.HDF5 : ScienceFiles.Kind.NETCDF;
  }

  private static Path path(String file) {
    return Fixtures.folder().resolve("attrs").resolve(file);
  }

  @Test
  void theKeptNamesAreThoseTheFixturesWereWrittenFor() throws IOException {
    List<String> kept = new ArrayList<>();
    expected().get("kept").forEach(n -> kept.add(n.asText()));
    assertEquals(Attributes.KEPT, kept, "make_attrs.py's KEPT");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("variables")
  void attributesAndDimensionNamesAreWhatTheLibrariesRead(String file, String name,
      JsonNode e) throws IOException {
    try (FileChannel ch = FileChannel.open(path(file))) {
      Variable v = ScienceFiles.variable(Positioned.of(ch), file, kind(file), name);
      String what = file + " " + name;
      assertArrayEquals(shape(e), v.shape(), what + ": shape");
      List<String> dims = new ArrayList<>();
      e.get("dimensions").forEach(d -> dims.add(d.asText()));
      if (dims.isEmpty()) {
        dims.add(""); // a scalar: one element, one dimension without a name
      }
      assertEquals(dims, v.dimensions(), what + ": dimension names");
      attributesEqual(e.get("attributes"), v.attributes(), what);
      for (JsonNode s : e.get("skipped")) {
        assertNull(v.attributes().get(s.asText()), what + ": " + s.asText() + " is of a type "
            + "not read");
      }
    }
  }

  private static long[] shape(JsonNode e) {
    JsonNode s = e.get("shape");
    if (s.size() == 0) {
      return new long[] {1};
    }
    long[] out = new long[s.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = s.get(i).asLong();
    }
    return out;
  }

  private static void attributesEqual(JsonNode expected, Attributes got, String what) {
    TreeSet<String> names = new TreeSet<>();
    expected.fieldNames().forEachRemaining(names::add);
    assertEquals(names, new TreeSet<>(got.names()), what + ": the attributes kept");
    for (String n : names) {
      JsonNode x = expected.get(n);
      Attributes.Attribute a = got.get(n);
      String at = what + ": " + n;
      if (x.has("text")) {
        assertTrue(a.isText(), at + " is text: " + a);
        assertEquals(x.get("text").asText(), a.text(), at);
        continue;
      }
      assertFalse(a.isText(), at + " is numbers: " + a);
      assertEquals(ElementType.valueOf(x.get("type").asText().toUpperCase(Locale.ROOT)),
          a.type(), at + ": type");
      assertEquals(x.get("values").size(), a.count(), at + ": count");
      for (int i = 0; i < a.count(); i++) {
        assertEquals(x.get("values").get(i).asDouble(), a.getDouble(i), 0, at + "[" + i + "]");
      }
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("variables")
  void coordinatesAreTheVariablesOfTheDimensions(String file, String name, JsonNode e)
      throws IOException {
    try (FileChannel ch = FileChannel.open(path(file))) {
      Positioned in = Positioned.of(ch);
      try (ScienceFile f = ScienceFiles.open(in, file, kind(file))) {
        in.keepHead(0); // from here on every read of the file counts
        long opened = in.reads();
        Variable v = f.variable(name);
        JsonNode coords = e.get("coordinates");
        List<Variable> got = new ArrayList<>();
        for (int d = 0; d < v.rank(); d++) {
          got.add(f.coordinate(v, d));
        }
        // these files' metadata lie in one page, read when the file was opened
        assertEquals(opened, in.reads(), file + " " + name + ": positioned reads after opening");
        for (int d = 0; d < v.rank(); d++) {
          String what = file + " " + name + ", dimension " + d;
          JsonNode c = d < coords.size() ? coords.get(d) : null;
          if (c == null || c.isNull()) {
            assertNull(got.get(d), what + " has no coordinate variable");
            continue;
          }
          Variable cv = got.get(d);
          assertNotNull(cv, what + " has the coordinate variable " + c.get("variable"));
          assertEquals(strip(c.get("variable").asText()), strip(cv.name()), what);
          assertArrayEquals(shape(c), cv.shape(), what + ": shape");
          assertEquals(1, cv.dimensions().size(), what);
          assertEquals(v.dimensions().get(d), cv.dimensions().get(0), what + ": its dimension");
          double[] values = values(in, cv);
          JsonNode x = c.get("values");
          assertEquals(x.size(), values.length, what);
          for (int i = 0; i < values.length; i++) {
            assertEquals(x.get(i).asDouble(), values[i], 0, what + ": value " + i);
          }
          // the coordinate variable is described as opening it by its name does
          Variable byName = f.variable(cv.name());
          assertEquals(byName.dimensions(), cv.dimensions(), what);
          assertEquals(byName.attributes(), cv.attributes(), what);
        }
      }
    }
  }

  private static String strip(String name) {
    return name.startsWith("/") ? name.substring(1) : name;
  }

  /** Every element of {@code v} in C order, read as a task reads them. */
  static double[] values(Positioned in, Variable v) throws IOException {
    Slab slab = Slab.parse(null, v.shape());
    SlabPlan plan = SlabPlan.of(v, slab, Long.MAX_VALUE);
    long[] shape = v.shape();
    double[] out = new double[(int) slab.elements()];
    SlabPlan.PieceSink sink = (origin, pieceShape, step, bytes, offset, length) -> {
      int[] idx = new int[pieceShape.length];
      int at = offset;
      for (int k = 0; k < length / v.type().size(); k++) {
        long flat = 0;
        for (int d = 0; d < idx.length; d++) {
          flat = flat * shape[d] + origin[d] + idx[d] * step[d];
        }
        out[(int) flat] = Elements.asDouble(bytes, at, v.type(), v.order());
        at += v.type().size();
        for (int d = idx.length - 1; d >= 0 && ++idx[d] == pieceShape[d]; d--) {
          idx[d] = 0;
        }
      }
    };
    RegionCursor r = plan.pattern() == null ? null : plan.pattern().cursor();
    while (r != null && r.next()) {
      byte[] b = new byte[(int) r.length()];
      in.readFully(r.offset(), b, 0, b.length);
      plan.pieces(r.offset(), b, b.length, sink);
    }
    if (v.chunked()) {
      plan.unwritten().forEach(v.chunkShape(), origin ->
          SlabPlan.fillPieces(v, slab, origin, sink));
    }
    return out;
  }

  @Test
  void aDimensionOfNoVariableAndOneOutOfRange() throws IOException {
    try (FileChannel ch = FileChannel.open(path("nc4.nc"));
        ScienceFile f = ScienceFiles.open(Positioned.of(ch), "nc4.nc",
            ScienceFiles.Kind.NETCDF)) {
      Variable bnds = f.variable("lat_bnds");
      assertEquals(List.of("lat", "nv"), bnds.dimensions());
      assertNull(f.coordinate(bnds, 1), "nv is a netCDF dimension without a variable");
      assertThrows(IllegalArgumentException.class, () -> f.coordinate(bnds, 2));
      ScienceFormatException x = assertThrows(ScienceFormatException.class,
          () -> f.variable("nv"));
      assertTrue(x.getMessage().contains("is a netCDF dimension"), x.getMessage());
    }
    try (FileChannel ch = FileChannel.open(path("scales.h5"));
        ScienceFile f = ScienceFiles.open(Positioned.of(ch), "scales.h5",
            ScienceFiles.Kind.HDF5)) {
      Variable data = f.variable("data");
      assertEquals(List.of("t", "northing", "x", ""), data.dimensions());
      assertEquals("/coords/t", f.coordinate(data, 0).name(), "found outside the data's group");
      assertNull(f.coordinate(data, 3));
    }
  }

  @Test
  void aNetcdf3AttributeOverTheBoundIsLeftOut() throws IOException {
    // CDF-1: dimension x of 2; variable v(x) of shorts with units of 70,000 bytes, _FillValue
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(71000);
    b.put(new byte[] {'C', 'D', 'F', 1}).putInt(0);
    b.putInt(0x0A).putInt(1).putInt(1).put(new byte[] {'x', 0, 0, 0}).putInt(2);
    b.putInt(0).putInt(0); // no global attributes
    b.putInt(0x0B).putInt(1).putInt(1).put(new byte[] {'v', 0, 0, 0}).putInt(1).putInt(0);
    b.putInt(0x0C).putInt(3);
    b.putInt(5).put("units".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
        .put(new byte[3]).putInt(2).putInt(70000).put(new byte[70000]);
    b.putInt(10).put("_FillValue".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
        .put(new byte[2]).putInt(3).putInt(1).putShort((short) -7).putShort((short) 0);
    b.putInt(4).put("axis".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
        .putInt(2).putInt(2).put(new byte[] {'X', 0, 0, 0});
    b.putInt(3).putInt(4).putInt(b.position() + 4);
    b.putShort((short) 1).putShort((short) 2);
    Positioned in = of(java.util.Arrays.copyOf(b.array(), b.position()));
    Variable v = ScienceFiles.variable(in, "made.nc", ScienceFiles.Kind.NETCDF, "v");
    assertEquals(List.of("x"), v.dimensions());
    assertEquals(new TreeSet<>(List.of("_FillValue", "axis")), new TreeSet<>(v.attributes()
        .names()), "units, over " + Attributes.MAX_VALUE_BYTES + " bytes, is left out");
    assertEquals(-7, v.attributes().get("_FillValue").getLong(0));
    assertEquals("X", v.attributes().text("axis"), "its trailing NUL dropped");
    assertArrayEquals(new double[] {1, 2}, values(in, v));
  }

  /**
   * Damaged copies of these files (as ScienceFuzzTest damages its seeds): every variable and
   * every coordinate either is described or is refused with a ScienceFormatException, in
   * bounded time.
   */
  @Test
  void damagedMetadataIsRefusedByName() throws Exception {
    JsonNode files = expected().get("files");
    java.util.Random rnd = new java.util.Random(Long.getLong("opass.fuzz.seed", 36));
    int refused = 0;
    for (int i = 0; i < 400; i++) {
      String file = new String[] {"classic.nc", "nc4.nc", "scales.h5", "scales_v108.h5"}[i % 4];
      String[] how = new String[1];
      byte[] bytes = Fixtures.damaged(Fixtures.bytes("attrs/" + file), rnd, how);
      for (Iterator<String> n = files.get(file).fieldNames(); n.hasNext(); ) {
        String name = n.next();
        String what = file + " (" + how[0] + "), " + name;
        int[] r = {0};
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            java.time.Duration.ofSeconds(30), () -> {
              try (ScienceFile f = ScienceFiles.open(of(bytes), file, kind(file))) {
                Variable v = f.variable(name);
                for (int d = 0; d < v.rank(); d++) {
                  f.coordinate(v, d);
                }
              } catch (ScienceFormatException e) {
                assertTrue(e.getMessage().contains(file), what + ": " + e.getMessage());
                r[0]++;
              }
            }, what);
        refused += r[0];
      }
    }
    assertTrue(refused > 100, refused + " refusals");
  }

  private static Positioned of(byte[] file) {
    return new Positioned() {
      @Override
      public long length() {
        return file.length;
      }

      @Override
      protected int readAt(long pos, byte[] into, int off, int len) {
        if (pos >= file.length) {
          return -1;
        }
        int n = (int) Math.min(len, file.length - pos);
        System.arraycopy(file, (int) pos, into, off, n);
        return n;
      }
    };
  }

  @Test
  void anHdf5FileReadAsNetcdfAndAsHdf5GivesTheSameMetadata() throws IOException {
    for (String name : new String[] {"temp", "sst", "sub/inner", "lat"}) {
      try (FileChannel ch = FileChannel.open(path("nc4.nc"))) {
        Variable nc = ScienceFiles.variable(Positioned.of(ch), "nc4.nc",
            ScienceFiles.Kind.NETCDF, name);
        Variable h5 = ScienceFiles.variable(Positioned.of(ch), "nc4.nc",
            ScienceFiles.Kind.HDF5, name);
        assertEquals(nc.dimensions(), h5.dimensions(), name);
        assertEquals(nc.attributes(), h5.attributes(), name);
      }
    }
  }

  @Test
  void aSplitCarriesTheDimensionsAndAttributes() throws IOException {
    for (String file : new String[] {"classic.nc", "nc4.nc"}) {
      try (FileChannel ch = FileChannel.open(path(file))) {
        Variable v = ScienceFiles.variable(Positioned.of(ch), file, ScienceFiles.Kind.NETCDF,
            "temp");
        assertFalse(v.attributes().isEmpty(), file);
        Slab slab = Slab.parse("0:2, 1:3, 0:4:2", v.shape());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        VariableCodec.write(new DataOutputStream(bytes), v,
            v.chunked() ? v.chunks() : Variable.Chunks.none(), slab);
        VariableCodec.Read r = VariableCodec.read(new DataInputStream(
            new ByteArrayInputStream(bytes.toByteArray())));
        Variable w = r.variable;
        assertEquals(v.name(), w.name(), file);
        assertArrayEquals(v.shape(), w.shape(), file);
        assertEquals(v.chunked(), w.chunked(), file);
        assertEquals(v.dimensions(), w.dimensions(), file);
        assertEquals(v.attributes(), w.attributes(), file);
        assertEquals(v.attributes().toString(), w.attributes().toString(), file);
        Attributes.Attribute fill = w.attributes().get("_FillValue");
        assertEquals(ElementType.INT16, fill.type(), file);
        assertArrayEquals(new byte[] {(byte) 0x80, 0x01}, fill.element(0, ByteOrder.BIG_ENDIAN),
            file + ": -32767 as stored");
        assertEquals("K", w.attributes().text("units"), file);
        assertEquals(slab.toString(), r.slab.toString(), file);
      }
    }
  }
}
