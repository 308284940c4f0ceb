package org.opass.e2e.secure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.web.URLConnectionFactory;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.heatmap.cli.HeatTableCli;
import org.opass.placement.HmLruPlacementPolicy;
import org.opass.read.client.ReadPlanClient;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;
import org.opass.read.wire.PlanWire;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.EmulatedClusterBuilder;
import org.opass.tools.cluster.Release;

/**
 * Issue 26, part 1: our three NameNode plugins on a kerberized cluster with a real KDC
 * ({@link Kerberos}): Kerberos RPC, SPNEGO on the web endpoints, block access tokens, SASL on
 * data transfer, HTTPS only; the plugins loaded from the release's {@code conf/} fragments as
 * an operator merges them. Users log in from keytabs. Shown: HM-LRU places and the balancing
 * topology sorts under Kerberos as they do without (replicas on three DataNodes in two racks, a
 * reader's own replica first, every byte read back); {@code /opass/read-plan} answers 401
 * without credentials, 200 to a SPNEGO client ({@code ReadPlanClient} as a keytab user), 403
 * for a file the caller may not read; a proxy user plans as the user it acts for only as
 * {@code hadoop.proxyuser.*} allows; the heat table command reads {@code /jmx} over HTTPS and
 * SPNEGO.
 */
class KerberizedClusterTest {
  private static final int DATANODES = 6;
  private static final int BLOCK = 64 * 1024;

  private static Kerberos kerberos;
  private static EmulatedCluster cluster;
  private static Configuration conf;
  private static UserGroupInformation alice;
  private static UserGroupInformation bob;

  @BeforeAll
  static void start() throws Exception {
    kerberos = new Kerberos(new File("target/e2e/kerberos"));
    conf = new HdfsConfiguration();
    for (Map.Entry<String, String> e : kerberos.clusterConf()) {
      conf.set(e.getKey(), e.getValue());
    }
    Map<String, String> plugins = Release.siteFragments(Release.ROOT);
    plugins.forEach(conf::set);
    // a reader's own replica stays first whatever its DataNode's heat, so that the order below
    // is the topology's local-first rule alone, not the heat of the moment
    conf.set("opass.read.local.max-heat-ratio", "1000");
    // carol may act as alice, from any host; nobody else may act as anyone
    conf.set("hadoop.proxyuser.carol.hosts", "*");
    conf.set("hadoop.proxyuser.carol.users", "alice");
    kerberos.loginAsService(conf); // the NameNode's and DataNodes' own login
    EmulatedClusterBuilder builder = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).baseDir(new File("target/e2e/kerberized-cluster")).conf(conf);
    cluster = builder.start();
    conf = cluster.conf(); // the cluster's block size, for the clients below
    alice = kerberos.login(conf, "alice");
    bob = kerberos.login(conf, "bob");
    FileSystem hdfs = cluster.offClusterFileSystem(); // the service principal: the superuser
    for (String user : new String[] {"alice", "bob"}) {
      Path home = new Path("/user/" + user);
      hdfs.mkdirs(home);
      hdfs.setOwner(home, user, user);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      if (kerberos != null) {
        kerberos.close();
      }
    }
  }

  private static <T> T as(UserGroupInformation user, PrivilegedExceptionAction<T> action)
      throws Exception {
    return user.doAs(action);
  }

  /** {@code user} writes {@code bytes} to {@code p} through a client of {@code client}. */
  private static void write(UserGroupInformation user, Configuration client, Path p,
      byte[] bytes) throws Exception {
    as(user, () -> {
      try (FileSystem fs = FileSystem.newInstance(cluster.uri(), client);
          FSDataOutputStream out = fs.create(p, (short) 3)) {
        out.write(bytes);
      }
      return null;
    });
    cluster.replicas().waitFor(p, (short) 3);
  }

  @Test
  void hmLruPlacesAndTheTopologySortsUnderKerberos() throws Exception {
    assertInstanceOf(HmLruPlacementPolicy.class,
        cluster.blockManager().getBlockPlacementPolicy(), "HM-LRU from conf/");
    assertInstanceOf(BalancingNetworkTopology.class,
        cluster.datanodeManager().getNetworkTopology(), "the balancing topology from conf/");
    Random rnd = new Random(26);
    byte[][] data = new byte[12][];
    for (int f = 0; f < data.length; f++) {
      data[f] = new byte[3 * BLOCK + rnd.nextInt(BLOCK)];
      rnd.nextBytes(data[f]);
      int k = f % DATANODES;
      // a writer on DataNode k's host, logged in from her keytab
      write(alice, cluster.hostConf(k), new Path("/user/alice/f" + f), data[f]);
    }
    for (int f = 0; f < data.length; f++) {
      int k = (f + 1) % DATANODES;
      Path p = new Path("/user/alice/f" + f);
      byte[] want = data[f];
      as(alice, () -> {
        try (FileSystem fs = FileSystem.newInstance(cluster.uri(), cluster.hostConf(k))) {
          FileStatus st = fs.getFileStatus(p);
          for (BlockLocation b : fs.getFileBlockLocations(st, 0, st.getLen())) {
            Set<String> hosts = new HashSet<>();
            Set<String> racks = new HashSet<>();
            for (int i = 0; i < b.getNames().length; i++) {
              int dn = cluster.dataNodeIndexOf(b.getNames()[i]);
              assertTrue(dn >= 0, b.getNames()[i]);
              hosts.add(b.getNames()[i]);
              racks.add(cluster.rack(dn));
              // a reader's own replica comes first
              if (dn == k) {
                assertEquals(0, i, p + " at " + b.getOffset() + ": " + List.of(b.getNames()));
              }
            }
            assertEquals(3, hosts.size(), p + " at " + b.getOffset());
            assertEquals(2, racks.size(), p + " at " + b.getOffset());
          }
          byte[] got = new byte[want.length];
          try (FSDataInputStream in = fs.open(p)) {
            in.readFully(got);
          }
          assertArrayEquals(want, got, p.toString());
        }
        return null;
      });
    }
  }

  @Test
  void theReadPlanEndpointWantsSpnegoAndPlansOnlyWhatTheCallerMayRead() throws Exception {
    Path mine = new Path("/user/alice/planned");
    Path theirs = new Path("/user/bob/private");
    write(alice, conf, mine, new byte[2 * BLOCK]);
    write(bob, conf, theirs, new byte[BLOCK]);
    as(bob, () -> {
      try (FileSystem fs = FileSystem.newInstance(cluster.uri(), conf)) {
        fs.setPermission(theirs, new FsPermission((short) 0600));
      }
      return null;
    });
    URL endpoint = new URL(cluster.nameNodeHttp() + PlanWire.PATH);
    assertEquals("https", endpoint.getProtocol());

    // no credentials (TLS, no SPNEGO; a user.name is not believed): 401
    HttpURLConnection anonymous = (HttpURLConnection) URLConnectionFactory
        .newDefaultURLConnectionFactory(conf)
        .openConnection(new URL(endpoint + "?user.name=alice"), false);
    assertEquals(401, anonymous.getResponseCode());
    try (InputStream err = anonymous.getErrorStream()) {
      if (err != null) {
        err.readAllBytes();
      }
    }

    // SPNEGO as alice, logged in from her keytab: planned
    String reader = cluster.hostName(2);
    ReadPlanClient.Result plan = as(alice, () -> new ReadPlanClient(cluster.nameNodeHttp(),
        conf).submit(List.of(PlanRead.wholeFile(mine.toString(), reader))));
    assertNotNull(plan.id(), plan.json());
    assertEquals(2, plan.reads(), plan.json());

    // a file alice may not read refuses the whole plan, naming it
    PlanRefusedException refused = assertThrows(PlanRefusedException.class,
        () -> as(alice, () -> new ReadPlanClient(cluster.nameNodeHttp(), conf).submit(List.of(
            PlanRead.wholeFile(mine.toString(), reader),
            PlanRead.wholeFile(theirs.toString(), reader)))));
    assertEquals(403, refused.status(), refused.getMessage());
    assertTrue(refused.getMessage().contains(theirs.toString()), refused.getMessage());
    // as HDFS itself says for a read of it
    assertThrows(AccessControlException.class, () -> as(alice, () -> {
      try (FileSystem fs = FileSystem.newInstance(cluster.uri(), conf)) {
        return fs.open(theirs).read();
      }
    }));
  }

  @Test
  void theHeatTableCommandReadsJmxOverSpnego() throws Exception {
    Path p = new Path("/user/alice/heat");
    write(alice, cluster.hostConf(1), p, new byte[BLOCK]); // the heat table has DataNodes
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = as(alice, () -> HeatTableCli.run(new String[] {cluster.nameNodeHttp().toString()},
        conf, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    String said = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, said);
    assertTrue(said.contains("DataNodes, mean heat"), said);
    for (int k = 0; k < DATANODES; k++) {
      assertTrue(said.contains(cluster.hostAddress(k)), cluster.hostAddress(k) + ": " + said);
    }
  }

  @Test
  void aProxyUserPlansOnlyAsHadoopProxyuserAllows() throws Exception {
    Path file = new Path("/user/alice/proxied");
    write(alice, conf, file, new byte[BLOCK]);
    List<PlanRead> reads = List.of(PlanRead.wholeFile(file.toString(), cluster.hostName(0)));
    // carol (SPNEGO as herself) acting as alice: the plan is alice's
    UserGroupInformation carol = kerberos.login(conf, "carol");
    ReadPlanClient.Result plan = as(UserGroupInformation.createProxyUser("alice", carol),
        () -> new ReadPlanClient(cluster.nameNodeHttp(), conf).submit(reads));
    assertTrue(plan.json().contains("\"owner\":\"alice\""), plan.json());
    // bob may not act as alice: the NameNode's authentication filter ends the exchange with
    // 403, and nothing is planned for alice
    int plansBefore = as(alice, () -> new ReadPlanClient(cluster.nameNodeHttp(), conf)
        .list().split("\"id\"").length);
    IOException refused = assertThrows(IOException.class,
        () -> as(UserGroupInformation.createProxyUser("alice", bob),
            () -> new ReadPlanClient(cluster.nameNodeHttp(), conf).submit(reads)));
    assertTrue(refused.getMessage().contains("as bob acting as alice")
        && refused.getMessage().contains("hadoop.proxyuser.bob")
        && refused.getMessage().contains("403"), refused.getMessage());
    assertEquals(plansBefore, (int) as(alice, () -> new ReadPlanClient(cluster.nameNodeHttp(),
        conf).list().split("\"id\"").length), "no plan for alice from bob");
  }
}
