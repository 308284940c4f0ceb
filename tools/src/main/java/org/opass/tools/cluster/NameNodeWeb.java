package org.opass.tools.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an operator sees of a NameNode's web server from outside: WebHDFS as {@code curl} calls
 * it, and the web UI's file browser as a browser loads it ({@code explorer.html}, the scripts it
 * names, then the WebHDFS call its {@code explorer.js} makes for a folder). Each call that does
 * not answer HTTP 200 is an {@link IOException} naming the URL, the status and what the server
 * said (WebHDFS's {@code RemoteException}).
 */
public final class NameNodeWeb {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SCRIPT = Pattern.compile("<script[^>]*\\bsrc=\"([^\"]+)\"");

  private NameNodeWeb() {
  }

  /**
   * The names in folder {@code dir}, sorted as WebHDFS lists them:
   * {@code GET http/webhdfs/v1<dir>?op=LISTSTATUS&user.name=<user>}.
   */
  public static List<String> listStatus(String http, String dir, String user)
      throws IOException {
    return names(http + "/webhdfs/v1" + encode(dir) + "?op=LISTSTATUS&user.name="
        + URLEncoder.encode(user, StandardCharsets.UTF_8));
  }

  /**
   * The file browser at {@code http/explorer.html#<dir>}, as a browser shows it: the page and
   * every script it names load, and the call {@code explorer.js} makes for the folder
   * ({@code GET /webhdfs/v1<dir>?op=LISTSTATUS}, no user name: the web UI's static user)
   * lists it. Returns the names listed and the number of scripts loaded.
   */
  public static Browsed browse(String http, String dir) throws IOException {
    String page = get(http + "/explorer.html");
    Matcher m = SCRIPT.matcher(page);
    int scripts = 0;
    while (m.find()) {
      String src = m.group(1);
      get(src.startsWith("/") ? http + src : http + "/" + src);
      scripts++;
    }
    if (scripts == 0 || !page.contains("explorer.js")) {
      throw new IOException(http + "/explorer.html is not the file browser (no explorer.js)");
    }
    return new Browsed(names(http + "/webhdfs/v1" + encode(dir) + "?op=LISTSTATUS"), scripts);
  }

  /** What the file browser showed: the folder's names, and how many scripts loaded. */
  public record Browsed(List<String> names, int scripts) {
  }

  private static List<String> names(String url) throws IOException {
    JsonNode list = JSON.readTree(get(url)).path("FileStatuses").path("FileStatus");
    if (!list.isArray()) {
      throw new IOException(url + " answered no FileStatuses listing");
    }
    List<String> names = new ArrayList<>();
    list.forEach(s -> names.add(s.path("pathSuffix").asText()));
    return names;
  }

  /** Each segment as explorer.js's {@code encode_path} encodes it. */
  private static String encode(String path) {
    StringBuilder b = new StringBuilder();
    for (String s : path.split("/")) {
      if (!s.isEmpty()) {
        b.append('/').append(URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20"));
      }
    }
    return b.length() == 0 ? "/" : b.toString();
  }

  /** The body of a GET that answers 200, or an exception with the status and the answer. */
  static String get(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    c.setConnectTimeout(5_000);
    c.setReadTimeout(30_000);
    try {
      int status = c.getResponseCode();
      InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream();
      String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
      if (status != 200) {
        throw new IOException(url + " answered HTTP " + status + ": " + said(body));
      }
      return body;
    } finally {
      c.disconnect();
    }
  }

  /** WebHDFS's RemoteException in a line, or the start of the answer. */
  private static String said(String body) {
    try {
      JsonNode e = JSON.readTree(body).path("RemoteException");
      if (!e.isMissingNode()) {
        return e.path("exception").asText() + ": " + e.path("message").asText();
      }
    } catch (IOException notJson) {
      // an HTML error page
    }
    String flat = body.replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").trim();
    return flat.length() <= 400 ? flat : flat.substring(0, 400) + "...";
  }
}
