package org.opass.tools.bench.spark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.opass.mrap.index.EntriesFile;
import org.opass.mrap.index.IndexBuilder;
import org.opass.mrap.index.SeriesIndex;
import org.opass.mrap.plan.FilePlan;
import org.opass.mrap.plan.VariablePlanner;
import org.opass.mrap.science.ScienceFiles;
import org.opass.mrap.settings.VariableSettings;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * One query's planning from an index of 100,000 daily files: the entry of a real file of the
 * query series (its chunk index as HDF5 wrote it) written again for each day from 1900-01-01,
 * its path, modification time and time coordinate its own, the index finished as {@code bin/mrap
 * index} finishes one (lookup, report, manifest), on the local disk; then spark-science's
 * selection planned over the 100,000 files by mrap-core's planner (the index read cold each
 * time), no file read.
 */
final class PlanAtScale {
  private static final int PER_FILE = 10_000;

  private PlanAtScale() {
  }

  /** Seconds of each of {@code reps} plans. */
  static double[] seconds(EmulatedCluster cluster, File dir, String index, FileStatus model,
      int files, int reps) throws Exception {
    Configuration clusterConf = new Configuration(cluster.offClusterFileSystem().getConf());
    String line;
    try (SeriesIndex.Reader r = SeriesIndex.open(clusterConf, new Path(index))
        .reader(clusterConf)) {
      line = r.line(model);
    }
    if (line == null) {
      throw new IllegalStateException(model.getPath() + " has no entry in " + index);
    }
    ObjectMapper json = new ObjectMapper();
    JsonNode refs = json.readTree(line).get("refs");
    String time = refs.get("time/0").asText();
    String path = SeriesIndex.key(model.getPath());
    long mtime = model.getModificationTime();
    int hours = Base64.getDecoder().decode(time.substring(7)).length / 4;
    Configuration local = new Configuration();
    FileSystem fs = FileSystem.getLocal(local);
    Path at = new Path(dir.getAbsoluteFile().toURI());
    List<FileStatus> statuses = new ArrayList<>();
    boolean made = new File(dir, SeriesIndex.MANIFEST).exists();
    if (!made) {
      fs.delete(at, true);
      fs.mkdirs(at);
    }
    java.io.OutputStream w = null;
    long t0 = System.nanoTime();
    for (int i = 0; i < files; i++) {
      String p = "/synthetic/era5_" + i + ".nc";
      statuses.add(new FileStatus(model.getLen(), false, 3, model.getBlockSize(), i + 1L,
          new Path(p)));
      if (made) {
        continue;
      }
      if (i % PER_FILE == 0) {
        if (w != null) {
          w.close();
        }
        w = fs.create(new Path(at, String.format("%s-%05d%s", SeriesIndex.ENTRIES,
            i / PER_FILE, EntriesFile.SUFFIX)));
      }
      ByteBuffer b = ByteBuffer.allocate(hours * 4).order(ByteOrder.LITTLE_ENDIAN);
      for (int h = 0; h < hours; h++) {
        b.putInt(i * 24 + h * (24 / hours)); // hours since 1900-01-01, day i
      }
      EntriesFile.write(w, line.replace(path, p).replace(time, "base64:" + Base64.getEncoder()
          .encodeToString(packed(b.array(), 4))).replace("\"mtime\":" + mtime, "\"mtime\":"
          + (i + 1)));
    }
    if (w != null) {
      w.close();
    }
    if (!made) {
      IndexBuilder.finish(fs, at, ScienceFiles.Kind.NETCDF, List.of("t2m", "tp"),
          "webhdfs://namenode:9870");
      System.out.printf("an index of %,d files written in %.0f s (%.0f MiB)%n", files,
          (System.nanoTime() - t0) / 1e9, du(dir) / 1048576.0);
    }
    Configuration conf = new Configuration(local);
    conf.set(VariableSettings.KIND, "netcdf");
    conf.set(VariableSettings.VARIABLE, "t2m");
    conf.set(VariableSettings.SELECT, "time=" + SparkScienceBench.FROM + ":"
        + SparkScienceBench.TO.replace(' ', 'T') + ", latitude=" + SparkScienceBench.LAT_A + ":"
        + SparkScienceBench.LAT_B + ", longitude=" + SparkScienceBench.LON_A + ":"
        + SparkScienceBench.LON_B);
    conf.set(VariableSettings.INDEX, at.toString());
    double[] out = new double[reps];
    for (int rep = 0; rep < reps; rep++) {
      // the manifest written again: the index is read cold, as a session's first query reads it
      File m = new File(dir, SeriesIndex.MANIFEST);
      Files.write(m.toPath(), Files.readAllBytes(m.toPath()));
      m.setLastModified(System.currentTimeMillis() + rep * 1000L);
      VariablePlanner planner = new VariablePlanner(conf);
      long s0 = System.nanoTime();
      List<List<FilePlan>> plans = planner.planByFile(statuses);
      out[rep] = (System.nanoTime() - s0) / 1e9;
      int selected = 0;
      for (List<FilePlan> one : plans) {
        selected += one.get(0).selectsNothing() ? 0 : 1;
      }
      if (planner.indexFallbacks() != 0 || selected != 92) {
        throw new IllegalStateException("planned " + selected + " files of " + files + " (92 "
            + "days in June to August 2020), " + planner.indexFallbacks() + " from headers");
      }
      System.out.printf("planned over %,d files from the index in %.2f s (%d selected)%n",
          files, out[rep], selected);
    }
    return out;
  }

  /** Raw elements as the index holds a coordinate inline: numcodecs' shuffle, then zlib. */
  private static byte[] packed(byte[] raw, int size) {
    byte[] shuffled = new byte[raw.length];
    int count = raw.length / size;
    for (int i = 0; i < count; i++) {
      for (int j = 0; j < size; j++) {
        shuffled[j * count + i] = raw[i * size + j];
      }
    }
    java.util.zip.Deflater d = new java.util.zip.Deflater(9);
    try {
      d.setInput(shuffled);
      d.finish();
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      byte[] buf = new byte[4096];
      while (!d.finished()) {
        out.write(buf, 0, d.deflate(buf));
      }
      return out.toByteArray();
    } finally {
      d.end();
    }
  }

  private static long du(File dir) {
    long n = 0;
    File[] all = dir.listFiles();
    for (File f : all == null ? new File[0] : all) {
      n += f.length();
    }
    return n;
  }
}
