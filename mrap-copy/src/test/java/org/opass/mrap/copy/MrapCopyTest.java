package org.opass.mrap.copy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.fs.RestructuredFiles;
import org.opass.mrap.layout.RestructuredLayout;
import org.opass.mrap.layout.SegmentCursor;
import org.opass.mrap.layout.TaskPlacer;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.RegionCursor;
import org.opass.mrap.science.Fixtures;
import org.opass.mrap.settings.MrapConf;

/** {@code mrap-copy} on Hadoop's local file system: round trips, refusals, interruptions. */
class MrapCopyTest {
  @TempDir
  File tmp;

  private static Configuration conf(long blockSize) {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.setLong("dfs.blocksize", blockSize);
    return conf;
  }

  /** Runs the tool; returns {exit code, stdout, stderr}. */
  private static Object[] run(Configuration conf, String... args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int rc = ToolRunner.run(conf, new MrapCopy(new PrintStream(out, true),
        new PrintStream(err, true)), args);
    return new Object[] {rc, out.toString(), err.toString()};
  }

  /** The layout the copy carries, or null for a plain file. */
  private static RestructuredLayout layoutOf(File data) throws IOException {
    Configuration conf = conf(4096);
    return RestructuredFiles.layoutOf(FileSystem.getLocal(conf), new Path(data.toURI()));
  }

  /** The original bytes of a restructured copy, through its layout. */
  private static byte[] logical(File copy) throws IOException {
    RestructuredLayout layout = layoutOf(copy);
    byte[] physical = Files.readAllBytes(copy.toPath());
    assertEquals(layout.physicalLength(), physical.length);
    byte[] out = new byte[(int) layout.logicalLength()];
    SegmentCursor c = layout.logical(0, layout.logicalLength());
    while (c.next()) {
      System.arraycopy(physical, (int) c.physical(), out, (int) c.logical(), (int) c.length());
    }
    return out;
  }

  private static File write(File dir, String name, byte[] data) throws IOException {
    File f = new File(dir, name);
    Files.write(f.toPath(), data);
    return f;
  }

  private void assertNoLeftovers(File dir) {
    for (String name : dir.list()) {
      assertFalse(name.contains(".mrap-copy"), "left over: " + name);
    }
  }

  @Test
  void restructuredCopiesKeepEveryByteAndPackEachTasksRegions() throws Exception {
    Random rnd = new Random(1);
    for (int c = 0; c < 40; c++) {
      byte[] data = new byte[1 + rnd.nextInt(400_000)];
      rnd.nextBytes(data);
      File src = write(tmp, "src" + c, data);
      long block = 4096L << rnd.nextInt(4);
      Configuration conf = conf(block);
      long size = 1 + rnd.nextInt(3000);
      long spacing = rnd.nextInt(8000);
      long count = Math.max(1, Math.min(50, (data.length - size) / (size + spacing) + 1));
      if (size > data.length) {
        continue;
      }
      conf.set(PatternConfig.STRIDED_SIZE, Long.toString(size));
      conf.set(PatternConfig.STRIDED_SPACING, Long.toString(spacing));
      conf.set(PatternConfig.STRIDED_COUNT, Long.toString(count));
      File dst = new File(tmp, "dst" + c);
      Object[] r = run(conf, src.getPath(), dst.getPath());
      assertEquals(0, r[0], r[2].toString());
      assertArrayEquals(data, logical(dst), "case " + c);
      // copied back out plainly: the original bytes; restructured again: the same content
      File back = new File(tmp, "back" + c);
      Configuration plain = conf(block);
      Object[] out = run(plain, dst.getPath(), back.getPath());
      assertEquals(0, out[0], out[2].toString());
      assertArrayEquals(data, Files.readAllBytes(back.toPath()), "copied back, case " + c);
      if (c % 4 == 0) {
        File again = new File(tmp, "again" + c);
        Configuration other = conf(block);
        other.set(PatternConfig.STRIDED_SIZE, Long.toString(1 + size / 2));
        other.set(PatternConfig.STRIDED_SPACING, Long.toString(spacing + size / 2));
        other.set(PatternConfig.STRIDED_COUNT, "1");
        Object[] re = run(other, dst.getPath(), again.getPath());
        assertEquals(0, re[0], re[2].toString());
        assertArrayEquals(data, logical(again), "restructured again, case " + c);
      }
      // each region where the layout says, inside its task's chunks
      RestructuredLayout layout = layoutOf(dst);
      byte[] physical = Files.readAllBytes(dst.toPath());
      AccessPattern p = MrapConf.pattern(conf).pattern();
      for (int t = 0; t < layout.tasks().tasks(); t++) {
        TaskPlacer placer = layout.placer(t);
        RegionCursor rc = layout.tasks().task(t).cursor();
        while (rc.next()) {
          long at = placer.place(rc.length());
          assertArrayEquals(Arrays.copyOfRange(data, (int) rc.offset(),
              (int) (rc.offset() + rc.length())), Arrays.copyOfRange(physical, (int) at,
              (int) (at + rc.length())));
          if (rc.length() <= block - RestructuredLayout.HEADER_BYTES) {
            assertEquals(at / block, (at + rc.length() - 1) / block, "no straddling");
          }
        }
      }
      assertNoLeftovers(tmp);
    }
  }

  @Test
  void aPlainCopyIsTheSameBytesAndSeveralSourcesGoIntoAFolder() throws Exception {
    byte[] a = "first file\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
    byte[] b = new byte[70_000];
    new Random(2).nextBytes(b);
    File fa = write(tmp, "a", a);
    File fb = write(tmp, "b", b);
    File dir = new File(tmp, "copies");
    Object[] r = run(conf(4096), fa.getPath(), fb.getPath(), dir.getPath());
    assertEquals(0, r[0], r[2].toString());
    assertArrayEquals(a, Files.readAllBytes(new File(dir, "a").toPath()));
    assertArrayEquals(b, Files.readAllBytes(new File(dir, "b").toPath()));
    assertEquals(null, layoutOf(new File(dir, "a")), "a plain copy has no layout");
    assertTrue(r[1].toString().contains("mrap-copy: "), r[1].toString());
  }

  /**
   * A key that only changes how values are read (a site's mapred-site.xml may set it) leaves
   * every plain copy plain: a file, several into a folder, a restructured file copied back out,
   * a container copied back out as its files; a key under mrap.science. that names nothing is
   * refused by name.
   */
  @Test
  void readingKeysLeaveAPlainCopyPlain() throws Exception {
    byte[] a = new byte[50_000];
    new Random(5).nextBytes(a);
    File fa = write(tmp, "a", a);
    File fb = write(tmp, "b", "second\n".getBytes(StandardCharsets.UTF_8));
    Configuration strided = conf(4096);
    strided.set(PatternConfig.STRIDED_SIZE, "100");
    strided.set(PatternConfig.STRIDED_SPACING, "900");
    strided.set(PatternConfig.STRIDED_COUNT, "20");
    File restructured = new File(tmp, "restructured");
    assertEquals(0, run(strided, fa.getPath(), restructured.getPath())[0]);
    File series = new File(tmp, "series");
    assertTrue(series.mkdir());
    List<String> members = new ArrayList<>();
    for (String f : new String[] {"run_00.nc", "run_01.nc", "run_02.nc"}) {
      members.add(write(series, f, Fixtures.bytes("series/" + f)).getPath());
    }
    Configuration slab = conf(4096);
    slab.set(PatternConfig.KIND, "netcdf");
    slab.set("mrap.science.variable", "temperature");
    slab.set("mrap.science.slab", ":, 10:30, 5:45");
    File container = new File(tmp, "series.pack");
    List<String> pack = new ArrayList<>(List.of("-pack"));
    pack.addAll(members);
    pack.add(container.getPath());
    Object[] packed = run(slab, pack.toArray(new String[0]));
    assertEquals(0, packed[0], packed[2].toString());
    String[][] copies = {{fa.getPath(), "one"}, {fa.getPath(), fb.getPath(), "folder"},
        {restructured.getPath(), "back"}, {container.getPath(), "unpacked"}};
    for (String[] copy : copies) {
      Configuration reading = conf(4096);
      reading.set("mrap.science.decode", "false");
      reading.set("mrap.access.restructured", "index");
      String[] args = copy.clone();
      args[args.length - 1] = new File(tmp, copy[copy.length - 1]).getPath();
      Object[] r = run(reading, args);
      assertEquals(0, r[0], Arrays.toString(copy) + ": " + r[2]);
    }
    assertArrayEquals(a, Files.readAllBytes(new File(tmp, "one").toPath()));
    assertArrayEquals(a, Files.readAllBytes(new File(tmp, "folder/a").toPath()));
    assertArrayEquals(a, Files.readAllBytes(new File(tmp, "back").toPath()));
    assertEquals(null, layoutOf(new File(tmp, "back")), "copied back out as it was");
    for (String f : new String[] {"run_00.nc", "run_01.nc", "run_02.nc"}) {
      assertArrayEquals(Fixtures.bytes("series/" + f),
          Files.readAllBytes(new File(tmp, "unpacked/" + f).toPath()), f);
    }
    Configuration typo = conf(4096);
    typo.set("mrap.science.varible", "temperature");
    Object[] r = run(typo, fa.getPath(), new File(tmp, "typo").getPath());
    assertEquals(2, r[0]);
    assertTrue(r[2].toString().contains("mrap.science.varible"), r[2].toString());
    assertFalse(new File(tmp, "typo").exists());
    assertNoLeftovers(tmp);
  }

  @Test
  void mistakesAreNamedWithExitCode2AndNothingIsWritten() throws Exception {
    File src = write(tmp, "src", new byte[10_000]);
    File dst = new File(tmp, "dst");
    String[][] cases = {
        {"-pattern"}, {"-frobnicate", src.getPath(), dst.getPath()}, {src.getPath()},
        {new File(tmp, "nope").getPath(), dst.getPath()},
        {"-task-bytes", "lots", src.getPath(), dst.getPath()},
        {"-pattern", new File(tmp, "no-pattern.xml").getPath(), src.getPath(), dst.getPath()},
        {"-mode", "fast", src.getPath(), dst.getPath()},
        {"-mode", "parallel", src.getPath(), dst.getPath()}};
    String[] named = {"-pattern needs a value", "unknown option '-frobnicate'",
        "name at least one source", "no such source", "-task-bytes 'lots'",
        "-pattern " + new File(tmp, "no-pattern.xml").getPath() + ": no such file",
        "-mode fast: give auto, single or parallel", "copy into hdfs://, or use -mode single"};
    for (int i = 0; i < cases.length; i++) {
      Object[] r = run(conf(4096), cases[i]);
      assertEquals(2, r[0], Arrays.toString(cases[i]));
      assertTrue(r[2].toString().contains(named[i]), r[2].toString());
    }
    Configuration bad = conf(4096);
    bad.set(PatternConfig.STRIDED_SIZE, "32");
    bad.set(PatternConfig.STRIDED_SPACING, "-4");
    bad.set(PatternConfig.STRIDED_COUNT, "3");
    Object[] r = run(bad, src.getPath(), dst.getPath());
    assertEquals(2, r[0]);
    assertTrue(r[2].toString().contains("strided.region_spacing"), r[2].toString());
    Configuration past = conf(4096);
    past.set(PatternConfig.STRIDED_SIZE, "1000");
    past.set(PatternConfig.STRIDED_SPACING, "1000");
    past.set(PatternConfig.STRIDED_COUNT, "6"); // ends at 11,000 of 10,000
    r = run(past, src.getPath(), dst.getPath());
    assertEquals(2, r[0]);
    assertTrue(r[2].toString().contains("strided.region_count: =6"), r[2].toString());
    Configuration tiled = conf(4096);
    tiled.set(PatternConfig.KIND, "tiled");
    tiled.set(PatternConfig.ARRAY_SHAPE, "100,100"); // 80,000 bytes of a 10,000-byte file
    tiled.set(PatternConfig.ARRAY_ELEMENT, "8");
    tiled.set(PatternConfig.TILE_SHAPE, "5,5");
    r = run(tiled, src.getPath(), dst.getPath());
    assertEquals(2, r[0]);
    assertTrue(r[2].toString().contains(PatternConfig.ARRAY_SHAPE), r[2].toString());
    tiled.set(PatternConfig.ARRAY_SHAPE, "10,10");
    r = run(tiled, "-task-bytes", "1m", src.getPath(), dst.getPath());
    assertEquals(2, r[0]);
    assertTrue(r[2].toString().contains("-task-bytes does not apply to tiles"), r[2].toString());
    assertFalse(dst.exists());
    assertNoLeftovers(tmp);
    File exists = write(tmp, "exists", new byte[1]);
    r = run(conf(4096), src.getPath(), exists.getPath());
    assertEquals(2, r[0]);
    assertTrue(r[2].toString().contains("exists: remove it"), r[2].toString());
    assertEquals(0, run(conf(4096), "-overwrite", src.getPath(), exists.getPath())[0]);
    assertEquals(10_000, exists.length());
  }

  @Test
  void aCopyStoppedHalfWayLeavesNoDestinationAndARerunSucceeds() throws Exception {
    byte[] data = new byte[3 << 20];
    new Random(3).nextBytes(data);
    File src = write(tmp, "big", data);
    File dst = new File(tmp, "big-copy");
    Configuration conf = conf(1 << 20);
    conf.set(PatternConfig.STRIDED_SIZE, "4k");
    conf.set(PatternConfig.STRIDED_SPACING, "12k");
    conf.set(PatternConfig.STRIDED_COUNT, "150");
    CopyOptions options = CopyOptions.builder().pattern(MrapConf.pattern(conf)).build();
    // stopped by an interrupt after the first megabyte
    Thread self = Thread.currentThread();
    assertThrows(IOException.class, () -> RestructuringCopy.copy(conf, new Path(src.toURI()),
        new Path(dst.toURI()), options, (bytes, total) -> {
          if (bytes >= 1 << 20) {
            self.interrupt();
          }
        }));
    Thread.interrupted();
    assertFalse(dst.exists());
    assertNoLeftovers(tmp);
    // killed outright: its temporary files stay behind, and the next copy clears them
    File work = new File(tmp, ".big-copy.mrap-copy");
    File parts = new File(work, "dead.parts");
    assertTrue(parts.mkdirs());
    Files.write(new File(work, "dead").toPath(), new byte[100]);
    Files.write(new File(parts, "part-00000000").toPath(), new byte[100]);
    RestructuringCopy.copy(conf, new Path(src.toURI()), new Path(dst.toURI()), options, null);
    assertArrayEquals(data, logical(dst));
    assertNoLeftovers(tmp);
  }

  @Test
  void aCopyThatFailsRemovesTheFoldersItMade() throws Exception {
    byte[] data = new byte[3 << 20];
    new Random(4).nextBytes(data);
    File src = write(tmp, "source", data);
    File dst = new File(tmp, "new/deeper/copy");
    Thread self = Thread.currentThread();
    assertThrows(IOException.class, () -> RestructuringCopy.copy(conf(1 << 20),
        new Path(src.toURI()), new Path(dst.toURI()), CopyOptions.builder().build(),
        (bytes, total) -> {
          if (bytes >= 1 << 20) {
            self.interrupt(); // stopped half-way, after it made new/deeper
          }
        }));
    Thread.interrupted();
    assertFalse(new File(tmp, "new").exists(), "the folders it made are gone");
  }
}
