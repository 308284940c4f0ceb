package org.opass.mrap.settings;

import java.io.IOException;

/**
 * A setting of a read or copy that cannot be served, its message naming the key (and, for a
 * file that cannot serve it, the file). The MapReduce InputFormats hand it on as Hadoop's
 * {@code InvalidJobConfException} with the same message; Spark as an
 * {@code IllegalArgumentException}; {@code mrap-copy} as exit code 2.
 */
public class InvalidSettingsException extends IOException {
  private static final long serialVersionUID = 1L;

  public InvalidSettingsException(String message) {
    super(message);
  }

  public InvalidSettingsException(String message, Throwable cause) {
    super(message, cause);
  }
}
