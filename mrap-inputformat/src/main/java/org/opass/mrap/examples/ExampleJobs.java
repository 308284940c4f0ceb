package org.opass.mrap.examples;

import org.opass.cli.Subcommands;

/**
 * The entry point of the {@code mrap-inputformat} jar: {@code hadoop jar
 * mrap-inputformat-*.jar COMMAND [generic options] ARGS}, with {@code --help} listing the
 * example jobs.
 */
public final class ExampleJobs {
  private ExampleJobs() {
  }

  public static void main(String[] args) {
    new Subcommands("mrap-inputformat")
        .add("extract", "the regions an access pattern names, in one map-only phase",
            ExtractRegions::new)
        .add("join", "two inputs matched by key in one map-only phase", JoinOnKey::new)
        .add("slab-stats", "per first index, count, mean, min and max of a NetCDF or HDF5 "
            + "variable's slab", SlabStats::new)
        .main(args);
  }
}
