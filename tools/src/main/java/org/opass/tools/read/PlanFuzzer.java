package org.opass.tools.read;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * A seeded fuzzer of {@code /opass/read-plan}: mutated request bodies (flipped, cut and
 * inserted bytes, invalid UTF-8, wrong types, huge numbers, deep nesting, hostile paths and
 * readers, bodies of millions of reads), mutated query strings and methods, other users' plan
 * ids. Each {@link #next()} sends one request and judges its answer: a 200 or a refusal in
 * {@link #REFUSALS} whose JSON {@code "error"} names the problem; never a 5xx, never a hang.
 * It reads the files {@link #createFiles} writes, and keeps its own live plans few by deleting
 * them (as their owner or the superuser).
 */
public final class PlanFuzzer {
  /** The answers a request may get besides 200. */
  public static final Set<Integer> REFUSALS = Set.of(400, 403, 404, 405, 408, 413, 415, 429);
  static final int FILES = 6;
  private static final int MAX_LIVE_PLANS = 16;

  /** One request and its answer. */
  public static final class Case {
    public final int number;
    /** Method, query and a prefix of the body. */
    public final String what;
    /** Null for a hang (no answer within the read timeout). */
    public final PlanEndpoint.Answer answer;
    /** What is wrong with the answer, or null. */
    public final String problem;

    Case(int number, String what, PlanEndpoint.Answer answer, String problem) {
      this.number = number;
      this.what = what;
      this.answer = answer;
      this.problem = problem;
    }

    public boolean hung() {
      return answer == null;
    }

    @Override
    public String toString() {
      return "case " + number + " (" + what + "): " + (answer == null ? "no answer" : answer)
          + (problem == null ? "" : " -- " + problem);
    }
  }

  private final Supplier<PlanEndpoint> endpoint;
  private final long seed;
  private final Random rnd;
  private final List<String> hosts;
  private final String superuser;
  private final List<String> liveIds = new ArrayList<>();
  private boolean ownPlansMayVanish;
  private final Map<Integer, Integer> statuses = new TreeMap<>();
  private int cases;

  /**
   * @param endpoint  the endpoint to send to, asked afresh for every request (a restarted
   *                  NameNode may listen elsewhere)
   * @param hosts     readers to name: the cluster's DataNodes, by name and address
   * @param superuser the HDFS superuser, who may delete any plan
   */
  public PlanFuzzer(Supplier<PlanEndpoint> endpoint, long seed, List<String> hosts,
      String superuser) {
    this.endpoint = endpoint;
    this.seed = seed;
    this.rnd = new Random(seed);
    this.hosts = List.copyOf(hosts);
    this.superuser = superuser;
  }

  /**
   * Writes the files the fuzzer's requests name: {@code /fuzz/f0} to {@code f5} of one to
   * three blocks ({@code f5} unreadable to others, and not block-aligned) and an empty one.
   */
  public static void createFiles(FileSystem fs, long blockSize, long seed) throws IOException {
    Random rnd = new Random(seed);
    for (int f = 0; f < FILES; f++) {
      byte[] data = new byte[Math.toIntExact(blockSize * (1 + f % 3) - (f == 5 ? 100 : 0))];
      rnd.nextBytes(data);
      try (FSDataOutputStream out = fs.create(new Path("/fuzz/f" + f), (short) 2)) {
        out.write(data);
      }
    }
    fs.create(new Path("/fuzz/empty")).close();
    fs.setPermission(new Path("/fuzz/f5"), new FsPermission((short) 0600));
  }

  /** Sends the next request and judges its answer. */
  public Case next() throws IOException {
    int number = cases++;
    if (liveIds.size() > MAX_LIVE_PLANS) {
      // keep the table small: plans are dropped by their owner (or the superuser)
      String[] own = liveIds.remove(0).split(" ");
      String user = rnd.nextBoolean() ? own[0] : superuser;
      PlanEndpoint.Answer d = endpoint.get().delete(user, own[1]);
      String what = "DELETE own plan " + own[1] + " as " + user;
      String problem = problem(what, d);
      if (problem == null && d.status != 200 && !(d.status == 404 && ownPlansMayVanish)) {
        problem = "a plan's owner or the superuser could not delete it";
      }
      return judged(number, what, d, problem);
    }
    if (rnd.nextInt(9) == 0) {
      String method = METHODS[rnd.nextInt(METHODS.length)];
      String query = otherQuery(rnd, liveIds);
      return other(number, method, query);
    }
    if (rnd.nextInt(500) == 0) {
      return millionsOfReads(number);
    }
    String user = USERS[rnd.nextInt(USERS.length)];
    byte[] body = mutate(rnd, validBody());
    String type = rnd.nextInt(20) == 0 ? TYPES[rnd.nextInt(TYPES.length)] : "application/json";
    String what = "POST " + type + " " + show(body);
    PlanEndpoint.Answer a;
    try {
      a = endpoint.get().call("POST", "user.name=" + user, type, body);
    } catch (SocketTimeoutException e) {
      return judged(number, what, null, "no answer within the read timeout");
    }
    if (a.status == 200) {
      JsonNode id = a.json().get("id");
      if (id != null && !id.isNull()) {
        liveIds.add(user + " " + id.asText());
      }
    }
    return judged(number, what, a, problem(what, a));
  }

  /**
   * Accepts a 404 (named) for a plan of its own it deletes: on a NameNode whose plan table
   * fills up, a finished plan makes room for new ones, and a short lifetime ends others.
   */
  public PlanFuzzer ownPlansMayVanish() {
    this.ownPlansMayVanish = true;
    return this;
  }

  /** Forgets the plans it made: the NameNode restarted, and they went with it. */
  public void forgetPlans() {
    liveIds.clear();
  }

  /** Requests sent so far. */
  public int cases() {
    return cases;
  }

  /** How many answers of each status. */
  public Map<Integer, Integer> statuses() {
    return Collections.unmodifiableMap(statuses);
  }

  /** Plans this fuzzer made that are live (as far as it knows). */
  public int livePlans() {
    return liveIds.size();
  }

  public long seed() {
    return seed;
  }

  private Case judged(int number, String what, PlanEndpoint.Answer a, String problem) {
    if (a != null) {
      statuses.merge(a.status, 1, Integer::sum);
    }
    return new Case(number, what, a, problem);
  }

  private Case other(int number, String method, String query) throws IOException {
    byte[] body = method.equals("POST") || method.equals("PUT")
        ? "{\"reads\": []}".getBytes(StandardCharsets.UTF_8) : null;
    String what = method + " ?" + query;
    PlanEndpoint.Answer a;
    try {
      a = endpoint.get().call(method, query, "application/json", body);
    } catch (SocketTimeoutException e) {
      return judged(number, what, null, "no answer within the read timeout");
    }
    if (method.equals("DELETE") && a.status == 200) { // its owner dropped it
      String id = a.json().get("deleted").asText();
      liveIds.removeIf(e -> e.endsWith(" " + id));
    }
    return judged(number, what, a, problem(what, a));
  }

  /** A body of millions of reads, streamed (about 100 MB): refused, never read whole. */
  private Case millionsOfReads(int number) throws IOException {
    int reads = 1_000_000 + rnd.nextInt(2_000_000);
    boolean chunked = rnd.nextBoolean();
    byte[] one = ("{\"path\": \"/fuzz/f0\", \"reader\": \"" + hosts.get(0) + "\"}, ")
        .getBytes(StandardCharsets.UTF_8);
    byte[] open = "{\"reads\": [".getBytes(StandardCharsets.UTF_8);
    byte[] close = "{\"path\": \"/fuzz/f0\", \"reader\": \"x\"}]}"
        .getBytes(StandardCharsets.UTF_8);
    long length = open.length + (long) one.length * reads + close.length;
    InputStream body = new SequenceInputStream(Collections.enumeration(List.of(
        new java.io.ByteArrayInputStream(open), new RepeatedBytes(one, reads),
        new java.io.ByteArrayInputStream(close))));
    String what = "POST " + reads + " reads (" + length + " bytes" + (chunked ? ", chunked" : "")
        + ")";
    PlanEndpoint.Answer a;
    try {
      a = endpoint.get().stream("user.name=" + USERS[rnd.nextInt(USERS.length)], body,
          chunked ? -1 : length);
    } catch (SocketTimeoutException e) {
      return judged(number, what, null, "no answer within the read timeout");
    }
    String problem = problem(what, a);
    if (problem == null && a.status != 413) {
      problem = "a body of millions of reads must be refused as too big (413)";
    }
    return judged(number, what, a, problem);
  }

  /** {@code bytes} repeated {@code times}, read lazily. */
  private static final class RepeatedBytes extends InputStream {
    private final byte[] bytes;
    private long left;
    private int at;

    RepeatedBytes(byte[] bytes, long times) {
      this.bytes = bytes;
      this.left = times;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      int n = 0;
      while (n < len && left > 0) {
        int k = Math.min(len - n, bytes.length - at);
        System.arraycopy(bytes, at, b, off + n, k);
        n += k;
        at += k;
        if (at == bytes.length) {
          at = 0;
          left--;
        }
      }
      return n == 0 && len > 0 ? -1 : n;
    }
  }

  /** What is wrong with an answer, or null: statuses, types and messages it must have. */
  public static String problem(String what, PlanEndpoint.Answer a) throws IOException {
    if (a.status != 200 && !REFUSALS.contains(a.status)) {
      return "unexpected status " + a.status;
    }
    if (what.startsWith("HEAD")) {
      return null; // headers only
    }
    if (what.endsWith("doas=hdfs") && a.status == 403
        || (what.contains("%ff") || what.contains("form-urlencoded")) && a.status == 400) {
      // refused before the endpoint: Hadoop's authentication filter does not let users act as
      // others, and Jetty refuses a query string or form that is not percent-encoded UTF-8
      return null;
    }
    if (a.contentType == null || !a.contentType.startsWith("application/json")) {
      return "not JSON: " + a.contentType;
    }
    JsonNode doc;
    try {
      doc = a.json();
    } catch (IOException e) {
      return "a body that does not parse as JSON";
    }
    if (doc == null) {
      return "an empty body";
    }
    if (a.status != 200) {
      String error = a.error();
      if (error == null || error.length() <= 10) {
        return "a refusal that does not say what is wrong";
      }
      if (error.contains("Exception") || error.contains("\tat ")) {
        return "a refusal that shows an exception";
      }
    }
    return null;
  }

  static String show(byte[] body) {
    String s = new String(body, 0, Math.min(body.length, 160), StandardCharsets.UTF_8);
    return body.length > 160 ? s + "...(" + body.length + " bytes)" : s;
  }

  // ---- generators ----

  private static final String[] USERS = {"alice", "bob", "mallory", "dr.who"};
  private static final String[] TYPES = {"text/plain", "application/x-www-form-urlencoded",
      "application/json; charset=utf-16", "application/jsonp", "APPLICATION/JSON"};

  private String validBody() {
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
}
