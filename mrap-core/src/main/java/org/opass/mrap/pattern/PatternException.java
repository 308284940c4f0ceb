package org.opass.mrap.pattern;

/**
 * A pattern property that is missing, malformed or out of range, or a pattern that does not
 * fit its file. The message names the property and the value, and says what would be valid.
 */
public final class PatternException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String property;

  public PatternException(String property, String message) {
    super(property + ": " + message);
    this.property = property;
  }

  /** The configuration property at fault. */
  public String property() {
    return property;
  }
}
