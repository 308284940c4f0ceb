package org.opass.heatmap;

import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;

/**
 * What a NameNode plugin of ours does when its own code fails and it falls back to stock
 * behaviour: count it in the heatmap (JMX {@code Fallbacks}) and log the first one only, so
 * that a persistent fault cannot flood the NameNode log.
 */
public final class FallbackLog {
  private final Logger log;
  private final String message;
  private final AtomicBoolean logged = new AtomicBoolean();

  /** @param message what failed and what happens instead */
  public FallbackLog(Logger log, String message) {
    this.log = log;
    this.message = message;
  }

  public void record(Heatmap heatmap, Throwable cause) {
    try {
      if (heatmap != null) {
        heatmap.countFallback();
      }
    } catch (RuntimeException ignored) {
      // the heatmap itself is what failed
    }
    if (logged.compareAndSet(false, true)) {
      log.warn(message + " (logged once)", cause);
    }
  }
}
