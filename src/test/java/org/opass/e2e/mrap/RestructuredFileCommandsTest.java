package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opass.tools.cluster.TestFiles.randomBytes;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.pattern.PatternConfig;

/**
 * What users do to a restructured file with the commands they know ({@code hdfs dfs -mv, -cp,
 * -rm, -put, -get, -appendToFile, -truncate}, snapshots, DistCp), and what MRAP's own reader
 * makes of the result: the right records, or a refusal that names the file. Never wrong bytes.
 * One table of these outcomes is in docs/copy.md ("Restructured files").
 * On an in-process {@code MiniDFSCluster}; {@link RestructuredFileCommandsProcessHdfsTest} runs
 * the same on a NameNode and DataNodes in processes of their own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestructuredFileCommandsTest {
  static final int BLOCK = 256 * 1024;
  private static final long START = 100;
  private static final int SIZE = 4096;
  private static final long SPACING = 12 * 1024;
  private static final int COUNT = 60;
  private AutoCloseable cluster;
  Configuration clusterConf;
  private DistributedFileSystem fs;
  private byte[] original;
  private byte[] other;

  // static: JUnit fills instance @TempDir fields only before each test, after @BeforeAll
  @TempDir
  static File local;

  private File originalFile;
  private File otherFile;
  private File pattern;

  /**
   * Takes the cluster the tests run on and sets {@link #clusterConf} to its clients'; what to
   * close after them (nothing: the shared cluster stays up for the next class).
   */
  AutoCloseable startCluster() throws Exception {
    clusterConf = SharedClusters.take(BLOCK).conf();
    return () -> { };
  }

  @BeforeAll
  void start() throws Exception {
    cluster = startCluster();
    fs = (DistributedFileSystem) FileSystem.get(clusterConf);
    original = randomBytes((1 << 20) + 1234, 1);
    other = randomBytes((1 << 20) + 1234, 2);
    originalFile = new File(local, "original");
    otherFile = new File(local, "other");
    Files.write(originalFile.toPath(), original);
    Files.write(otherFile.toPath(), other);
    pattern = new File(local, "pattern.xml");
    Files.writeString(pattern.toPath(), "<configuration>"
        + "<property><name>strided.start</name><value>" + START + "</value></property>"
        + "<property><name>strided.region_size</name><value>" + SIZE + "</value></property>"
        + "<property><name>strided.region_spacing</name><value>" + SPACING + "</value>"
        + "</property>"
        + "<property><name>strided.region_count</name><value>" + COUNT + "</value></property>"
        + "</configuration>");
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private Configuration conf(String name) {
    return AccessJobTest.jobConf(clusterConf, "commands-" + getClass().getSimpleName() + "-"
        + name);
  }

  /** {@code mrap-copy -pattern}: {@code src} restructured into {@code dst}. */
  private int restructure(String src, String dst) throws Exception {
    return ToolRunner.run(conf("copy"), new MrapCopy(), new String[] {"-pattern",
        pattern.getPath(), "-mode", "single", src, dst});
  }

  private void shell(String... args) throws Exception {
    assertEquals(0, ToolRunner.run(conf("shell"), new FsShell(), args), String.join(" ", args));
  }

  /** The records of {@code file} read with the pattern it was restructured for. */
  private List<MrapReads.Rec> read(String file) throws Exception {
    Configuration conf = conf("read");
    conf.setLong(PatternConfig.STRIDED_START, START);
    conf.setLong(PatternConfig.STRIDED_SIZE, SIZE);
    conf.setLong(PatternConfig.STRIDED_SPACING, SPACING);
    conf.setLong(PatternConfig.STRIDED_COUNT, COUNT);
    return MrapReads.records(conf, new Path(file));
  }

  private void assertReads(byte[] data, String file) throws Exception {
    assertNull(MrapReads.difference(MrapReads.stridedOracle(data, START, SIZE, SPACING, COUNT),
        read(file)), file);
  }

  private void assertRefused(String file) {
    IOException e = assertThrows(IOException.class, () -> read(file),
        "reading " + file + " is refused");
    assertTrue(e.getMessage().contains(file), "the refusal names " + file + ": "
        + e.getMessage());
  }

  private String restructured(String dir) throws Exception {
    String f = dir + "/f";
    assertEquals(0, restructure(originalFile.toURI().toString(), f));
    assertReads(original, f);
    return f;
  }

  @Test
  void movedToAnotherFolderOrNameItReadsAsBefore() throws Exception {
    String f = restructured("/cmd/mv/a");
    shell("-mkdir", "-p", "/cmd/mv/b");
    shell("-mv", f, "/cmd/mv/b/g");
    assertReads(original, "/cmd/mv/b/g");
    shell("-mv", "/cmd/mv/b/g", "/cmd/mv/b/h");
    assertReads(original, "/cmd/mv/b/h");
  }

  @Test
  void aPlainFilePutUnderItsOldNameReadsAsThatFile() throws Exception {
    String f = restructured("/cmd/put");
    shell("-rm", f);
    shell("-put", otherFile.getPath(), f);
    assertReads(other, f);
  }

  @Test
  void aPlainFilePutOverItReadsAsThatFile() throws Exception {
    String f = restructured("/cmd/put-f");
    shell("-put", "-f", otherFile.getPath(), f);
    assertReads(other, f);
  }

  @Test
  void removedItCanBeRestructuredAgainUnderTheSameName() throws Exception {
    String f = restructured("/cmd/rm");
    shell("-rm", f);
    assertEquals(0, restructure(originalFile.toURI().toString(), f));
    assertReads(original, f);
    assertEquals(List.of(f), List.of(fs.listStatus(new Path("/cmd/rm"))).stream()
        .map(s -> s.getPath().toUri().getPath()).toList(), "nothing else in its folder");
  }

  @Test
  void copiedWithCpWithOrWithoutPreservingItReadsAsBefore() throws Exception {
    String f = restructured("/cmd/cp");
    shell("-cp", f, "/cmd/cp/plain-cp");
    assertReads(original, "/cmd/cp/plain-cp");
    shell("-cp", "-p", f, "/cmd/cp/cp-p");
    assertReads(original, "/cmd/cp/cp-p");
  }

  @Test
  void copiedWithDistCpItReadsAsBefore() throws Exception {
    String f = restructured("/cmd/distcp/src");
    assertEquals(0, ToolRunner.run(conf("distcp"), new DistCp(conf("distcp"), null),
        new String[] {f, "/cmd/distcp/plain/f"}));
    assertReads(original, "/cmd/distcp/plain/f");
    assertEquals(0, ToolRunner.run(conf("distcp"), new DistCp(conf("distcp"), null),
        new String[] {"-pbugpaxt", f, "/cmd/distcp/preserved/f"}));
    assertReads(original, "/cmd/distcp/preserved/f");
  }

  @Test
  void aSnapshotKeepsReadingAsTakenWhateverHappensToTheLiveFile() throws Exception {
    String f = restructured("/cmd/snap");
    fs.allowSnapshot(new Path("/cmd/snap"));
    fs.createSnapshot(new Path("/cmd/snap"), "s1");
    shell("-rm", f);
    shell("-put", otherFile.getPath(), f);
    assertReads(original, "/cmd/snap/.snapshot/s1/f");
    assertReads(other, f);
  }

  @Test
  void fetchedWithGetAndCopiedBackItReadsAsBefore() throws Exception {
    String f = restructured("/cmd/get");
    File fetched = new File(local, "fetched");
    shell("-get", f, fetched.getPath());
    assertEquals(0, ToolRunner.run(conf("copy"), new MrapCopy(), new String[] {"-mode",
        "single", fetched.toURI().toString(), "/cmd/get/back"}));
    assertReads(original, "/cmd/get/back");
  }

  @Test
  void appendedToItIsRefusedNamingIt() throws Exception {
    String f = restructured("/cmd/append");
    // An append right after the write can find a replica not yet reported, and with no spare
    // DataNode the stock client then refuses to rebuild the pipeline; users append later.
    DFSTestUtil.waitReplication(fs, new Path(f), fs.getFileStatus(new Path(f)).getReplication());
    shell("-appendToFile", otherFile.getPath(), f);
    assertRefused(f);
  }

  @Test
  void truncatedItIsRefusedNamingIt() throws Exception {
    String f = restructured("/cmd/truncate");
    shell("-truncate", "-w", "300000", f);
    assertRefused(f);
  }
}
