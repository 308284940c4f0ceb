package org.opass.mrap.index;

import java.util.Objects;

/**
 * A variable an index leaves out of a file's set, or a series' combined set, and why: what the
 * report beside the index lists ({@code file}, {@code variable}, {@code reason}). An immutable
 * value.
 */
public final class Refusal {
  private final String file;
  private final String variable;
  private final String reason;

  public Refusal(String file, String variable, String reason) {
    this.file = Objects.requireNonNull(file, "file");
    this.variable = Objects.requireNonNull(variable, "variable");
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public String file() {
    return file;
  }

  public String variable() {
    return variable;
  }

  public String reason() {
    return reason;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Refusal)) {
      return false;
    }
    Refusal r = (Refusal) o;
    return file.equals(r.file) && variable.equals(r.variable) && reason.equals(r.reason);
  }

  @Override
  public int hashCode() {
    return Objects.hash(file, variable, reason);
  }

  @Override
  public String toString() {
    return file + ": " + variable + ": " + reason;
  }
}
