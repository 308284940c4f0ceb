package org.opass.tools.cluster;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.copy.RestructuringCopy;

/**
 * {@code bin/try-mrap-copy [mrap-copy arguments]}: {@code mrap-copy} against an embedded HDFS
 * (4 DataNodes, 1 MiB blocks) with no Hadoop install, its jobs on the LocalJobRunner. Paths
 * without a scheme are in the embedded HDFS; local files are {@code file:///...}. Without
 * arguments it restructures a generated 8 MiB file for {@code conf/mrap-pattern-strided.xml},
 * copies it back out (in parallel within HDFS, then to the local disk) and compares. The cluster lives for this command only.
 */
public final class TryMrapCopy {
  private TryMrapCopy() {
  }

  public static void main(String[] args) throws Exception {
    File work = new File("target/try-mrap-copy").getAbsoluteFile();
    System.out.println("try-mrap-copy: starting an embedded HDFS of 4 DataNodes");
    int rc;
    try (EmulatedCluster cluster = EmulatedCluster.builder().dataNodes(4).racks(2)
        .blockSize(1 << 20).baseDir(new File(work, "cluster")).start()) {
      Configuration conf = new Configuration(cluster.conf());
      conf.set("mapreduce.framework.name", "local");
      conf.set("mapreduce.jobtracker.staging.root.dir", new File(work, "staging").getPath());
      conf.set("mapreduce.cluster.local.dir", new File(work, "local").getPath());
      conf.setInt("dfs.replication", 2);
      FileSystem fs = FileSystem.get(conf);
      if (args.length > 0) {
        System.out.println("try-mrap-copy: mrap-copy " + String.join(" ", args));
        rc = ToolRunner.run(conf, new MrapCopy(), args);
        List<String> paths = new ArrayList<>(Arrays.asList(args));
        Path dst = new Path(paths.get(paths.size() - 1));
        if (rc == 0 && fs.exists(dst)) {
          list(fs, dst.getParent() != null ? dst.getParent() : dst);
        }
      } else {
        rc = example(work, conf, fs);
      }
    }
    System.exit(rc);
  }

  private static int example(File work, Configuration conf, FileSystem fs) throws Exception {
    byte[] data = new byte[8 << 20];
    new Random(1).nextBytes(data);
    File sample = new File(work, "particles");
    Files.write(sample.toPath(), data);
    String src = sample.toURI().toString();
    String[] copy = {"-pattern", new File("conf/mrap-pattern-strided.xml").getAbsolutePath(),
        src, "/data/particles"};
    System.out.println("try-mrap-copy: mrap-copy " + String.join(" ", copy));
    int rc = ToolRunner.run(conf, new MrapCopy(), copy);
    if (rc != 0) {
      return rc;
    }
    list(fs, new Path("/data"));
    String[] parallel = {"-mode", "parallel", "/data/particles", "/data/particles-original"};
    System.out.println("try-mrap-copy: mrap-copy " + String.join(" ", parallel)
        + "   (a restructured file copies out as its original bytes; here by a MapReduce job "
        + "of chunk writers)");
    rc = ToolRunner.run(conf, new MrapCopy(), parallel);
    if (rc != 0) {
      return rc;
    }
    File back = new File(work, "particles-back");
    back.delete();
    String[] out = {"/data/particles-original", back.toURI().toString()};
    System.out.println("try-mrap-copy: mrap-copy " + String.join(" ", out));
    rc = ToolRunner.run(conf, new MrapCopy(), out);
    if (rc != 0) {
      return rc;
    }
    boolean same = Arrays.equals(data, Files.readAllBytes(back.toPath()));
    System.out.printf("try-mrap-copy: the copy back out is %s the generated file (CRC32C %08x)%n",
        same ? "byte for byte" : "NOT", RestructuringCopy.crcOf(conf, new Path(back.toURI())));
    return same ? 0 : 1;
  }

  private static void list(FileSystem fs, Path dir) throws Exception {
    for (FileStatus st : fs.listStatus(dir)) {
      System.out.printf("  %s %10d  %s  (%d blocks of %d bytes, %d replicas)%n",
          st.getPermission(), st.getLen(), st.getPath().toUri().getPath(),
          (st.getLen() + st.getBlockSize() - 1) / st.getBlockSize(), st.getBlockSize(),
          st.getReplication());
    }
  }
}
