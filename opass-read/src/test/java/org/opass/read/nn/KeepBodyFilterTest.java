package org.opass.read.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KeepBodyFilterTest {
  @Test
  void parametersComeFromTheQueryStringDecoded() {
    Map<String, String[]> p = KeepBodyFilter.QueryParameters.parse(
        "user.name=al%20ice&doas=bob&flag&&id=1&id=2&bad=%zz");
    assertArrayEquals(new String[] {"al ice"}, p.get("user.name"));
    assertArrayEquals(new String[] {"bob"}, p.get("doas"));
    assertArrayEquals(new String[] {""}, p.get("flag"));
    assertArrayEquals(new String[] {"1", "2"}, p.get("id"));
    assertArrayEquals(new String[] {"%zz"}, p.get("bad"), "kept as it is");
    assertEquals(5, p.size());
    assertTrue(KeepBodyFilter.QueryParameters.parse(null).isEmpty());
  }

  @Test
  void onlyFormBodiesNeedKeeping() {
    assertTrue(KeepBodyFilter.isForm("application/x-www-form-urlencoded"));
    assertTrue(KeepBodyFilter.isForm("Application/X-WWW-Form-Urlencoded; charset=UTF-8"));
    assertFalse(KeepBodyFilter.isForm("application/json"));
    assertFalse(KeepBodyFilter.isForm(null));
  }
}
