package org.opass.mrap.copy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.opass.mrap.format.SlabPlan;
import org.opass.mrap.fs.HdfsStore;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.PatternException;
import org.opass.mrap.pattern.PatternFile;
import org.opass.mrap.plan.FilePlan;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.MrapConf;
import org.opass.mrap.settings.VariableSettings;

/**
 * {@code hadoop jar mrap-copy.jar [generic options] [-pattern pattern.xml] SRC... DST}: copies
 * files into a file system, restructured for an access pattern when one is given (MRAP thesis
 * §4.3.2): the regions each map task of the pattern reads are packed into whole chunks (a
 * tiled pattern's array is stored tile by tile instead), and the layout is stored in the
 * file, so that {@code AccessInputFormat} with the same pattern reads each task's data
 * contiguously. Without {@code -pattern} it is a plain copy; a restructured source is copied as
 * its original bytes. A large copy from a cluster file system into HDFS runs as a MapReduce
 * job of chunk writers joined by {@code concat} (CHAIO's aggregator selection; {@code -mode}).
 * Sources are files of any Hadoop file system. One source: DST is the new file (or an existing
 * folder to copy into); several: DST is a folder.
 *
 * <p>Exit codes: 0 copied, 1 a copy failed (nothing published), 2 a mistake in what was asked
 * (a bad option or pattern, a missing source, an existing destination), named.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class MrapCopy extends Configured implements Tool {
  static final String NAME = "mrap-copy";
  private static final List<String> HELP = Arrays.asList("-h", "-help", "--help");

  private final PrintStream out;
  private final PrintStream err;

  public MrapCopy() {
    this(System.out, System.err);
  }

  /** A copy tool that prints its results to {@code out} and its messages to {@code err}. */
  public MrapCopy(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** The usage text: the synopsis and a line of help per option ({@link CopyOptionSwitch}). */
  static String usage() {
    StringBuilder synopsis = new StringBuilder("usage: hadoop jar mrap-copy.jar [generic "
        + "options]");
    StringBuilder help = new StringBuilder();
    for (CopyOptionSwitch option : CopyOptionSwitch.values()) {
      synopsis.append(' ').append(option.synopsis());
      help.append(helpLine(option.label(), option.help()));
    }
    return synopsis + " SRC... DST\n" + help
        + helpLine("SRC...", "files of any file system (file://, hdfs://, another cluster); a "
            + "container stands for its files; a Zarr store's folder is copied whole")
        + helpLine("DST", "the new file, or a folder for several sources")
        + "exit codes: 0 copied, 1 a copy failed (nothing published), 2 a mistake in what was "
        + "asked";
  }

  private static String helpLine(String what, String help) {
    return String.format(Locale.ROOT, "  %-18s%s\n", what, help);
  }

  /** A command line, parsed. */
  static final class Arguments {
    final CopyOptions.Builder options = CopyOptions.builder();
    /** The sources, then the destination. */
    final List<String> paths = new ArrayList<>();
    String patternFile;
    boolean pack;
    boolean help;

    /**
     * @throws CopyException (usage) for an unknown option, a missing or bad argument
     */
    static Arguments parse(String[] args) throws CopyException {
      Arguments parsed = new Arguments();
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (HELP.contains(a)) {
          parsed.help = true;
          return parsed;
        }
        CopyOptionSwitch option = CopyOptionSwitch.forFlag(a);
        if (option != null) {
          String value = null;
          if (option.takesArgument()) {
            if (++i >= args.length) {
              throw new CopyException(true, a + " needs a value");
            }
            value = args[i];
          }
          option.parse(value, parsed);
        } else if (a.startsWith("-") && a.length() > 1) {
          throw new CopyException(true, "unknown option '" + a + "'");
        } else {
          parsed.paths.add(a);
        }
      }
      return parsed;
    }
  }

  @Override
  public int run(String[] args) throws Exception {
    Configuration conf = getConf();
    try {
      Arguments parsed = Arguments.parse(args);
      if (parsed.help) {
        out.println(usage());
        return 0;
      }
      List<String> paths = parsed.paths;
      String patternFile = parsed.patternFile;
      if (paths.size() < 2) {
        throw new CopyException(true, "name at least one source and the destination");
      }
      Configuration variable = null; // the settings of a NetCDF or HDF5 variable's slab
      if (patternFile != null || hasPatternKeys(conf)) {
        Configuration withPattern = new Configuration(conf);
        if (patternFile != null) {
          // a local file unless it names its file system, as -conf is; read by our own strict
          // parser: no entity, no include, nothing but properties
          Path p = new Path(patternFile);
          FileSystem fs = p.toUri().getScheme() == null
              ? FileSystem.get(java.net.URI.create("file:///"), conf)
              : p.getFileSystem(conf);
          Map<String, String> props;
          try (InputStream in = fs.open(p)) {
            props = PatternFile.read(in, "-pattern " + patternFile);
          } catch (FileNotFoundException e) {
            throw new CopyException(true, "-pattern " + patternFile + ": no such file");
          } catch (PatternException e) {
            throw new CopyException(true, e.getMessage(), e);
          }
          props.forEach(withPattern::set);
        }
        try {
          if (isVariable(withPattern)) {
            VariableSettings.check(withPattern);
            variable = withPattern;
          } else {
            parsed.options.pattern(MrapConf.pattern(withPattern));
          }
        } catch (InvalidSettingsException | IllegalArgumentException e) {
          throw new CopyException(true, e.getMessage(), e);
        }
      }
      CopyOptions o = parsed.options.build();
      List<String> srcs = paths.subList(0, paths.size() - 1);
      for (String s : srcs) {
        if (ZarrStoreCopy.isStore(conf, new Path(s))) {
          return copyStore(conf, srcs, paths.get(paths.size() - 1), parsed, o,
              variable != null || patternFile != null || hasPatternKeys(conf));
        }
      }
      // a container stands for its members: copied out, or packed again
      List<SourceFile> sources = new ArrayList<>();
      for (String s : paths.subList(0, paths.size() - 1)) {
        SourceFile f = SourceFile.of(conf, new Path(s));
        List<SourceFile> members = f.members();
        sources.addAll(members != null ? members : List.of(f));
      }
      Path dst = new Path(paths.get(paths.size() - 1));
      if (parsed.pack) {
        pack(conf, sources, dst, o, variable);
        return 0;
      }
      FileSystem dstFs = dst.getFileSystem(conf);
      boolean intoFolder = sources.size() > 1
          || (dstFs.exists(dst) && dstFs.getFileStatus(dst).isDirectory());
      List<PatternConfig> slabs = variable == null ? null : slabsOf(variable, sources);
      for (int i = 0; i < sources.size(); i++) {
        SourceFile src = sources.get(i);
        Path target = intoFolder ? new Path(dst, src.name()) : dst;
        long t0 = System.nanoTime();
        RestructuringCopy.Result r = RestructuringCopy.copy(conf, src, target,
            slabs == null ? o : o.withPattern(slabs.get(i)), progressLine(src));
        report(src.toString(), r, t0, "");
      }
      return 0;
    } catch (CopyException e) {
      err.println(NAME + ": " + e.getMessage());
      if (e.usage() && e.getMessage().startsWith("name at least")) {
        err.println(usage());
      }
      return e.usage() ? 2 : 1;
    } catch (IOException e) {
      err.println(NAME + ": the copy failed: " + e.getMessage());
      return 1;
    } catch (RuntimeException e) { // ours or Hadoop's: a failure, said as one
      err.println(NAME + ": the copy failed: " + e);
      return 1;
    }
  }

  /**
   * {@code -pack}: the sources' regions of the variable's slab packed into one container.
   *
   * @throws CopyException (usage) without a variable, with tiles, or for sources that cannot
   *     share a container (two of one name)
   */
  private void pack(Configuration conf, List<SourceFile> sources, Path dst, CopyOptions o,
      Configuration variable) throws IOException {
    if (variable == null) {
      throw new CopyException(true, "-pack packs the slab of a NetCDF or HDF5 variable of "
          + "each file: set " + PatternConfig.KIND + "=netcdf|hdf5 and "
          + VariableSettings.VARIABLE + " (-D or -pattern)");
    }
    if (variable.get(VariableSettings.TILE) != null) {
      throw new CopyException(true, "-pack packs a slab; " + VariableSettings.TILE
          + " stores a file of its own tile by tile: leave out one of them");
    }
    List<AccessPattern> patterns = new ArrayList<>();
    for (PatternConfig slab : slabsOf(variable, sources)) {
      patterns.add(slab.pattern());
    }
    long t0 = System.nanoTime();
    RestructuringCopy.Result r = RestructuringCopy.pack(conf, sources, patterns, dst, o,
        progressLine(null));
    report(sources.size() + " files", r, t0, ", packed into one container");
  }

  /**
   * A Zarr store copied as it is, or packed ({@code -pack}) into containers and a reference set.
   *
   * @throws CopyException (usage) for several sources, or a pattern or variable given with it
   */
  private int copyStore(Configuration conf, List<String> srcs, String dst, Arguments parsed,
      CopyOptions o, boolean patterned) throws IOException {
    if (srcs.size() != 1) {
      throw new CopyException(true, "a Zarr store is copied alone: name one store and its "
          + "destination (" + String.join(", ", srcs) + ")");
    }
    if (patterned) {
      throw new CopyException(true, srcs.get(0) + " is a Zarr store: it is copied whole, or "
          + "packed with -pack; a pattern or variable does not apply");
    }
    long t0 = System.nanoTime();
    ZarrStoreCopy.Result r = ZarrStoreCopy.copy(conf, new Path(srcs.get(0)), new Path(dst),
        parsed.pack, o.overwrite());
    double s = (System.nanoTime() - t0) / 1e9;
    out.printf(Locale.ROOT, "%s: %s -> %s, %d objects, %d bytes in %.1f s%s%n", NAME,
        srcs.get(0), r.destination(), r.objects(), r.bytes(), s, parsed.pack
        ? ", packed into " + (r.files() - 1) + " containers and " + HdfsStore.PACKED_SET : "");
    return 0;
  }

  private void report(String what, RestructuringCopy.Result r, long t0, String more) {
    double s = (System.nanoTime() - t0) / 1e9;
    if (System.console() != null) {
      err.print("\r");
    }
    out.printf(Locale.ROOT, "%s: %s -> %s, %d bytes in %.1f s (%.1f MiB/s%s)%s%s%n", NAME,
        what, r.destination(), r.bytes(), s, r.bytes() / 1048576.0 / Math.max(s, 1e-9),
        r.parallel() ? ", a MapReduce job of chunk writers" : "", more,
        r.layout() == null ? "" : ", restructured for " + r.layout().tasks().tasks()
            + (r.layout().tasks().tasks() == 1 ? " map task" : " map tasks"));
  }

  /** Whether {@code mrap.pattern.kind} names a scientific format (netcdf, hdf5). */
  private static boolean isVariable(Configuration conf) {
    String kind = conf.getTrimmed(PatternConfig.KIND, "").toLowerCase(Locale.ROOT);
    return kind.equals(ScienceFiles.Kind.NETCDF.key()) || kind.equals(ScienceFiles.Kind.HDF5.key());
  }

  /**
   * The pattern of a variable's slab (or tiles) in each source, from its header: the headers
   * of all of them read first (eight files at a time, a container's members once), so that
   * nothing is written before every source is known to serve the variable.
   *
   * @throws CopyException (usage) naming the key, the file and why, where it cannot serve them
   */
  private static List<PatternConfig> slabsOf(Configuration variable, List<SourceFile> sources)
      throws IOException {
    Map<Path, FileStatus> files = new LinkedHashMap<>();
    for (SourceFile src : sources) {
      files.putIfAbsent(src.path(), src.status());
    }
    Map<String, FilePlan> plans = new HashMap<>();
    try {
      for (FilePlan p : VariablePlanner.plan(variable,
          new ArrayList<>(files.values()))) {
        plans.put(p.status().getPath() + (p.member() == null ? "" : "/" + p.member()), p);
      }
    } catch (InvalidSettingsException e) {
      throw new CopyException(true, e.getMessage(), e);
    }
    String slab = variable.getTrimmed(VariableSettings.SLAB, "");
    String select = variable.getTrimmed(VariableSettings.SELECT, "");
    String what = !select.isEmpty() ? "{" + select + "}" : slab.isEmpty() ? "" : "[" + slab + "]";
    List<PatternConfig> out = new ArrayList<>();
    for (SourceFile src : sources) {
      FilePlan fp = plans.get(src.path()
          + (src.whole() ? "" : "/" + src.name()));
      if (fp.selectsNothing()) {
        throw new CopyException(true, src + ": " + VariableSettings.SELECT + "=" + select
            + " selects nothing in it (its coordinates: " + fp.coordinates() + "): there is "
            + "nothing to restructure; leave it out, or copy it plainly");
      }
      if (fp.tiles() != null) { // each tile stored in one piece
        out.add(PatternConfig.plannedTiles(fp.tiles(), VariableSettings.TILE,
            variable.getTrimmed(VariableSettings.TILE)));
      } else {
        SlabPlan plan = fp.plan();
        if (plan.pattern() == null) {
          throw new CopyException(true, src + ": " + plan.variable().name() + what
              + " selects only chunks never written (every value is the fill value): there is "
              + "nothing to restructure; copy the file plainly, or leave it out");
        }
        out.add(PatternConfig.planned(plan.pattern(), VariableSettings.VARIABLE,
            plan.variable().name() + what));
      }
    }
    return out;
  }

  /**
   * Whether the settings ask for a restructured copy: a pattern's keys, or those naming a
   * variable's slab ({@link VariableSettings#SELECTING}). A key that only changes how values are
   * read (a site may set {@code mrap.science.decode} for every job) leaves a copy plain; an
   * unknown {@code mrap.science.} key is refused by name.
   */
  private static boolean hasPatternKeys(Configuration conf) throws CopyException {
    try {
      MrapConf.checkKeys(conf, "mrap.science.", VariableSettings.KEYS);
      boolean slab = false;
      for (String key : VariableSettings.SELECTING) {
        slab |= MrapConf.get(conf, key) != null;
      }
      return slab || !MrapConf.properties(conf, PatternConfig.PREFIXES).isEmpty();
    } catch (InvalidSettingsException e) { // a value Hadoop cannot read: named
      throw new CopyException(true, e.getMessage(), e);
    }
  }

  /** A progress line on a terminal only (the console shows progress and results). */
  private RestructuringCopy.Progress progressLine(SourceFile src) {
    if (System.console() == null) {
      return null;
    }
    long[] last = {0};
    return (bytes, total) -> {
      long now = System.nanoTime();
      if (now - last[0] > 500_000_000L || bytes == total) {
        last[0] = now;
        err.printf(Locale.ROOT, "\r%s: %s %5.1f%% (%d of %d MiB)", NAME,
            src == null ? "packing" : src.name(),
            total == 0 ? 100.0 : 100.0 * bytes / total, bytes >> 20, total >> 20);
      }
    };
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new MrapCopy(), args));
  }
}
