package org.opass.tools.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM driven a line at a time on its stdin (the Spark applications of the benches and
 * the tour): how it ended, and how it is told to quit.
 */
public final class DrivenProcess {
  private DrivenProcess() {
  }

  /**
   * Starts {@code main} of {@code classpath} in a JVM of its own, with {@code jvmOptions} and
   * the packages spark-submit opens, its stderr to {@code log}.
   */
  public static Process start(List<String> jvmOptions, String classpath, String main,
      List<String> args, File log) throws IOException {
    return start(jvmOptions, classpath, main, args, log, java.util.Map.of());
  }

  /** As above, with {@code env} added to its environment ({@code SPARK_HOME}, say). */
  public static Process start(List<String> jvmOptions, String classpath, String main,
      List<String> args, File log, java.util.Map<String, String> env) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(jvmOptions);
    for (String pkg : List.of("java.lang", "java.lang.invoke", "java.lang.reflect", "java.io",
        "java.net", "java.nio", "java.util", "java.util.concurrent",
        "java.util.concurrent.atomic", "sun.nio.ch", "sun.nio.cs", "sun.security.action",
        "sun.util.calendar")) {
      cmd.add("--add-opens=java.base/" + pkg + "=ALL-UNNAMED"); // what spark-submit opens
    }
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(main);
    cmd.addAll(args);
    log.getParentFile().mkdirs();
    ProcessBuilder b = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.to(log));
    b.environment().putAll(env);
    return b.start();
  }

  /**
   * The process's next line on {@code out} starting with {@code prefix}; each other line (its
   * own output) goes to {@code others}.
   *
   * @throws IOException naming its exit code and {@code log} if it ends first
   */
  public static String answer(Process process, BufferedReader out, File log, String prefix,
      java.util.function.Consumer<String> others) throws IOException {
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith(prefix)) {
        return line;
      }
      others.accept(line);
    }
    throw new IOException("the Spark driver ended (exit " + exitCode(process)
        + ") before saying '" + prefix + "'; its log: " + log);
  }

  /** Its exit code, or "none yet" if it has not ended within 10 s. */
  public static String exitCode(Process process) {
    try {
      return process.waitFor(10, TimeUnit.SECONDS) ? Integer.toString(process.exitValue())
          : "none yet";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "none yet";
    }
  }

  /** Says {@code quit} on its stdin, and ends it if it has not ended {@code seconds} later. */
  public static void quit(Process process, PrintStream in, int seconds) {
    in.println("quit");
    try {
      if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
