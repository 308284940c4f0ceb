package org.opass.mrap.format;

/**
 * A file, variable or slab this reader cannot serve: the message names the file, the variable
 * (where there is one) and why.
 */
public class ScienceFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public ScienceFormatException(String message) {
    super(message);
  }

  public ScienceFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
