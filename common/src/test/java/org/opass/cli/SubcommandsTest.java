package org.opass.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.junit.jupiter.api.Test;

class SubcommandsTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final List<String> seen = new ArrayList<>();

  /** Records its arguments and the value of key "k" it was given. */
  private final class Echo extends Configured implements Tool {
    @Override
    public int run(String[] args) {
      seen.add(String.join(" ", args) + " k=" + getConf().get("k"));
      return 7;
    }
  }

  private int run(String... args) throws Exception {
    return new Subcommands("demo").add("echo", "says what it got", Echo::new)
        .add("other", "another", Echo::new)
        .run(new Configuration(false), args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void aCommandRunsThroughToolRunnerWithGenericOptions() throws Exception {
    assertEquals(7, run("echo", "-D", "k=v", "a", "b"));
    assertEquals(List.of("a b k=v"), seen);
  }

  @Test
  void helpListsTheCommands() throws Exception {
    assertEquals(0, run("--help"));
    String usage = out.toString(StandardCharsets.UTF_8);
    assertTrue(usage.contains("hadoop jar demo-*.jar COMMAND") && usage.contains("echo")
        && usage.contains("says what it got") && usage.contains("other"), usage);
  }

  @Test
  void aMissingOrUnknownCommandIsAUsageError() throws Exception {
    assertEquals(2, run());
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("name a command"));
    assertEquals(2, run("ehco"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown command 'ehco'"));
    assertTrue(seen.isEmpty());
  }

  @Test
  void commandNamesAreUnique() {
    assertThrows(IllegalArgumentException.class,
        () -> new Subcommands("x").add("a", "", Echo::new).add("a", "", Echo::new));
  }
}
