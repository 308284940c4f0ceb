package org.opass.read.cli;

import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.opass.cli.Subcommands;
import org.opass.heatmap.cli.HeatTableCli;

/**
 * The entry point of the {@code opass-client} jar: {@code hadoop jar opass-client-*.jar COMMAND
 * [generic options] ARGS}, with {@code --help} listing the commands.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
public final class OpassCommands {
  private OpassCommands() {
  }

  public static void main(String[] args) {
    new Subcommands("opass-client")
        .add("plan", "which process reads which chunk of the given files (Opass planner)",
            PlanCli::new)
        .add("heat", "the per-DataNode heat table of a running NameNode, from its /jmx",
            HeatTableCli::new)
        .main(args);
  }
}
