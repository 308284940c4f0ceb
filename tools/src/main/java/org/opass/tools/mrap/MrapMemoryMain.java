package org.opass.tools.mrap;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ToolRunner;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.mapreduce.AccessInputFormat;

/**
 * What one MRAP process holds, run in a JVM of its own with a task's heap
 * ({@code ChildJvm}): {@code copy ARGS...} runs {@code mrap-copy}; {@code read PATH
 * [KEY=VALUE...]} reads a file with {@link AccessInputFormat} as one task after another would,
 * and prints {@code records=}, {@code bytes=}, {@code crc=} (CRC32C of the values in the order
 * read); {@code stock PATH RECORD_BYTES} reads it with stock {@code FixedLengthInputFormat} in
 * one split, for comparison. All print {@code heap_mib=}: the most heap found live, sampled
 * after a full collection four times a second.
 */
public final class MrapMemoryMain {
  private MrapMemoryMain() {
  }

  public static void main(String[] args) throws Exception {
    AtomicLong maxLive = new AtomicLong();
    Thread sampler = new Thread(() -> {
      while (true) {
        sample(maxLive);
        try {
          Thread.sleep(250);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "heap-sampler");
    sampler.setDaemon(true);
    sampler.start();
    int rc = 0;
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    if (args[0].equals("copy")) {
      rc = ToolRunner.run(new Configuration(), new MrapCopy(), rest);
    } else if (args[0].equals("stock")) {
      stock(rest[0], Integer.parseInt(rest[1]));
    } else {
      read(rest);
    }
    sample(maxLive);
    System.out.println("heap_mib=" + maxLive.get() / 1048576.0);
    System.out.flush();
    System.exit(rc);
  }

  /**
   * Writes {@code regions} * 8 random bytes to {@code f}: a 4-byte region every 8 bytes. Adds
   * the regions' bytes to {@code interest} and every byte to {@code whole} (either may be null).
   */
  public static void writeRegions(java.io.File f, long regions, CRC32C interest, CRC32C whole)
      throws java.io.IOException {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(regions);
    byte[] buf = new byte[8 << 20];
    try (java.io.OutputStream out = new java.io.BufferedOutputStream(
        new java.io.FileOutputStream(f))) {
      for (long done = 0; done < regions * 8; done += buf.length) {
        int n = (int) Math.min(buf.length, regions * 8 - done);
        for (int i = 0; i < n; i += 8) {
          long v = rnd.nextLong();
          for (int b = 0; b < 8; b++) {
            buf[i + b] = (byte) (v >>> (8 * b));
          }
          if (interest != null) {
            interest.update(buf, i, 4);
          }
        }
        if (whole != null) {
          whole.update(buf, 0, n);
        }
        out.write(buf, 0, n);
      }
    }
  }

  private static void sample(AtomicLong maxLive) {
    System.gc();
    long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    maxLive.accumulateAndGet(used, Math::max);
  }

  private static void stock(String path, int recordBytes) throws Exception {
    Configuration conf = new Configuration();
    org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat.setRecordLength(conf,
        recordBytes);
    conf.setLong("mapreduce.input.fileinputformat.split.minsize", Long.MAX_VALUE); // one split
    Job job = Job.getInstance(conf);
    FileInputFormat.setInputPaths(job, new Path(path));
    org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat format =
        new org.apache.hadoop.mapreduce.lib.input.FixedLengthInputFormat();
    long records = 0;
    for (InputSplit split : format.getSplits(job)) {
      TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(job.getConfiguration(),
          new TaskAttemptID());
      try (RecordReader<LongWritable, BytesWritable> r = format.createRecordReader(split, ctx)) {
        r.initialize(split, ctx);
        while (r.nextKeyValue()) {
          records++;
        }
      }
    }
    System.out.println("records=" + records);
  }

  private static void read(String[] args) throws Exception {
    Configuration conf = new Configuration();
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      conf.set(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    Job job = Job.getInstance(conf);
    FileInputFormat.setInputPaths(job, new Path(args[0]));
    AccessInputFormat format = new AccessInputFormat();
    long records = 0;
    long bytes = 0;
    CRC32C crc = new CRC32C();
    for (InputSplit s : format.getSplits(job)) {
      InputSplit split = Splits.reserialized(s);
      TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(job.getConfiguration(),
          new TaskAttemptID());
      try (RecordReader<LongWritable, BytesWritable> r = format.createRecordReader(split, ctx)) {
        r.initialize(split, ctx);
        while (r.nextKeyValue()) {
          BytesWritable v = r.getCurrentValue();
          crc.update(v.getBytes(), 0, v.getLength());
          bytes += v.getLength();
          records++;
        }
      }
    }
    System.out.println("records=" + records);
    System.out.println("bytes=" + bytes);
    System.out.println("crc=" + crc.getValue());
  }
}
