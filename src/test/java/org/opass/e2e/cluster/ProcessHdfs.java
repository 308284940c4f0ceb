package org.opass.e2e.cluster;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;

/**
 * A real multi-process HDFS on this machine: one NameNode JVM with a heap of its own and
 * DataNode JVMs, started from the test's own classpath (Hadoop's jars, ours, and the
 * {@code webapps/} of Hadoop's test jar), configured through {@code core-site.xml} and
 * {@code hdfs-site.xml} as an operator configures a cluster. For what an in-process
 * {@code MiniDFSCluster} cannot show: a NameNode that runs out of heap, or exits, does so in its
 * own process, and the test sees it from outside. Logs go to {@code <dir>/logs}.
 */
public final class ProcessHdfs implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final File dir;
  private final int rpcPort;
  private final int httpPort;
  private final Process nameNode;
  private final List<Process> dataNodes = new ArrayList<>();

  private ProcessHdfs(File dir, int rpcPort, int httpPort, Process nameNode) {
    this.dir = dir;
    this.rpcPort = rpcPort;
    this.httpPort = httpPort;
    this.nameNode = nameNode;
  }

  /**
   * Formats and starts a NameNode with {@code nameNodeHeap} (e.g. {@code "256m"}) and
   * {@code dataNodes} DataNodes, with {@code settings} in their hdfs-site.xml.
   */
  public static ProcessHdfs start(File dir, String nameNodeHeap, int dataNodes,
      Map<String, String> settings) throws IOException, InterruptedException {
    FileUtil.fullyDelete(dir);
    File confDir = new File(dir, "conf");
    Files.createDirectories(new File(dir, "logs").toPath());
    Files.createDirectories(confDir.toPath());
    int rpc = freePort();
    int http = freePort();
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", "hdfs://127.0.0.1:" + rpc);
    core.set("hadoop.tmp.dir", new File(dir, "tmp").getAbsolutePath());
    write(core, new File(confDir, "core-site.xml"));
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
    for (Map.Entry<String, String> e : settings.entrySet()) {
      hdfs.set(e.getKey(), e.getValue());
    }
    write(hdfs, new File(confDir, "hdfs-site.xml"));

    Process format = java(dir, confDir, "64m", "namenode-format",
        "org.apache.hadoop.hdfs.server.namenode.NameNode", "-format", "-nonInteractive");
    if (!format.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || format.exitValue() != 0) {
      format.destroyForcibly();
      throw new IOException("namenode -format failed; see " + new File(dir, "logs"));
    }
    ProcessHdfs cluster = new ProcessHdfs(dir, rpc, http, java(dir, confDir, nameNodeHeap,
        "namenode", "org.apache.hadoop.hdfs.server.namenode.NameNode"));
    boolean started = false;
    try {
      for (int k = 0; k < dataNodes; k++) {
        File data = new File(dir, "data" + k);
        Files.createDirectories(data.toPath());
        cluster.dataNodes.add(java(dir, confDir, "128m", "datanode" + k,
            "org.apache.hadoop.hdfs.server.datanode.DataNode",
            "-D", "dfs.datanode.data.dir=" + data.getAbsolutePath()));
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
    URL url = new URL(nameNodeHttp() + "/jmx?qry=" + bean);
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
  private static Process java(File dir, File confDir, String heap, String logName,
      String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(ProcessHandle.current().info().command().orElse("java")).toString());
    cmd.add("-Xmx" + heap);
    cmd.add("-cp");
    cmd.add(confDir.getAbsolutePath() + File.pathSeparator + System.getProperty("java.class.path"));
    for (String a : args) {
      cmd.add(a);
    }
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
