package org.opass.mrap.settings;

/**
 * A selection by value ({@value VariableSettings#SELECT}) that picks nothing in any file: an
 * error where a user wrote the selection, an empty answer where a query's filters made it
 * (Spark's pushed filters).
 */
public final class NothingSelectedException extends InvalidSettingsException {
  private static final long serialVersionUID = 1L;

  public NothingSelectedException(String message) {
    super(message);
  }
}
