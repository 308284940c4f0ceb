package org.opass.tools.bench.mrap;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.mapreduce.VariableInputFormat;
import org.opass.mrap.plan.FilePlan;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.science.ScienceFiles;
import org.opass.tools.bench.Bench;
import org.opass.tools.bench.Stats;
import org.opass.tools.cluster.DataNodeCounter;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Issue 24, part 2's last bullet (thesis §4.4.3): one variable's slab of many small NetCDF-3
 * files (netCDF-C, {@code make_science_data.py}, one time step of five 512 KiB variables a
 * file, the slab about a fifth of it), read by {@code VariableInputFormat} on the emulated
 * cluster (8 DataNodes at 16 MiB/s, readers on the DataNode hosts) two ways:
 * <ul>
 *   <li>{@code files}: the files as they are, tasks of a set of files each (the ADAT case:
 *   virtual splits of up to a block, on a host holding them), a read or more a file;</li>
 *   <li>{@code packed}: one container written by {@code mrap-copy -pack} from the files in
 *   HDFS, the slabs of about eight files sharing each 4 MiB chunk, a task a chunk.</li>
 * </ul>
 * Both must give the same sum of the slab's values. Reported: time (mean and 95% interval),
 * positioned reads per task and per file, the data bytes the DataNodes sent over the bytes
 * of interest, the headers' cost at submission, the files and blocks the NameNode holds, and
 * the copy's time (once).
 */
public final class MrapPackBench implements Bench {
  private static final int DATANODES = 8;
  private static final int BLOCK = 4 << 20;
  private static final long READ_BANDWIDTH = 16L << 20;
  private static final double DATA_SHARE = 512.0 / 516.0;

  @Override
  public Map<String, Object> run(File outDir, boolean quick) throws Exception {
    int files = quick ? 96 : 384;
    int reps = quick ? 3 : 8;
    File data = MrapScienceBench.generate(new File(outDir, "mrap-pack-data"), files, 1);
    Map<String, Object> doc = new LinkedHashMap<>();
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(DATANODES).racks(2)
        .blockSize(BLOCK).readBandwidthPerDataNode(READ_BANDWIDTH)
        .baseDir(new File(outDir, "mrap-pack-cluster")).start()) {
      FileSystem fs = cluster.offClusterFileSystem();
      long total = 0;
      File[] locals = new File(data, "nc").listFiles();
      Arrays.sort(locals);
      for (File local : locals) {
        Path p = new Path("/files/" + local.getName());
        fs.copyFromLocalFile(new Path(local.getAbsolutePath()), p);
        fs.setReplication(p, (short) 3);
        cluster.replicas().waitFor(p, (short) 3);
        total += local.length();
      }
      Configuration conf = new Configuration(cluster.conf());
      conf.set(VariableInputFormat.KIND, ScienceFiles.Kind.NETCDF.key());
      conf.set(VariableInputFormat.VARIABLE, MrapScienceBench.VARIABLE);
      conf.set(VariableInputFormat.SLAB, MrapScienceBench.SLAB);
      // the container, packed from the files in HDFS by one stream
      List<String> args = new ArrayList<>(List.of("-pack"));
      for (FileStatus f : fs.listStatus(new Path("/files"))) {
        args.add(f.getPath().toString());
      }
      args.add("/packed/runs.pack");
      Configuration copyConf = new Configuration(conf);
      copyConf.setLong("dfs.blocksize", BLOCK);
      ByteArrayOutputStream said = new ByteArrayOutputStream();
      long c0 = System.nanoTime();
      int rc = ToolRunner.run(copyConf, new MrapCopy(new PrintStream(said, true),
          new PrintStream(said, true)), args.toArray(new String[0]));
      double copySeconds = (System.nanoTime() - c0) / 1e9;
      if (rc != 0) {
        throw new IllegalStateException("mrap-copy -pack failed: "
            + said.toString(StandardCharsets.UTF_8));
      }
      Path container = new Path("/packed/runs.pack");
      fs.setReplication(container, (short) 3);
      cluster.replicas().waitFor(container, (short) 3);
      RestructuredLayout layout = RestructuredFiles.layoutOf(fs, container);
      Map<String, List<FileStatus>> inputs = new LinkedHashMap<>();
      inputs.put("files", Arrays.asList(fs.listStatus(new Path("/files"))));
      inputs.put("packed", List.of(fs.getFileStatus(container)));
      System.out.printf("%nmrap-pack: %d NetCDF-3 files, %.0f MiB in all; %s[%s] of each; "
          + "packed into %d tasks of %d MiB chunks in %.1f s; %d DataNodes at %d MiB/s, %d "
          + "repetitions%n%-7s %10s %12s %10s %10s %10s%n", files, total / 1048576.0,
          MrapScienceBench.VARIABLE, MrapScienceBench.SLAB, layout.tasks().tasks(), BLOCK >> 20,
          copySeconds, DATANODES, READ_BANDWIDTH >> 20, reps, "input", "time s", "MiB read",
          "data/int.", "tasks", "reads/task");
      Map<String, List<FilePlan>> plans = new LinkedHashMap<>();
      Map<String, Double> headerReads = new LinkedHashMap<>();
      long interest = 0;
      for (Map.Entry<String, List<FileStatus>> in : inputs.entrySet()) {
        List<FilePlan> p = VariablePlanner.plan(conf, in.getValue());
        plans.put(in.getKey(), p);
        double reads = 0;
        for (FilePlan fp : p) {
          reads += fp.headerReads();
          if (in.getKey().equals("files")) {
            interest += fp.plan().bytesOfInterest();
          }
        }
        headerReads.put(in.getKey(), reads / p.size());
      }
      Map<String, double[]> time = new LinkedHashMap<>();
      Map<String, double[]> bytes = new LinkedHashMap<>();
      Map<String, MrapScienceBench.Read> last = new LinkedHashMap<>();
      for (String s : inputs.keySet()) {
        time.put(s, new double[reps]);
        bytes.put(s, new double[reps]);
        // a pass not measured: the JIT and connections warm up
        MrapScienceBench.read(cluster, "variable", conf, inputs.get(s), plans.get(s), () -> { });
      }
      for (int rep = 0; rep < reps; rep++) {
        for (int k = 0; k < inputs.size(); k++) {
          String s = new ArrayList<>(inputs.keySet()).get((k + rep) % inputs.size());
          long[][] before = {cluster.counters().perDataNode(DataNodeCounter.BYTES_READ)};
          long s0 = System.nanoTime();
          MrapScienceBench.Read r = MrapScienceBench.read(cluster, "variable", conf,
              inputs.get(s), plans.get(s),
              () -> before[0] = cluster.counters().perDataNode(DataNodeCounter.BYTES_READ));
          time.get(s)[rep] = (System.nanoTime() - s0) / 1e9;
          Thread.sleep(200); // DataNode counters settle after the last packet
          bytes.get(s)[rep] = Arrays.stream(cluster.counters().since(
              DataNodeCounter.BYTES_READ, before[0])).sum();
          last.put(s, r);
        }
        double a = last.get("files").sum;
        double b = last.get("packed").sum;
        if (Math.abs(a - b) > 1e-9 * Math.abs(a)) {
          throw new IllegalStateException("the slab's values add up to " + b + " packed and "
              + "to " + a + " from the files as they are");
        }
      }
      Map<String, Object> ways = new LinkedHashMap<>();
      for (String s : inputs.keySet()) {
        Stats t = Stats.of(time.get(s));
        Stats b = Stats.of(bytes.get(s));
        MrapScienceBench.Read r = last.get(s);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", t.json());
        m.put("bytes_read", b.json());
        m.put("data_bytes_read_over_interest", b.mean * DATA_SHARE / interest);
        m.put("tasks", r.tasks);
        m.put("reads", r.reads);
        m.put("reads_per_task", (double) r.reads / r.tasks);
        m.put("reads_per_file", (double) r.reads / files);
        m.put("header_reads_per_file", headerReads.get(s));
        long blocks = 0;
        for (FileStatus f : inputs.get(s)) {
          blocks += fs.getFileBlockLocations(f, 0, f.getLen()).length;
        }
        // what the NameNode holds for them: an inode a file, a block object a block
        m.put("namenode_files", inputs.get(s).size());
        m.put("namenode_blocks", blocks);
        ways.put(s, m);
        System.out.printf("%-7s %10s %12.1f %10.3f %10d %10.2f%n", s, t, b.mean / 1048576.0,
            b.mean * DATA_SHARE / interest, r.tasks, (double) r.reads / r.tasks);
      }
      Stats speedup = Stats.ratio(time.get("files"), time.get("packed"));
      double packedReads = (double) last.get("packed").reads / last.get("packed").tasks;
      double packedBytes = Stats.of(bytes.get("packed")).mean * DATA_SHARE / interest;
      System.out.printf("packed: %.2f +- %.2f x the speed of the files as they are; %.2f reads "
          + "a task (%.2f as they are), %.2f reads a file (%.2f); headers %.1f reads a file "
          + "(%.1f)%n", speedup.mean, speedup.ci95, packedReads,
          (double) last.get("files").reads / last.get("files").tasks,
          (double) last.get("packed").reads / files, (double) last.get("files").reads / files,
          headerReads.get("packed"), headerReads.get("files"));
      Map<String, Object> summary = new LinkedHashMap<>();
      speedup.putInto(summary, "pack_speedup_vs_files");
      summary.put("pack_reads_per_task", packedReads);
      summary.put("pack_bytes_over_interest", packedBytes);
      doc.put("summary", summary);
      Map<String, Object> setup = new LinkedHashMap<>();
      setup.put("datanodes", DATANODES);
      setup.put("chunk_bytes", BLOCK);
      setup.put("read_bandwidth_per_datanode", READ_BANDWIDTH);
      setup.put("files", files);
      setup.put("repetitions", reps);
      setup.put("variable", MrapScienceBench.VARIABLE);
      setup.put("slab", MrapScienceBench.SLAB);
      setup.put("data", "NetCDF-3 64-bit offset, five float32 variables (1, 256, 512) a file");
      setup.put("interest_bytes", interest);
      setup.put("copy_seconds", copySeconds);
      setup.put("container_tasks", layout.tasks().tasks());
      doc.put("setup", setup);
      doc.put("ways", ways);
    }
    return doc;
  }
}
