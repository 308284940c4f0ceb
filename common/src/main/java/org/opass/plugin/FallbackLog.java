package org.opass.plugin;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.slf4j.Logger;

/**
 * What a NameNode plugin of ours does when its own code fails and it falls back to stock
 * behaviour: count it (the heatmap's JMX {@code Fallbacks}) and log the first one only, so
 * that a persistent fault cannot flood the NameNode log.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class FallbackLog {
  /** Where fallbacks are counted (the heatmap, which JMX shows). */
  public interface Counter {
    void countFallback();
  }

  private final Logger log;
  private final String message;
  private final AtomicBoolean logged = new AtomicBoolean();

  /** @param message what failed and what happens instead */
  public FallbackLog(Logger log, String message) {
    this.log = log;
    this.message = message;
  }

  /** @param counter may be null (nothing to count in yet) */
  public void record(Counter counter, Throwable cause) {
    try {
      if (counter != null) {
        counter.countFallback();
      }
    } catch (RuntimeException ignored) {
      // the counter (the heatmap) itself is what failed
    }
    if (logged.compareAndSet(false, true)) {
      log.warn(message + " (logged once)", cause);
    }
  }
}
