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
}
