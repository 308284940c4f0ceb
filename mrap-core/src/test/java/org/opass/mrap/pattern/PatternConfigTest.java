package org.opass.mrap.pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class PatternConfigTest {
  private static final PatternConfig.SideFiles NO_FILES = path -> {
    throw new IOException("no side file " + path);
  };

  private static Map<String, String> props(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static PatternConfig load(String... kv) throws IOException {
    return PatternConfig.load(props(kv), NO_FILES);
  }

  /** The properties of a Hadoop configuration file, read as Hadoop reads name/value pairs. */
  static Map<String, String> xml(File f) throws Exception {
    Map<String, String> out = new HashMap<>();
    NodeList props = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(f)
        .getElementsByTagName("property");
    for (int i = 0; i < props.getLength(); i++) {
      Element p = (Element) props.item(i);
      out.put(p.getElementsByTagName("name").item(0).getTextContent().trim(),
          p.getElementsByTagName("value").item(0).getTextContent().trim());
    }
    return out;
  }

  private static File conf(String name) {
    File f = new File("../conf/" + name);
    return f.exists() ? f : new File("conf/" + name);
  }

  @Test
  void theExampleFilesInConfLoad() throws Exception {
    PatternConfig strided = PatternConfig.load(xml(conf("mrap-pattern-strided.xml")), NO_FILES);
    assertEquals(StridedPattern.vector(0, 32, 10_000, 100), strided.pattern());
    PatternConfig nested = PatternConfig.load(xml(conf("mrap-pattern-nested.xml")), NO_FILES);
    assertEquals(StridedPattern.nested(0, 1024, new long[] {3072, 65536}, new long[] {4, 50}),
        nested.pattern());
    PatternConfig sub = PatternConfig.load(xml(conf("mrap-pattern-subarray.xml")), NO_FILES);
    assertEquals(SubarrayPattern.of(4096, new long[] {10, 512, 512}, 8, new long[] {0, 100, 200},
        new long[] {10, 50, 64}), sub.pattern());
    PatternConfig tiled = PatternConfig.load(xml(conf("mrap-pattern-tiled.xml")), NO_FILES);
    assertNull(tiled.pattern());
    assertEquals(8 * 12, tiled.tiles().tileCount());
    PatternConfig indexed = PatternConfig.load(xml(conf("mrap-pattern-indexed.xml")), NO_FILES);
    assertEquals(3, indexed.pattern().regionCount());
  }

  @Test
  void theThesisKeysNeedNoKindAndTakeNestedLists() throws Exception {
    assertEquals(StridedPattern.vector(128, 32, 10, 5), load("strided.region_size", "32",
        "strided.region_spacing", "10", "strided.region_count", "5", "strided.start", "128")
        .pattern());
    assertEquals(StridedPattern.nested(0, 2048, new long[] {0, 1 << 20}, new long[] {3, 7}),
        load("strided.region_size", "2k", "strided.region_spacing", "0, 1m",
            "strided.region_count", "3,7").pattern());
  }

  @Test
  void indexedSideFilesAreReadThroughTheOpener() throws Exception {
    PatternConfig p = PatternConfig.load(props("mrap.pattern.kind", "indexed",
        "mrap.pattern.indexed.file", "/idx/regions.txt"),
        path -> new StringReader(path.equals("/idx/regions.txt") ? "10 5\n0 3\n" : ""));
    assertEquals(List.of(Region.of(0, 3), Region.of(10, 5)), p.pattern().regions(0, 2));
  }

  /** Asserts the properties are refused with a message naming {@code property} and {@code what}. */
  private static void refused(String property, String what, String... kv) {
    PatternException e = assertThrows(PatternException.class, () -> load(kv));
    assertEquals(property, e.property(), e.getMessage());
    assertTrue(e.getMessage().startsWith(property + ": ") && e.getMessage().contains(what),
        e.getMessage());
  }

  @Test
  void everyBadPropertyIsNamed() {
    refused("mrap.pattern.kind", "is not set");
    refused("mrap.pattern.kind", "=diagonal is not", "mrap.pattern.kind", "diagonal");
    refused("mrap.pattern.kind", "=netcdf names a variable, not byte regions: read it with "
        + "VariableInputFormat", "mrap.pattern.kind", "netcdf");
    refused("strided.region_szie", "is not a pattern property", "strided.region_szie", "3",
        "strided.region_size", "3");
    refused("strided.region_size", "=0 must be a byte count from 1", "strided.region_size", "0",
        "strided.region_spacing", "1", "strided.region_count", "1");
    refused("strided.region_size", "=32x must be a byte count", "strided.region_size", "32x",
        "strided.region_spacing", "1", "strided.region_count", "1");
    refused("strided.region_spacing", "is not set", "strided.region_size", "32",
        "strided.region_count", "5");
    refused("strided.region_spacing", "has 1 values; 2 expected (one per level, innermost "
        + "first)", "strided.region_size", "32", "strided.region_count", "5,6",
        "strided.region_spacing", "7");
    refused("strided.region_count", "has 1 values; 2 expected", "strided.nesting_level", "2",
        "strided.region_size", "32", "strided.region_count", "5", "strided.region_spacing", "7");
    refused("strided.region_count", "=0 must be a whole number from 1", "strided.region_size",
        "32", "strided.region_count", "0", "strided.region_spacing", "7");
    refused("strided.region_spacing", "=-1 must be", "strided.region_size", "32",
        "strided.region_count", "2", "strided.region_spacing", "-1");
    refused("strided.region_count", "past 2^63", "strided.region_size", "1g",
        "strided.region_count", "9000000000", "strided.region_spacing", "1g");
    refused("strided.nesting_level", "=0 must be a whole number from 1 to 64",
        "strided.nesting_level", "0", "strided.region_size", "1", "strided.region_count", "1",
        "strided.region_spacing", "1");
    refused("mrap.pattern.array.shape", "is not set", "mrap.pattern.kind", "subarray",
        "mrap.pattern.array.element_size", "8");
    refused("mrap.pattern.subarray.extent", "dimension 1 runs from 3 for 4, past the array's 5",
        "mrap.pattern.kind", "subarray", "mrap.pattern.array.shape", "4,5",
        "mrap.pattern.array.element_size", "8", "mrap.pattern.subarray.origin", "0,3",
        "mrap.pattern.subarray.extent", "4,4");
    refused("mrap.pattern.subarray.origin", "has 1 values; 2 expected (one per dimension)",
        "mrap.pattern.kind", "subarray", "mrap.pattern.array.shape", "4,5",
        "mrap.pattern.array.element_size", "8", "mrap.pattern.subarray.origin", "1");
    refused("mrap.pattern.tile.shape", "tile[1] (9)", "mrap.pattern.kind", "tiled",
        "mrap.pattern.array.shape", "4,5", "mrap.pattern.array.element_size", "8",
        "mrap.pattern.tile.shape", "2,9");
    refused("mrap.pattern.indexed.regions", "is not set", "mrap.pattern.kind", "indexed");
    refused("mrap.pattern.indexed.regions", "line 1: '5:-3'", "mrap.pattern.kind", "indexed",
        "mrap.pattern.indexed.regions", "0:1, 5:-3");
    refused("mrap.pattern.indexed.file", "is set and so is mrap.pattern.indexed.regions",
        "mrap.pattern.kind", "indexed",
        "mrap.pattern.indexed.regions", "0:1", "mrap.pattern.indexed.file", "/x");
  }

  @Test
  void aPatternPastTheEndOfItsFileIsRefusedByName() throws Exception {
    PatternConfig p = load("strided.region_size", "32", "strided.region_spacing", "10000",
        "strided.region_count", "100");
    p.checkWithin(993_200, "/data/f"); // exactly its end: 100 x 32 + 99 x 10000
    PatternException e = assertThrows(PatternException.class,
        () -> p.checkWithin(993_199, "/data/f"));
    assertEquals("strided.region_count", e.property());
    assertTrue(e.getMessage().contains("=100") && e.getMessage().contains("993200")
        && e.getMessage().contains("/data/f (993199 bytes)"), e.getMessage());
    PatternException idx = assertThrows(PatternException.class, () -> load(
        "mrap.pattern.kind", "indexed", "mrap.pattern.indexed.regions", "0:1, 500:10")
        .checkWithin(100, "/f"));
    assertEquals("mrap.pattern.indexed.regions", idx.property());
  }
}
