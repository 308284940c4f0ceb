package org.opass.read.mapreduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.hadoop.classification.InterfaceAudience;
import org.apache.hadoop.classification.InterfaceStability;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ReflectionUtils;
import org.opass.read.plan.Chunk;
import org.opass.read.plan.EqualAssignment;
import org.opass.read.plan.Plan;
import org.opass.read.plan.Proc;
import org.opass.read.wire.PlanRead;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A mapreduce-API {@link InputFormat} that wraps any {@link FileInputFormat} and rewrites the
 * locations of its splits so that every host gets an equal share of local work (Opass equal-data
 * assignment, {@link EqualAssignment}).
 *
 * <p>{@link #getSplits} asks the delegate for its splits, then treats every split whose class is
 * exactly {@link FileSplit} as one chunk (its replica hosts are the split's
 * {@link InputSplit#getLocations()}) and every host as one process, runs
 * {@link EqualAssignment#plan(List, List)} (with &lfloor;n/m&rfloor; or &lceil;n/m&rceil; splits
 * per host, as many of them local as a max flow allows) and returns, in the delegate's order,
 * {@code new FileSplit(path, start, length, new String[] {chosenHost})}: the same byte range with
 * ONE preferred host. Schedulers that place tasks by split locations (the MapReduce AM on YARN,
 * Spark's {@code NewHadoopRDD}) then spread the reads evenly instead of piling them on the hosts
 * listed first. When a balanced assignment with every split local exists, every chosen host is
 * one of the split's original locations; otherwise the splits that cannot be both balanced and
 * local get a host that holds no replica of them.
 *
 * <p>{@link #createRecordReader} delegates unchanged (the delegate reads path, start and length,
 * which are kept).
 *
 * <p>Configuration keys:
 * <ul>
 *   <li>{@value #DELEGATE_KEY} (required): fully qualified class name of the wrapped
 *       {@link FileInputFormat} subclass, with a public no-argument constructor (it is created
 *       with {@link ReflectionUtils#newInstance}, so a {@code Configurable} delegate gets the
 *       job's configuration). Set it with {@link #setDelegate(Job, Class)}. Missing, unloadable or
 *       not a {@code FileInputFormat}: {@link IOException} naming the key.</li>
 *   <li>{@value #HOSTS_KEY} (optional): comma-separated host names, each one process. Use it
 *       when some hosts hold no split but should still get an equal share of (remote) work, or to
 *       restrict the hosts used. When set, it replaces the hosts seen in the splits: a split whose
 *       replicas are all on unlisted hosts is read remotely. Names must match what the splits
 *       report (for HDFS, {@code BlockLocation#getHosts()}: host names, not IPs). Blank entries
 *       are ignored, duplicates dropped; set but with no host: {@link IOException} naming the
 *       key. Unset: every distinct host in any split's locations is one process.</li>
 * </ul>
 *
 * <p>Usage: {@code job.setInputFormatClass(BalancedLocalityInputFormat.class);
 * BalancedLocalityInputFormat.setDelegate(job, TextInputFormat.class);} plus the delegate's own
 * settings ({@code FileInputFormat.addInputPath} and so on, which are read from the same job
 * configuration).
 *
 * <p>Limitations: splits that are not exactly {@code FileSplit} (a {@code CombineFileSplit}, or a
 * {@code FileSplit} subclass whose record reader may depend on its class) are returned unchanged,
 * take no part in the plan, and are logged. The rewritten splits carry no
 * {@code SplitLocationInfo} (in-memory/on-disk hints). One host is a preference, not a
 * guarantee: YARN relaxes locality when the host is busy, and hosts with several containers
 * still count as one process (equal shares per host, not per slot). Splits are balanced by
 * count, not bytes (the delegate's splits are usually of block size). With no host at all (no
 * split has a location and {@value #HOSTS_KEY} is unset) the splits are returned unchanged.
 *
 * @param <K> key type of the delegate
 * @param <V> value type of the delegate
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class BalancedLocalityInputFormat<K, V> extends InputFormat<K, V> {
  /** Class name of the wrapped {@link FileInputFormat}; required. */
  public static final String DELEGATE_KEY = "opass.inputformat.delegate";
  /** Comma-separated explicit host list (one process each); optional. */
  public static final String HOSTS_KEY = "opass.inputformat.hosts";

  private static final Logger LOG = LoggerFactory.getLogger(BalancedLocalityInputFormat.class);

  /** Sets {@value #DELEGATE_KEY} on the job's configuration. */
  @SuppressWarnings("rawtypes")
  public static void setDelegate(Job job, Class<? extends FileInputFormat> delegate) {
    Objects.requireNonNull(job, "job");
    setDelegate(job.getConfiguration(), delegate);
  }

  /** Sets {@value #DELEGATE_KEY} on {@code conf} (for Spark's {@code newAPIHadoopFile}). */
  @SuppressWarnings("rawtypes")
  public static void setDelegate(Configuration conf, Class<? extends FileInputFormat> delegate) {
    Objects.requireNonNull(conf, "conf");
    Objects.requireNonNull(delegate, "delegate");
    conf.set(DELEGATE_KEY, delegate.getName());
  }

  /** Sets {@value #HOSTS_KEY} on {@code conf}; an empty collection unsets it. */
  public static void setHosts(Configuration conf, Collection<String> hosts) {
    Objects.requireNonNull(conf, "conf");
    Objects.requireNonNull(hosts, "hosts");
    if (hosts.isEmpty()) {
      conf.unset(HOSTS_KEY);
    } else {
      conf.set(HOSTS_KEY, String.join(",", hosts));
    }
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException, InterruptedException {
    Configuration conf = context.getConfiguration();
    List<String> hosts = explicitHosts(conf);
    FileInputFormat<K, V> delegate = delegate(conf);
    return balance(delegate.getSplits(context), hosts);
  }

  @Override
  public RecordReader<K, V> createRecordReader(InputSplit split, TaskAttemptContext context)
      throws IOException, InterruptedException {
    FileInputFormat<K, V> delegate = delegate(context.getConfiguration());
    return delegate.createRecordReader(split, context);
  }

  /**
   * The rewriting step on its own: {@code splits} in the same order, each exact {@link FileSplit}
   * replaced by a copy with one planned host, every other split unchanged.
   *
   * @param hosts the processes' hosts, or {@code null} for every distinct host in the splits
   */
  public static List<InputSplit> balance(List<InputSplit> splits, List<String> hosts)
      throws IOException, InterruptedException {
    Objects.requireNonNull(splits, "splits");
    List<Chunk> chunks = new ArrayList<>();
    List<Integer> at = new ArrayList<>(); // index in splits of each chunk
    Set<String> seen = new LinkedHashSet<>();
    int skipped = 0;
    for (int i = 0; i < splits.size(); i++) {
      InputSplit s = splits.get(i);
      if (s == null || s.getClass() != FileSplit.class) {
        skipped++;
        LOG.info("split {} is {}, not a FileSplit: kept unchanged, not balanced", i,
            s == null ? "null" : s.getClass().getName());
        continue;
      }
      FileSplit fs = (FileSplit) s;
      List<String> locs = new ArrayList<>();
      String[] raw = fs.getLocations();
      if (raw != null) {
        for (String h : raw) {
          if (h != null && !h.isEmpty()) {
            locs.add(h);
          }
        }
      }
      seen.addAll(locs);
      chunks.add(new Chunk(chunks.size(), fs.getPath().toString(), fs.getStart(),
          fs.getLength(), locs));
      at.add(i);
    }
    List<String> procHosts = hosts != null ? hosts : new ArrayList<>(seen);
    List<InputSplit> out = new ArrayList<>(splits);
    if (chunks.isEmpty() || procHosts.isEmpty()) {
      LOG.info("nothing to balance ({} file splits, {} hosts): splits unchanged", chunks.size(),
          procHosts.size());
      return out;
    }
    List<Proc> procs = new ArrayList<>(procHosts.size());
    for (String h : procHosts) {
      procs.add(new Proc(procs.size(), h));
    }
    Plan plan = EqualAssignment.plan(chunks, procs);
    for (int c = 0; c < chunks.size(); c++) {
      int i = at.get(c);
      FileSplit fs = (FileSplit) splits.get(i);
      String host = procHosts.get(plan.processOf(c));
      out.set(i, new FileSplit(fs.getPath(), fs.getStart(), fs.getLength(), new String[] {host}));
    }
    LOG.info("balanced {} file splits over {} hosts ({}-{} each): {} local, {} remote;"
        + " {} other splits unchanged", chunks.size(), procs.size(), plan.minShare(),
        plan.maxShare(), plan.localChunks(), plan.remoteChunks(), skipped);
    return out;
  }

  /**
   * The read plan of balanced splits, for the NameNode's {@code /opass/read-plan}
   * ({@code ReadPlanClient#submit}): a read a split with one host (the host reads the split's
   * bytes), in the splits' order; splits with no single host are left out. A job's driver
   * submits it before the tasks open the files (MapReduce or Spark alike), so each read is
   * served by the DataNode the NameNode plans for it.
   */
  public static List<PlanRead> planReads(List<InputSplit> splits)
      throws IOException, InterruptedException {
    Objects.requireNonNull(splits, "splits");
    List<PlanRead> reads = new ArrayList<>(splits.size());
    for (InputSplit s : splits) {
      if (s instanceof FileSplit && s.getLocations().length == 1) {
        FileSplit fs = (FileSplit) s;
        reads.add(new PlanRead(fs.getPath().toUri().getPath(), fs.getLocations()[0],
            fs.getStart(), fs.getLength()));
      }
    }
    return reads;
  }

  /** The hosts of {@value #HOSTS_KEY}, or {@code null} when it is unset. */
  static List<String> explicitHosts(Configuration conf) throws IOException {
    String value = conf.get(HOSTS_KEY);
    if (value == null) {
      return null;
    }
    Set<String> hosts = new LinkedHashSet<>();
    for (String h : value.split(",")) {
      if (!h.isBlank()) {
        hosts.add(h.trim());
      }
    }
    if (hosts.isEmpty()) {
      throw new IOException(HOSTS_KEY + " is set to '" + value + "' but lists no host");
    }
    return new ArrayList<>(hosts);
  }

  /** A new instance of the class named by {@value #DELEGATE_KEY}. */
  @SuppressWarnings("unchecked")
  static <K, V> FileInputFormat<K, V> delegate(Configuration conf) throws IOException {
    String name = conf.get(DELEGATE_KEY);
    if (name == null || name.isBlank()) {
      throw new IOException(DELEGATE_KEY + " is not set: set it to the class name of a "
          + FileInputFormat.class.getName() + " subclass (BalancedLocalityInputFormat.setDelegate)");
    }
    name = name.trim();
    Class<?> cls;
    try {
      cls = conf.getClassByName(name);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IOException(DELEGATE_KEY + "=" + name + ": class not found", e);
    }
    if (!FileInputFormat.class.isAssignableFrom(cls)) {
      throw new IOException(DELEGATE_KEY + "=" + name + " is not a subclass of "
          + FileInputFormat.class.getName());
    }
    try {
      return (FileInputFormat<K, V>) ReflectionUtils.newInstance(cls, conf);
    } catch (RuntimeException e) {
      throw new IOException(DELEGATE_KEY + "=" + name + ": cannot instantiate (needs a public"
          + " no-argument constructor and must not be abstract)", e);
    }
  }
}
