package org.opass.mrap.copy;

import java.io.IOException;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;

/**
 * A copy that cannot be made, with a message naming the file, property or argument at fault.
 * {@link #usage()} tells a mistake in what was asked (exit code 2: a bad pattern, a missing
 * source, an existing destination) from a failure while copying (exit code 1).
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class CopyException extends IOException {
  private static final long serialVersionUID = 1L;
  private final boolean usage;

  public CopyException(boolean usage, String message) {
    super(message);
    this.usage = usage;
  }

  public CopyException(boolean usage, String message, Throwable cause) {
    super(message, cause);
    this.usage = usage;
  }

  /** True for a mistake in what was asked, false for a failure while copying. */
  public boolean usage() {
    return usage;
  }
}
