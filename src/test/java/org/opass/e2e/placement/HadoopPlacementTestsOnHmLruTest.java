package org.opass.e2e.placement;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.annotation.Annotation;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.rules.TestRule;
import org.junit.runner.Description;
import org.junit.runners.model.Statement;
import org.opass.e2e.SeededCases;
import org.opass.placement.HmLruPlacementPolicy;

/**
 * Hadoop's own tests of the default placement policy, from the {@code hadoop-hdfs} test jar of
 * the release we build against, run on {@link HmLruPlacementPolicy}: every invariant they
 * check of the default (rack fault tolerance, the writer's node first, favored and excluded
 * nodes, storage types and policies, stale, decommissioning, slow and overloaded nodes, max
 * replicas a rack) must hold for HM-LRU too. Each class is parameterized by the policy's class
 * name ({@code @Parameterized} up to Hadoop 3.4, {@code @ParameterizedClass} in 3.5), so each
 * is constructed here with ours and its test methods run as dynamic tests, with its set-up and
 * tear-down and, up to 3.4, its JUnit 4 rules. Where HM-LRU decides otherwise by design
 * ({@link #BY_DESIGN}), the test must fail, and only with an assertion: if it passes, the
 * difference is gone and the list is out of date.
 */
class HadoopPlacementTestsOnHmLruTest {
  private static final String PACKAGE = "org.apache.hadoop.hdfs.server.blockmanagement.";
  /** The family's classes that test {@code BlockPlacementPolicyDefault}'s behaviour. */
  private static final List<String> FAMILY = List.of("TestReplicationPolicy",
      "TestReplicationPolicyConsiderLoad", "TestReplicationPolicyExcludeSlowNodes");
  private static final Set<String> TEST = Set.of("org.junit.Test", "org.junit.jupiter.api.Test");
  private static final Set<String> BEFORE =
      Set.of("org.junit.Before", "org.junit.jupiter.api.BeforeEach");
  private static final Set<String> AFTER =
      Set.of("org.junit.After", "org.junit.jupiter.api.AfterEach");
  /** Tests whose expectation HM-LRU departs from, and why (docs/operating.md says so too). */
  private static final Map<String, String> BY_DESIGN = Map.of(
      "TestReplicationPolicy#testChooseTarget1", "its writer's DataNode has 4 transfers in "
          + "flight and the others none: above opass.placement.hmlru.local.max-heat-ratio (2) "
          + "times the mean heat, so HM-LRU puts the first replica on a cooler node of the "
          + "writer's rack, where the default keeps it on the writer's node");

  /**
   * On the default release, and in a compatibility run on 3.5 (JUnit 5 tests, the newest
   * default policy); 3.3 and 3.4.1 run HM-LRU's own invariant tests
   * ({@code HmLruPolicySimulatedTest}), for CI's time.
   */
  @TestFactory
  List<DynamicTest> hadoopsPlacementTestsPassOnHmLru() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeFalse(SeededCases.compatRun()
        && !VersionInfo.getVersion().startsWith("3.5."), "run on the default release and 3.5");
    List<DynamicTest> tests = new ArrayList<>();
    for (String name : FAMILY) {
      Class<?> c = Class.forName(PACKAGE + name);
      Constructor<?> make = c.getConstructor(String.class);
      for (Method m : annotated(c, TEST)) {
        String test = name + "#" + m.getName();
        String why = BY_DESIGN.get(test);
        tests.add(DynamicTest.dynamicTest(test, why == null ? () -> run(make, m)
            : () -> assertThrows(AssertionError.class, () -> run(make, m), why)));
      }
    }
    // all three classes found their tests (39, 2 and 2 in Hadoop 3.4.2)
    assertTrue(tests.size() >= 30, tests.size() + " tests found");
    return tests;
  }

  /** One test method on a new instance constructed with HM-LRU, as its runner would. */
  private static void run(Constructor<?> make, Method test) throws Throwable {
    Object instance = make.newInstance(HmLruPlacementPolicy.class.getName());
    List<Method> before = annotated(instance.getClass(), BEFORE);
    List<Method> after = annotated(instance.getClass(), AFTER);
    Statement body = new Statement() {
      @Override
      public void evaluate() throws Throwable {
        invoke(test, instance);
      }
    };
    for (Field f : rules(instance.getClass())) { // JUnit 4's @Rule fields (ExpectedException)
      body = ((TestRule) f.get(instance)).apply(body, Description.EMPTY);
    }
    for (Method m : before) {
      invoke(m, instance);
    }
    try {
      body.evaluate();
    } finally {
      for (Method m : after) {
        invoke(m, instance);
      }
    }
  }

  private static void invoke(Method m, Object instance) throws Throwable {
    try {
      m.invoke(instance);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** {@code c}'s public methods with one of {@code annotations}, its superclasses' first. */
  private static List<Method> annotated(Class<?> c, Set<String> annotations) {
    List<Method> out = new ArrayList<>();
    for (Method m : c.getMethods()) {
      for (Annotation a : m.getAnnotations()) {
        if (annotations.contains(a.annotationType().getName())
            && !Modifier.isStatic(m.getModifiers())) {
          out.add(m);
        }
      }
    }
    out.sort(Comparator.comparing((Method m) -> depth(m.getDeclaringClass()))
        .thenComparing(Method::getName));
    return out;
  }

  private static int depth(Class<?> c) {
    int d = 0;
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      d++;
    }
    return d;
  }

  private static List<Field> rules(Class<?> c) {
    List<Field> out = new ArrayList<>();
    for (Field f : c.getFields()) {
      for (Annotation a : f.getAnnotations()) {
        if (a.annotationType().getName().equals("org.junit.Rule")
            && TestRule.class.isAssignableFrom(f.getType())) {
          out.add(f);
        }
      }
    }
    return out;
  }
}
