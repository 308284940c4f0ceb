package org.opass.e2e.bench;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM driven a line at a time on its stdin (the Spark applications of the benches and
 * the tour): how it ended, and how it is told to quit.
 */
public final class DrivenProcess {
  private DrivenProcess() {
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
