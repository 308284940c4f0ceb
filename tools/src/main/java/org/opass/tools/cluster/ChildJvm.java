package org.opass.tools.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A main class of the tests' classpath run in a JVM of its own, with a heap of its own: for
 * what one process must do within a task's heap, and for processes a test kills. Every such JVM
 * gets {@link #HADOOP_JAVA17_OPTS}, as Hadoop's scripts give them.
 */
public final class ChildJvm {
  /**
   * JVM options for the tests' processes that live seconds (daemons of a test's HDFS, commands,
   * YARN's containers, processes a test kills): C1 only and the serial collector start them
   * about a third faster on 2 cores. A benchmark's processes run with the JVM's defaults.
   */
  public static final List<String> QUICK_START =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  /**
   * What Hadoop's launch scripts give every JVM they start on Java 17
   * ({@code hadoop-functions.sh#hadoop_finalize_jpms_opts}, HADOOP-19310, in 3.4.2: the list
   * its {@code hadoop-project} POM keeps in sync as {@code extraJavaTestArgs}). Without
   * {@code java.lang} open, a NameNode's WebHDFS answers HTTP 500 (JAXB's {@code Injector}
   * fails to initialize), and so does the web UI's file browser, which calls it.
   */
  public static final List<String> HADOOP_JAVA17_OPTS = List.of(
      "-XX:+IgnoreUnrecognizedVMOptions",
      "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.math=ALL-UNNAMED",
      "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.text=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.zip=ALL-UNNAMED",
      "--add-opens=java.base/sun.security.util=ALL-UNNAMED",
      "--add-opens=java.base/sun.security.x509=ALL-UNNAMED");

  private ChildJvm() {
  }

  /** What a finished child did. */
  public static final class Result {
    public final int exitCode;
    public final String output;

    Result(int exitCode, String output) {
      this.exitCode = exitCode;
      this.output = output;
    }

    /** The value of the last output line {@code name=value}, or null. */
    public String value(String name) {
      String found = null;
      for (String line : output.split("\n")) {
        if (line.startsWith(name + "=")) {
          found = line.substring(name.length() + 1).trim();
        }
      }
      return found;
    }
  }

  /**
   * Starts {@code mainClass} with {@code args} in a JVM of {@code heap}, output to {@code log},
   * with the JVM's default compilers and collector, as a task's JVM.
   */
  public static Process start(String heap, File log, Class<?> mainClass, String... args)
      throws IOException {
    return start(List.of(), heap, log, mainClass, args);
  }

  /** As {@link #start(String, File, Class, String...)}, started {@link #QUICK_START}. */
  public static Process startQuick(String heap, File log, Class<?> mainClass, String... args)
      throws IOException {
    return start(QUICK_START, heap, log, mainClass, args);
  }

  private static Process start(List<String> options, String heap, File log,
      Class<?> mainClass, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(ProcessHandle.current().info().command().orElse("java")).toString());
    cmd.add("-Xmx" + heap);
    cmd.add("-XX:+ExitOnOutOfMemoryError");
    cmd.addAll(HADOOP_JAVA17_OPTS); // as `hadoop jar` would start it
    cmd.addAll(options);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass.getName());
    cmd.addAll(Arrays.asList(args));
    log.getParentFile().mkdirs();
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.to(log)).start();
  }

  /** Runs it to the end (at most {@code timeoutSeconds}). */
  public static Result run(String heap, File log, long timeoutSeconds, Class<?> mainClass,
      String... args) throws IOException, InterruptedException {
    Process p = start(heap, log, mainClass, args);
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new IOException(mainClass.getSimpleName() + " " + String.join(" ", args)
          + " did not finish in " + timeoutSeconds + " s; see " + log);
    }
    return new Result(p.exitValue(), new String(Files.readAllBytes(log.toPath()),
        StandardCharsets.UTF_8));
  }
}
