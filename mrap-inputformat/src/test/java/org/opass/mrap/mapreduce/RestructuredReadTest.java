package org.opass.mrap.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.layout.PackedLayout;
import org.opass.mrap.layout.PackedLayoutTest;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.Region;
import org.opass.mrap.pattern.StridedPattern;
import org.opass.mrap.read.MrapCounter;

/**
 * Restructured files (built here as MRAP's copy will build them: the layout planned, the bytes
 * moved, the layout stored next to them) read by {@link AccessInputFormat}: contiguously with
 * the stored pattern, refused with another, or read through the index when asked.
 */
class RestructuredReadTest {
  @TempDir
  File tmp;

  /** Writes {@code original} restructured by {@code layout} as {@code name}. */
  static File writeRestructured(File dir, String name, byte[] original,
      RestructuredLayout layout) throws Exception {
    File file = new File(dir, name);
    Files.write(file.toPath(), PackedLayoutTest.restructure(original, layout));
    return file;
  }

  private static Configuration conf(long blockSize, StridedPattern p) {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "file:///");
    conf.setLong("fs.local.block.size", blockSize);
    conf.setBoolean("fs.file.impl.disable.cache", true);
    conf.set(PatternConfig.STRIDED_SIZE, Long.toString(p.size()));
    conf.set(PatternConfig.STRIDED_SPACING, Long.toString(p.spacing(0)));
    conf.set(PatternConfig.STRIDED_COUNT, Long.toString(p.count(0)));
    conf.set(PatternConfig.STRIDED_START, Long.toString(p.start()));
    return conf;
  }

  private static List<byte[]> expected(byte[] original, AccessPattern p) {
    List<byte[]> out = new ArrayList<>();
    for (Region r : p.regions(0, p.regionCount())) {
      out.add(Arrays.copyOfRange(original, (int) r.offset(), (int) r.end()));
    }
    return out;
  }

  private static void assertRecords(List<byte[]> expected, List<AccessInputFormatTest.Rec> got) {
    got.sort((x, y) -> Long.compare(x.key, y.key));
    assertEquals(expected.size(), got.size());
    long key = 0;
    for (int i = 0; i < got.size(); i++) {
      assertEquals(key, got.get(i).key);
      assertArrayEquals(expected.get(i), got.get(i).value, "record " + i);
      key += expected.get(i).length;
    }
  }

  @Test
  void theStoredPatternReadsEachTasksChunksContiguously() throws Exception {
    Random rnd = new Random(2);
    byte[] original = new byte[512 * 1024];
    rnd.nextBytes(original);
    StridedPattern p = StridedPattern.vector(100, 1000, 4000, 100); // a fifth of the file
    long chunk = 32 * 1024;
    PackedLayout layout = PackedLayout.plan(p, chunk, original.length, 1);
    File file = writeRestructured(tmp, "particles", original, layout);
    Configuration conf = conf(chunk, p);
    TaskCounters reporter = new TaskCounters();
    List<AccessInputFormatTest.Rec> got = AccessInputFormatTest.readAll(conf,
        new Path(file.toURI()), reporter);
    assertRecords(expected(original, p), got);
    // 100 regions of 1000 bytes, 32 per chunk: 4 tasks of a chunk, each read at once
    assertEquals(4, layout.tasks().tasks());
    long calls = reporter.counters.findCounter(MrapCounter.READ_CALLS).getValue();
    assertEquals(layout.tasks().tasks(), calls, "one read per chunk of each task");
    assertEquals(100_000, reporter.counters.findCounter(MrapCounter.BYTES_READ).getValue(),
        "nothing but the regions");

    // the same regions from the original file: joined reads bring the gaps along (about 4x
    // the bytes), and without joining it is a read a region
    File plain = new File(tmp, "plain");
    Files.write(plain.toPath(), original);
    TaskCounters joined = new TaskCounters();
    AccessInputFormatTest.readAll(conf, new Path(plain.toURI()), joined);
    assertTrue(joined.counters.findCounter(MrapCounter.BYTES_READ).getValue() > 350_000);
    conf.setLong(AccessInputFormat.COALESCE_GAP, 0);
    TaskCounters apart = new TaskCounters();
    AccessInputFormatTest.readAll(conf, new Path(plain.toURI()), apart);
    assertEquals(100, apart.counters.findCounter(MrapCounter.READ_CALLS).getValue());
  }

  @Test
  void anotherPatternIsRefusedNamingBothOrReadThroughTheIndex() throws Exception {
    Random rnd = new Random(4);
    byte[] original = new byte[300_000];
    rnd.nextBytes(original);
    StridedPattern stored = StridedPattern.vector(0, 500, 2500, 90);
    PackedLayout layout = PackedLayout.plan(stored, 8192, original.length, 2);
    File file = writeRestructured(tmp, "f", original, layout);
    StridedPattern other = StridedPattern.vector(777, 3000, 10_000, 23);
    Configuration conf = conf(8192, other);
    InvalidJobConfException e = assertThrows(InvalidJobConfException.class,
        () -> AccessInputFormatTest.readAll(conf, new Path(file.toURI()),
            new TaskCounters()));
    assertTrue(e.getMessage().contains(stored.toString()) && e.getMessage().contains(
        other.toString()) && e.getMessage().contains("mrap.access.restructured=index"),
        e.getMessage());
    conf.set(AccessInputFormat.RESTRUCTURED, "index");
    assertRecords(expected(original, other), AccessInputFormatTest.readAll(conf,
        new Path(file.toURI()), new TaskCounters()));
    conf.set(AccessInputFormat.RESTRUCTURED, "sometimes");
    assertTrue(assertThrows(InvalidJobConfException.class,
        () -> AccessInputFormatTest.readAll(conf, new Path(file.toURI()),
            new TaskCounters())).getMessage()
        .startsWith("mrap.access.restructured=sometimes"));
  }
}
