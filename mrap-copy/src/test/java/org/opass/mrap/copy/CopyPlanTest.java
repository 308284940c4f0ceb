package org.opass.mrap.copy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A copy job's plan: refused bad values, and a source without block locations shared out. */
class CopyPlanTest {
  @TempDir
  File tmp;

  @Test
  void aBadPlanIsRefusedNamingTheValue() {
    String[] two = {"a", ""};
    String[][] cases = {
        {"chunk size (0)", message(() -> CopyPlan.of(0, 10, two, new int[] {0}))},
        {"length (0)", message(() -> CopyPlan.of(4, 0, two, new int[] {0}))},
        {"no writers", message(() -> CopyPlan.of(4, 10, new String[0], new int[3]))},
        {"hosts[1] is null", message(() -> CopyPlan.of(4, 10, new String[] {"a", null},
            new int[3]))},
        {"2 writers given for the 3 chunks", message(() -> CopyPlan.of(4, 10, two,
            new int[2]))},
        {"writerOf[2] (2)", message(() -> CopyPlan.of(4, 10, two, new int[] {0, 1, 2}))}};
    for (String[] c : cases) {
      assertTrue(c[1].contains(c[0]), c[0] + ": " + c[1]);
    }
  }

  private static String message(Runnable r) {
    return assertThrows(IllegalArgumentException.class, r::run).getMessage();
  }

  @Test
  void aPlanIsItsOwn() {
    String[] hosts = {"a", "b"};
    int[] writerOf = {1, 0, 1};
    CopyPlan plan = CopyPlan.of(4, 10, hosts, writerOf);
    hosts[0] = "c";
    writerOf[0] = 0;
    assertEquals("a", plan.host(0));
    assertEquals(1, plan.writerOf(0));
    assertEquals(3, plan.chunks());
    assertEquals(2, plan.writers());
  }

  @Test
  void aLocalSourceIsSharedEvenlyAmongWritersThatMayRunAnywhere() throws Exception {
    File f = new File(tmp, "src");
    Files.write(f.toPath(), new byte[10_000]);
    SourceFile source = SourceFile.of(new Configuration(), new Path(f.toURI()));
    CopyPlan plan = CopyPlan.plan(source, null, 1000, 10_000, 3);
    assertEquals(10, plan.chunks());
    assertEquals(3, plan.writers());
    int[] load = new int[3];
    for (int c = 0; c < plan.chunks(); c++) {
      load[plan.writerOf(c)]++;
    }
    assertArrayEquals(new int[] {4, 3, 3}, load);
    for (int w = 0; w < 3; w++) {
      assertEquals("", plan.host(w));
    }
    assertEquals(1, CopyPlan.plan(source, null, 1000, 500, 3).writers(), "one chunk, one writer");
  }
}
