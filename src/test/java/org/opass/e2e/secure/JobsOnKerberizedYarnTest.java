package org.opass.e2e.secure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opass.e2e.SeededCases;
import org.opass.e2e.mrap.MrapReads;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.examples.ExtractRegions;
import org.opass.mrap.examples.JoinOnKey;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.mapreduce.SequenceMatchingInputFormat;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.read.client.ReadPlanClient;
import org.opass.read.mapreduce.BalancedLocalityInputFormat;
import org.opass.tools.cluster.EmulatedCluster;
import org.opass.tools.cluster.MiniYarn;
import org.opass.tools.cluster.Release;
import org.opass.tools.cluster.TestFiles;

/**
 * Issue 26, part 1's jobs: Opass's and MRAP's InputFormats and {@code mrap-copy}'s parallel
 * mode in real job submissions to a kerberized YARN ({@code MiniMRYarnCluster} with its
 * ResourceManager, NodeManagers and JobHistoryServer logged in from keytabs) over a kerberized
 * HDFS with our NameNode plugins. A user logs in from a keytab and submits; the submission gets
 * the job's HDFS delegation token (renewed by the ResourceManager), and the ApplicationMaster
 * and the tasks, JVMs of their own with no Kerberos credentials, read, write and {@code concat}
 * with that token alone. The splits are serialized into the job's split file and read back by
 * the ApplicationMaster and the tasks. A job's read plan goes to {@code /opass/read-plan} from
 * the driver, over SPNEGO with the user's login; tasks never call it.
 */
class JobsOnKerberizedYarnTest {
  private static final int NODE_MANAGERS = 2;
  private static final int BLOCK = 256 * 1024;
  private static final String HOME = "/user/alice";

  private static Kerberos kerberos;
  private static EmulatedCluster cluster;
  private static MiniMRYarnCluster yarn;
  private static Configuration conf;
  private static UserGroupInformation alice;

  @BeforeAll
  static void start() throws Exception {
    kerberos = new Kerberos(new File("target/e2e/kerberos-yarn"));
    Configuration base = new HdfsConfiguration();
    for (Map.Entry<String, String> e : kerberos.clusterConf()) {
      base.set(e.getKey(), e.getValue());
    }
    Release.siteFragments(Release.ROOT).forEach(base::set);
    base.set(DFSConfigKeys.DFS_NAMENODE_AUDIT_LOGGERS_KEY, "default," + AuthAudit.class.getName());
    kerberos.loginAsService(base); // the daemons' own login
    cluster = EmulatedCluster.builder().dataNodes(4).racks(2).blockSize(BLOCK)
        .baseDir(new File("target/e2e/kerberized-yarn")).conf(base).start();
    FileSystem hdfs = cluster.offClusterFileSystem(); // the service principal: the superuser
    hdfs.mkdirs(new Path(HOME));
    hdfs.setOwner(new Path(HOME), "alice", "alice");
    Configuration y = new Configuration(cluster.conf());
    for (Map.Entry<String, String> e : kerberos.yarnConf()) {
      y.set(e.getKey(), e.getValue());
    }
    y.set("fs.defaultFS", cluster.uri().toString());
    kerberos.writeHostSite();
    yarn = MiniYarn.start(y, "kerberized-yarn", NODE_MANAGERS,
        MiniYarn.QUICK_START + " " + kerberos.taskJvmOpts());
    conf = new Configuration(yarn.getConfig());
    alice = kerberos.login(conf, "alice");
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (yarn != null) {
        MiniYarn.stop(yarn, NODE_MANAGERS);
      }
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      if (kerberos != null) {
        kerberos.close();
      }
    }
  }

  private static <T> T asAlice(PrivilegedExceptionAction<T> action) throws Exception {
    return alice.doAs(action);
  }

  /** Alice's file system (a client of the kerberized cluster, her Kerberos login). */
  private static FileSystem fs() throws Exception {
    return asAlice(() -> FileSystem.get(cluster.uri(), conf));
  }

  private static void write(String path, byte[] bytes) throws Exception {
    TestFiles.write(fs(), new Path(path), bytes, (short) 2, BLOCK);
  }

  /** A job's configuration with a strided pattern: {@code count} regions of {@code size}. */
  private static Configuration strided(String size, String spacing, String count) {
    Configuration job = new Configuration(conf);
    job.set(PatternConfig.STRIDED_SIZE, size);
    job.set(PatternConfig.STRIDED_SPACING, spacing);
    job.set(PatternConfig.STRIDED_COUNT, count);
    return job;
  }

  private static int run(Tool tool, Configuration job, String... args)
      throws Exception {
    return asAlice(() -> ToolRunner.run(job, tool, args));
  }

  /**
   * A MapReduce job reading through {@code BalancedLocalityInputFormat}: the driver submits the
   * splits' read plan (SPNEGO, alice's login; the NameNode found through the file system's
   * URI) and the job; the job carries an HDFS delegation token, and every line comes out once.
   */
  @Test
  void aBalancedJobPlansOverSpnegoAndItsTasksReadWithTheJobsToken() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int f = 0; f < 4; f++) {
      StringBuilder text = new StringBuilder();
      for (int l = 0; l < 12_000; l++) {
        String line = "file " + f + " line " + l;
        lines.add(line);
        text.append(line).append('\n');
      }
      write(HOME + "/lines/part-" + f, text.toString().getBytes(StandardCharsets.UTF_8));
    }
    Job job = asAlice(() -> Job.getInstance(new Configuration(conf), "balanced-lines"));
    FileInputFormat.addInputPath(job, new Path(HOME + "/lines"));
    job.setInputFormatClass(BalancedLocalityInputFormat.class);
    BalancedLocalityInputFormat.setDelegate(job, TextInputFormat.class);
    job.setMapperClass(Mapper.class); // identity: (offset, line)
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(Text.class);
    Path out = new Path(HOME + "/lines-out");
    FileOutputFormat.setOutputPath(job, out);

    List<InputSplit> splits = asAlice(() -> new BalancedLocalityInputFormat<LongWritable, Text>()
        .getSplits(job));
    assertTrue(splits.size() >= 4, splits.size() + " splits");
    ReadPlanClient.Result plan = asAlice(() -> ReadPlanClient.forFileSystem(cluster.uri(), conf)
        .submit(BalancedLocalityInputFormat.planReads(splits)));
    assertNotNull(plan.id(), plan.json());
    assertEquals(splits.size(), plan.reads(), "a planned read a split: " + plan.json());
    assertTrue(asAlice(() -> job.waitForCompletion(false)), "the job succeeds");

    Set<String> kinds = new HashSet<>();
    for (Token<?> t : job.getCredentials().getAllTokens()) {
      kinds.add(t.getKind().toString());
    }
    assertTrue(kinds.contains("HDFS_DELEGATION_TOKEN"), "the job's tokens: " + kinds);
    assertTasksWroteWithTheJobsToken(out.toString());
    Map<String, Set<AuthenticationMethod>> opens = AuthAudit.of("open", HOME + "/lines/");
    assertEquals(4, opens.size(), "every input file opened: " + opens);
    opens.forEach((call, how) -> assertTrue(how.contains(AuthenticationMethod.TOKEN),
        "a task read " + call + ": " + how));
    List<String> got = new ArrayList<>();
    FileSystem fs = fs();
    for (FileStatus part : fs.listStatus(out, p -> p.getName().startsWith("part-"))) {
      for (String line : lines(fs, part.getPath())) {
        got.add(line.substring(line.indexOf('\t') + 1));
      }
    }
    got.sort(null);
    lines.sort(null);
    assertEquals(lines, got);
  }

  /**
   * MRAP's {@code AccessInputFormat} with virtual splits (chunks regrouped by their host). Its
   * tasks read as the balanced job's do: a compatibility run leaves it to the default release.
   */
  @Test
  void anAccessJobWithVirtualSplitsRunsWithTheJobsToken() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeFalse(SeededCases.compatRun(),
        "the default release's run covers it");
    byte[] data = new byte[3 << 20];
    new Random(9).nextBytes(data);
    write(HOME + "/data", data);
    Configuration job = strided("64k", "256k", "9");
    job.set(PatternConfig.STRIDED_START, "4097");
    job.set(AccessInputFormat.CHUNKS, "independent");
    assertEquals(0, run(new ExtractRegions(), job, HOME + "/data", HOME + "/regions"));
    assertTasksWroteWithTheJobsToken(HOME + "/regions");
    Map<Long, byte[]> records = asAlice(() -> MrapReads.jobOutput(new Path(HOME + "/regions"),
        job));
    byte[] regions = new byte[9 * 65536];
    int at = 0;
    for (byte[] r : records.values()) {
      System.arraycopy(r, 0, regions, at, r.length);
      at += r.length;
    }
    assertEquals(regions.length, at, "every region's bytes, once");
    for (int k = 0; k < 9; k++) {
      int offset = 4097 + k * 320 * 1024;
      assertArrayEquals(Arrays.copyOfRange(data, offset, offset + 65536),
          Arrays.copyOfRange(regions, k * 65536, (k + 1) * 65536), "region " + k);
    }
  }

  /**
   * {@code bin/mrap index} on the kerberized YARN: its tasks read the files' headers with the
   * job's delegation token, the driver publishes the index as alice; a read planned from it,
   * as alice, reads no file's header.
   */
  @Test
  void theSeriesIndexJobRunsWithTheJobsToken() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeFalse(SeededCases.compatRun(),
        "the default release's run covers it");
    for (String f : new String[] {"era_0.nc", "era_1.nc", "era_2.nc"}) {
      write(HOME + "/era/" + f, org.opass.mrap.science.Fixtures.bytes("index/joins/" + f));
    }
    Configuration job = new Configuration(conf);
    job.set(org.opass.mrap.settings.VariableSettings.KIND, "netcdf");
    job.set(org.opass.mrap.mapreduce.index.IndexKeys.VARIABLES, "t2m");
    assertEquals(0, run(new org.opass.mrap.mapreduce.index.IndexJob(), job, HOME + "/era",
        HOME + "/era.index"));
    Configuration read = new Configuration(job);
    read.set(org.opass.mrap.settings.VariableSettings.VARIABLE, "t2m");
    read.set(org.opass.mrap.settings.VariableSettings.SELECT, "latitude=30:45");
    read.set(org.opass.mrap.settings.VariableSettings.INDEX, HOME + "/era.index");
    org.opass.mrap.plan.VariablePlanner planner = asAlice(() -> {
      org.opass.mrap.plan.VariablePlanner p = new org.opass.mrap.plan.VariablePlanner(read);
      p.tasks(Arrays.asList(fs().listStatus(new Path(HOME + "/era"))));
      return p;
    });
    assertEquals(3, planner.filesFromIndex());
    assertEquals(0, planner.indexFallbacks());
  }

  /**
   * MRAP's paired inputs ({@code SequenceMatchingInputFormat}): a join on key. Its tasks read
   * as the balanced job's do: a compatibility run leaves it to the default release.
   */
  @Test
  void sequenceMatchingRunsWithTheJobsToken() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeFalse(SeededCases.compatRun(),
        "the default release's run covers it");
    Set<String> expected = new HashSet<>();
    Random rnd = new Random(10);
    StringBuilder a = new StringBuilder();
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      int k = rnd.nextInt(500);
      a.append("k").append(k).append("\tread").append(i).append('\n');
      if (i < 500) {
        b.append("k").append(i).append("\tref").append(i).append('\n');
      }
    }
    for (String line : a.toString().split("\n")) {
      String[] f = line.split("\t");
      expected.add(f[0] + "\t" + f[1] + "\tref" + f[0].substring(1));
    }
    write(HOME + "/a", a.toString().getBytes(StandardCharsets.UTF_8));
    write(HOME + "/b", b.toString().getBytes(StandardCharsets.UTF_8));
    Configuration job = new Configuration(conf);
    job.set(SequenceMatchingInputFormat.A_SPLIT_BYTES, "16k"); // several tasks
    assertEquals(0, run(new JoinOnKey(), job, HOME + "/a", HOME + "/b", HOME + "/joined"));
    assertTasksWroteWithTheJobsToken(HOME + "/joined");
    Set<String> got = new HashSet<>();
    FileSystem fs = fs();
    for (FileStatus part : fs.listStatus(new Path(HOME + "/joined"),
        p -> p.getName().startsWith("part-"))) {
      got.addAll(lines(fs, part.getPath()));
    }
    assertEquals(expected, got);
  }

  /**
   * {@code mrap-copy -mode parallel}: the tasks write whole-block parts with the job's token and
   * the ApplicationMaster's committer joins them with {@code concat}, alice's own file.
   */
  @Test
  void aParallelCopyConcatsWithTheJobsToken() throws Exception {
    byte[] data = new byte[(3 << 20) + 5000];
    new Random(11).nextBytes(data);
    write(HOME + "/copy-src", data);
    Configuration job = strided("10000", "30000", "70");
    assertEquals(0, run(new MrapCopy(), job, "-D", "dfs.blocksize=256k", "-mode", "parallel",
        HOME + "/copy-src", HOME + "/copy"));
    Map<String, Set<AuthenticationMethod>> concats = AuthAudit.of("concat", "");
    assertEquals(1, concats.size(), "the committer's concat: " + concats);
    concats.forEach((call, how) -> assertEquals(Set.of(AuthenticationMethod.TOKEN), how, call));
    Path copy = new Path(HOME + "/copy");
    FileSystem fs = fs();
    assertEquals("alice", fs.getFileStatus(copy).getOwner());
    assertEquals(BLOCK, fs.getFileStatus(copy).getBlockSize());
    assertArrayEquals(data, MrapReads.original(fs, copy));
    MrapReads.assertChunkAligned(fs, copy);
  }

  /**
   * Every file created under the job's output {@code dir} was created by a task with the
   * job's delegation token: no Kerberos credentials reach a task.
   */
  private static void assertTasksWroteWithTheJobsToken(String dir) {
    Map<String, Set<AuthenticationMethod>> creates = AuthAudit.of("create", dir + "/");
    assertFalse(creates.isEmpty(), "no file created under " + dir);
    creates.forEach((call, how) -> assertEquals(Set.of(AuthenticationMethod.TOKEN), how, call));
  }

  private static List<String> lines(FileSystem fs, Path p) throws IOException {
    return new String(TestFiles.read(fs, p), StandardCharsets.UTF_8).lines()
        .collect(Collectors.toList());
  }
}
