package org.opass.mrap.copy;

import java.util.Locale;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.opass.conf.StrictConf;

/**
 * The options of {@code mrap-copy}, as DistCp's {@code DistCpOptionSwitch} holds DistCp's: each
 * option's flag, its argument (null for a flag alone), the key a copy job is given it under
 * (null if the job has no use for it) and its help text, and what it sets. The usage text
 * ({@link MrapCopy#usage}), the parsing of the command line and the job's configuration
 * ({@link ParallelCopy}) are made from these, in this order.
 */
@InterfaceAudience.Private
@InterfaceStability.Unstable
enum CopyOptionSwitch {
  PATTERN("-pattern", "FILE", null, "restructure for the access pattern in this Hadoop XML "
      + "file, local unless it names its file system (strided.*, mrap.pattern.*; -D works too; "
      + "kind tiled stores each tile in one piece), or for a NetCDF or HDF5 variable's slab or "
      + "tiles (mrap.pattern.kind=netcdf|hdf5, mrap.science.variable, mrap.science.slab or "
      + "mrap.science.tile)") {
    @Override
    void parse(String file, MrapCopy.Arguments into) {
      into.patternFile = file;
    }
  },
  PACK("-pack", null, null, "pack the variable's slab of every source into one container, "
      + "DST (the regions of many small files share chunks; VariableInputFormat reads it, each "
      + "record naming its file as DST/name; mrap-copy DST FOLDER copies the files back out); "
      + "a Zarr store's chunk files into block-sized containers and a reference set") {
    @Override
    void parse(String none, MrapCopy.Arguments into) {
      into.pack = true;
    }
  },
  TASK_BYTES("-task-bytes", "N", null, "bytes one map task reads, in whole chunks (default: "
      + "one chunk, the block size)") {
    @Override
    void parse(String bytes, MrapCopy.Arguments into) throws CopyException {
      try {
        into.options.taskBytes(StrictConf.parseBytes(flag(), bytes, 1));
      } catch (IllegalArgumentException e) {
        throw new CopyException(true, flag() + " '" + StrictConf.shorten(bytes) + "': give "
            + "a byte count > 0 (ASCII digits, k, m, g or t suffix)");
      }
    }
  },
  MODE("-mode", "M", null, "single: one stream from here; parallel: a MapReduce job of chunk "
      + "writers joined by concat (into HDFS); auto (default): parallel from a cluster file "
      + "system once a file reaches " + CopySettings.PARALLEL_BYTES + " (default 1g), else "
      + CopySettings.THREADS + " streams from here (default 4) joined by concat into HDFS") {
    @Override
    void parse(String mode, MrapCopy.Arguments into) throws CopyException {
      for (CopyOptions.Mode m : CopyOptions.Mode.values()) {
        if (m.name().equalsIgnoreCase(mode)) {
          into.options.mode(m);
          return;
        }
      }
      throw new CopyException(true, flag() + " " + mode + ": give auto, single or parallel");
    }

    /** The modes themselves: {@code [-mode auto|single|parallel]}. */
    @Override
    String synopsis() {
      StringBuilder modes = new StringBuilder();
      for (CopyOptions.Mode m : CopyOptions.Mode.values()) {
        modes.append(modes.length() == 0 ? "" : "|").append(m.name().toLowerCase(Locale.ROOT));
      }
      return "[" + flag() + " " + modes + "]";
    }
  },
  OVERWRITE("-overwrite", null, CopyJobKeys.OVERWRITE, "replace an existing destination") {
    @Override
    void parse(String none, MrapCopy.Arguments into) {
      into.options.overwrite(true);
    }

    @Override
    void addToConf(Configuration conf, CopyOptions options) {
      conf.setBoolean(confKey(), options.overwrite());
    }
  },
  NO_VERIFY("-no-verify", null, CopyJobKeys.VERIFY, "skip the checksum comparison after the "
      + "copy") {
    @Override
    void parse(String none, MrapCopy.Arguments into) {
      into.options.verify(false);
    }

    /** The job is told whether to verify. */
    @Override
    void addToConf(Configuration conf, CopyOptions options) {
      conf.setBoolean(confKey(), options.verify());
    }
  };

  private final String flag;
  private final String argument;
  private final String confKey;
  private final String help;

  CopyOptionSwitch(String flag, String argument, String confKey, String help) {
    this.flag = flag;
    this.argument = argument;
    this.confKey = confKey;
    this.help = help;
  }

  /** The option on a command line, {@code -mode}. */
  String flag() {
    return flag;
  }

  boolean takesArgument() {
    return argument != null;
  }

  /** The key a copy job is given the option under, or null. */
  String confKey() {
    return confKey;
  }

  String help() {
    return help;
  }

  /** The option as its help line names it: {@code -mode M}. */
  String label() {
    return argument == null ? flag : flag + " " + argument;
  }

  /** The option as the usage line shows it: {@code [-task-bytes N]}. */
  String synopsis() {
    return "[" + label() + "]";
  }

  /**
   * Sets the option in {@code into}.
   *
   * @param value its argument, or null for an option that takes none
   * @throws CopyException (usage) naming a bad argument
   */
  abstract void parse(String value, MrapCopy.Arguments into) throws CopyException;

  /** Gives a copy job the option's value, under {@link #confKey()}; nothing if it has none. */
  void addToConf(Configuration conf, CopyOptions options) {
  }

  /** The option of that flag, or null. */
  static CopyOptionSwitch forFlag(String flag) {
    for (CopyOptionSwitch s : values()) {
      if (s.flag.equals(flag)) {
        return s;
      }
    }
    return null;
  }
}
