package org.opass.e2e.secure;

import java.net.InetAddress;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.server.namenode.AuditLogger;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * An HDFS audit logger ({@code dfs.namenode.audit.loggers}) that keeps how the callers of each
 * successful command on each path authenticated: which calls a job's tasks made with its
 * delegation token ({@code TOKEN}) and which its submitter made with Kerberos. The NameNode
 * calls audit loggers in the RPC handler, where {@link Server#getRemoteUser()} is the caller.
 */
public final class AuthAudit implements AuditLogger {
  private static final Map<String, Set<AuthenticationMethod>> SEEN = new ConcurrentHashMap<>();

  @Override
  public void initialize(Configuration conf) {
  }

  @Override
  public void logAuditEvent(boolean succeeded, String userName, InetAddress addr, String cmd,
      String src, String dst, FileStatus stat) {
    UserGroupInformation caller = Server.getRemoteUser();
    if (succeeded && caller != null) {
      SEEN.computeIfAbsent(cmd + " " + src, k -> ConcurrentHashMap.newKeySet())
          .add(caller.getAuthenticationMethod());
    }
  }

  /** How the callers of {@code cmd} on paths starting with {@code prefix} authenticated. */
  public static Map<String, Set<AuthenticationMethod>> of(String cmd, String prefix) {
    Map<String, Set<AuthenticationMethod>> out = new TreeMap<>();
    SEEN.forEach((k, v) -> {
      if (k.startsWith(cmd + " " + prefix)) {
        out.put(k, Set.copyOf(v));
      }
    });
    return out;
  }
}
