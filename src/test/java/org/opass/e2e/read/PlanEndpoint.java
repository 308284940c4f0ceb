package org.opass.e2e.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.net.NetUtils;
import org.opass.e2e.cluster.EmulatedCluster;

/** Raw HTTP to a cluster's {@code /opass/read-plan}, as any client (or attacker) sends it. */
final class PlanEndpoint {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Status, headers and body of one answer. */
  static final class Answer {
    final int status;
    final String contentType;
    final String body;
    final String retryAfter;

    Answer(int status, String contentType, String body, String retryAfter) {
      this.status = status;
      this.contentType = contentType;
      this.body = body;
      this.retryAfter = retryAfter;
    }

    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }

    /** The {@code "error"} message of a refusal. */
    String error() throws IOException {
      JsonNode e = json().get("error");
      return e == null ? null : e.asText();
    }

    @Override
    public String toString() {
      return status + " " + contentType + " " + (body.length() > 300 ? body.substring(0, 300)
          + "..." : body);
    }
  }

  private final String base;

  PlanEndpoint(EmulatedCluster cluster) {
    this("http://" + NetUtils.getHostPortString(
        cluster.miniCluster().getNameNode().getHttpAddress()));
  }

  /** @param nameNodeHttp the NameNode's web address, {@code http://host:port} */
  PlanEndpoint(String nameNodeHttp) {
    base = nameNodeHttp + "/opass/read-plan";
  }

  /** @param query what follows {@code ?}, already encoded */
  Answer call(String method, String query, String contentType, byte[] body)
      throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(base + "?" + query).openConnection();
    c.setRequestMethod(method);
    c.setConnectTimeout(10_000);
    c.setReadTimeout(30_000); // a hang fails the test instead of stalling it
    if (body != null) {
      c.setDoOutput(true);
      c.setFixedLengthStreamingMode(body.length);
      if (contentType != null) {
        c.setRequestProperty("Content-Type", contentType);
      }
      try (OutputStream os = c.getOutputStream()) {
        os.write(body);
      }
    }
    int status = c.getResponseCode();
    try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
      String text = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return new Answer(status, c.getContentType(), text, c.getHeaderField("Retry-After"));
    } finally {
      c.disconnect();
    }
  }

  Answer post(String user, String json) throws IOException {
    return call("POST", "user.name=" + user, "application/json",
        json.getBytes(StandardCharsets.UTF_8));
  }

  Answer get(String user) throws IOException {
    return call("GET", "user.name=" + user, null, null);
  }

  Answer delete(String user, String id) throws IOException {
    return call("DELETE", "user.name=" + user + "&id=" + id, null, null);
  }

  /** {@code {"path": ..., "reader": ...<more>}} */
  static String read(String path, String reader, String more) {
    return "{\"path\": \"" + path + "\", \"reader\": \"" + reader + "\"" + more + "}";
  }
}
