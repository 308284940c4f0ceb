package org.opass.mrap.format.zarr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.opass.mrap.format.PlacedChunks;
import org.opass.mrap.format.ScienceFile;
import org.opass.mrap.format.ScienceFormatException;
import org.opass.mrap.format.Variable;
import org.opass.mrap.format.VariableValues;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.science.ReferenceLibraries;
import org.opass.mrap.science.ScienceFiles;

/**
 * Every array of every Zarr fixture store (science/zarr: v2 written by zarr 2.13 and xarray, v3
 * written from the specification's text) read whole through {@link ZarrFile}, its chunks placed
 * and decoded, against zarr-python's read (v3: the arrays the stores were made from); the
 * stores that must be refused, refused naming store, array and what is wrong.
 */
class ZarrStoresTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path ZARR = Fixtures.folder().resolve("zarr");

  private static List<Path> stores(String version) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(ZARR.resolve(version))) {
      s.filter(p -> p.getFileName().toString().endsWith(".zarr")).sorted().forEach(out::add);
    }
    return out;
  }

  private static JsonNode oracle(String mode, Path store, String array) throws IOException {
    return JSON.readTree(mode.equals("all") ? ReferenceLibraries.run(ZARR.resolve("oracle.py"),
        mode, store.toString()) : ReferenceLibraries.run(ZARR.resolve("oracle.py"), mode,
        store.toString(), array));
  }

  /** An array's values read whole, as doubles ({@code long}s exactly where integers). */
  static double[] values(ScienceFile f, LocalStore store, Variable v) throws IOException {
    return VariableValues.read(PlacedChunks.positioned(v.chunks(), store), v);
  }

  @Test
  void everyArrayOfEveryStoreReadsAsTheReferenceReadsIt() throws Exception {
    int arrays = 0;
    List<String> refused = new ArrayList<>();
    for (String version : List.of("v2", "v3")) {
      for (Path s : stores(version)) {
        JsonNode list = oracle("all", s, "").get("arrays");
        LocalStore store = new LocalStore(s);
        try (ScienceFile f = ScienceFiles.open(store, ScienceFiles.Kind.ZARR)) {
          for (JsonNode a : list) {
            String path = a.get("path").asText().isEmpty() ? "/" : a.get("path").asText();
            String what = s.getFileName() + " " + path;
            Variable v;
            try {
              v = f.variable(path);
            } catch (ScienceFormatException e) {
              refused.add(what + ": " + e.getMessage());
              continue;
            }
            JsonNode w = a.get("read").get("values");
            if (v.shape().length > 0 && java.util.Arrays.stream(v.shape()).anyMatch(
                n -> n == 0)) {
              assertEquals(0, w.size(), what + ": a zero-length array");
              arrays++;
              continue;
            }
            double[] got = values(f, store, v);
            assertEquals(w.size(), got.length, what + ": elements");
            for (int i = 0; i < got.length; i++) {
              double x = w.get(i).isTextual() ? Double.parseDouble(w.get(i).asText())
                  : w.get(i).asDouble();
              if (Double.isNaN(x)) {
                assertTrue(Double.isNaN(got[i]), what + " [" + i + "]: " + got[i]);
              } else {
                assertEquals(x, got[i], 0, what + " [" + i + "]");
              }
            }
            arrays++;
          }
        }
      }
    }
    assertTrue(arrays > 40, arrays + " arrays read");
    // complex numbers, 0-d arrays and sharding within sharding are refused, by name
    for (String r : refused) {
      assertTrue(r.contains("\"<c8\" is not read") || r.contains("is a 0-d (scalar) array")
          || r.contains("sharding_indexed nested in a pipeline is not read"), r);
    }
    assertEquals(6, refused.size(), refused.toString());
  }

  @Test
  void damagedStoresAreRefusedNamingStoreArrayAndWhat() throws Exception {
    int damaged = 0;
    try (Stream<Path> s = Files.list(ZARR.resolve("damaged"))) {
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        if (!p.getFileName().toString().endsWith(".zarr")) {
          continue;
        }
        LocalStore store = new LocalStore(p);
        ScienceFormatException e = assertThrows(ScienceFormatException.class, () -> {
          try (ScienceFile f = ScienceFiles.open(store, ScienceFiles.Kind.ZARR)) {
            for (String name : f.variableNames()) {
              Variable v = f.variable(name);
              values(f, store, v);
            }
          }
        }, p.getFileName().toString());
        assertTrue(e.getMessage().contains(p.toString()), e.getMessage());
        damaged++;
      }
    }
    assertTrue(damaged >= 8, damaged + " damaged stores");
  }

  @Test
  void aFolderThatIsNoStoreIsNamed() throws Exception {
    Path empty = Files.createTempDirectory("nostore");
    ScienceFormatException e = assertThrows(ScienceFormatException.class,
        () -> ScienceFiles.open(new LocalStore(empty), ScienceFiles.Kind.ZARR));
    assertTrue(e.getMessage().contains(empty.toString()) && e.getMessage().contains(
        "not a Zarr store"), e.getMessage());
  }

  @Test
  void keysOfBothEncodingsAndSeparators() throws Exception {
    ArrayMetadata v2 = ArrayMetadata.v2("s", "g/a", JSON.readTree("{\"zarr_format\": 2, "
        + "\"shape\": [10, 20], \"chunks\": [3, 7], \"dtype\": \"<f4\", \"fill_value\": "
        + "\"NaN\", \"order\": \"C\", \"compressor\": null, \"filters\": null}"), null);
    assertEquals("g/a/3.2", v2.key(new long[] {3, 2}));
    assertEquals(List.of(3L, 2L), List.of(v2.position("3.2")[0], v2.position("3.2")[1]));
    assertEquals(null, v2.position("4.0")); // past the grid: a resize's leftover
    assertEquals(null, v2.position(".zarray"));
    ArrayMetadata v3 = ArrayMetadata.v3("s", "", JSON.readTree("{\"zarr_format\": 3, "
        + "\"node_type\": \"array\", \"shape\": [4], \"data_type\": \"int16\", "
        + "\"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": "
        + "[2]}}, \"chunk_key_encoding\": {\"name\": \"default\"}, \"fill_value\": 0, "
        + "\"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": "
        + "\"big\"}}]}"));
    assertEquals("c/1", v3.key(new long[] {1}));
    assertEquals(1L, v3.position("c/1")[0]);
    assertEquals(null, v3.position("c.1"));
    assertEquals(java.nio.ByteOrder.BIG_ENDIAN, v3.order);
    ScienceFormatException e = assertThrows(ScienceFormatException.class, () ->
        ArrayMetadata.v2("s", "a", JSON.readTree("{\"zarr_format\": 2, \"shape\": [4], "
            + "\"chunks\": [2], \"dtype\": \"<i2\", \"compressor\": {\"id\": \"bz2\"}}"),
            null));
    assertTrue(e.getMessage().startsWith("s: array a: codec bz2 is not read"), e.getMessage());
  }
}
