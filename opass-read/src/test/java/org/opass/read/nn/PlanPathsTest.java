package org.opass.read.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.opass.read.wire.PlanRefusedException;

class PlanPathsTest {
  private final PlanPaths paths = PlanPaths.of(new InetSocketAddress("127.0.0.1", 8020),
      URI.create("hdfs://nn.example.com:9000"), List.of("prod"));

  private String norm(String p) throws PlanRefusedException {
    return paths.normalise(p, 3);
  }

  private void refused(String p, String what) {
    PlanRefusedException e = assertThrows(PlanRefusedException.class, () -> norm(p));
    assertEquals(400, e.status());
    assertTrue(e.getMessage().startsWith("reads[3].path") && e.getMessage().contains(what),
        e.getMessage());
  }

  @Test
  void aliasesOfOneFileAreOnePath() throws Exception {
    for (String alias : List.of("/big", "/big/", "/big//", "//big", "hdfs://127.0.0.1:8020/big",
        "HDFS://NN.example.com:9000//big/", "hdfs://prod/big", "hdfs://127.0.0.1/big")) {
      assertEquals("/big", norm(alias), alias);
    }
    assertEquals("/a b/%20c", norm("/a b//%20c"), "percent signs are kept, as Path keeps them");
    assertEquals("/", norm("hdfs://prod"));
  }

  @Test
  void otherFileSystemsAndBadNamesAreRefused() {
    refused("hdfs://other:8020/big", "not on this NameNode (hdfs://nn.example.com:9000)");
    refused("file:///big", "not on this NameNode");
    refused("webhdfs://127.0.0.1:8020/big", "not on this NameNode");
    refused("big", "not absolute");
    refused("./big", "not absolute");
    refused("/a/../big", "'..'");
    refused("/a/./big", "'.'");
    refused("/a:b", "not a valid HDFS path");
  }

  @Test
  void readersThatAreIpLiteralsAreCanonicalAndNothingElseIsLookedUp() {
    assertEquals("10.0.0.1", PlanRequestResolver.ipLiteral("10.0.0.1"));
    assertEquals("10.0.0.1", PlanRequestResolver.ipLiteral("010.000.0.01"));
    assertEquals("0:0:0:0:0:0:0:1", PlanRequestResolver.ipLiteral("::1"));
    assertNull(PlanRequestResolver.ipLiteral("10.0.0.256"));
    assertNull(PlanRequestResolver.ipLiteral("10.0.1"));
    assertNull(PlanRequestResolver.ipLiteral("localhost"), "a name is not an address");
    assertNull(PlanRequestResolver.ipLiteral("dead:beef:zz"));
    assertNull(PlanRequestResolver.ipLiteral("fe80::1%eth0"));
  }
}
