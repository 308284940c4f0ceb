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
  private final String haState;

  public PlanRequestException(int status, String message) {
    this(status, message, 0);
  }

  /** @param retryAfterSeconds > 0 to send {@code Retry-After} (busy, quota, standby) */
  public PlanRequestException(int status, String message, int retryAfterSeconds) {
    this(status, message, retryAfterSeconds, null);
  }

  private PlanRequestException(int status, String message, int retryAfterSeconds,
      String haState) {
    super(message, null, false, false);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
    this.haState = haState;
  }

  /** 503 from a NameNode in {@code haState} (standby, observer): plans live on the active. */
  static PlanRequestException notServing(String haState) {
    return new PlanRequestException(503, "this NameNode is " + haState + "; read plans are made "
        + "and listed by the active NameNode of the nameservice: ask it (an observer keeps "
        + "copies of the active's plans: POST ?id=)", 0, haState);
  }

  public int status() {
    return status;
  }

  /** Seconds after which a retry may succeed; 0 for none. */
  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /** The NameNode's HA state when it refused as not active ({@link #notServing}), else null. */
  public String haState() {
    return haState;
  }
}
