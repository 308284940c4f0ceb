package org.opass.e2e.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.e2e.cluster.EmulatedCluster;
import org.opass.read.nn.BalancingNetworkTopology;
import org.opass.read.nn.ReadBalanceKeys;
import org.opass.read.nn.ReadPlanMetrics;
import org.opass.read.nn.ReadPlanPlugin;
import org.opass.read.nn.ReadPlanService;

/**
 * Seeded fuzzing of {@code /opass/read-plan} on a real NameNode: thousands of mutated request
 * bodies (flipped, cut and inserted bytes, invalid UTF-8, wrong types, huge numbers, deep
 * nesting, hostile paths and readers, other users' plan ids), mutated query strings and
 * methods. Every answer must be JSON, never a 5xx, never a hang (each request has a read
 * timeout); refusals must say what is wrong. A failure prints the seed and the case.
 */
class ReadPlanFuzzTest {
  private static final long SEED = 20261123L;
  private static final int BODIES = 3000;
  private static final int FILES = 6;
  private static final Set<Integer> REFUSALS = Set.of(400, 403, 404, 405, 408, 413, 415, 429);

  private static EmulatedCluster cluster;
  private static PlanEndpoint endpoint;
  private static final List<String> hosts = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    cluster = EmulatedCluster.builder().dataNodes(4).racks(2).blockSize(16 * 1024)
        .baseDir(new File("target/e2e/read-plan-fuzz"))
        .set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, BalancingNetworkTopology.class.getName())
        .set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReadPlanPlugin.class.getName())
        // small limits, so that fuzzing reaches them too (413, 429)
        .set(ReadBalanceKeys.PLAN_MAX_REQUEST_READS, "300")
        .set(ReadBalanceKeys.PLAN_MAX_REQUEST_BYTES, "131072")
        .set(ReadBalanceKeys.PLAN_MAX_PLANS_PER_USER, "6")
        .start();
    FileSystem fs = cluster.offClusterFileSystem();
    Random rnd = new Random(SEED);
    for (int f = 0; f < FILES; f++) {
      byte[] data = new byte[16 * 1024 * (1 + f % 3) - (f == 5 ? 100 : 0)];
      rnd.nextBytes(data);
      try (FSDataOutputStream out = fs.create(new Path("/fuzz/f" + f), (short) 2)) {
        out.write(data);
      }
    }
    fs.create(new Path("/fuzz/empty")).close();
    fs.setPermission(new Path("/fuzz/f5"), new FsPermission((short) 0600));
    for (int k = 0; k < 4; k++) {
      hosts.add(cluster.hostName(k));
      hosts.add(cluster.hostAddress(k));
    }
    endpoint = new PlanEndpoint(cluster);
  }

  @AfterAll
  static void stop() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void mutatedRequestsAreAnsweredWithJsonAndNever5xx() throws Exception {
    Random rnd = new Random(SEED);
    String superuser = UserGroupInformation.getCurrentUser().getShortUserName();
    Map<Integer, Integer> statuses = new TreeMap<>();
    List<String> liveIds = new ArrayList<>();
    for (int i = 0; i < BODIES; i++) {
      String user = USERS[rnd.nextInt(USERS.length)];
      byte[] body = mutate(rnd, validBody(rnd));
      String type = rnd.nextInt(20) == 0 ? TYPES[rnd.nextInt(TYPES.length)] : "application/json";
      PlanEndpoint.Answer a = endpoint.call("POST", "user.name=" + user, type, body);
      check(i, "POST " + type, body, a);
      statuses.merge(a.status, 1, Integer::sum);
      if (a.status == 200) {
        JsonNode id = a.json().get("id");
        if (!id.isNull()) {
          liveIds.add(user + " " + id.asText());
        }
      }
      if (rnd.nextInt(8) == 0) {
        String method = METHODS[rnd.nextInt(METHODS.length)];
        String query = otherQuery(rnd, liveIds);
        check(i, method + " ?" + query, null, otherRequest(method, query, liveIds));
      }
      // keep the table small: plans are dropped by their owner (or the superuser)
      if (liveIds.size() > 16) {
        String[] own = liveIds.remove(0).split(" ");
        PlanEndpoint.Answer d = endpoint.delete(rnd.nextBoolean() ? own[0] : superuser, own[1]);
        assertEquals(200, d.status, d.toString());
      }
    }
    ReadPlanService service = ReadPlanPlugin.serviceOf(cluster.miniCluster().getNameNode());
    ReadPlanMetrics metrics = service.metrics();
    assertEquals(0, metrics.count(500) + metrics.count(503),
        "no request failed inside the plugin or found it busy; answers: " + statuses);
    assertTrue(statuses.getOrDefault(200, 0) > BODIES / 20, "enough valid plans: " + statuses);
    assertTrue(statuses.getOrDefault(400, 0) > BODIES / 4, "enough refusals: " + statuses);
    assertTrue(statuses.containsKey(413) && statuses.containsKey(429), "limits reached: "
        + statuses);
    // the NameNode still plans and serves after all that
    PlanEndpoint.Answer ok = endpoint.post(superuser, "{\"reads\": ["
        + PlanEndpoint.read("/fuzz/f0", hosts.get(0), "") + "]}");
    assertEquals(200, ok.status, ok.toString());
    assertEquals(liveIds.size() + 1, service.plans().plans().size());
  }

  private static final String[] USERS = {"alice", "bob", "mallory", "dr.who"};
  private static final String[] TYPES = {"text/plain", "application/x-www-form-urlencoded",
      "application/json; charset=utf-16", "application/jsonp", "APPLICATION/JSON"};

  /** Statuses, types and messages every answer must have. */
  private static void check(int i, String what, byte[] body, PlanEndpoint.Answer a)
      throws IOException {
    String where = "case " + i + " (seed " + SEED + ", " + what + " "
        + (body == null ? "" : show(body)) + "): " + a;
    if (a.status != 200 && !REFUSALS.contains(a.status)) {
      fail("unexpected status: " + where);
    }
    if (what.startsWith("HEAD")) {
      return; // headers only
    }
    if (what.endsWith("doas=hdfs") && a.status == 403
        || (what.contains("%ff") || what.contains("form-urlencoded")) && a.status == 400) {
      // refused before the endpoint: Hadoop's authentication filter does not let users act as
      // others, and Jetty refuses a query string or form that is not percent-encoded UTF-8
      return;
    }
    assertTrue(a.contentType.startsWith("application/json"), where);
    JsonNode doc = a.json();
    assertNotNull(doc, where);
    if (a.status != 200) {
      String error = a.error();
      assertTrue(error != null && error.length() > 10, where);
      assertTrue(!error.contains("Exception") && !error.contains("\tat "), where);
    }
  }

  private static String show(byte[] body) {
    String s = new String(body, 0, Math.min(body.length, 160), StandardCharsets.UTF_8);
    return body.length > 160 ? s + "...(" + body.length + " bytes)" : s;
  }

  // ---- generators ----

  private static String validBody(Random rnd) {
    StringBuilder b = new StringBuilder("{\"reads\": [");
    int n = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 400 : 6);
    for (int r = 0; r < n; r++) {
      String more = "";
      if (rnd.nextBoolean()) {
        more += ", \"offset\": " + rnd.nextInt(50_000);
      }
      if (rnd.nextBoolean()) {
        more += ", \"length\": " + rnd.nextInt(60_000);
      }
      b.append(r == 0 ? "" : ", ").append(PlanEndpoint.read("/fuzz/f" + rnd.nextInt(FILES - 1),
          hosts.get(rnd.nextInt(hosts.size())), more));
    }
    return b.append("]}").toString();
  }

  private static final String[] PATHS = {"/fuzz/f5", "/fuzz/../fuzz/f0", "fuzz/f0", "/fuzz/./f1",
      "/fuzz//f1/", "/.reserved/.inodes/999999", "/.reserved/raw/fuzz/f0", "/fuzz", "/",
      "/fuzz/empty", "/fuzz/none", "hdfs://elsewhere:8020/fuzz/f0", "file:///etc/passwd",
      "/fuzz/a:b", "//", "/fuzz/f0\u0000", "\\\\fuzz\\f0", "/fuzz/\u00e9\u4e2d", "%2Ffuzz%2Ff0"};
  private static final String[] READERS = {"no-such-host.invalid", "localhost", "::1",
      "10.0.0.300", "10.0.0", "fe80::1%eth0", " ", "127.0.0.2 ", "dn0.emulated.",
      "DN1.EMULATED", "0.0.0.0", "255.255.255.255", "[::1]"};
  private static final String[] VALUES = {"null", "true", "-1", "1.5", "1e309", "\"7\"", "[]",
      "{}", "\"\"", "-0", "9223372036854775807", "9223372036854775808", "0x10", "NaN"};

  private static byte[] mutate(Random rnd, String valid) {
    String s = valid;
    int kind = rnd.nextInt(14);
    switch (kind) {
      case 0:
        return flipBytes(rnd, s.getBytes(StandardCharsets.UTF_8));
      case 1:
        return cut(rnd, s.getBytes(StandardCharsets.UTF_8));
      case 2:
        return insertBytes(rnd, s.getBytes(StandardCharsets.UTF_8));
      case 3:
        return replaceValue(rnd, s, VALUES[rnd.nextInt(VALUES.length)]);
      case 4:
        return replaceValue(rnd, s, hugeNumber(rnd));
      case 5:
        return replaceValue(rnd, s, nesting(rnd));
      case 6:
        return s.replaceFirst("\"path\": \"[^\"]*\"", "\"path\": \""
            + escape(PATHS[rnd.nextInt(PATHS.length)]) + "\"").getBytes(StandardCharsets.UTF_8);
      case 7:
        return s.replaceFirst("\"reader\": \"[^\"]*\"", "\"reader\": \""
            + READERS[rnd.nextInt(READERS.length)] + "\"").getBytes(StandardCharsets.UTF_8);
      case 8:
        return s.replaceFirst("\\{\"path\"", rnd.nextBoolean() ? "{\"path\": \"/x\", \"path\""
            : "{\"lenght\": 3, \"path\"").getBytes(StandardCharsets.UTF_8);
      case 9:
        return (rnd.nextBoolean() ? "[" + s + "]" : s + s).getBytes(StandardCharsets.UTF_8);
      case 10:
        return new byte[rnd.nextInt(3)]; // empty, or NUL bytes
      case 11:
        return s.replaceFirst("\"reader\": \"[^\"]*\"", "\"reader\": \""
            + "h".repeat(200 + rnd.nextInt(200)) + "\"").getBytes(StandardCharsets.UTF_8);
      case 12:
        return ("{\"reads\": " + nesting(rnd) + "}").getBytes(StandardCharsets.UTF_8);
      default:
        return s.getBytes(StandardCharsets.UTF_8); // valid: plans must keep working
    }
  }

  private static byte[] flipBytes(Random rnd, byte[] b) {
    for (int k = 1 + rnd.nextInt(4); k > 0; k--) {
      b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256);
    }
    return b;
  }

  private static byte[] cut(Random rnd, byte[] b) {
    return java.util.Arrays.copyOf(b, rnd.nextInt(b.length));
  }

  private static byte[] insertBytes(Random rnd, byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int at = rnd.nextInt(b.length);
    out.write(b, 0, at);
    byte[][] bad = {{(byte) 0xff}, {(byte) 0xc3}, {(byte) 0xe2, (byte) 0x82}, {0}, {'\\'},
        {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {'"'}, {'{'}, {']'}};
    byte[] ins = bad[rnd.nextInt(bad.length)];
    out.write(ins, 0, ins.length);
    out.write(b, at, b.length - at);
    return out.toByteArray();
  }

  private static byte[] replaceValue(Random rnd, String s, String value) {
    String[] fields = {"\"offset\": ", "\"length\": ", "\"path\": ", "\"reader\": ",
        "\"reads\": "};
    String f = fields[rnd.nextInt(fields.length)];
    int at = s.indexOf(f);
    if (at < 0) {
      return (s.substring(0, s.length() - 2) + ", " + f.substring(0, f.length() - 1) + " "
          + value + "}]}").getBytes(StandardCharsets.UTF_8);
    }
    int start = at + f.length();
    int end = start;
    while (end < s.length() && s.charAt(end) != ',' && s.charAt(end) != '}') {
      end++;
    }
    if (f.equals("\"reads\": ")) {
      end = s.length() - 1;
    }
    return (s.substring(0, start) + value + s.substring(end)).getBytes(StandardCharsets.UTF_8);
  }

  private static String hugeNumber(Random rnd) {
    StringBuilder b = new StringBuilder(rnd.nextBoolean() ? "-" : "");
    int digits = 20 + rnd.nextInt(200_000);
    b.append('1');
    for (int k = 1; k < digits; k++) {
      b.append((char) ('0' + rnd.nextInt(10)));
    }
    return b.toString();
  }

  private static String nesting(Random rnd) {
    int depth = 10 + rnd.nextInt(50_000);
    boolean arrays = rnd.nextBoolean();
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < depth; k++) {
      b.append(arrays ? "[" : "{\"a\": ");
    }
    if (rnd.nextBoolean()) { // closed, or left open
      b.append("1");
      for (int k = 0; k < depth; k++) {
        b.append(arrays ? "]" : "}");
      }
    }
    return b.toString();
  }

  private static String escape(String path) {
    StringBuilder b = new StringBuilder();
    for (char c : path.toCharArray()) {
      if (c < 0x20 || c == '"' || c == '\\') {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static final String[] METHODS = {"GET", "DELETE", "PUT", "OPTIONS", "HEAD", "POST"};

  /** A query string for a request that is not a plan body: other users, ids, junk. */
  private static String otherQuery(Random rnd, List<String> liveIds) {
    String user = USERS[rnd.nextInt(USERS.length)];
    String[] queries = {"user.name=" + user, "user.name=" + user + "&id="
        + (liveIds.isEmpty() ? "plan-1" : liveIds.get(rnd.nextInt(liveIds.size())).split(" ")[1]),
        "user.name=" + user + "&id=", "user.name=" + user + "&id=%00%ff", "",
        "user.name=" + user + "&doas=hdfs", "user.name=a%20b", "user.name=%F0%9F%92%A9",
        "id=plan-1&id=plan-2&user.name=" + user};
    return queries[rnd.nextInt(queries.length)];
  }

  private static PlanEndpoint.Answer otherRequest(String method, String query,
      List<String> liveIds) throws IOException {
    byte[] body = method.equals("POST") || method.equals("PUT")
        ? "{\"reads\": []}".getBytes(StandardCharsets.UTF_8) : null;
    PlanEndpoint.Answer a = endpoint.call(method, query, "application/json", body);
    if (method.equals("DELETE") && a.status == 200) { // its owner dropped it
      String id = a.json().get("deleted").asText();
      liveIds.removeIf(e -> e.endsWith(" " + id));
    }
    return a;
  }
}
