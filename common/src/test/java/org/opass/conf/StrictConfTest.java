package org.opass.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class StrictConfTest {
  private final Configuration conf = new Configuration(false);

  private void assertNamesKey(Runnable read, String key, String value) {
    conf.set(key, value);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, read::run);
    assertTrue(e.getMessage().contains(key) && e.getMessage().contains(value), e.getMessage());
  }

  @Test
  void defaultsWhenUnset() {
    assertEquals(3, StrictConf.atLeast(conf, "k.int", 1, 3));
    assertEquals(7L, StrictConf.atLeast(conf, "k.long", 1L, 7L));
    assertEquals(2.0, StrictConf.positive(conf, "k.double", 2.0));
    assertTrue(StrictConf.bool(conf, "k.bool", true));
    assertEquals("a", StrictConf.oneOf(conf, "k.enum", "a", "a", "b"));
  }

  @Test
  void validValuesParse() {
    conf.set("k.int", " 5 ");
    conf.set("k.double", "0.5");
    conf.set("k.bool", "FALSE");
    conf.set("k.enum", "b");
    assertEquals(5, StrictConf.atLeast(conf, "k.int", 1, 3));
    assertEquals(0.5, StrictConf.positive(conf, "k.double", 2.0));
    assertFalse(StrictConf.bool(conf, "k.bool", true));
    assertEquals("b", StrictConf.oneOf(conf, "k.enum", "a", "a", "b"));
  }

  @Test
  void badValuesNameTheKey() {
    assertNamesKey(() -> StrictConf.atLeast(conf, "k.int", 1, 3), "k.int", "abc");
    assertNamesKey(() -> StrictConf.atLeast(conf, "k.int", 1, 3), "k.int", "0");
    assertNamesKey(() -> StrictConf.atLeast(conf, "k.long", 1L, 3L), "k.long", "1.5");
    assertNamesKey(() -> StrictConf.positive(conf, "k.double", 2.0), "k.double", "-1");
    assertNamesKey(() -> StrictConf.positive(conf, "k.double", 2.0), "k.double", "NaN");
    assertNamesKey(() -> StrictConf.bool(conf, "k.bool", true), "k.bool", "ture");
    assertNamesKey(() -> StrictConf.oneOf(conf, "k.enum", "a", "a", "b"), "k.enum", "c");
  }

  @Test
  void byteCountsTakeBinarySuffixesAndRefuseAllElseByKey() {
    assertEquals(64, StrictConf.bytes(conf, "k.bytes", 1, 64));
    String[][] good = {{"0", "0"}, {" 12 ", "12"}, {"64k", "65536"}, {"1M", "1048576"},
        {"2 g", "2147483648"}, {"1t", "1099511627776"}, {"8191t", Long.toString(8191L << 40)}};
    for (String[] g : good) {
      conf.set("k.bytes", g[0]);
      assertEquals(Long.parseLong(g[1]), StrictConf.bytes(conf, "k.bytes", 0, -1), g[0]);
    }
    for (String bad : new String[] {"-1", "+5", "1.5k", "12kb", "٣", "8388608t",
        "99999999999999999999"}) {
      assertNamesKey(() -> StrictConf.bytes(conf, "k.bytes", 0, -1), "k.bytes", bad);
    }
    assertThrows(IllegalArgumentException.class, () -> StrictConf.parseBytes("k", " ", 0));
    assertNamesKey(() -> StrictConf.bytes(conf, "k.bytes", 100, -1), "k.bytes", "99");
    assertEquals(7, StrictConf.parseNumber("k.n", "7", 1, 7));
    for (String bad : new String[] {"0", "8", "x", "-3", "7k"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> StrictConf.parseNumber("k.n", bad, 1, 7));
      assertTrue(e.getMessage().startsWith("k.n=" + bad), e.getMessage());
    }
  }
}
