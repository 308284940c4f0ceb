package org.opass.tools.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.apache.log4j.spi.ThrowableInformation;

/**
 * Watches every log line of the JVM (the NameNode and DataNodes run in it) for an exception
 * that passed through our code and was logged by Hadoop's: that is an exception of ours that
 * reached a NameNode handler or thread (the IPC server logs what a call threw, daemons log what
 * killed them). Our own code logs its fallbacks under {@code org.opass}; those are counted by
 * the plugins and are not what this looks for.
 */
final class LogWatch extends AppenderSkeleton implements AutoCloseable {
  private static final int KEPT = 5;
  private final AtomicLong escaped = new AtomicLong();
  private final List<String> samples = new ArrayList<>();

  static LogWatch install() {
    LogWatch w = new LogWatch();
    w.setName("opass-soak-logwatch");
    Logger.getRootLogger().addAppender(w);
    return w;
  }

  @Override
  protected void append(LoggingEvent event) {
    ThrowableInformation info = event.getThrowableInformation();
    if (info == null || event.getLoggerName().startsWith("org.opass")) {
      return;
    }
    String loggedIn = event.getLocationInformation().getClassName();
    for (Throwable t = info.getThrowable(); t != null; t = t.getCause()) {
      StackTraceElement ours = passedThroughOurs(t.getStackTrace(), loggedIn);
      if (ours != null) {
        escaped.incrementAndGet();
        synchronized (samples) {
          if (samples.size() < KEPT) {
            samples.add(event.getLoggerName() + ": " + event.getRenderedMessage() + ": " + t
                + " at " + ours);
          }
        }
        return;
      }
    }
  }

  /**
   * The frame of our code the exception passed through before the code that logged it caught
   * it, or null. Frames below the logging one are the callers of the code that logged it: an
   * exception Hadoop caught and logged inside a call from ours (a failed group lookup while
   * our plan service checks a user) never reached our code. When the logging frame is not in
   * the trace (the exception came from another thread), any frame of ours counts.
   */
  private static StackTraceElement passedThroughOurs(StackTraceElement[] trace, String loggedIn) {
    int logged = trace.length;
    for (int i = 0; i < trace.length; i++) {
      String c = trace[i].getClassName();
      if (c.equals(loggedIn) || c.startsWith(loggedIn + "$")) {
        logged = i;
        break;
      }
    }
    for (int i = 0; i < logged; i++) {
      String c = trace[i].getClassName();
      if (c.startsWith("org.opass.") && !c.startsWith("org.opass.e2e.")) {
        return trace[i];
      }
    }
    return null;
  }

  /** Exceptions of ours that Hadoop's code logged. */
  long escaped() {
    return escaped.get();
  }

  List<String> samples() {
    synchronized (samples) {
      return new ArrayList<>(samples);
    }
  }

  @Override
  public boolean requiresLayout() {
    return false;
  }

  @Override
  public void close() {
    Logger.getRootLogger().removeAppender(this);
  }
}
