package org.opass.read.cli;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.cli.Subcommands;

/**
 * The entry point of the {@code opass-read} jar: {@code hadoop jar opass-read-*.jar COMMAND
 * [generic options] ARGS}, with {@code --help} listing the commands.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class ReadCommands {
  private ReadCommands() {
  }

  public static void main(String[] args) {
    new Subcommands("opass-read")
        .add("plan", "which process reads which chunk of the given files (Opass planner)",
            PlanCli::new)
        .main(args);
  }
}
