package org.opass.read.nn;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.opass.read.wire.PlanRefusedException;

/**
 * Turns a requested path into the one canonical form this NameNode resolves, so that aliases
 * ({@code /d/f}, {@code /d//f/}, {@code hdfs://nn:8020/d/f}) are one file: a scheme and
 * authority are accepted only when they name this NameNode (its RPC address, the default file
 * system, or a nameservice it serves), repeated and trailing slashes go, and {@code .},
 * {@code ..} and names HDFS itself refuses are refused. Percent signs are kept as they are, as
 * Hadoop's {@code Path} keeps them. Other aliases ({@code /.reserved/.inodes/<id>}) are caught
 * by the caller through the file id.
 */
final class PlanPaths {
  private final Set<String> authorities;
  private final String example;

  /**
   * @param authorities lower-case {@code host:port} (or nameservice id) forms that name this
   *                    NameNode
   * @param example     what to show a caller as this file system, e.g. {@code hdfs://nn:8020}
   */
  PlanPaths(Collection<String> authorities, String example) {
    this.authorities = new LinkedHashSet<>();
    for (String a : authorities) {
      this.authorities.add(a.toLowerCase(Locale.ROOT));
    }
    this.example = example;
  }

  /** The authorities of a NameNode at {@code rpc} serving {@code defaultFs} and nameservices. */
  static PlanPaths of(InetSocketAddress rpc, URI defaultFs, Collection<String> nameservices) {
    Set<String> names = new LinkedHashSet<>();
    if (rpc != null) {
      names.add(rpc.getHostString() + ":" + rpc.getPort());
      if (rpc.getAddress() != null) {
        names.add(rpc.getAddress().getHostAddress() + ":" + rpc.getPort());
      }
    }
    if (defaultFs != null && "hdfs".equalsIgnoreCase(defaultFs.getScheme())
        && defaultFs.getAuthority() != null) {
      names.add(withPort(defaultFs.getAuthority()));
      names.add(defaultFs.getAuthority());
    }
    names.addAll(nameservices);
    String shown = defaultFs != null && "hdfs".equalsIgnoreCase(defaultFs.getScheme())
        ? "hdfs://" + defaultFs.getAuthority()
        : rpc == null ? "hdfs://" : "hdfs://" + rpc.getHostString() + ":" + rpc.getPort();
    return new PlanPaths(names, shown);
  }

  /**
   * The canonical absolute path of {@code raw}, read {@code i} of the request.
   *
   * @throws PlanRefusedException 400 naming the read and the path
   */
  String normalise(String raw, int i) throws PlanRefusedException {
    String where = "reads[" + i + "].path '" + shorten(raw) + "'";
    String path = raw;
    if (!raw.startsWith("/")) {
      int colon = raw.indexOf("://");
      if (colon <= 0 || !isScheme(raw.substring(0, colon))) {
        throw new PlanRefusedException(400, where + " is not absolute: give /path or "
            + example + "/path");
      }
      String scheme = raw.substring(0, colon);
      int slash = raw.indexOf('/', colon + 3);
      String authority = raw.substring(colon + 3, slash < 0 ? raw.length() : slash);
      if (!"hdfs".equalsIgnoreCase(scheme) || !namesThisNameNode(authority)) {
        throw new PlanRefusedException(400, where + " is not on this NameNode ("
            + example + "); plan each file system's reads on its own NameNode");
      }
      path = slash < 0 ? "/" : raw.substring(slash);
    }
    StringBuilder canonical = new StringBuilder(path.length());
    for (String part : path.split("/")) {
      if (part.isEmpty()) {
        continue;
      }
      if (part.equals(".") || part.equals("..")) {
        throw new PlanRefusedException(400, where + " has '" + part
            + "' in it; give the path without . and ..");
      }
      canonical.append('/').append(part);
    }
    String out = canonical.length() == 0 ? "/" : canonical.toString();
    if (!DFSUtilClient.isValidName(out)) {
      throw new PlanRefusedException(400, where + " is not a valid HDFS path");
    }
    return out;
  }

  private boolean namesThisNameNode(String authority) {
    String a = authority.toLowerCase(Locale.ROOT);
    return authorities.contains(a) || authorities.contains(withPort(a));
  }

  private static String withPort(String authority) {
    return authority.indexOf(':') >= 0 ? authority
        : authority + ":" + HdfsClientConfigKeys.DFS_NAMENODE_RPC_PORT_DEFAULT;
  }

  private static boolean isScheme(String s) {
    if (s.isEmpty() || !Character.isLetter(s.charAt(0))) {
      return false;
    }
    for (int k = 1; k < s.length(); k++) {
      char c = s.charAt(k);
      if (!Character.isLetterOrDigit(c) && c != '+' && c != '-' && c != '.') {
        return false;
      }
    }
    return true;
  }

  static String shorten(String s) {
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }
}
