package org.opass.read.nn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.web.URLConnectionFactory;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Client of the NameNode's {@code /opass/read-plan} ({@link ReadPlanPlugin}): submits which
 * host reads which file ranges, so that the NameNode serves those reads from the replicas it
 * balanced over every tenant's planned load. Authenticates as the current user (SPNEGO on a
 * secure cluster, {@code user.name} otherwise).
 */
public final class ReadPlanClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One read of a batch: {@code reader} reads {@code [offset, offset+length)}. The reader is a
   * DataNode's host name or IP address, or the IP address of a host that runs no DataNode.
   */
  public static final class Read {
    private final String path;
    private final String reader;
    private final long offset;
    private final long length;

    public Read(String path, String reader, long offset, long length) {
      this.path = path;
      this.reader = reader;
      this.offset = offset;
      this.length = length;
    }

    public String path() {
      return path;
    }

    public String reader() {
      return reader;
    }

    public long offset() {
      return offset;
    }

    public long length() {
      return length;
    }

    @Override
    public boolean equals(Object o) {
      if (this == o) {
        return true;
      }
      if (!(o instanceof Read)) {
        return false;
      }
      Read other = (Read) o;
      return Objects.equals(path, other.path)
          && Objects.equals(reader, other.reader)
          && offset == other.offset
          && length == other.length;
    }

    @Override
    public int hashCode() {
      return Objects.hash(path, reader, offset, length);
    }

    @Override
    public String toString() {
      return "Read["
          + "path=" + path
          + ", reader=" + reader
          + ", offset=" + offset
          + ", length=" + length
          + "]";
    }

    /** The whole file. */
    public static Read wholeFile(String path, String reader) {
      return new Read(path, reader, 0, Long.MAX_VALUE);
    }
  }

  /**
   * The NameNode's answer.
   *
   * @param id                 plan id (for {@link #delete}); null when nothing was kept (every
   *                           chunk was skipped: striped, or no usable replica)
   * @param reads              planned chunk reads
   * @param local              of which on the reader's own DataNode
   * @param maxLoad            the most planned reads of any DataNode, over every live plan
   *                           (this one's local and remote reads included)
   * @param algorithm2MaxLoad  Algorithm 2's max on the same batch
   * @param optimalMaxLoad     the exact minimum of the max
   * @param servedByDatanode   chunk reads of this plan per serving DataNode (transfer address)
   * @param json               the whole response document
   */
  public static final class Result {
    private final String id;
    private final int reads;
    private final int local;
    private final long maxLoad;
    private final long algorithm2MaxLoad;
    private final long optimalMaxLoad;
    private final Map<String, Integer> servedByDatanode;
    private final String json;

    public Result(String id, int reads, int local, long maxLoad, long algorithm2MaxLoad,
        long optimalMaxLoad, Map<String, Integer> servedByDatanode, String json) {
      this.id = id;
      this.reads = reads;
      this.local = local;
      this.maxLoad = maxLoad;
      this.algorithm2MaxLoad = algorithm2MaxLoad;
      this.optimalMaxLoad = optimalMaxLoad;
      this.servedByDatanode = servedByDatanode;
      this.json = json;
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

    public long maxLoad() {
      return maxLoad;
    }

    public long algorithm2MaxLoad() {
      return algorithm2MaxLoad;
    }

    public long optimalMaxLoad() {
      return optimalMaxLoad;
    }

    public Map<String, Integer> servedByDatanode() {
      return servedByDatanode;
    }

    public String json() {
      return json;
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
          && maxLoad == other.maxLoad
          && algorithm2MaxLoad == other.algorithm2MaxLoad
          && optimalMaxLoad == other.optimalMaxLoad
          && Objects.equals(servedByDatanode, other.servedByDatanode)
          && Objects.equals(json, other.json);
    }

    @Override
    public int hashCode() {
      return Objects.hash(id, reads, local, maxLoad, algorithm2MaxLoad, optimalMaxLoad,
          servedByDatanode, json);
    }

    @Override
    public String toString() {
      return "Result["
          + "id=" + id
          + ", reads=" + reads
          + ", local=" + local
          + ", maxLoad=" + maxLoad
          + ", algorithm2MaxLoad=" + algorithm2MaxLoad
          + ", optimalMaxLoad=" + optimalMaxLoad
          + ", servedByDatanode=" + servedByDatanode
          + ", json=" + json
          + "]";
    }
  }

  /**
   * The NameNode said no; {@code status} is the HTTP status, the message its reason. 429 (this
   * user's share of plans is used up) and 503 (busy, or every share is) say when to retry.
   */
  public static final class RefusedException extends IOException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final int retryAfterSeconds;

    RefusedException(int status, String message, int retryAfterSeconds) {
      super(message);
      this.status = status;
      this.retryAfterSeconds = retryAfterSeconds;
    }

    public int status() {
      return status;
    }

    /** The NameNode's {@code Retry-After}, in seconds; 0 when it gave none. */
    public int retryAfterSeconds() {
      return retryAfterSeconds;
    }
  }

  private final URI base;
  private final URLConnectionFactory connections;

  /** @param nameNodeHttp the NameNode's web address, e.g. {@code http://nn:9870} */
  public ReadPlanClient(URI nameNodeHttp, Configuration conf) {
    this.base = nameNodeHttp;
    this.connections = URLConnectionFactory.newDefaultURLConnectionFactory(conf);
  }

  public Result submit(List<Read> reads) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode arr = root.putArray("reads");
    for (Read r : reads) {
      ObjectNode o = arr.addObject().put("path", r.path()).put("reader", r.reader());
      if (r.offset() != 0) {
        o.put("offset", r.offset());
      }
      if (r.length() != Long.MAX_VALUE) {
        o.put("length", r.length());
      }
    }
    JsonNode out = JSON.readTree(call("POST", "", root.toString()));
    Map<String, Integer> served = new LinkedHashMap<>();
    out.get("served_by_datanode").fields()
        .forEachRemaining(e -> served.put(e.getKey(), e.getValue().asInt()));
    return new Result(out.get("id").isNull() ? null : out.get("id").asText(),
        out.get("reads").asInt(),
        out.get("local").asInt(), out.get("max_load").asLong(),
        out.get("algorithm2_max_load").asLong(), out.get("optimal_max_load").asLong(),
        Collections.unmodifiableMap(served), out.toString());
  }

  /** Drops one of this user's plans before it expires. */
  public void delete(String id) throws IOException {
    call("DELETE", "&id=" + URLEncoder.encode(id, StandardCharsets.UTF_8), null);
  }

  /** This user's live plans (every plan, for the superuser), as the NameNode lists them. */
  public String list() throws IOException {
    return call("GET", "", null);
  }

  private String call(String method, String query, String body) throws IOException {
    boolean secure = UserGroupInformation.isSecurityEnabled();
    String user = secure ? "" : "user.name=" + URLEncoder.encode(
        UserGroupInformation.getCurrentUser().getShortUserName(), StandardCharsets.UTF_8);
    URL url = base.resolve(ReadPlanPlugin.PATH + "?" + user + query).toURL();
    HttpURLConnection c;
    try {
      c = (HttpURLConnection) connections.openConnection(url, secure);
    } catch (org.apache.hadoop.security.authentication.client.AuthenticationException e) {
      throw new IOException("cannot authenticate to " + url + ": " + e.getMessage(), e);
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
        try {
          JsonNode err = JSON.readTree(text);
          if (err != null && err.has("error")) {
            reason = err.get("error").asText();
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
        throw new RefusedException(status, method + " " + url + " -> " + status + ": " + reason,
            retry);
      }
      return text;
    } finally {
      c.disconnect();
    }
  }
}
