package org.opass.mrap.mapreduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapred.InvalidJobConfException;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opass.mrap.pattern.AccessPattern;
import org.opass.mrap.pattern.PatternConfig;
import org.opass.mrap.pattern.Region;
import org.opass.mrap.read.MrapCounter;
import org.opass.mrap.settings.InvalidSettingsException;
import org.opass.mrap.settings.MrapConf;

/**
 * {@link AccessInputFormat} on Hadoop's local file system, byte for byte against a naive reader
 * of the same regions: random files and random patterns of every kind, regions across block
 * boundaries, splits and joined reads of every size, offsets above 4 GiB.
 */
class AccessInputFormatTest {
  @TempDir
  File tmp;

  /** One record as read. */
  static final class Rec {
    final long key;
    final byte[] value;

    Rec(long key, byte[] value) {
      this.key = key;
      this.value = value;
    }
  }

  /** Every record of every split, splits in order, through a serialized copy of each split. */
  static List<Rec> readAll(Configuration conf, Path input, TaskCounters reporter)
      throws Exception {
    Job job = Job.getInstance(conf);
    FileInputFormat.setInputPaths(job, input);
    AccessInputFormat format = new AccessInputFormat();
    List<Rec> out = new ArrayList<>();
    for (InputSplit s : format.getSplits(job)) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      ((AccessSplit) s).write(new DataOutputStream(bytes));
      AccessSplit copy = new AccessSplit();
      copy.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
      TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(job.getConfiguration(),
          new TaskAttemptID(), reporter);
      try (RecordReader<LongWritable, BytesWritable> r = format.createRecordReader(copy, ctx)) {
        r.initialize(copy, ctx);
        while (r.nextKeyValue()) {
          out.add(new Rec(r.getCurrentKey().get(), r.getCurrentValue().copyBytes()));
        }
        assertEquals(1f, r.getProgress());
      }
    }
    return out;
  }

  /** The regions, read the plain way. */
  static List<byte[]> naive(File file, List<Region> regions) throws IOException {
    List<byte[]> out = new ArrayList<>();
    try (RandomAccessFile f = new RandomAccessFile(file, "r")) {
      for (Region r : regions) {
        byte[] b = new byte[(int) r.length()];
        f.seek(r.offset());
        f.readFully(b);
        out.add(b);
      }
    }
    return out;
  }

  private static void assertSame(List<byte[]> expected, List<Rec> got, String what) {
    assertEquals(expected.size(), got.size(), what);
    long logical = 0;
    for (int i = 0; i < got.size(); i++) {
      assertEquals(logical, got.get(i).key, what + " key of record " + i);
      assertArrayEquals(expected.get(i), got.get(i).value, what + " record " + i);
      logical += expected.get(i).length;
    }
  }

  private static Configuration conf(long blockSize) {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "file:///");
    conf.setLong("fs.local.block.size", blockSize);
    conf.setBoolean("fs.file.impl.disable.cache", true); // each case its own block size
    return conf;
  }

  @Test
  void everyKindReadsExactlyItsRegions() throws Exception {
    Random rnd = new Random(7);
    for (int c = 0; c < 120; c++) {
      int length = 1 + rnd.nextInt(300_000);
      byte[] data = new byte[length];
      rnd.nextBytes(data);
      File file = new File(tmp, "f" + c);
      Files.write(file.toPath(), data);
      Configuration conf = conf(512L << rnd.nextInt(8));
      List<Region> regions = randomPattern(rnd, length, conf);
      if (rnd.nextBoolean()) {
        conf.setLong(AccessInputFormat.SPLIT_BYTES, 1 + rnd.nextInt(100_000));
      }
      conf.setLong(AccessInputFormat.COALESCE_GAP, new long[] {0, 100, 1 << 20}[rnd.nextInt(3)]);
      boolean virtual = rnd.nextInt(3) == 0 && !"tiled".equals(conf.get(PatternConfig.KIND));
      if (virtual) {
        conf.set(AccessInputFormat.CHUNKS, "independent");
      }
      TaskCounters reporter = new TaskCounters();
      List<Rec> got = readAll(conf, new Path(file.toURI()), reporter);
      if (virtual) { // virtual splits regroup records: the keys give their order
        got.sort((x, y) -> Long.compare(x.key, y.key));
      }
      String what = "case " + c + (virtual ? " (virtual splits) " : " ") + MrapConf.pattern(conf);
      assertSame(naive(file, regions), got, what);
      long interest = regions.stream().mapToLong(Region::length).sum();
      assertEquals(interest, reporter.counters.findCounter(MrapCounter.BYTES_OF_INTEREST)
          .getValue(), what);
      long read = reporter.counters.findCounter(MrapCounter.BYTES_READ).getValue();
      assertTrue(read >= interest || regionsOverlap(regions), what);
      if (conf.getLong(AccessInputFormat.COALESCE_GAP, -1) == 0) {
        assertEquals(interest, read, "without joining, exactly the regions are read: " + what);
        assertEquals(regions.size(),
            reporter.counters.findCounter(MrapCounter.READ_CALLS).getValue(), what);
      }
    }
  }

  private static boolean regionsOverlap(List<Region> rs) {
    for (int i = 1; i < rs.size(); i++) {
      if (rs.get(i).offset() < rs.get(i - 1).end()) {
        return true;
      }
    }
    return false;
  }

  /** Sets a random pattern that fits {@code length} bytes; returns its regions in order. */
  private static List<Region> randomPattern(Random rnd, long length, Configuration conf)
      throws IOException {
    while (true) {
      Configuration c = new Configuration(false);
      switch (rnd.nextInt(4)) {
        case 0:
          c.set(PatternConfig.STRIDED_SIZE, Integer.toString(1 + rnd.nextInt(4000)));
          c.set(PatternConfig.STRIDED_SPACING, rnd.nextInt(3) + "," + rnd.nextInt(9000));
          c.set(PatternConfig.STRIDED_COUNT, (1 + rnd.nextInt(20)) + "," + (1 + rnd.nextInt(5)));
          c.set(PatternConfig.STRIDED_START, Integer.toString(rnd.nextInt(5000)));
          break;
        case 1:
          c.set(PatternConfig.KIND, "subarray");
          c.set(PatternConfig.ARRAY_SHAPE, (1 + rnd.nextInt(30)) + "," + (1 + rnd.nextInt(40)));
          c.set(PatternConfig.ARRAY_ELEMENT, Integer.toString(1 + rnd.nextInt(64)));
          c.set(PatternConfig.ARRAY_OFFSET, Integer.toString(rnd.nextInt(300)));
          c.set(PatternConfig.SUBARRAY_ORIGIN, "0," + rnd.nextInt(1));
          break;
        case 2:
          c.set(PatternConfig.KIND, "tiled");
          c.set(PatternConfig.ARRAY_SHAPE, (1 + rnd.nextInt(30)) + "," + (1 + rnd.nextInt(40)));
          c.set(PatternConfig.ARRAY_ELEMENT, Integer.toString(1 + rnd.nextInt(64)));
          c.set(PatternConfig.TILE_SHAPE, "1,1");
          c.set(PatternConfig.TILE_SHAPE, (1 + rnd.nextInt(3)) + "," + (1 + rnd.nextInt(3)));
          break;
        default: {
          StringBuilder b = new StringBuilder();
          int n = 1 + rnd.nextInt(30);
          for (int i = 0; i < n; i++) {
            long len = 1 + rnd.nextInt(5000);
            b.append(i == 0 ? "" : ",").append(Math.max(0, rnd.nextInt((int) length) - len))
                .append(':').append(len);
          }
          c.set(PatternConfig.KIND, "indexed");
          c.set(PatternConfig.INDEXED_REGIONS, b.toString());
        }
      }
      PatternConfig pc;
      try {
        pc = MrapConf.pattern(c);
      } catch (InvalidSettingsException e) {
        continue; // a random tile larger than its array, say
      }
      if (pc.end() > length) {
        continue;
      }
      for (java.util.Map.Entry<String, String> e : c) {
        conf.set(e.getKey(), e.getValue());
      }
      List<Region> out = new ArrayList<>();
      if (pc.tiles() != null) {
        for (long t = 0; t < pc.tiles().tileCount(); t++) {
          AccessPattern tile = pc.tiles().tile(t);
          out.addAll(tile.regions(0, tile.regionCount()));
        }
      } else {
        out.addAll(pc.pattern().regions(0, pc.pattern().regionCount()));
      }
      return out;
    }
  }

  @Test
  void offsetsAbove4GiBInASparseFile() throws Exception {
    File file = new File(tmp, "sparse");
    long gib = 1L << 30;
    byte[] marker = new byte[300];
    new Random(1).nextBytes(marker);
    try (RandomAccessFile f = new RandomAccessFile(file, "rw")) {
      f.setLength(6 * gib); // sparse: no disk used
      f.seek(5 * gib - 100);
      f.write(marker);
    }
    Configuration conf = conf(128L << 20);
    conf.set(PatternConfig.STRIDED_SIZE, "100");
    conf.set(PatternConfig.STRIDED_SPACING, "0");
    conf.set(PatternConfig.STRIDED_COUNT, "3");
    conf.set(PatternConfig.STRIDED_START, Long.toString(5 * gib - 100));
    List<Rec> got = readAll(conf, new Path(file.toURI()), new TaskCounters());
    assertEquals(3, got.size());
    assertArrayEquals(Arrays.copyOfRange(marker, 0, 100), got.get(0).value);
    assertArrayEquals(Arrays.copyOfRange(marker, 200, 300), got.get(2).value);
    assertEquals(200, got.get(2).key);
  }

  @Test
  void aPatternPastTheEndOfAFileFailsTheSubmissionNamingIt() throws Exception {
    File file = new File(tmp, "short");
    Files.write(file.toPath(), new byte[1000]);
    Configuration conf = conf(4096);
    conf.set(PatternConfig.STRIDED_SIZE, "100");
    conf.set(PatternConfig.STRIDED_SPACING, "0");
    conf.set(PatternConfig.STRIDED_COUNT, "11");
    InvalidJobConfException e = assertThrows(InvalidJobConfException.class,
        () -> readAll(conf, new Path(file.toURI()), new TaskCounters()));
    assertTrue(e.getMessage().startsWith("strided.region_count: =11")
        && e.getMessage().contains(file.getName()), e.getMessage());
    conf.set(AccessInputFormat.COALESCE_GAP, "lots");
    conf.set(PatternConfig.STRIDED_COUNT, "10");
    assertTrue(assertThrows(InvalidJobConfException.class,
        () -> readAll(conf, new Path(file.toURI()), new TaskCounters())).getMessage()
        .startsWith("mrap.access.coalesce.gap=lots"));
  }

  @Test
  void noInputFilesAreNoSplits() throws Exception {
    File dir = new File(tmp, "empty-dir");
    assertTrue(dir.mkdir());
    Configuration conf = conf(4096);
    conf.set(PatternConfig.STRIDED_SIZE, "1");
    conf.set(PatternConfig.STRIDED_SPACING, "0");
    conf.set(PatternConfig.STRIDED_COUNT, "1");
    assertEquals(List.of(), readAll(conf, new Path(dir.toURI()), new TaskCounters()));
  }

  @Test
  void nearbyRegionsOfOneBlockAreReadTogether() throws Exception {
    File file = new File(tmp, "joined");
    byte[] data = new byte[64 * 1024];
    new Random(3).nextBytes(data);
    Files.write(file.toPath(), data);
    Configuration conf = conf(16 * 1024); // four blocks
    conf.set(PatternConfig.STRIDED_SIZE, "100");
    conf.set(PatternConfig.STRIDED_SPACING, "924"); // a region every KiB
    conf.set(PatternConfig.STRIDED_COUNT, "64");
    conf.setLong(AccessInputFormat.SPLIT_BYTES, 1L << 20); // one split
    TaskCounters joined = new TaskCounters();
    readAll(conf, new Path(file.toURI()), joined);
    // 16 regions per block, joined within each block only
    assertEquals(4, joined.counters.findCounter(MrapCounter.READ_CALLS).getValue());
    assertEquals(4 * (15 * 1024 + 100),
        joined.counters.findCounter(MrapCounter.BYTES_READ).getValue());
    conf.setLong(AccessInputFormat.COALESCE_GAP, 900); // below the gap: one read a region
    TaskCounters apart = new TaskCounters();
    readAll(conf, new Path(file.toURI()), apart);
    assertEquals(64, apart.counters.findCounter(MrapCounter.READ_CALLS).getValue());
    assertEquals(6400, apart.counters.findCounter(MrapCounter.BYTES_READ).getValue());
  }

  /** Every record of every split, in split order, handed to {@code each} (nothing kept). */
  static void forEach(Configuration conf, Path input, java.util.function.BiConsumer<Long,
      BytesWritable> each) throws Exception {
    Job job = Job.getInstance(conf);
    FileInputFormat.setInputPaths(job, input);
    AccessInputFormat format = new AccessInputFormat();
    for (InputSplit s : format.getSplits(job)) {
      TaskAttemptContextImpl ctx = new TaskAttemptContextImpl(job.getConfiguration(),
          new TaskAttemptID(), new TaskCounters());
      try (RecordReader<LongWritable, BytesWritable> r = format.createRecordReader(s, ctx)) {
        r.initialize(s, ctx);
        while (r.nextKeyValue()) {
          each.accept(r.getCurrentKey().get(), r.getCurrentValue());
        }
      }
    }
  }

  @Test
  void aTileOfMoreThan2GiBComesBackWholeInBoundedRecords() throws Exception {
    File file = new File(tmp, "big-tile");
    long elements = (1L << 31) + 1000; // (a 4 GiB + 1000 tile came back as one 1000-byte record)
    long base = 3;
    try (RandomAccessFile f = new RandomAccessFile(file, "rw")) {
      f.setLength(base + elements + 1000); // sparse
      for (long at : new long[] {base, 1L << 30, (1L << 31) - 5, base + elements - 8}) {
        f.seek(at);
        f.writeLong(at * 0x9E3779B97F4A7C15L);
      }
    }
    Configuration conf = conf(128L << 20);
    // no checksum layer: Hadoop's checksummed local reads go 512 bytes at a time
    conf.set("fs.file.impl", org.apache.hadoop.fs.RawLocalFileSystem.class.getName());
    conf.set(PatternConfig.KIND, "tiled");
    conf.set(PatternConfig.ARRAY_SHAPE, "1," + elements);
    conf.set(PatternConfig.ARRAY_ELEMENT, "1");
    conf.set(PatternConfig.ARRAY_OFFSET, Long.toString(base));
    conf.set(PatternConfig.TILE_SHAPE, "1," + elements);
    java.util.zip.CRC32C got = new java.util.zip.CRC32C();
    long[] next = {0};
    long[] records = {0};
    forEach(conf, new Path(file.toURI()), (key, value) -> {
      assertEquals(next[0], key, "records follow each other");
      got.update(value.getBytes(), 0, value.getLength());
      next[0] += value.getLength();
      records[0]++;
    });
    assertEquals(elements, next[0], "every byte of the tile, in " + records[0] + " records");
    java.util.zip.CRC32C expected = new java.util.zip.CRC32C();
    byte[] buf = new byte[8 << 20];
    try (RandomAccessFile f = new RandomAccessFile(file, "r")) {
      f.seek(base);
      for (long left = elements; left > 0; ) {
        int n = (int) Math.min(buf.length, left);
        f.readFully(buf, 0, n);
        expected.update(buf, 0, n);
        left -= n;
      }
    }
    assertEquals(expected.getValue(), got.getValue(), "the tile's bytes");
  }

  @Test
  void emptyFilesAreSkippedAndEveryFileThePatternDoesNotFitIsNamed() throws Exception {
    File dir = new File(tmp, "with-empty");
    assertTrue(dir.mkdir());
    byte[] data = new byte[10_000];
    new Random(4).nextBytes(data);
    Files.write(new File(dir, "data").toPath(), data);
    Files.write(new File(dir, "empty").toPath(), new byte[0]);
    Configuration conf = conf(4096);
    conf.set(PatternConfig.STRIDED_SIZE, "100");
    conf.set(PatternConfig.STRIDED_SPACING, "900");
    conf.set(PatternConfig.STRIDED_COUNT, "10");
    List<Rec> got = readAll(conf, new Path(dir.toURI()), new TaskCounters());
    assertSame(naive(new File(dir, "data"),
        tenRegions().regions(0, 10)), got, "the empty file skipped");

    File onlyEmpty = new File(tmp, "only-empty");
    assertTrue(onlyEmpty.mkdir());
    Files.write(new File(onlyEmpty, "e1").toPath(), new byte[0]);
    Files.write(new File(onlyEmpty, "e2").toPath(), new byte[0]);
    String said = assertThrows(InvalidJobConfException.class,
        () -> readAll(conf, new Path(onlyEmpty.toURI()), new TaskCounters())).getMessage();
    assertTrue(said.contains("empty") && said.contains("e1") && said.contains("e2"), said);

    File shortOnes = new File(tmp, "short-ones");
    assertTrue(shortOnes.mkdir());
    Files.write(new File(shortOnes, "ok").toPath(), data);
    Files.write(new File(shortOnes, "short1").toPath(), new byte[100]);
    Files.write(new File(shortOnes, "short2").toPath(), new byte[5000]);
    said = assertThrows(InvalidJobConfException.class,
        () -> readAll(conf, new Path(shortOnes.toURI()), new TaskCounters())).getMessage();
    assertTrue(said.contains("short1") && said.contains("short2") && !said.contains("/ok"),
        said);
  }

  private static AccessPattern tenRegions() {
    return org.opass.mrap.pattern.StridedPattern.vector(0, 100, 900, 10);
  }
}
