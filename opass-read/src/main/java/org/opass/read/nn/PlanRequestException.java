package org.opass.read.nn;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * A read-plan request the NameNode will not serve, with the HTTP status to answer and a
 * message for the caller that names the problem (never an exception's text or a stack trace).
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class PlanRequestException extends Exception {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final int retryAfterSeconds;

  public PlanRequestException(int status, String message) {
    this(status, message, 0);
  }

  /** @param retryAfterSeconds > 0 to send {@code Retry-After} (busy, quota, standby) */
  public PlanRequestException(int status, String message, int retryAfterSeconds) {
    super(message, null, false, false);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  public int status() {
    return status;
  }

  /** Seconds after which a retry may succeed; 0 for none. */
  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
