package org.opass.read.cli;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Tool;
import org.opass.read.client.ReadPlanClient;
import org.opass.read.plan.Chunk;
import org.opass.read.plan.EqualAssignment;
import org.opass.read.plan.HdfsChunks;
import org.opass.read.plan.MultiInputAssignment;
import org.opass.read.plan.Plan;
import org.opass.read.plan.PlanJson;
import org.opass.read.plan.Proc;
import org.opass.read.plan.RackResolver;
import org.opass.read.wire.PlanRead;
import org.opass.read.wire.PlanRefusedException;

/**
 * {@code opass-client plan}: prints which process should read which chunk of the given files
 * ({@link EqualAssignment}).
 *
 * <pre>
 *   hadoop jar opass-client-*.jar plan [generic options] [--json] [--names] [--rack-map FILE]
 *       [--submit NAMENODE_HTTP|hdfs://NAMESERVICE] (--processes HOST[,HOST...] | --processes-file FILE) PATH...
 * </pre>
 *
 * A Hadoop {@code Tool}; it needs nothing beyond Hadoop's client classpath and the opass jars.
 * The file system is {@code FileSystem.get(conf)} for paths without a
 * scheme. Exit codes: 0 ok, 1 failure (file system, missing path), 2 usage.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class PlanCli extends Configured implements Tool {
  private static final String NAME = "opass-client plan";

  @Override
  public int run(String[] args) {
    return run(args, getConf(), System.out, System.err);
  }

  /** Thrown for a bad command line; the message names the bad argument. */
  static final class UsageException extends Exception {
    UsageException(String message) {
      super(message);
    }
  }

  static final class Options {
    boolean json;
    boolean names;
    String rackMap;
    String processes;
    String processesFile;
    String submit;
    final List<String> paths = new ArrayList<>();
  }

  /** Runs the command; returns its exit code. */
  public static int run(String[] args, Configuration conf, PrintStream out, PrintStream err) {
    Options o;
    List<Proc> procs;
    RackResolver racks;
    try {
      o = parse(args);
      if (o == null) {
        out.println(usage());
        return 0;
      }
      procs = processes(o);
      racks = o.rackMap == null ? RackResolver.none() : rackMap(o.rackMap);
    } catch (UsageException e) {
      err.println(NAME + ": " + e.getMessage());
      err.println(usage());
      return 2;
    }
    try {
      FileSystem fs = FileSystem.get(conf);
      List<Path> paths = new ArrayList<>();
      for (String p : o.paths) {
        paths.add(new Path(p));
      }
      List<Chunk> chunks = HdfsChunks.of(fs, paths,
          o.names ? HdfsChunks.HostIdentity.NAMES : HdfsChunks.HostIdentity.HOSTS);
      Plan plan = EqualAssignment.plan(chunks, procs, racks);
      out.print(o.json ? plan.toJson() + "\n" : text(plan));
      if (o.submit != null) {
        URI target = URI.create(o.submit);
        ReadPlanClient client = "hdfs".equals(target.getScheme())
            ? ReadPlanClient.forFileSystem(target, conf) : new ReadPlanClient(target, conf);
        ReadPlanClient.Result r = client.submit(reads(plan));
        // stderr: stdout stays the plan, parseable as JSON with --json
        err.printf(Locale.ROOT, "%s: NameNode plan %s: %d chunk reads, %d local; max reads per "
                + "DataNode %d (Algorithm 2: %d, optimum: %d)%n", NAME, r.id(), r.reads(),
            r.local(), r.maxLoad(), r.algorithm2MaxLoad(), r.optimalMaxLoad());
      }
      return 0;
    } catch (PlanRefusedException e) {
      err.println(NAME + ": the NameNode refused the plan: " + e.getMessage());
      return 1;
    } catch (FileNotFoundException e) {
      err.println(NAME + ": " + e.getMessage());
      return 1;
    } catch (IOException | RuntimeException e) {
      err.println(NAME + ": failed: " + e);
      return 1;
    }
  }

  /** Parses the command line; {@code null} means "print help". */
  static Options parse(String[] args) throws UsageException {
    Options o = new Options();
    boolean endOfOptions = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (endOfOptions || !a.startsWith("-") || a.equals("-")) {
        o.paths.add(a);
        continue;
      }
      String name = a;
      String value = null;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        name = a.substring(0, eq);
        value = a.substring(eq + 1);
      }
      switch (name) {
        case "-h":
        case "--help":
          return null;
        case "--":
          endOfOptions = true;
          break;
        case "--json":
          o.json = flag(name, value);
          break;
        case "--names":
          o.names = flag(name, value);
          break;
        case "--rack-map":
        case "--processes":
        case "--processes-file":
        case "--submit": {
          if (value == null) {
            if (i + 1 >= args.length) {
              throw new UsageException(name + " needs a value");
            }
            value = args[++i];
          }
          if (value.isEmpty()) {
            throw new UsageException(name + " has an empty value");
          }
          if (name.equals("--rack-map")) {
            o.rackMap = once(name, o.rackMap, value);
          } else if (name.equals("--processes")) {
            o.processes = once(name, o.processes, value);
          } else if (name.equals("--submit")) {
            o.submit = once(name, o.submit, value);
            if (!value.matches("(https?|hdfs)://[^/?#]+/?")) {
              throw new UsageException("--submit '" + value + "': give the NameNode's web "
                  + "address (http://namenode:9870) or the file system's URI (hdfs://nameservice "
                  + "of an HA cluster, hdfs://namenode:8020)");
            }
          } else {
            o.processesFile = once(name, o.processesFile, value);
          }
          break;
        }
        default:
          throw new UsageException("unknown option '" + a + "'");
      }
    }
    if (o.processes != null && o.processesFile != null) {
      throw new UsageException("give either --processes or --processes-file, not both");
    }
    if (o.processes == null && o.processesFile == null) {
      throw new UsageException("missing --processes HOST[,HOST...] or --processes-file FILE");
    }
    if (o.paths.isEmpty()) {
      throw new UsageException("missing PATH: name at least one file or directory to plan");
    }
    return o;
  }

  private static boolean flag(String name, String value) throws UsageException {
    if (value != null) {
      throw new UsageException(name + " takes no value, got '" + value + "'");
    }
    return true;
  }

  private static String once(String name, String old, String value) throws UsageException {
    if (old != null) {
      throw new UsageException(name + " given twice ('" + old + "' and '" + value + "')");
    }
    return value;
  }

  static List<Proc> processes(Options o) throws UsageException {
    List<String> hosts = new ArrayList<>();
    if (o.processes != null) {
      String[] parts = o.processes.split(",", -1);
      for (int i = 0; i < parts.length; i++) {
        String h = parts[i].trim();
        if (h.isEmpty()) {
          throw new UsageException("--processes '" + o.processes + "': host " + (i + 1)
              + " is empty");
        }
        hosts.add(h);
      }
    } else {
      List<String> lines;
      try {
        lines = Files.readAllLines(java.nio.file.Path.of(o.processesFile),
            StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        throw new UsageException("--processes-file '" + o.processesFile + "': no such file");
      } catch (IOException | RuntimeException e) {
        throw new UsageException("--processes-file '" + o.processesFile + "': cannot read: " + e);
      }
      for (int i = 0; i < lines.size(); i++) {
        String h = lines.get(i).trim();
        if (h.isEmpty() || h.startsWith("#")) {
          continue;
        }
        if (h.split("\\s+").length != 1) {
          throw new UsageException("--processes-file '" + o.processesFile + "' line " + (i + 1)
              + ": expected one host per line, got '" + h + "'");
        }
        hosts.add(h);
      }
      if (hosts.isEmpty()) {
        throw new UsageException("--processes-file '" + o.processesFile + "' lists no hosts");
      }
    }
    List<Proc> procs = new ArrayList<>();
    for (String h : hosts) {
      procs.add(new Proc(procs.size(), h));
    }
    return procs;
  }

  /** The plan as NameNode read requests: each chunk read by its process's host. */
  static List<PlanRead> reads(Plan plan) {
    List<PlanRead> reads = new ArrayList<>(plan.chunks().size());
    for (int c = 0; c < plan.chunks().size(); c++) {
      Chunk ch = plan.chunks().get(c);
      String host = plan.processes().get(plan.processOf(c)).host();
      int colon = host.lastIndexOf(':'); // --names: ip:port
      reads.add(new PlanRead(new Path(ch.path()).toUri().getPath(),
          colon > 0 ? host.substring(0, colon) : host, ch.offset(), ch.length()));
    }
    return reads;
  }

  static RackResolver rackMap(String file) throws UsageException {
    try {
      return RackResolver.fromTableFile(java.nio.file.Path.of(file));
    } catch (NoSuchFileException e) {
      throw new UsageException("--rack-map '" + file + "': no such file");
    } catch (IllegalArgumentException e) {
      throw new UsageException("--rack-map: " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      throw new UsageException("--rack-map '" + file + "': cannot read: " + e);
    }
  }

  /** Human-readable plan: a summary line, one line per process, one line per chunk. */
  static String text(Plan plan) {
    StringBuilder sb = new StringBuilder();
    int n = plan.chunks().size();
    sb.append(String.format(Locale.ROOT,
        "%d chunks (%s) on %d processes, %d-%d chunks each: %d local (%s), %d rack-local, "
            + "%d remote%n", n, bytes(plan.totalBytes()), plan.processes().size(),
        plan.minShare(), plan.maxShare(), plan.localChunks(), percent(plan.localChunks(), n),
        plan.rackLocalChunks(), plan.remoteChunks()));
    sb.append(String.format(Locale.ROOT, "%-7s %-24s %6s %10s %6s %6s %6s%n", "process", "host",
        "chunks", "bytes", "local", "rack", "remote"));
    for (int p = 0; p < plan.processes().size(); p++) {
      int[] counts = new int[3];
      long b = 0;
      for (int c : plan.chunkIndicesOf(p)) {
        counts[plan.localityOf(c).ordinal()]++;
        b += plan.chunks().get(c).length();
      }
      sb.append(String.format(Locale.ROOT, "%-7d %-24s %6d %10s %6d %6d %6d%n",
          plan.processes().get(p).id(), plan.processes().get(p).host(),
          counts[0] + counts[1] + counts[2], bytes(b), counts[0], counts[1], counts[2]));
    }
    sb.append(String.format(Locale.ROOT, "%n%-7s %-10s %12s %12s  %s%n", "process", "locality",
        "offset", "length", "path"));
    for (int c = 0; c < n; c++) {
      Chunk ch = plan.chunks().get(c);
      sb.append(String.format(Locale.ROOT, "%-7d %-10s %12d %12d  %s%n",
          plan.processes().get(plan.processOf(c)).id(), plan.localityOf(c).label(), ch.offset(),
          ch.length(), ch.path()));
    }
    return sb.toString();
  }

  private static String percent(int part, int whole) {
    return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
  }

  static String bytes(long b) {
    if (b < 1024) {
      return b + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = b;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  static String usage() {
    return "usage: hadoop jar opass-client-*.jar plan [generic options] [--json] [--names]\n"
        + "         [--rack-map FILE] [--submit URL]\n"
        + "         (--processes HOST[,HOST...] | --processes-file FILE) PATH...\n"
        + "  Assigns every chunk (block) of the files to one of the processes so that each\n"
        + "  process gets an equal share and as many chunks as possible are read locally\n"
        + "  (Opass max-flow matching), then fills the rest rack-local first.\n"
        + "  PATH                   file or directory (its files, recursively) on the default\n"
        + "                         file system, or a full URI\n"
        + "  --processes H1,H2,...  one process per entry, on that host; repeat a host to run\n"
        + "                         several processes on it\n"
        + "  --processes-file FILE  one host per line (blank lines and # comments skipped)\n"
        + "  --rack-map FILE        'HOST RACK' per line (the net.topology.table.file.name\n"
        + "                         format); without it nothing counts as rack-local\n"
        + "  --names                match replicas by DataNode address ip:port instead of host\n"
        + "                         name (then give processes as ip:port too)\n"
        + "  --json                 print the plan as JSON\n"
        + "  --submit URL           also submit the plan to the NameNode at this web address\n"
        + "                         (http://namenode:9870; needs its ReadPlanPlugin), which\n"
        + "                         then serves each chunk from the replica it balanced; or to\n"
        + "                         the active NameNode of a file system (hdfs://nameservice)\n"
        + "  Exit codes: 0 ok, 1 failure, 2 usage.";
  }
}
