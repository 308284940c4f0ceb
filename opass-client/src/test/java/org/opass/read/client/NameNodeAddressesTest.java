package org.opass.read.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class NameNodeAddressesTest {

  private static Configuration ha(String policy) {
    Configuration conf = new Configuration(false);
    conf.set("dfs.nameservices", "prod");
    conf.set("dfs.ha.namenodes.prod", "nn1,nn2");
    conf.set("dfs.namenode.http-address.prod.nn1", "master1:9870");
    conf.set("dfs.namenode.http-address.prod.nn2", "master2:9870");
    conf.set("dfs.namenode.https-address.prod.nn1", "master1:9871");
    conf.set("dfs.namenode.https-address.prod.nn2", "master2:9871");
    if (policy != null) {
      conf.set("dfs.http.policy", policy);
    }
    return conf;
  }

  @Test
  void aNameserviceGivesEveryNameNodesWebAddress() {
    assertEquals(List.of(URI.create("http://master1:9870"), URI.create("http://master2:9870")),
        NameNodeAddresses.web(URI.create("hdfs://prod"), ha(null)));
    assertEquals(List.of(URI.create("https://master1:9871"), URI.create("https://master2:9871")),
        NameNodeAddresses.web(URI.create("hdfs://prod"), ha("HTTPS_ONLY")));
  }

  @Test
  void oneNameNodeIsReachedAtItsHostWhenItListensEverywhere() {
    Configuration conf = ha(null);
    assertEquals(List.of(URI.create("http://nn.example:9870")),
        NameNodeAddresses.web(URI.create("hdfs://nn.example:8020"), conf), "the default address");
    conf.set("dfs.namenode.http-address", "web.example:50070");
    assertEquals(List.of(URI.create("http://web.example:50070")),
        NameNodeAddresses.web(URI.create("hdfs://nn.example:8020"), conf));
  }

  @Test
  void aUriWithoutAHostIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> NameNodeAddresses.web(URI.create("hdfs:///data"), new Configuration(false)));
    assertTrue(e.getMessage().contains("hdfs:///data"), e.getMessage());
  }
}
