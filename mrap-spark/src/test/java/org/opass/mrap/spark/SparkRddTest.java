package org.opass.mrap.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.spark.Partition;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.mapreduce.SequenceMatchingInputFormat;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.read.SideKey;
import org.opass.read.mapreduce.BalancedLocalityInputFormat;
import scala.Tuple2;
import scala.collection.JavaConverters;

/**
 * The RDD path, as docs/spark.md shows it: {@code newAPIHadoopFile} with {@code AccessInputFormat}
 * (the pattern's records byte for byte, the splits' hosts as the RDD's preferred locations),
 * {@code SequenceMatchingInputFormat} (a one-phase match: every task's B records before its A
 * records, every A line met by all of B), and {@code BalancedLocalityInputFormat} over
 * {@code TextInputFormat} (the same lines, one preferred host a partition, every host within
 * one partition of the others).
 */
class SparkRddTest {
  private static JavaSparkContext sc;
  private static byte[] data;

  @BeforeAll
  static void start() throws Exception {
    sc = JavaSparkContext.fromSparkContext(SparkOnHdfs.spark().sparkContext());
    FileSystem fs = SparkOnHdfs.fs();
    data = new byte[7 * SparkOnHdfs.BLOCK + 99];
    new Random(17).nextBytes(data);
    try (FSDataOutputStream out = fs.create(new Path("/rdd/data.bin"), (short) 2)) {
      out.write(data);
    }
    StringBuilder a = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      a.append("k").append(i % 50).append('\t').append("read").append(i).append('\n');
    }
    try (FSDataOutputStream out = fs.create(new Path("/rdd/reads.txt"), (short) 2)) {
      out.write(a.toString().getBytes(StandardCharsets.UTF_8));
    }
    try (FSDataOutputStream out = fs.create(new Path("/rdd/reference.txt"), (short) 2)) {
      for (int i = 0; i < 50; i++) {
        out.write(("k" + i + "\tref" + i + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private static Configuration conf() {
    return new Configuration(sc.hadoopConfiguration());
  }

  @Test
  void accessInputFormatAsAnRddReadsThePatternWhereItsSplitsSay() throws Exception {
    Configuration conf = conf();
    conf.set(PatternConfig.STRIDED_START, "10");
    conf.set(PatternConfig.STRIDED_SIZE, "5000");
    conf.set(PatternConfig.STRIDED_SPACING, "15000");
    conf.set(PatternConfig.STRIDED_COUNT, "22");
    JavaPairRDD<LongWritable, BytesWritable> rdd = sc.newAPIHadoopFile("/rdd/data.bin",
        AccessInputFormat.class, LongWritable.class, BytesWritable.class, conf);
    // Hadoop reuses its Writables: copy them out in the task
    List<Tuple2<Long, byte[]>> records = rdd.map(t -> new Tuple2<>(t._1().get(),
        Arrays.copyOf(t._2().getBytes(), t._2().getLength()))).collect();
    assertEquals(22, records.size());
    List<Tuple2<Long, byte[]>> sorted = new ArrayList<>(records);
    sorted.sort((x, y) -> Long.compare(x._1(), y._1()));
    for (int k = 0; k < 22; k++) {
      assertEquals(5000L * k, sorted.get(k)._1(), "record " + k);
      assertArrayEquals(Arrays.copyOfRange(data, 10 + 20_000 * k, 10 + 20_000 * k + 5000),
          sorted.get(k)._2(), "record " + k);
    }
    Job job = Job.getInstance(conf);
    FileInputFormat.addInputPath(job, new Path("/rdd/data.bin"));
    List<InputSplit> splits = new AccessInputFormat().getSplits(job);
    Partition[] partitions = rdd.rdd().partitions();
    assertEquals(splits.size(), partitions.length);
    for (int i = 0; i < partitions.length; i++) {
      List<String> hosts = new ArrayList<>(JavaConverters.seqAsJavaListConverter(
          rdd.rdd().preferredLocations(partitions[i])).asJava());
      List<String> want = new ArrayList<>(Arrays.asList(splits.get(i).getLocations()));
      hosts.sort(null);
      want.sort(null);
      assertEquals(want, hosts, "partition " + i);
    }
  }

  @Test
  void sequenceMatchingIsAOnePhaseMatchInSpark() {
    Configuration conf = conf();
    conf.set(SequenceMatchingInputFormat.A_PATHS, "/rdd/reads.txt");
    conf.set(SequenceMatchingInputFormat.B_PATHS, "/rdd/reference.txt");
    conf.set(SequenceMatchingInputFormat.MODE, "one-to-all");
    conf.set(SequenceMatchingInputFormat.A_SPLIT_BYTES, "64k");
    JavaPairRDD<SideKey, Writable> rdd = sc.newAPIHadoopRDD(conf,
        SequenceMatchingInputFormat.class, SideKey.class, Writable.class);
    // each task holds B and streams A, as a mapper does: the A lines whose key B has
    List<Integer> matchedPerTask = rdd.mapPartitions(it -> {
      Map<String, String> b = new HashMap<>();
      int matched = 0;
      boolean seenA = false;
      while (it.hasNext()) {
        Tuple2<SideKey, Writable> t = it.next();
        String[] line = t._2().toString().split("\t");
        if (t._1().isA()) {
          seenA = true;
          matched += b.containsKey(line[0]) ? 1 : 0;
        } else if (seenA) {
          throw new IllegalStateException("a B record after the task's A records");
        } else {
          b.put(line[0], line[1]);
        }
      }
      return List.of(matched).iterator();
    }).collect();
    assertTrue(matchedPerTask.size() > 1, "several tasks: " + matchedPerTask);
    assertEquals(20_000, matchedPerTask.stream().mapToInt(Integer::intValue).sum(),
        "every read met the whole reference in its task");
  }

  @Test
  void balancedLocalityGivesEachHostAnEqualShareOfPartitions() {
    Configuration conf = conf();
    conf.set(BalancedLocalityInputFormat.DELEGATE_KEY, TextInputFormat.class.getName());
    JavaPairRDD<LongWritable, Text> balanced = sc.newAPIHadoopFile("/rdd/reads.txt",
        BalancedLocalityInputFormat.class, LongWritable.class, Text.class, conf);
    JavaPairRDD<LongWritable, Text> plain = sc.newAPIHadoopFile("/rdd/reads.txt",
        TextInputFormat.class, LongWritable.class, Text.class, conf());
    assertEquals(plain.map(t -> t._2().toString()).collect(),
        balanced.map(t -> t._2().toString()).collect(), "the same lines");
    Map<String, Integer> perHost = new HashMap<>();
    for (Partition p : balanced.rdd().partitions()) {
      List<String> hosts = JavaConverters.seqAsJavaListConverter(
          balanced.rdd().preferredLocations(p)).asJava();
      assertEquals(1, hosts.size(), "one preferred host: " + hosts);
      perHost.merge(hosts.get(0), 1, Integer::sum);
    }
    int max = perHost.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    int min = perHost.values().stream().mapToInt(Integer::intValue).min().orElse(0);
    assertTrue(balanced.rdd().partitions().length >= 3, "several blocks");
    assertTrue(max - min <= 1, "balanced: " + perHost);
  }
}
