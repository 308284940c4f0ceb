package org.opass.e2e.secure;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;

/**
 * A real KDC (Hadoop's {@code MiniKdc}) and what a kerberized HDFS needs of it, as Hadoop's
 * own secure tests set it up ({@code SaslDataTransferTestCase}): the service principal
 * {@code hdfs/localhost} and {@code HTTP/localhost} (SPNEGO) in one keytab, users with
 * keytabs of their own, Kerberos RPC, block access tokens, SASL on data transfer (which lets
 * DataNodes run secure without privileged ports, and wants HTTPS only), and keystores for the
 * web servers. Kerberos and UGI settings are JVM-wide: the classes that use this run in a
 * surefire execution of their own ({@code src/test/pom.xml}).
 */
public final class Kerberos implements AutoCloseable {
  private final File dir;
  private final MiniKdc kdc;
  private final String sslConfDir;
  private final File keystores;
  private final Map<String, File> keytabs = new LinkedHashMap<>();
  private final File serviceKeytab;
  private Configuration clusterConf;

  /** Starts the KDC in {@code dir} (emptied first). */
  public Kerberos(File dir) throws Exception {
    this.dir = dir;
    FileUtil.fullyDelete(dir);
    if (!dir.mkdirs()) {
      throw new IOException("cannot make " + dir);
    }
    Properties kdcConf = MiniKdc.createConf();
    kdc = new MiniKdc(kdcConf, dir);
    kdc.start();
    serviceKeytab = new File(dir, "hdfs.keytab");
    kdc.createPrincipal(serviceKeytab, "hdfs/localhost", "HTTP/localhost");
    sslConfDir = KeyStoreTestUtil.getClasspathDir(Kerberos.class);
    keystores = new File(dir, "keystores");
    if (!keystores.mkdirs()) {
      throw new IOException("cannot make " + keystores);
    }
  }

  public String realm() {
    return kdc.getRealm();
  }

  /** {@code name/localhost@REALM}: a user's principal (short name {@code name}). */
  public String principal(String name) {
    return name + "/localhost@" + realm();
  }

  /** The user's keytab, made on first use. */
  public synchronized File keytab(String user) throws Exception {
    File k = keytabs.get(user);
    if (k == null) {
      k = new File(dir, user + ".keytab");
      kdc.createPrincipal(k, user + "/localhost");
      keytabs.put(user, k);
    }
    return k;
  }

  /**
   * The settings of a kerberized cluster, for the NameNode, the DataNodes and their clients:
   * everything but the plugins' own keys. Made once: the keystores are made with it.
   */
  public synchronized Configuration clusterConf() throws Exception {
    if (clusterConf == null) {
      clusterConf = makeClusterConf();
    }
    return new Configuration(clusterConf);
  }

  private Configuration makeClusterConf() throws Exception {
    Configuration conf = new Configuration(false);
    SecurityUtil.setAuthenticationMethod(UserGroupInformation.AuthenticationMethod.KERBEROS,
        conf);
    conf.setBoolean("hadoop.security.authorization", true);
    String service = principal("hdfs");
    conf.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, service);
    conf.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, serviceKeytab.getAbsolutePath());
    conf.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, service);
    conf.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, serviceKeytab.getAbsolutePath());
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY,
        "HTTP/localhost@" + realm());
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY,
        serviceKeytab.getAbsolutePath());
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    conf.set(HdfsClientConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, "authentication");
    conf.set(DFSConfigKeys.DFS_HTTP_POLICY_KEY, HttpConfig.Policy.HTTPS_ONLY.name());
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTPS_ADDRESS_KEY, "localhost:0");
    conf.set(DFSConfigKeys.DFS_DATANODE_HTTPS_ADDRESS_KEY, "localhost:0");
    // SPNEGO on the NameNode's web endpoints, /opass/read-plan among them
    conf.set("hadoop.http.filter.initializers",
        "org.apache.hadoop.security.AuthenticationFilterInitializer");
    conf.set("hadoop.http.authentication.type", "kerberos");
    conf.set("hadoop.http.authentication.kerberos.principal", "HTTP/localhost@" + realm());
    conf.set("hadoop.http.authentication.kerberos.keytab", serviceKeytab.getAbsolutePath());
    conf.setBoolean("hadoop.http.authentication.simple.anonymous.allowed", false);
    Configuration ssl = new Configuration(false);
    KeyStoreTestUtil.setupSSLConfig(keystores.getAbsolutePath(), sslConfDir, ssl, false);
    for (Map.Entry<String, String> e : ssl) {
      conf.set(e.getKey(), e.getValue());
    }
    conf.set(DFSConfigKeys.DFS_CLIENT_HTTPS_KEYSTORE_RESOURCE_KEY,
        KeyStoreTestUtil.getClientSSLConfigFileName());
    conf.set(DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_KEY,
        KeyStoreTestUtil.getServerSSLConfigFileName());
    return conf;
  }

  /**
   * What a kerberized YARN adds to {@link #clusterConf()}: the ResourceManager's, the
   * NodeManagers' and the JobHistoryServer's principal and keytab (the service principal, as
   * for HDFS; the ResourceManager's is also the renewer of the jobs' HDFS delegation tokens),
   * and SPNEGO on their web servers.
   */
  public Configuration yarnConf() {
    Configuration conf = new Configuration(false);
    String keytab = serviceKeytab.getAbsolutePath();
    for (String service : new String[] {"yarn.resourcemanager", "yarn.nodemanager",
        "mapreduce.jobhistory"}) {
      conf.set(service + ".principal", principal("hdfs"));
      conf.set(service + ".keytab", keytab);
      conf.set(service + ".webapp.spnego-principal", "HTTP/localhost@" + realm());
      conf.set(service + ".webapp.spnego-keytab-file", keytab);
    }
    return conf;
  }

  /**
   * Writes {@link #clusterConf()} as {@code hdfs-site.xml} on the test classpath: this host's
   * configuration directory, which Hadoop's daemons read when they make a configuration of
   * their own, as on a host of a real cluster (a NodeManager's resource localizer reads job
   * files from HDFS with a {@code new YarnConfiguration()}, and without the host's
   * {@code dfs.data.transfer.protection} its reads skip the DataNodes' SASL handshake and are
   * reset). Removed by {@link #close()}.
   */
  public void writeHostSite() throws Exception {
    File site = hostSite();
    site.deleteOnExit(); // should close() not run: a later build's tests must not load it
    try (OutputStream out = Files.newOutputStream(site.toPath())) {
      clusterConf().writeXml(out);
    }
  }

  private File hostSite() {
    return new File(sslConfDir, "hdfs-site.xml");
  }

  /**
   * JVM options of a task or ApplicationMaster on this KDC's hosts: where the Kerberos
   * configuration is, which a host of a kerberized cluster keeps in {@code /etc/krb5.conf}
   * (UGI asks it for the default realm even in a task that authenticates with tokens only).
   */
  public String taskJvmOpts() {
    return "-Djava.security.krb5.conf=" + kdc.getKrb5conf().getAbsolutePath();
  }

  /** Logs {@code user} in from their keytab (the JVM's Kerberos settings from {@code conf}). */
  public UserGroupInformation login(Configuration conf, String user) throws Exception {
    UserGroupInformation.setConfiguration(conf);
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal(user),
        keytab(user).getAbsolutePath());
  }

  /** Logs the JVM in as the service principal, as a NameNode's start does. */
  public void loginAsService(Configuration conf) throws Exception {
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(principal("hdfs"),
        serviceKeytab.getAbsolutePath());
  }

  @Override
  public void close() throws Exception {
    try {
      Files.deleteIfExists(hostSite().toPath());
      KeyStoreTestUtil.cleanupSSLConfig(keystores.getAbsolutePath(), sslConfDir);
    } finally {
      kdc.stop();
      UserGroupInformation.reset();
    }
  }
}
