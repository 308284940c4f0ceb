package org.opass.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The one entry point of a jar with several commands, as {@code hadoop jar JAR COMMAND
 * [generic options] ARGS}: each command is a Hadoop {@link Tool} run through {@link ToolRunner}
 * (so {@code -D}, {@code -conf}, {@code -fs} work), {@code --help} lists the commands, and an
 * unknown or missing command is a usage error (exit code 2). Like Hadoop's
 * {@code ProgramDriver}, without its reflection and with exit codes that say what went wrong.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class Subcommands {
  private final String jar;
  private final Map<String, Command> commands = new LinkedHashMap<>();

  private static final class Command {
    final String summary;
    final Supplier<Tool> tool;

    Command(String summary, Supplier<Tool> tool) {
      this.summary = summary;
      this.tool = tool;
    }
  }

  /** @param jar how the jar is named in messages ({@code opass-client}) */
  public Subcommands(String jar) {
    this.jar = jar;
  }

  /** Adds command {@code name}, described in one line by {@code summary}. */
  public Subcommands add(String name, String summary, Supplier<Tool> tool) {
    if (commands.putIfAbsent(name, new Command(summary, tool)) != null) {
      throw new IllegalArgumentException("two commands named " + name);
    }
    return this;
  }

  /** Runs the command {@code args[0]} names with the rest; returns its exit code. */
  public int run(Configuration conf, String[] args, PrintStream out, PrintStream err)
      throws Exception {
    if (args.length == 0) {
      err.println(jar + ": name a command\n" + usage());
      return 2;
    }
    String name = args[0];
    if (name.equals("-h") || name.equals("--help") || name.equals("help")) {
      out.println(usage());
      return 0;
    }
    Command c = commands.get(name);
    if (c == null) {
      err.println(jar + ": unknown command '" + name + "'\n" + usage());
      return 2;
    }
    return ToolRunner.run(conf, c.tool.get(), Arrays.copyOfRange(args, 1, args.length));
  }

  /** {@link #run} on the JVM's streams, then exits with its code (for {@code main}). */
  public void main(String[] args) {
    int code;
    try {
      code = run(new Configuration(), args, System.out, System.err);
    } catch (Exception e) {
      System.err.println(jar + ": " + e);
      code = 1;
    }
    System.exit(code);
  }

  String usage() {
    StringBuilder sb = new StringBuilder("usage: hadoop jar " + jar
        + "-*.jar COMMAND [generic options] [ARGS]  (COMMAND --help for its own)\ncommands:");
    commands.forEach((name, c) -> sb.append(String.format("%n  %-10s %s", name, c.summary)));
    return sb.toString();
  }
}
