package org.opass.e2e;

/**
 * How many seeded cases a property or fuzz test runs. All of them on the default Hadoop
 * release, where the cases hunt rare defects; a quarter where {@code bin/compat} runs the tests
 * on the other releases ({@code -Dopass.tests.compat=true}), where they show that the same code
 * behaves the same on that release's Hadoop, and CI's time is better spent elsewhere.
 */
public final class SeededCases {
  /** The system property {@code bin/compat} sets for a release other than the default one. */
  public static final String COMPAT = "opass.tests.compat";

  private SeededCases() {
  }

  /** Whether this is a compatibility run ({@code bin/compat} on a release not the default). */
  public static boolean compatRun() {
    return Boolean.getBoolean(COMPAT);
  }

  /** {@code full}, or a quarter of it (at least one) in a compatibility run. */
  public static int of(int full) {
    return Boolean.getBoolean(COMPAT) ? Math.max(1, full / 4) : full;
  }
}
