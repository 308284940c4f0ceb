package org.opass.heatmap.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.hdfs.web.URLConnectionFactory;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.client.AuthenticationException;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Prints the per-DataNode heat table of a running NameNode, read from its {@code /jmx}.
 *
 * <pre>
 *   hadoop jar opass-client-*.jar heat [generic options] [--json] [NAMENODE_HTTP_ADDRESS]
 * </pre>
 *
 * A Hadoop {@code Tool}: without an address it uses {@code dfs.namenode.http-address} from
 * the configuration ({@code hdfs-site.xml} on the classpath, {@code -conf}, {@code -D}).
 * Exit codes: 0 ok, 1 failure (NameNode unreachable, heatmap not loaded), 2 usage.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class HeatTableCli extends Configured implements Tool {
  static final String ADDRESS_KEY = "dfs.namenode.http-address";
  /** The heatmap plugin's JMX bean ({@code HeatTableRegistry.MBEAN_NAME} in opass-heatmap). */
  static final String MBEAN_NAME = "Hadoop:service=NameNode,name=OpassHeatmap";
  private static final String NAME = "opass-client heat";

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new HeatTableCli(), args));
  }

  @Override
  public int run(String[] args) {
    return run(args, getConf(), System.out, System.err);
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, new Configuration(), out, err);
  }

  /** The command with its output streams and configuration given: exit code 0, 1 or 2. */
  public static int run(String[] args, Configuration base, PrintStream out, PrintStream err) {
    boolean json = false;
    String address = null;
    for (String a : args) {
      if (a.equals("-h") || a.equals("--help")) {
        out.println(usage());
        return 0;
      } else if (a.equals("--json")) {
        json = true;
      } else if (a.startsWith("-")) {
        err.println(NAME + ": unknown option '" + a + "'\n" + usage());
        return 2;
      } else if (address == null) {
        address = a;
      } else {
        err.println(NAME + ": unexpected argument '" + a + "'\n" + usage());
        return 2;
      }
    }
    if (address == null) {
      Configuration conf = new Configuration(base);
      conf.addResource("hdfs-site.xml"); // what is set (-D) still wins
      address = conf.getTrimmed(ADDRESS_KEY);
      if (address == null || address.isEmpty()) {
        err.println(NAME + ": no NameNode address given and " + ADDRESS_KEY
            + " is not set\n" + usage());
        return 2;
      }
    }
    URI uri;
    try {
      uri = jmxQuery(address);
    } catch (IllegalArgumentException e) {
      err.println(NAME + ": bad NameNode address '" + address + "': " + e.getMessage());
      return 2;
    }
    try {
      List<JsonNode> beans = fetchBeans(uri, base);
      if (beans.isEmpty()) {
        err.println(NAME + ": the NameNode at " + address + " has no Opass heatmap; is "
            + "opass-placement or opass-read configured (dfs.block.replicator.classname / "
            + "dfs.net.topology.impl) and has it placed or sorted anything yet?");
        return 1;
      }
      for (JsonNode bean : beans) {
        if (json) {
          out.println(bean.toString());
        } else {
          out.print(table(bean));
        }
      }
      return 0;
    } catch (IOException e) {
      err.println(NAME + ": cannot read " + uri + ": " + e);
      return 1;
    }
  }

  static URI jmxQuery(String address) {
    String base = address.contains("://") ? address : "http://" + address;
    String q = URLEncoder.encode(MBEAN_NAME + "*", StandardCharsets.UTF_8);
    URI uri = URI.create(base.replaceAll("/+$", "") + "/jmx?qry=" + q);
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("expected host:port or http://host:port");
    }
    return uri;
  }

  /**
   * The beans, read as WebHDFS clients read: HTTPS with the client's trust store
   * ({@code ssl-client.xml}), SPNEGO as the current user on a secure cluster.
   */
  private static List<JsonNode> fetchBeans(URI uri, Configuration conf) throws IOException {
    HttpURLConnection c;
    try {
      c = (HttpURLConnection) URLConnectionFactory.newDefaultURLConnectionFactory(conf)
          .openConnection(uri.toURL(), UserGroupInformation.isSecurityEnabled());
    } catch (AuthenticationException e) {
      throw new IOException("cannot authenticate (SPNEGO): " + e.getMessage(), e);
    }
    c.setConnectTimeout(10_000);
    c.setReadTimeout(30_000);
    try (InputStream in = c.getInputStream()) {
      JsonNode root = new ObjectMapper().readTree(in);
      List<JsonNode> beans = new ArrayList<>();
      root.path("beans").forEach(beans::add);
      return beans;
    } finally {
      c.disconnect();
    }
  }

  /** Formats one heatmap bean as a fixed-width table. */
  static String table(JsonNode bean) throws IOException {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("%s: %d DataNodes, mean heat %.2f, %d grants, %d choices, "
            + "%d fallbacks%n", bean.path("name").asText(), bean.path("TrackedNodes").asInt(),
        bean.path("MeanHeat").asDouble(), bean.path("GrantsTotal").asLong(),
        bean.path("Choices").asLong(), bean.path("Fallbacks").asLong()));
    sb.append(String.format("%-24s %8s %8s %6s %16s %14s%n", "DataNode", "xceivers", "granted",
        "heat", "last selected", "as of"));
    for (JsonNode n : new ObjectMapper().readTree(bean.path("Nodes").asText("[]"))) {
      long ago = n.path("last_selected_ms_ago").asLong();
      // beans of an older heatmap have no age: say so rather than print 0
      JsonNode age = n.path("heartbeat_age_ms");
      sb.append(String.format("%-24s %8d %8d %6d %16s %14s%n", n.path("name").asText(),
          n.path("xceivers").asInt(), n.path("grants_since_heartbeat").asInt(),
          n.path("heat").asInt(), ago < 0 ? "never" : ago + " ms ago",
          age.isNumber() ? age.asLong() + " ms ago" : "unknown"));
    }
    return sb.toString();
  }

  static String usage() {
    return "usage: hadoop jar opass-client-*.jar heat [generic options] [--json] "
        + "[NAMENODE_HTTP_ADDRESS]\n"
        + "  Prints the per-DataNode heat table (active transfers at the latest heartbeat,\n"
        + "  reads/writes granted since, last selected, and how old the row's heartbeat is)\n"
        + "  of a NameNode running Opass plugins.\n"
        + "  NAMENODE_HTTP_ADDRESS  host:port of the NameNode web UI (default: "
        + ADDRESS_KEY + ")\n"
        + "  --json                 print the raw JMX bean instead of a table";
  }
}
