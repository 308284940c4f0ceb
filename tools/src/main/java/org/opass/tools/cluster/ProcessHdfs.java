package org.opass.tools.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;

/**
 * A real multi-process HDFS on this machine: one NameNode JVM with a heap of its own and
 * DataNode JVMs, configured through {@code core-site.xml} and {@code hdfs-site.xml} as an
 * operator configures a cluster. For what an in-process {@code MiniDFSCluster} cannot show: a
 * NameNode that runs out of heap, or exits, does so in its own process, and the test sees it
 * from outside; our NameNode jars installed as an operator installs them. By default the
 * daemons run on the test's own classpath; {@link Builder#installed} runs them on Hadoop's jars
 * alone, with the given jars on the NameNode's. Every daemon's JVM gets the options Hadoop's
 * launch scripts give on Java 17 ({@link ChildJvm#HADOOP_JAVA17_OPTS}): without them WebHDFS and
 * the web UI's file browser answer HTTP 500. Logs go to {@code <dir>/logs}.
 */
public final class ProcessHdfs implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final String NAMENODE = "org.apache.hadoop.hdfs.server.namenode.NameNode";

  private final File dir;
  private final File confDir;
  private final Configuration site;
  private final String nameNodeHeap;
  private final int rpcPort;
  private final int httpPort;
  private final List<String> hosts;
  private final boolean installed;
  private Process nameNode;
  private final List<Process> dataNodes = new ArrayList<>();

  private ProcessHdfs(Builder b, File confDir, Configuration site, int rpcPort, int httpPort,
      List<String> hosts) {
    this.dir = b.dir;
    this.confDir = confDir;
    this.site = site;
    this.nameNodeHeap = b.nameNodeHeap;
    this.rpcPort = rpcPort;
    this.httpPort = httpPort;
    this.hosts = List.copyOf(hosts);
    this.installed = b.nameNodeJars != null;
  }

  /** A cluster in {@code dir} (emptied when it starts). */
  public static Builder builder(File dir) {
    return new Builder(dir);
  }

  /**
   * Formats and starts a NameNode with {@code nameNodeHeap} (e.g. {@code "256m"}) and
   * {@code dataNodes} DataNodes, with {@code settings} in their hdfs-site.xml.
   */
  public static ProcessHdfs start(File dir, String nameNodeHeap, int dataNodes,
      Map<String, String> settings) throws IOException, InterruptedException {
    return builder(dir).nameNodeHeap(nameNodeHeap).dataNodes(dataNodes).settings(settings)
        .start();
  }

  /** How a {@link ProcessHdfs} starts. */
  public static final class Builder {
    private final File dir;
    private String nameNodeHeap = "256m";
    private int dataNodes = 3;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private List<Path> nameNodeJars;
    private boolean distinctHosts;
    private int racks = 1;

    private Builder(File dir) {
      this.dir = dir;
    }

    public Builder nameNodeHeap(String heap) {
      this.nameNodeHeap = heap;
      return this;
    }

    public Builder dataNodes(int count) {
      this.dataNodes = count;
      return this;
    }

    /** Keys for hdfs-site.xml. */
    public Builder settings(Map<String, String> more) {
      settings.putAll(more);
      return this;
    }

    /** The daemons on Hadoop's jars alone, and {@code jars} on the NameNode's classpath. */
    public Builder installed(List<Path> jars) {
      this.nameNodeJars = List.copyOf(jars);
      return this;
    }

    /**
     * Each DataNode a host of its own (127.0.0.2, 127.0.0.3, ...: its addresses, and its RPC to
     * the NameNode from there), in {@code racks} racks by a rack table, as on a real cluster.
     */
    public Builder hostsInRacks(int racks) {
      this.racks = racks;
      this.distinctHosts = true;
      return this;
    }

    public ProcessHdfs start() throws IOException, InterruptedException {
      FileUtil.fullyDelete(dir);
      File confDir = new File(dir, "conf");
      Files.createDirectories(new File(dir, "logs").toPath());
      Files.createDirectories(confDir.toPath());
      int rpc = freePort();
      int http = freePort();
      Configuration core = new Configuration(false);
      core.set("fs.defaultFS", "hdfs://127.0.0.1:" + rpc);
      core.set("hadoop.tmp.dir", new File(dir, "tmp").getAbsolutePath());
      Configuration hdfs = new Configuration(false);
      hdfs.set("dfs.namenode.name.dir", new File(dir, "name").getAbsolutePath());
      hdfs.set("dfs.namenode.rpc-address", "127.0.0.1:" + rpc);
      hdfs.set("dfs.namenode.http-address", "127.0.0.1:" + http);
      hdfs.set("dfs.namenode.safemode.extension", "0");
      hdfs.set("dfs.heartbeat.interval", "1");
      hdfs.set("dfs.datanode.address", "127.0.0.1:0");
      hdfs.set("dfs.datanode.ipc.address", "127.0.0.1:0");
      hdfs.set("dfs.datanode.http.address", "127.0.0.1:0");
      hdfs.set("dfs.datanode.hostname", "127.0.0.1");
      List<String> hosts = new ArrayList<>();
      if (distinctHosts) {
        StringBuilder table = new StringBuilder();
        for (int k = 0; k < dataNodes; k++) {
          String ip = "127.0.0." + (k + 2);
          hosts.add(ip);
          table.append(ip).append(" /rack").append(k % racks).append('\n');
        }
        File rackTable = new File(confDir, "racks.txt");
        Files.writeString(rackTable.toPath(), table);
        core.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
        core.set("net.topology.table.file.name", rackTable.getAbsolutePath());
        // the hosts are addresses: nothing to look up in DNS
        hdfs.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
      }
      for (Map.Entry<String, String> e : settings.entrySet()) {
        hdfs.set(e.getKey(), e.getValue());
      }
      write(core, new File(confDir, "core-site.xml"));
      write(hdfs, new File(confDir, "hdfs-site.xml"));
      // the daemons' own logging (on Hadoop's jars alone there is no test configuration to find)
      Files.writeString(new File(confDir, "log4j.properties").toPath(),
          "log4j.rootLogger=WARN,stderr\n"
          + "log4j.appender.stderr=org.apache.log4j.ConsoleAppender\n"
          + "log4j.appender.stderr.Target=System.err\n"
          + "log4j.appender.stderr.layout=org.apache.log4j.PatternLayout\n"
          + "log4j.appender.stderr.layout.ConversionPattern="
          + "%d{HH:mm:ss,SSS} %-5p [%t] %c{2}: %m%n\n");

      ProcessHdfs cluster = new ProcessHdfs(this, confDir, hdfs, rpc, http, hosts);
      Process format = java(dir, confDir, cluster.nameNodeClasspath(nameNodeJars), "64m",
          "namenode-format", List.of(NAMENODE, "-format", "-nonInteractive"));
      if (!format.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
          || format.exitValue() != 0) {
        format.destroyForcibly();
        throw new IOException("namenode -format failed; see " + new File(dir, "logs"));
      }
      boolean started = false;
      try {
        cluster.nameNode = java(dir, confDir, cluster.nameNodeClasspath(nameNodeJars),
            nameNodeHeap, "namenode", List.of(NAMENODE));
        for (int k = 0; k < dataNodes; k++) {
          cluster.dataNodes.add(cluster.startDataNode(k, nameNodeJars != null));
        }
        cluster.awaitLiveDataNodes(dataNodes);
        started = true;
        return cluster;
      } finally {
        if (!started) {
          cluster.close();
        }
      }
    }
  }
  /** The NameNode's classpath: the test's, or Hadoop's and {@code jars}. */
  private String nameNodeClasspath(List<Path> jars) {
    if (jars == null) {
      return System.getProperty("java.class.path");
    }
    StringBuilder cp = new StringBuilder(Release.hadoopClasspath());
    for (Path j : jars) {
      cp.append(File.pathSeparator).append(j.toAbsolutePath());
    }
    return cp.toString();
  }

  /**
   * DataNode {@code k}: on Hadoop's jars alone when installed (with, for a host of its own, the
   * socket factory that makes its RPC come from that host), or on the test's classpath.
   */
  private Process startDataNode(int k, boolean hadoopOnly) throws IOException {
    File data = new File(dir, "data" + k);
    Files.createDirectories(data.toPath());
    String cp = System.getProperty("java.class.path");
    List<String> args = new ArrayList<>(List.of("org.apache.hadoop.hdfs.server.datanode.DataNode",
        "-D", "dfs.datanode.data.dir=" + data.getAbsolutePath()));
    if (!hosts.isEmpty()) {
      String ip = hosts.get(k);
      for (String key : List.of("dfs.datanode.address", "dfs.datanode.ipc.address",
          "dfs.datanode.http.address")) {
        args.addAll(List.of("-D", key + "=" + ip + ":0"));
      }
      args.addAll(List.of("-D", "dfs.datanode.hostname=" + ip,
          "-D", HostBindingSocketFactory.BIND_ADDRESS_KEY + "=" + ip,
          "-D", "hadoop.rpc.socket.factory.class.default="
              + HostBindingSocketFactory.class.getName()));
    }
    if (hadoopOnly) {
      cp = Release.hadoopClasspath() + (hosts.isEmpty() ? "" : File.pathSeparator
          + codeSourceOf(HostBindingSocketFactory.class));
    }
    // a DataNode here serves little: the quick compiler and one GC thread start it faster
    args.addAll(0, List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    return java(dir, confDir, cp, "128m", "datanode" + k, args);
  }

  private static String codeSourceOf(Class<?> c) {
    try {
      return Paths.get(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Stops the NameNode and starts it again over the same namespace and DataNodes with
   * {@code settings} added to its hdfs-site.xml and {@code jars} on its classpath (an operator
   * installing our plugins); returns when every DataNode is live again and safe mode is off.
   */
  public void restartNameNode(Map<String, String> settings, List<Path> jars)
      throws IOException, InterruptedException {
    nameNode.destroy();
    stop(nameNode);
    for (Map.Entry<String, String> e : settings.entrySet()) {
      site.set(e.getKey(), e.getValue());
    }
    write(site, new File(confDir, "hdfs-site.xml"));
    nameNode = java(dir, confDir, nameNodeClasspath(installed ? jars : null), nameNodeHeap,
        "namenode", List.of(NAMENODE));
    awaitLiveDataNodes(dataNodes.size());
  }

  /** The DataNodes' addresses, when each is a host of its own ({@link Builder#hostsInRacks}). */
  public List<String> hosts() {
    return hosts;
  }

  /** The folder of the daemons' site files. */
  public File confDir() {
    return confDir;
  }

  /** The file system URI clients use. */
  public URI uri() {
    return URI.create("hdfs://127.0.0.1:" + rpcPort);
  }

  /** The NameNode's web address, {@code http://127.0.0.1:port}. */
  public String nameNodeHttp() {
    return "http://127.0.0.1:" + httpPort;
  }

  public boolean nameNodeAlive() {
    return nameNode.isAlive();
  }

  /** A client configuration for this cluster. */
  public Configuration clientConf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", uri().toString());
    conf.set("dfs.client.use.datanode.hostname", "false");
    return conf;
  }

  /** One attribute of one NameNode JMX bean, from its {@code /jmx}. */
  public JsonNode jmx(String bean, String attribute) throws IOException {
    return jmx(nameNodeHttp(), bean, attribute);
  }

  /** One attribute of one JMX bean of the daemon whose web server is {@code http}. */
  public static JsonNode jmx(String http, String bean, String attribute) throws IOException {
    URL url = new URL(http + "/jmx?qry=" + bean);
    HttpURLConnection c = (HttpURLConnection) url.openConnection();
    c.setConnectTimeout(5_000);
    c.setReadTimeout(30_000);
    try (InputStream in = c.getInputStream()) {
      JsonNode beans = JSON.readTree(in).get("beans");
      return beans == null || beans.size() == 0 ? null : beans.get(0).get(attribute);
    } finally {
      c.disconnect();
    }
  }

  /**
   * A client on DataNode {@code k}'s host ({@link Builder#hostsInRacks}): the NameNode treats it
   * as local to that DataNode. Its own client context, so no cached connection carries another
   * host's address.
   */
  public Configuration hostConf(int k) {
    Configuration c = clientConf();
    c.set("hadoop.rpc.socket.factory.class.default", HostBindingSocketFactory.class.getName());
    c.set(HostBindingSocketFactory.BIND_ADDRESS_KEY, hosts.get(k));
    c.set(org.apache.hadoop.hdfs.client.HdfsClientConfigKeys.DFS_CLIENT_CONTEXT,
        "process-hdfs-host-" + k);
    return c;
  }

  /** The NameNode's heap in use right after a full collection ({@code jcmd GC.run}). */
  public long nameNodeHeapAfterGc() throws IOException, InterruptedException {
    Path java = Paths.get(ProcessHandle.current().info().command().orElse("java"));
    Path jcmd = java.resolveSibling("jcmd");
    Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(nameNode.pid()), "GC.run")
        .redirectErrorStream(true).redirectOutput(new File(dir, "logs/jcmd.log")).start();
    if (!gc.waitFor(60, TimeUnit.SECONDS) || gc.exitValue() != 0) {
      throw new IOException("jcmd GC.run failed; see " + new File(dir, "logs/jcmd.log"));
    }
    return jmx("java.lang:type=Memory", "HeapMemoryUsage").get("used").asLong();
  }

  /** What the NameNode printed (its log), for failure messages. */
  public String nameNodeLogTail(int chars) throws IOException {
    String log = Files.readString(new File(dir, "logs/namenode.log").toPath());
    return log.length() <= chars ? log : log.substring(log.length() - chars);
  }

  @Override
  public void close() {
    for (Process p : dataNodes) {
      p.destroy();
    }
    nameNode.destroy();
    for (Process p : dataNodes) {
      stop(p);
    }
    stop(nameNode);
  }

  private static void stop(Process p) {
    try {
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private void awaitLiveDataNodes(int n) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!nameNode.isAlive()) {
        throw new IOException("the NameNode exited at start-up: " + nameNodeLogTail(4000));
      }
      try {
        JsonNode live = jmx("Hadoop:service=NameNode,name=FSNamesystemState",
            "NumLiveDataNodes");
        JsonNode safe = jmx("Hadoop:service=NameNode,name=NameNodeInfo", "Safemode");
        if (live != null && live.asInt() >= n && safe != null && safe.asText().isEmpty()) {
          return;
        }
      } catch (IOException notUpYet) {
        // the web server is not listening yet
      }
      Thread.sleep(250);
    }
    throw new IOException(n + " DataNodes did not register within " + START_TIMEOUT
        + "; see " + new File(dir, "logs"));
  }

  /** Starts {@code args} (a main class and its arguments) in a JVM of {@code heap}. */
  private static Process java(File dir, File confDir, String classpath, String heap,
      String logName, List<String> args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(ProcessHandle.current().info().command().orElse("java")).toString());
    cmd.add("-Xmx" + heap);
    cmd.addAll(ChildJvm.HADOOP_JAVA17_OPTS); // as hdfs --daemon start gives a daemon
    cmd.addAll(ChildJvm.QUICK_START);
    cmd.add("-cp");
    cmd.add(confDir.getAbsolutePath() + File.pathSeparator + classpath);
    cmd.addAll(args);
    File log = new File(dir, "logs/" + logName + ".log");
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
  }

  private static void write(Configuration conf, File file) throws IOException {
    try (OutputStream out = new FileOutputStream(file)) {
      conf.writeXml(out);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
