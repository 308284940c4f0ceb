package org.opass.tools.read;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.opass.tools.cluster.EmulatedCluster;

/** Raw HTTP to a cluster's {@code /opass/read-plan}, as any client (or attacker) sends it. */
public final class PlanEndpoint {
  static final ObjectMapper JSON = new ObjectMapper();
  /** How long an answer may take before the request counts as a hang. */
  static final int READ_TIMEOUT_MILLIS = 30_000;

  /** Status, headers and body of one answer. */
  public static final class Answer {
    public final int status;
    public final String contentType;
    public final String body;
    final String retryAfter;

    Answer(int status, String contentType, String body, String retryAfter) {
      this.status = status;
      this.contentType = contentType;
      this.body = body;
      this.retryAfter = retryAfter;
    }

    public JsonNode json() throws IOException {
      return JSON.readTree(body);
    }

    /** The {@code "error"} message of a refusal. */
    public String error() throws IOException {
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

  public PlanEndpoint(EmulatedCluster cluster) {
    this(cluster.nameNodeHttp().toString());
  }

  /** @param nameNodeHttp the NameNode's web address, {@code http://host:port} */
  public PlanEndpoint(String nameNodeHttp) {
    base = nameNodeHttp + "/opass/read-plan";
  }

  /** @param query what follows {@code ?}, already encoded */
  public Answer call(String method, String query, String contentType, byte[] body)
      throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(base + "?" + query).openConnection();
    c.setRequestMethod(method);
    c.setConnectTimeout(10_000);
    c.setReadTimeout(READ_TIMEOUT_MILLIS); // a hang fails the test instead of stalling it
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

  /**
   * POSTs a body of {@code length} bytes from {@code body} over a plain socket, as a client
   * that keeps sending whatever the server says: the answer is read while the body is still
   * being written, and writing stops when it arrives (a server may refuse a body it has not
   * read). {@code length} &lt; 0 sends the body chunked, with no length announced.
   */
  Answer stream(String query, java.io.InputStream body, long length) throws IOException {
    URL url = new URL(base + "?" + query);
    try (java.net.Socket socket = new java.net.Socket(url.getHost(), url.getPort())) {
      socket.setSoTimeout(READ_TIMEOUT_MILLIS);
      OutputStream out = new java.io.BufferedOutputStream(socket.getOutputStream(), 1 << 16);
      Thread writer = new Thread(() -> {
        try {
          out.write(("POST " + url.getFile() + " HTTP/1.1\r\nHost: " + url.getHost() + ":"
              + url.getPort() + "\r\nContent-Type: application/json\r\n"
              + (length >= 0 ? "Content-Length: " + length : "Transfer-Encoding: chunked")
              + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
          byte[] buf = new byte[1 << 16];
          for (int n; (n = body.read(buf)) > 0 && !Thread.currentThread().isInterrupted(); ) {
            if (length < 0) {
              out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            }
            out.write(buf, 0, n);
            if (length < 0) {
              out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
          }
          if (length < 0) {
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          }
          out.flush();
        } catch (IOException e) {
          // the server stopped reading: its answer tells why
        }
      }, "plan-body-writer");
      writer.setDaemon(true);
      writer.start();
      try {
        return readAnswer(socket.getInputStream());
      } finally {
        writer.interrupt();
      }
    }
  }

  /** An HTTP/1.1 answer: status line, headers, then a body of Content-Length or to the end. */
  private static Answer readAnswer(InputStream raw) throws IOException {
    java.io.DataInputStream in = new java.io.DataInputStream(
        new java.io.BufferedInputStream(raw));
    String statusLine = line(in);
    String[] parts = statusLine.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
      throw new IOException("not an HTTP answer: " + statusLine);
    }
    int status = Integer.parseInt(parts[1]);
    String contentType = null;
    String retryAfter = null;
    long contentLength = -1;
    for (String h; !(h = line(in)).isEmpty(); ) {
      int colon = h.indexOf(':');
      String name = colon < 0 ? h : h.substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT);
      String value = colon < 0 ? "" : h.substring(colon + 1).trim();
      if (name.equals("content-type")) {
        contentType = value;
      } else if (name.equals("content-length")) {
        contentLength = Long.parseLong(value);
      } else if (name.equals("retry-after")) {
        retryAfter = value;
      } else if (name.equals("transfer-encoding") && value.equalsIgnoreCase("chunked")) {
        throw new IOException("a chunked answer: " + statusLine);
      }
    }
    byte[] body = contentLength >= 0 ? in.readNBytes(Math.toIntExact(contentLength))
        : in.readAllBytes();
    return new Answer(status, contentType, new String(body, StandardCharsets.UTF_8), retryAfter);
  }

  private static String line(java.io.DataInputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int c; (c = in.read()) != '\n'; ) {
      if (c < 0) {
        throw new IOException("the connection closed in the answer's headers: " + b);
      }
      if (c != '\r') {
        b.append((char) c);
      }
    }
    return b.toString();
  }

  public Answer post(String user, String json) throws IOException {
    return call("POST", "user.name=" + user, "application/json",
        json.getBytes(StandardCharsets.UTF_8));
  }

  public Answer get(String user) throws IOException {
    return call("GET", "user.name=" + user, null, null);
  }

  public Answer delete(String user, String id) throws IOException {
    return call("DELETE", "user.name=" + user + "&id=" + id, null, null);
  }

  /** {@code {"path": ..., "reader": ...<more>}} */
  public static String read(String path, String reader, String more) {
    return "{\"path\": \"" + path + "\", \"reader\": \"" + reader + "\"" + more + "}";
  }
}
