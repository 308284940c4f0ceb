package org.opass.read.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.opass.read.wire.PlanRead;

class BalancedLocalityInputFormatTest {
  /** Test-only key: the fake delegate's splits, "path,start,length,h1 h2;..." or "OTHER". */
  static final String FAKE_SPLITS = "test.fake.splits";

  /** Fake delegate: returns the hand-made splits described by {@link #FAKE_SPLITS}. */
  public static class FakeFormat extends FileInputFormat<LongWritable, Text> {
    @Override
    public List<InputSplit> getSplits(JobContext job) {
      List<InputSplit> out = new ArrayList<>();
      String spec = job.getConfiguration().get(FAKE_SPLITS, "");
      for (String e : spec.split(";")) {
        if (e.isEmpty()) {
          continue;
        }
        if (e.equals("OTHER")) {
          out.add(new OtherSplit());
          continue;
        }
        String[] f = e.split(",", -1);
        String[] hosts = f[3].isEmpty() ? new String[0] : f[3].split(" ");
        out.add(new FileSplit(new Path(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), hosts));
      }
      return out;
    }

    @Override
    public RecordReader<LongWritable, Text> createRecordReader(InputSplit split,
        TaskAttemptContext context) {
      return new FakeReader(split);
    }
  }

  /** Not a FileSplit. */
  public static class OtherSplit extends InputSplit {
    @Override
    public long getLength() {
      return 1;
    }

    @Override
    public String[] getLocations() {
      return new String[] {"h1"};
    }
  }

  static class FakeReader extends RecordReader<LongWritable, Text> {
    final InputSplit split;

    FakeReader(InputSplit split) {
      this.split = split;
    }

    @Override
    public void initialize(InputSplit s, TaskAttemptContext c) {
    }

    @Override
    public boolean nextKeyValue() {
      return false;
    }

    @Override
    public LongWritable getCurrentKey() {
      return null;
    }

    @Override
    public Text getCurrentValue() {
      return null;
    }

    @Override
    public float getProgress() {
      return 1;
    }

    @Override
    public void close() {
    }
  }

  /** A spec of splits /f/i at i*100, length 100, with the given location lists. */
  private static String spec(String[][] locations) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < locations.length; i++) {
      sb.append("/f/").append(i).append(',').append(i * 100L).append(",100,")
          .append(String.join(" ", locations[i])).append(';');
    }
    return sb.toString();
  }

  private static Configuration conf(String spec) {
    Configuration conf = new Configuration(false);
    conf.set(BalancedLocalityInputFormat.DELEGATE_KEY, FakeFormat.class.getName());
    conf.set(FAKE_SPLITS, spec);
    return conf;
  }

  private static List<InputSplit> run(Configuration conf) throws Exception {
    return new BalancedLocalityInputFormat<LongWritable, Text>()
        .getSplits(new JobContextImpl(conf, new JobID()));
  }

  /** Checks path/start/length/order and one location each; returns splits per chosen host. */
  private static Map<String, Integer> checkShape(Configuration conf, List<InputSplit> out)
      throws Exception {
    List<InputSplit> in = new FakeFormat().getSplits(new JobContextImpl(conf, new JobID()));
    assertEquals(in.size(), out.size());
    Map<String, Integer> perHost = new HashMap<>();
    for (int i = 0; i < in.size(); i++) {
      if (!(in.get(i) instanceof FileSplit)) {
        continue;
      }
      FileSplit a = (FileSplit) in.get(i);
      FileSplit b = assertInstanceOf(FileSplit.class, out.get(i));
      assertEquals(a.getPath(), b.getPath(), "path of split " + i);
      assertEquals(a.getStart(), b.getStart(), "start of split " + i);
      assertEquals(a.getLength(), b.getLength(), "length of split " + i);
      assertEquals(1, b.getLocations().length, "one location for split " + i);
      perHost.merge(b.getLocations()[0], 1, Integer::sum);
    }
    return perHost;
  }

  private static void assertAllLocal(Configuration conf, List<InputSplit> out) throws Exception {
    List<InputSplit> in = new FakeFormat().getSplits(new JobContextImpl(conf, new JobID()));
    for (int i = 0; i < in.size(); i++) {
      String chosen = out.get(i).getLocations()[0];
      assertTrue(Arrays.asList(in.get(i).getLocations()).contains(chosen),
          "split " + i + " got " + chosen + ", not one of "
              + Arrays.toString(in.get(i).getLocations()));
    }
  }

  private static void assertBalanced(Map<String, Integer> perHost, int hosts, int splits) {
    assertEquals(hosts, perHost.size(), "every host gets work: " + perHost);
    int min = Collections.min(perHost.values());
    int max = Collections.max(perHost.values());
    assertTrue(max - min <= 1, "unbalanced: " + perHost);
    assertEquals(splits, perHost.values().stream().mapToInt(Integer::intValue).sum());
  }

  @Test
  void firstLocationPilesOnOneHostWrapperSpreads() throws Exception {
    // every split lists h1 first; the second replica alternates h2/h3
    String[][] locs = new String[6][];
    for (int i = 0; i < 6; i++) {
      locs[i] = new String[] {"h1", i % 2 == 0 ? "h2" : "h3"};
    }
    Configuration conf = conf(spec(locs));
    List<InputSplit> in = new FakeFormat().getSplits(new JobContextImpl(conf, new JobID()));
    Map<String, Integer> stock = new HashMap<>();
    for (InputSplit s : in) {
      stock.merge(s.getLocations()[0], 1, Integer::sum);
    }
    assertEquals(Map.of("h1", 6), stock, "stock first-location choice");

    List<InputSplit> out = run(conf);
    Map<String, Integer> perHost = checkShape(conf, out);
    assertEquals(Map.of("h1", 2, "h2", 2, "h3", 2), perHost);
    assertAllLocal(conf, out);
  }

  @Test
  void unevenCountsStayWithinOneAndLocal() throws Exception {
    // 10 splits, 3 replicas each over 4 hosts, round robin: a local balanced plan exists
    String[] h = {"a", "b", "c", "d"};
    String[][] locs = new String[10][];
    for (int i = 0; i < 10; i++) {
      locs[i] = new String[] {h[i % 4], h[(i + 1) % 4], h[(i + 2) % 4]};
    }
    Configuration conf = conf(spec(locs));
    List<InputSplit> out = run(conf);
    assertBalanced(checkShape(conf, out), 4, 10);
    assertAllLocal(conf, out);
  }

  @Test
  void explicitHostsIncludeHostWithoutSplits() throws Exception {
    String[][] locs = new String[6][];
    for (int i = 0; i < 6; i++) {
      locs[i] = new String[] {"h1", "h2"};
    }
    Configuration conf = conf(spec(locs));
    BalancedLocalityInputFormat.setHosts(conf, List.of("h1", "h2", "h3"));
    List<InputSplit> out = run(conf);
    Map<String, Integer> perHost = checkShape(conf, out);
    assertEquals(Map.of("h1", 2, "h2", 2, "h3", 2), perHost);
    // without the list, h3 is not a process
    conf.unset(BalancedLocalityInputFormat.HOSTS_KEY);
    assertEquals(Map.of("h1", 3, "h2", 3), checkShape(conf, run(conf)));
  }

  @Test
  void nonFileSplitsKeptAndSplitsWithoutLocationsPlaced() throws Exception {
    Configuration conf = conf("/f/0,0,10,h1;OTHER;/f/1,10,10,h2;/f/2,20,10,;/f/3,30,10,h1");
    List<InputSplit> out = run(conf);
    assertEquals(5, out.size());
    assertInstanceOf(OtherSplit.class, out.get(1));
    Map<String, Integer> perHost = checkShape(conf, out);
    assertEquals(Map.of("h1", 2, "h2", 2), perHost);
    assertArrayEquals(new String[] {"h2"}, out.get(3).getLocations(), "no-location split fills h2");
  }

  @Test
  void emptyAndLocationlessInputsUnchanged() throws Exception {
    assertEquals(List.of(), run(conf("")));
    Configuration conf = conf("/f/0,0,10,;/f/1,10,10,");
    List<InputSplit> out = run(conf);
    assertEquals(2, out.size());
    assertEquals(0, out.get(0).getLocations().length);
  }

  @Test
  void missingDelegateNamesKey() {
    Configuration conf = new Configuration(false);
    IOException e = assertThrows(IOException.class, () -> run(conf));
    assertTrue(e.getMessage().contains(BalancedLocalityInputFormat.DELEGATE_KEY), e.getMessage());
  }

  @Test
  void unknownDelegateNamesKey() {
    Configuration conf = conf("");
    conf.set(BalancedLocalityInputFormat.DELEGATE_KEY, "no.such.Format");
    IOException e = assertThrows(IOException.class, () -> run(conf));
    assertTrue(e.getMessage().contains(BalancedLocalityInputFormat.DELEGATE_KEY), e.getMessage());
    assertTrue(e.getMessage().contains("no.such.Format"), e.getMessage());
  }

  @Test
  void delegateNotAFileInputFormatNamesKey() {
    Configuration conf = conf("");
    conf.set(BalancedLocalityInputFormat.DELEGATE_KEY, String.class.getName());
    IOException e = assertThrows(IOException.class, () -> run(conf));
    assertTrue(e.getMessage().contains(BalancedLocalityInputFormat.DELEGATE_KEY), e.getMessage());
  }

  @Test
  void blankHostListNamesKey() {
    Configuration conf = conf("/f/0,0,10,h1");
    conf.set(BalancedLocalityInputFormat.HOSTS_KEY, " , ");
    IOException e = assertThrows(IOException.class, () -> run(conf));
    assertTrue(e.getMessage().contains(BalancedLocalityInputFormat.HOSTS_KEY), e.getMessage());
  }

  @Test
  void setDelegateAndRecordReaderDelegates() throws Exception {
    Job job = Job.getInstance(new Configuration(false));
    BalancedLocalityInputFormat.setDelegate(job, FakeFormat.class);
    assertEquals(FakeFormat.class.getName(),
        job.getConfiguration().get(BalancedLocalityInputFormat.DELEGATE_KEY));
    FileSplit split = new FileSplit(new Path("/f/0"), 0, 10, new String[] {"h1"});
    TaskAttemptContext ctx =
        new TaskAttemptContextImpl(job.getConfiguration(), new TaskAttemptID());
    RecordReader<LongWritable, Text> r =
        new BalancedLocalityInputFormat<LongWritable, Text>().createRecordReader(split, ctx);
    assertSame(split, assertInstanceOf(FakeReader.class, r).split);
  }

  @Test
  void planReadsAreTheBalancedSplitsReadByTheirHost() throws Exception {
    List<InputSplit> balanced = BalancedLocalityInputFormat.balance(Arrays.asList(
        new FileSplit(new Path("hdfs://nn:8020/f/0"), 0, 10, new String[] {"h1", "h2"}),
        new FileSplit(new Path("/f/1"), 5, 20, new String[] {"h1", "h2"}),
        new FileSplit(new Path("/f/2"), 0, 7, new String[] {"h1", "h2"}),
        new FileSplit(new Path("/f/3"), 0, 7, new String[] {"h1", "h2"})), null);
    List<PlanRead> reads = BalancedLocalityInputFormat.planReads(balanced);
    assertEquals(4, reads.size());
    Map<String, Integer> perHost = new HashMap<>();
    for (int i = 0; i < 4; i++) {
      FileSplit s = (FileSplit) balanced.get(i);
      PlanRead r = reads.get(i);
      assertEquals("/f/" + i, r.path(), "a path within the file system, as the endpoint takes");
      assertEquals(s.getLocations()[0], r.reader());
      assertEquals(s.getStart(), r.offset());
      assertEquals(s.getLength(), r.length());
      perHost.merge(r.reader(), 1, Integer::sum);
    }
    assertEquals(Map.of("h1", 2, "h2", 2), perHost);
    // a split of several hosts (not balanced) has no one reader: not planned
    assertEquals(List.of(), BalancedLocalityInputFormat.planReads(List.of(
        new FileSplit(new Path("/f/0"), 0, 10, new String[] {"h1", "h2"}))));
  }
}
