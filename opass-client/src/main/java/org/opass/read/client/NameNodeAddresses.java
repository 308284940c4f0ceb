package org.opass.read.client;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.net.NetUtils;

/**
 * The web addresses of the NameNodes behind a file system URI, as WebHDFS finds them: every
 * NameNode of an HA nameservice, or the one NameNode of {@code hdfs://host:port}.
 */
@org.apache.hadoop.classification.InterfaceAudience.Private
public final class NameNodeAddresses {
  /** {@code DFSConfigKeys.DFS_HTTP_POLICY_KEY}, on the NameNode's side of Hadoop's jars. */
  private static final String HTTP_POLICY = "dfs.http.policy";

  private NameNodeAddresses() {
  }

  /**
   * The web addresses ({@code http://host:port}, or https where the policy says) of the
   * NameNodes of {@code fs}.
   *
   * @throws IllegalArgumentException where {@code fs} names no host
   */
  public static List<URI> web(URI fs, Configuration conf) {
    if (fs.getHost() == null) {
      throw new IllegalArgumentException("not a NameNode's file system URI (hdfs://nameservice "
          + "or hdfs://host:port): " + fs);
    }
    boolean https = "HTTPS_ONLY".equalsIgnoreCase(conf.getTrimmed(HTTP_POLICY, "HTTP_ONLY"));
    String scheme = https ? "https" : "http";
    Map<String, InetSocketAddress> ha = DFSUtilClient.getHaNnWebHdfsAddresses(conf,
        https ? "swebhdfs" : "webhdfs").get(fs.getHost());
    List<URI> out = new ArrayList<>();
    if (ha != null && !ha.isEmpty()) {
      for (InetSocketAddress a : ha.values()) {
        out.add(URI.create(scheme + "://" + NetUtils.getHostPortString(a)));
      }
      return out;
    }
    String key = https ? HdfsClientConfigKeys.DFS_NAMENODE_HTTPS_ADDRESS_KEY
        : HdfsClientConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY;
    String address = conf.getTrimmed(key, "0.0.0.0:" + (https
        ? HdfsClientConfigKeys.DFS_NAMENODE_HTTPS_PORT_DEFAULT
        : HdfsClientConfigKeys.DFS_NAMENODE_HTTP_PORT_DEFAULT));
    InetSocketAddress a = NetUtils.createSocketAddr(address, 0, key);
    // a NameNode listening on every interface is reached at its file system URI's host
    String host = a.getAddress() != null && a.getAddress().isAnyLocalAddress() ? fs.getHost()
        : a.getHostString();
    out.add(URI.create(scheme + "://" + host + ":" + a.getPort()));
    return out;
  }
}
