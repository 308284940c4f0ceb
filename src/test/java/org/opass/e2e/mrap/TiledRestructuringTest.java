package org.opass.e2e.mrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.opass.tools.cluster.TestFiles.randomBytes;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.opass.e2e.cluster.SharedClusters;
import org.opass.mrap.copy.MrapCopy;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.TiledLayout;
import org.opass.mrap.mapreduce.AccessInputFormat;
import org.opass.mrap.mapreduce.AccessSplit;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.pattern.TiledPattern;
import org.opass.mrap.task.RegionTask;
import org.opass.tools.cluster.EmulatedCluster;

/**
 * Tiled restructuring on a MiniDFSCluster (4 DataNodes, 64 KiB blocks): a climate-shaped array
 * (a 100-byte header, then 48 time steps x 60 latitudes x 120 longitudes of 4-byte values,
 * then 77 bytes) restructured by {@code mrap-copy} for tiles of every time step over a 30 x 10
 * box, in one stream and by the parallel copy's chunk writers. The tiled job reads each tile
 * with one read, its split preferring a holder of the block the tile starts in, and its
 * records are the tiles' regions of the original (the oracle: cut from the bytes by hand);
 * after {@code hdfs dfs -mv} the same; a plain file put under the name reads as itself;
 * another pattern is refused naming the tiles, or read through the layout when asked; the
 * original read back through the layout is the original.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TiledRestructuringTest {
  private static final int BLOCK = 64 * 1024;
  private static final int HEAD = 100;
  private static final long[] SHAPE = {48, 60, 120};
  // a tile is 48 x 30 row pieces: more than a reader looks ahead (1024 records), one read
  private static final long[] TILE = {48, 30, 10};
  private static final int TILES = 2 * 12;
  private EmulatedCluster cluster;
  private FileSystem fs;
  private byte[] original;
  private byte[] other;

  @TempDir
  static File local;

  private File pattern;
  private Path plain;

  @BeforeAll
  void start() throws Exception {
    cluster = SharedClusters.take(BLOCK);
    fs = FileSystem.get(cluster.conf());
    original = randomBytes(HEAD + 48 * 60 * 120 * 4 + 77, 31);
    other = randomBytes(original.length, 32);
    pattern = new File(local, "tiles.xml");
    Files.writeString(pattern.toPath(), "<configuration>"
        + property(PatternConfig.KIND, "tiled")
        + property(PatternConfig.ARRAY_OFFSET, Integer.toString(HEAD))
        + property(PatternConfig.ARRAY_SHAPE, "48,60,120")
        + property(PatternConfig.ARRAY_ELEMENT, "4")
        + property(PatternConfig.TILE_SHAPE, "48,30,10") + "</configuration>");
    plain = new Path("/tiled/plain");
    try (var out = fs.create(plain)) {
      out.write(original);
    }
  }

  private static String property(String name, String value) {
    return "<property><name>" + name + "</name><value>" + value + "</value></property>";
  }

  private Configuration conf(String name) {
    return AccessJobTest.jobConf(cluster, "tiled-" + name);
  }

  private Configuration tiled(String name) {
    Configuration conf = conf(name);
    conf.set(PatternConfig.KIND, "tiled");
    conf.setLong(PatternConfig.ARRAY_OFFSET, HEAD);
    conf.set(PatternConfig.ARRAY_SHAPE, "48,60,120");
    conf.set(PatternConfig.ARRAY_ELEMENT, "4");
    conf.set(PatternConfig.TILE_SHAPE, "48,30,10");
    return conf;
  }

  private Path restructured(String dst, String mode) throws Exception {
    assertEquals(0, ToolRunner.run(conf("copy"), new MrapCopy(), new String[] {"-pattern",
        pattern.getPath(), "-mode", mode, fs.makeQualified(plain).toString(), dst}));
    Path p = new Path(dst);
    assertTrue(RestructuredFiles.layoutOf(fs, p) instanceof TiledLayout, dst + " is tile-major");
    return p;
  }

  /** The oracle: each tile's regions of {@code data} in turn, keyed from the tile's start. */
  private static List<MrapReads.Rec> expected(byte[] data) {
    TiledPattern tiles = TiledPattern.of(HEAD, SHAPE, 4, TILE);
    List<MrapReads.Rec> out = new ArrayList<>();
    for (long t = 0; t < tiles.tileCount(); t++) {
      long key = tiles.bytesBeforeTile(t);
      RegionCursor c = tiles.tile(t).cursor();
      while (c.next()) {
        out.add(new MrapReads.Rec(key, Arrays.copyOfRange(data, (int) c.offset(),
            (int) (c.offset() + c.length()))));
        key += c.length();
      }
    }
    return out;
  }

  private void assertReadsAsTheOriginalATileARead(Path p) throws Exception {
    List<MrapReads.Task> tasks = MrapReads.tasks(tiled("read"), p);
    assertEquals(TILES, tasks.size(), "a split a tile");
    for (MrapReads.Task t : tasks) {
      assertEquals(1, t.reads, "a tile is one read");
    }
    assertNull(MrapReads.difference(expected(original), MrapReads.all(tasks)), p.toString());
  }

  @Test
  void aTileIsOneReadLocalToItsBlockAndReadsAsThePlainFile() throws Exception {
    Path f = restructured("/tiled/single/f", "single");
    assertReadsAsTheOriginalATileARead(f);
    // each split prefers the holders of the block its tile starts in
    Job job = Job.getInstance(tiled("hosts"));
    FileInputFormat.setInputPaths(job, f);
    FileStatus st = fs.getFileStatus(f);
    BlockLocation[] blocks = fs.getFileBlockLocations(st, 0, st.getLen());
    TiledLayout layout = (TiledLayout) RestructuredFiles.layoutOf(fs, f);
    List<InputSplit> splits = new AccessInputFormat().getSplits(job);
    for (int t = 0; t < splits.size(); t++) {
      AccessSplit s = (AccessSplit) splits.get(t);
      assertEquals(RegionTask.Layout.PACKED, s.task().layout());
      long start = layout.taskStart(t);
      BlockLocation b = Arrays.stream(blocks).filter(x -> x.getOffset() <= start
          && start < x.getOffset() + x.getLength()).findFirst().orElseThrow();
      Set<String> holders = new HashSet<>(Arrays.asList(b.getHosts()));
      assertTrue(holders.contains(s.getLocations()[0]), "tile " + t + " on "
          + Arrays.toString(s.getLocations()) + ", its block on " + holders);
    }
    assertArrayEquals(original, MrapReads.original(fs, f), "the original, through the layout");
  }

  @Test
  void theParallelCopyWritesTheSameFile() throws Exception {
    Path single = restructured("/tiled/p1/f", "single");
    Path parallel = restructured("/tiled/p2/f", "parallel");
    assertEquals(fs.getFileChecksum(single), fs.getFileChecksum(parallel));
    assertReadsAsTheOriginalATileARead(parallel);
  }

  @Test
  void movedItReadsAsBeforeAndAPlainFilePutUnderItsNameReadsAsItself() throws Exception {
    Path f = restructured("/tiled/mv/a/f", "single");
    FsShell shell = new FsShell(conf("shell"));
    assertEquals(0, ToolRunner.run(shell, new String[] {"-mkdir", "-p", "/tiled/mv/b"}));
    assertEquals(0, ToolRunner.run(shell, new String[] {"-mv", f.toString(), "/tiled/mv/b/g"}));
    assertReadsAsTheOriginalATileARead(new Path("/tiled/mv/b/g"));
    File otherFile = new File(local, "other");
    Files.write(otherFile.toPath(), other);
    assertEquals(0, ToolRunner.run(shell, new String[] {"-put", otherFile.getPath(),
        f.toString()}));
    assertNull(MrapReads.difference(expected(other), MrapReads.records(tiled("other"), f)));
  }

  @Test
  void anotherPatternIsRefusedNamingTheTilesOrReadThroughTheLayout() throws Exception {
    Path f = restructured("/tiled/other/f", "single");
    Configuration conf = conf("strided");
    conf.setLong(PatternConfig.STRIDED_START, 7);
    conf.setLong(PatternConfig.STRIDED_SIZE, 1000);
    conf.setLong(PatternConfig.STRIDED_SPACING, 3000);
    conf.setLong(PatternConfig.STRIDED_COUNT, 200);
    InvalidJobConfException e = assertThrows(InvalidJobConfException.class,
        () -> MrapReads.records(conf, f));
    assertTrue(e.getMessage().contains(f.toString()) && e.getMessage().contains("the tiles "),
        e.getMessage());
    conf.set(AccessInputFormat.RESTRUCTURED, "index");
    assertNull(MrapReads.difference(MrapReads.stridedOracle(original, 7, 1000, 3000, 200),
        MrapReads.records(conf, f)));
  }
}
