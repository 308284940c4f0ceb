package org.opass.read.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.web.URLConnectionFactory;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.client.AuthenticationException;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;
import org.opass.read.wire.PlanWire;

/**
 * Client of the NameNode's {@code /opass/read-plan} ({@code org.opass.read.nn.ReadPlanPlugin}):
 * submits which host reads which file ranges ({@link PlanRead}), so that the NameNode serves
 * those reads from the replicas it balanced over every tenant's planned load. Authenticates as
 * the current user (SPNEGO on a secure cluster, {@code user.name} otherwise).
 *
 * <p>With an HA nameservice ({@link #forFileSystem}), plans are made and listed by its active
 * NameNode, found by asking each NameNode in turn: a standby or an observer answers those
 * requests 503 with its state, a stopped one refuses the connection. A plan lives in the
 * active NameNode's memory: a failover or a restart loses it, and the reads it would have
 * served are balanced online by the new active. {@link #live} says whether the active still
 * holds a plan; submit the reads again to plan them again (plan ids are never reused).
 *
 * <p>Observer NameNodes sort the reads of clients of {@code ObserverReadProxyProvider}, so a
 * plan must be held there too: {@link #submit} gives every observer a copy of the active's
 * plan under the same id (each observer plans its copy of the same reads itself), and
 * {@link #delete} drops every copy. An observer that cannot take a copy (down, or out of
 * room) is skipped: the reads it sorts are balanced online; so are the reads of a file the
 * observer, which trails the active, does not yet know as closed. Observers keep their copies
 * through a failover of the active, until they expire: {@code delete} the old id (it drops
 * what is left of it) before submitting the reads again.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class ReadPlanClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The most planned reads of any DataNode, over every live plan (this one's local and remote
   * reads included), three ways: as planned ({@link #planned}), and what Algorithm 2
   * ({@link #algorithm2}) and the exact optimum ({@link #optimal}) give on the same batch. What
   * a {@link Result} reports of the balance. Immutable.
   */
  public static final class MaxLoads {
    private final long planned;
    private final long algorithm2;
    private final long optimal;

    /**
     * @param planned    the most planned reads of any DataNode, over every live plan
     * @param algorithm2 Algorithm 2's max on the same batch
     * @param optimal    the exact minimum of the max
     */
    public MaxLoads(long planned, long algorithm2, long optimal) {
      this.planned = planned;
      this.algorithm2 = algorithm2;
      this.optimal = optimal;
    }

    public long planned() {
      return planned;
    }

    public long algorithm2() {
      return algorithm2;
    }

    public long optimal() {
      return optimal;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof MaxLoads)) {
        return false;
      }
      MaxLoads other = (MaxLoads) o;
      return planned == other.planned && algorithm2 == other.algorithm2
          && optimal == other.optimal;
    }

    @Override
    public int hashCode() {
      return Objects.hash(planned, algorithm2, optimal);
    }

    @Override
    public String toString() {
      return "MaxLoads[planned=" + planned + ", algorithm2=" + algorithm2 + ", optimal="
          + optimal + "]";
    }
  }

  /**
   * The NameNode's answer.
   */
  public static final class Result {
    private final String id;
    private final int reads;
    private final int local;
    private final MaxLoads maxLoads;
    private final Map<String, Integer> servedByDatanode;
    private final String json;

    /**
     * @param id                 plan id (for {@link #delete}); null when nothing was kept (every
     *                           chunk was skipped: striped, or no usable replica)
     * @param reads              planned chunk reads
     * @param local              of which on the reader's own DataNode
     * @param maxLoads           the most planned reads of any DataNode: as planned, Algorithm
     *                           2's and the optimum
     * @param servedByDatanode   chunk reads of this plan per serving DataNode (transfer address)
     * @param json               the whole response document
     */
    public Result(String id, int reads, int local, MaxLoads maxLoads,
        Map<String, Integer> servedByDatanode, String json) {
      this.id = id;
      this.reads = reads;
      this.local = local;
      this.maxLoads = Objects.requireNonNull(maxLoads, "maxLoads");
      this.servedByDatanode = servedByDatanode;
      this.json = json;
    }

    /**
     * The answer with its three max loads given one by one.
     *
     * @deprecated since 0.1.0, to be removed in the release after it: use
     *     {@link #Result(String, int, int, MaxLoads, Map, String)} with
     *     {@code new MaxLoads(maxLoad, algorithm2MaxLoad, optimalMaxLoad)}
     */
    @Deprecated
    public Result(String id, int reads, int local, long maxLoad, long algorithm2MaxLoad,
        long optimalMaxLoad, Map<String, Integer> servedByDatanode, String json) {
      this(id, reads, local, new MaxLoads(maxLoad, algorithm2MaxLoad, optimalMaxLoad),
          servedByDatanode, json);
    }

    public String id() {
      return id;
    }

    public int reads() {
      return reads;
    }

    public int local() {
      return local;
    }

    /** {@link MaxLoads#planned()} of {@link #maxLoads()}. */
    public long maxLoad() {
      return maxLoads.planned();
    }

    /** {@link MaxLoads#algorithm2()} of {@link #maxLoads()}. */
    public long algorithm2MaxLoad() {
      return maxLoads.algorithm2();
    }

    /** {@link MaxLoads#optimal()} of {@link #maxLoads()}. */
    public long optimalMaxLoad() {
      return maxLoads.optimal();
    }

    /** The most planned reads of any DataNode: as planned, Algorithm 2's and the optimum. */
    public MaxLoads maxLoads() {
      return maxLoads;
    }

    public Map<String, Integer> servedByDatanode() {
      return servedByDatanode;
    }

    public String json() {
      return json;
    }

    /**
     * Every planned read with the DataNode chosen to serve it, in the order of the answer: for
     * {@link org.opass.read.plan.ReadRounds}, which orders each reader's reads so that no
     * DataNode serves two at once.
     */
    public List<Assignment> assignments() {
      try {
        List<Assignment> out = new ArrayList<>(reads);
        for (JsonNode a : JSON.readTree(json).path(PlanWire.ASSIGNMENTS)) {
          out.add(new Assignment(a.get(PlanWire.PATH_FIELD).asText(),
              a.get(PlanWire.OFFSET).asLong(), a.get(PlanWire.LENGTH).asLong(),
              a.get(PlanWire.READER).asText(), a.get(PlanWire.DATANODE).asText(),
              a.get(PlanWire.LOCAL).asBoolean()));
        }
        return Collections.unmodifiableList(out);
      } catch (IOException e) {
        throw new IllegalStateException("the plan's answer is not JSON: " + json, e);
      }
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Result)) {
        return false;
      }
      Result other = (Result) o;
      return Objects.equals(id, other.id)
          && reads == other.reads
          && local == other.local
          && maxLoads.equals(other.maxLoads)
          && Objects.equals(servedByDatanode, other.servedByDatanode)
          && Objects.equals(json, other.json);
    }

    @Override
    public int hashCode() {
      return Objects.hash(id, reads, local, maxLoad(), algorithm2MaxLoad(), optimalMaxLoad(),
          servedByDatanode, json);
    }

    @Override
    public String toString() {
      return "Result["
          + "id=" + id
          + ", reads=" + reads
          + ", local=" + local
          + ", maxLoad=" + maxLoad()
          + ", algorithm2MaxLoad=" + algorithm2MaxLoad()
          + ", optimalMaxLoad=" + optimalMaxLoad()
          + ", servedByDatanode=" + servedByDatanode
          + ", json=" + json
          + "]";
    }
  }

  /** One planned block read: who reads which bytes, and the DataNode chosen to serve them. */
  public static final class Assignment {
    private final String path;
    private final long offset;
    private final long length;
    private final String reader;
    private final String datanode;
    private final boolean local;

    public Assignment(String path, long offset, long length, String reader, String datanode,
        boolean local) {
      this.path = Objects.requireNonNull(path, "path");
      this.offset = offset;
      this.length = length;
      this.reader = Objects.requireNonNull(reader, "reader");
      this.datanode = Objects.requireNonNull(datanode, "datanode");
      this.local = local;
    }

    public String path() {
      return path;
    }

    /** The block's first byte in the file. */
    public long offset() {
      return offset;
    }

    /** The block's length. */
    public long length() {
      return length;
    }

    /** The reader's IP address, as the NameNode resolved the name the plan gave. */
    public String reader() {
      return reader;
    }

    /** The serving DataNode's transfer address, as in {@link Result#servedByDatanode()}. */
    public String datanode() {
      return datanode;
    }

    /** Whether the reader is on that DataNode. */
    public boolean local() {
      return local;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Assignment)) {
        return false;
      }
      Assignment a = (Assignment) o;
      return path.equals(a.path) && offset == a.offset && length == a.length
          && reader.equals(a.reader) && datanode.equals(a.datanode) && local == a.local;
    }

    @Override
    public int hashCode() {
      return Objects.hash(path, offset, length, reader, datanode, local);
    }

    @Override
    public String toString() {
      return path + "@" + offset + "+" + length + " by " + reader + " from " + datanode
          + (local ? " (local)" : "");
    }
  }

  /** The NameNodes' web addresses; calls go to the active one. */
  private final List<URI> nameNodes;
  private final URLConnectionFactory connections;
  /** Index in {@link #nameNodes} of the NameNode that last answered as the active one. */
  private volatile int active;

  /** @param nameNodeHttp the NameNode's web address, e.g. {@code http://nn:9870} */
  public ReadPlanClient(URI nameNodeHttp, Configuration conf) {
    this(List.of(nameNodeHttp), conf);
  }

  private ReadPlanClient(List<URI> nameNodes, Configuration conf) {
    this.nameNodes = List.copyOf(nameNodes);
    this.connections = URLConnectionFactory.newDefaultURLConnectionFactory(conf);
  }

  /**
   * A client of the NameNodes of file system {@code fs} ({@code hdfs://nameservice} or
   * {@code hdfs://host:port}): with an HA nameservice, every NameNode of it
   * ({@code dfs.namenode.http-address.<nameservice>.<namenode>}, the {@code https-address} with
   * {@code dfs.http.policy=HTTPS_ONLY}), calls going to the active one; otherwise the NameNode's
   * {@code dfs.namenode.http-address} (or {@code https-address}).
   */
  public static ReadPlanClient forFileSystem(URI fs, Configuration conf) {
    return new ReadPlanClient(NameNodeAddresses.web(fs, conf), conf);
  }

  /** The NameNodes this client asks, the active one (as far as it knows) first. */
  public List<URI> nameNodes() {
    List<URI> order = new ArrayList<>(nameNodes);
    Collections.rotate(order, -active);
    return order;
  }

  public Result submit(List<PlanRead> reads) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode arr = root.putArray(PlanWire.READS);
    for (PlanRead r : reads) {
      ObjectNode o = arr.addObject().put(PlanWire.PATH_FIELD, r.path())
          .put(PlanWire.READER, r.reader());
      if (r.offset() != 0) {
        o.put(PlanWire.OFFSET, r.offset());
      }
      if (r.length() != Long.MAX_VALUE) {
        o.put(PlanWire.LENGTH, r.length());
      }
    }
    String body = root.toString();
    Answer answer = callActive("POST", "", body);
    JsonNode out = JSON.readTree(answer.text);
    JsonNode id = out.get(PlanWire.ID);
    if (!id.isNull()) {
      copyToOthers(answer.from, id.asText(), body);
    }
    Map<String, Integer> served = new LinkedHashMap<>();
    out.get(PlanWire.SERVED_BY_DATANODE).fields()
        .forEachRemaining(e -> served.put(e.getKey(), e.getValue().asInt()));
    MaxLoads maxLoads = new MaxLoads(out.get(PlanWire.MAX_LOAD).asLong(),
        out.get(PlanWire.ALGORITHM2_MAX_LOAD).asLong(),
        out.get(PlanWire.OPTIMAL_MAX_LOAD).asLong());
    return new Result(id.isNull() ? null : id.asText(), out.get(PlanWire.READS).asInt(),
        out.get(PlanWire.LOCAL).asInt(), maxLoads, Collections.unmodifiableMap(served),
        out.toString());
  }

  /**
   * Drops one of this user's plans before it expires, on every NameNode that holds it (the
   * active, and observers' copies): a 404 only when none does. A 401 or 403 (the plan is not
   * the caller's) is thrown as it comes; a NameNode that does not answer as one serving plans
   * (a standby, one down or starting) is skipped.
   */
  public void delete(String id) throws IOException {
    String query = idQuery(id);
    if (nameNodes.size() == 1) {
      call(nameNodes.get(0), "DELETE", query, null);
      return;
    }
    int deleted = 0;
    PlanRefusedException missing = null;
    List<String> why = new ArrayList<>();
    for (URI nameNode : nameNodes) {
      try {
        call(nameNode, "DELETE", query, null);
        deleted++;
      } catch (PlanRefusedException e) {
        if (e.status() == 401 || e.status() == 403) {
          throw e;
        }
        missing = e.status() == 404 ? e : missing;
        why.add(e.getMessage());
      } catch (InterruptedIOException e) {
        throw e;
      } catch (IOException e) {
        why.add(nameNode + ": " + e);
      }
    }
    if (deleted == 0) {
      throw missing != null ? missing : new PlanRefusedException(503, "DELETE "
          + PlanWire.PATH + ": no NameNode holding plans answered: " + String.join("; ", why));
    }
  }

  /**
   * Gives a copy of plan {@code id} of the active NameNode (index {@code active}) to every
   * other NameNode that takes one: the observers. The plan is kept whatever they answer: a
   * standby's 503, an observer that is down, slow or out of room is skipped, and the reads it
   * sorts are balanced online.
   */
  private void copyToOthers(int active, String id, String body) throws IOException {
    String query = idQuery(id);
    for (int k = 0; k < nameNodes.size(); k++) {
      if (k == active) {
        continue;
      }
      try {
        call(nameNodes.get(k), "POST", query, body);
      } catch (InterruptedIOException e) {
        throw e;
      } catch (IOException e) {
        // not a NameNode that sorts reads, or one that cannot take the copy now
      }
    }
  }

  /** This user's live plans (every plan, for the superuser), as the NameNode lists them. */
  public String list() throws IOException {
    return callActive("GET", "", null).text;
  }

  /**
   * Whether the active NameNode still holds plan {@code id} of this user's: false once it
   * expired, was deleted, or was lost in a failover or restart.
   */
  public boolean live(String id) throws IOException {
    for (JsonNode plan : JSON.readTree(list()).path(PlanWire.PLANS)) {
      if (id.equals(plan.path(PlanWire.ID).asText())) {
        return true;
      }
    }
    return false;
  }

  private static String idQuery(String id) {
    return "&id=" + URLEncoder.encode(id, StandardCharsets.UTF_8);
  }

  /** An answer, and the index of the NameNode that gave it. */
  private static final class Answer {
    final String text;
    final int from;

    Answer(String text, int from) {
      this.text = text;
      this.from = from;
    }
  }

  /** Calls the active NameNode, asking the others in turn when one is not active or down. */
  private Answer callActive(String method, String query, String body) throws IOException {
    if (nameNodes.size() == 1) {
      return new Answer(call(nameNodes.get(0), method, query, body), 0);
    }
    List<String> why = new ArrayList<>();
    int first = active;
    for (int i = 0; i < nameNodes.size(); i++) {
      int k = (first + i) % nameNodes.size();
      URI nameNode = nameNodes.get(k);
      try {
        String answer = call(nameNode, method, query, body);
        active = k;
        return new Answer(answer, k);
      } catch (PlanRefusedException e) {
        if (e.haState() == null) {
          throw e;
        }
        why.add(nameNode + " is " + e.haState());
      } catch (ConnectException e) {
        why.add(nameNode + ": " + e.getMessage());
      }
    }
    throw new PlanRefusedException(503, method + " " + PlanWire.PATH
        + ": no active NameNode among " + String.join("; ", why));
  }

  private String call(URI base, String method, String query, String body) throws IOException {
    boolean secure = UserGroupInformation.isSecurityEnabled();
    UserGroupInformation caller = UserGroupInformation.getCurrentUser();
    // a proxy user authenticates with its real user's credentials
    UserGroupInformation connecting = caller.getRealUser() != null ? caller.getRealUser()
        : caller;
    String user;
    if (!secure) {
      user = "user.name=" + URLEncoder.encode(caller.getShortUserName(), StandardCharsets.UTF_8);
    } else if (connecting != caller) {
      // a proxy user, as WebHDFS sends one: SPNEGO as the real user, the plan for the one it
      // acts as (if hadoop.proxyuser.* on the NameNode allows it)
      user = "doas=" + URLEncoder.encode(caller.getShortUserName(), StandardCharsets.UTF_8);
    } else {
      user = "";
    }
    URL url = base.resolve(PlanWire.PATH + "?" + user + query).toURL();
    HttpURLConnection c;
    try {
      c = connecting.doAs((PrivilegedExceptionAction<HttpURLConnection>) () -> {
        try {
          return (HttpURLConnection) connections.openConnection(url, secure);
        } catch (AuthenticationException e) {
          Throwable root = e;
          while (root.getCause() != null) {
            root = root.getCause();
          }
          // a refused proxy user ends the SPNEGO exchange with 403 (Hadoop's
          // ProxyUserAuthenticationFilter), so it shows here, not as an answer
          throw new IOException("cannot authenticate to " + url
              + (connecting == caller ? "" : " as " + connecting.getShortUserName()
                  + " acting as " + caller.getShortUserName() + " (the NameNode must allow it: "
                  + "hadoop.proxyuser." + connecting.getShortUserName() + ".*)")
              + ": " + root.getMessage(), e);
        }
      });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted connecting to " + url);
    }
    c.setRequestMethod(method);
    if (body != null) {
      c.setDoOutput(true);
      c.setRequestProperty("Content-Type", "application/json");
      try (OutputStream os = c.getOutputStream()) {
        os.write(body.getBytes(StandardCharsets.UTF_8));
      }
    }
    int status = c.getResponseCode();
    try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
      String text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      if (status != 200) {
        String reason = text;
        String haState = null;
        try {
          JsonNode err = JSON.readTree(text);
          if (err != null && err.has(PlanWire.ERROR)) {
            reason = err.get(PlanWire.ERROR).asText();
          }
          if (status == 503 && err != null && err.has(PlanWire.HA_STATE)) {
            haState = err.get(PlanWire.HA_STATE).asText();
          }
        } catch (IOException notJson) {
          // keep the raw text
        }
        int retry = 0;
        try {
          retry = Integer.parseInt(String.valueOf(c.getHeaderField("Retry-After")).trim());
        } catch (NumberFormatException none) {
          // no Retry-After
        }
        throw new PlanRefusedException(status, method + " " + url + " -> " + status + ": " + reason,
            retry, haState);
      }
      return text;
    } finally {
      c.disconnect();
    }
  }
}
