package org.opass.read.wire;

import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * A read-plan request the NameNode will not serve, on both sides of the wire: the NameNode
 * throws it and answers with its {@link #status}, {@code {"error": message}} (with
 * {@link PlanWire#HA_STATE} when it has one) and {@code Retry-After}; the client reads that
 * answer back into one. The message names the problem, never an exception's text or a stack
 * trace. 429 (the caller's share of plans is used up) and 503 (busy, every share used up, or a
 * NameNode that is not active) say when to retry.
 *
 * <p>The values are not checked: the client reports whatever answer came, as it came.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class PlanRefusedException extends IOException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final int retryAfterSeconds;
  private final String haState;

  public PlanRefusedException(int status, String message) {
    this(status, message, 0);
  }

  /** @param retryAfterSeconds > 0 to send {@code Retry-After} (busy, quota, safe mode) */
  public PlanRefusedException(int status, String message, int retryAfterSeconds) {
    this(status, message, retryAfterSeconds, null);
  }

  /** @param haState the NameNode's HA state, when it refuses as one that does not serve plans */
  public PlanRefusedException(int status, String message, int retryAfterSeconds,
      String haState) {
    super(message);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
    this.haState = haState;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** Seconds after which a retry may succeed ({@code Retry-After}); 0 for none. */
  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /** With a 503 from a NameNode that is not active: its HA state; otherwise null. */
  public String haState() {
    return haState;
  }
}
